// A stdio server for the tests of stopping one (unit/test_stdio_stop.cpp), served by serve_stdio as
// a host would start it: `hold` runs until a file named after its argument appears in the folder
// given with --dir (the test makes it), and never looks at ctx.cancelled(); it says on stderr when
// it starts, so that a test waits for that rather than for time to pass.
//   hold_server --dir DIR [--grace-ms N] [--no-signals] [--on-pool]
#include <mcp/mcp.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

MCP_STRUCT_DEF(hold_args, (std::string, name, "Name of the file whose appearance ends the call"));

int main(int argc, char** argv) {
  std::string dir;
  mcp::stdio_options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (arg == "--grace-ms" && i + 1 < argc) {
      options.shutdown_grace = std::chrono::milliseconds(std::stoll(argv[++i]));
    } else if (arg == "--no-signals") {
      options.catch_signals = false;
    } else if (arg == "--on-pool") {
      options.inline_budget = std::chrono::microseconds(0);  // no call on the reading thread
    } else {
      std::fprintf(stderr, "hold_server: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: hold_server --dir DIR [--grace-ms N] [--no-signals] [--on-pool]\n");
    return 2;
  }
  mcp::server srv({"hold", "1.0"});
  srv.tool("hold", "Runs until a file of the given name appears", [dir](const hold_args& in) -> std::string {
    std::fprintf(stderr, "hold %s started\n", in.name.c_str());
    const std::string path = dir + "/" + in.name;
    while (!std::ifstream(path)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return "released " + in.name;
  });
  return mcp::serve_stdio(srv, options);
}
