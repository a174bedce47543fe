// A ten-line server, built against the SDK the way a user's project would, and driven in memory.
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <iostream>

struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

int main() {
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
  std::cout << "mcp " << mcp::sdk_version << " speaks " << mcp::latest_protocol_version << "\n";
  return 0;
}
