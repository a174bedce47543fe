// A ten-line server, built against the SDK the way a user's project would, and driven in memory.
// It also uses a name asio deprecates, as a user's own older code may: linking mcp::mcp (or the
// pkg-config flags) must not take it away.
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <asio.hpp>

#include <iostream>

struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

int main() {
  asio::io_service users_own_loop;  // deprecated spelling of io_context, gone under ASIO_NO_DEPRECATED
  users_own_loop.poll();
#ifdef MCP_PACKAGE_VERSION  // the version the package manager saw must be the headers' version
  if (mcp::sdk_version != MCP_PACKAGE_VERSION) {
    std::cerr << "package says " << MCP_PACKAGE_VERSION << ", headers say " << mcp::sdk_version << "\n";
    return 1;
  }
#endif
  mcp::server_info info;
  info.name = "consumer";
  info.version = "1.0";
  mcp::server srv(info);
  srv.tool("add", "Adds two integers.", [](const add_args& in) { return std::to_string(in.a + in.b); });

  mcp::testing::client client(srv);
  client.initialize();
  mcp::json result = client.call_tool("add", {{"a", 2}, {"b", 40}});
  if (result["content"][0]["text"] != "42") return 1;
  if (client.call_tool("add", {{"a", "x"}}).value("isError", false) != true) return 1;
#ifdef MCP_SEPARATE_COMPILATION
  const char* mode = "compiled";  // the server's code came from the library (mcp::compiled)
#else
  const char* mode = "header-only";
#endif
  std::cout << "mcp " << mcp::sdk_version << " speaks " << mcp::latest_protocol_version << " (" << mode << ")\n";
  return 0;
}
