// The stdio transport's line reader: mcp::serve_stream over a socketpair fed the input, with a small
// max_message_bytes so that the too-long-line path is reached. Oracles: serve_stream returns 0 at
// end of input; every line it writes is one JSON-RPC object; the output is never cut mid-line.
#include <mcp/tools/tool.hpp>
#include <mcp/transport/stdio.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

namespace {

mcp::server& the_server() {
  static mcp::server* srv = [] {
    mcp::server_options options;
    options.log_sink = [](std::string_view) {};
    auto* s = new mcp::server({"fuzz-stdio", "1.0"}, options);
    s->tool("echo", "Echoes its arguments", mcp::runtime_schema{{{"type", "object"}}, nullptr},
            [](const mcp::json& args) { return args.dump(-1, ' ', false, mcp::json::error_handler_t::replace); });
    return s;
  }();
  return *srv;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

[[noreturn]] void bad(const char* why, const std::string& line) {
  std::fprintf(stderr, "%s: %.300s\n", why, line.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  int in[2], out[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, in) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, out) != 0) std::abort();
  mcp::stdio_options options;
  options.workers = 1;
  options.max_message_bytes = 200;
  options.shutdown_grace = std::chrono::seconds(5);

  int rc = -1;
  std::thread server([&] {
    rc = mcp::serve_stream(the_server(), in[0], out[0], options);
    ::shutdown(out[0], SHUT_WR);
  });
  // The input goes in from its own thread: the server may block writing replies until they are read.
  std::thread feeder([&] {
    write_all(in[1], std::string_view(reinterpret_cast<const char*>(data), size));
    ::shutdown(in[1], SHUT_WR);
  });

  std::string output;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(out[1], chunk, sizeof chunk);
    if (n <= 0) break;
    output.append(chunk, static_cast<std::size_t>(n));
  }
  feeder.join();
  server.join();
  for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);

  if (rc != 0) bad("serve_stream did not return 0", output);
  if (!output.empty() && output.back() != '\n') bad("output does not end in a newline", output);
  std::string_view rest = output;
  while (!rest.empty()) {
    auto nl = rest.find('\n');
    std::string line(rest.substr(0, nl));
    rest.remove_prefix(nl + 1);
    auto m = mcp::json::parse(line, nullptr, false);
    if (m.is_discarded() || !m.is_object() || m.value("jsonrpc", "") != "2.0") bad("not a JSON-RPC line", line);
    if (!m.contains("method") && m.contains("result") == m.contains("error")) bad("malformed response", line);
  }
  return 0;
}
