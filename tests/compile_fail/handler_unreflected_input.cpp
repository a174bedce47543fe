// expect: the argument type of a tool handler must be a struct declared with MCP_STRUCT
#include <mcp/tools/tool.hpp>

int main() {
  mcp::server srv({"s", "1"});
  srv.tool("t", "d", [](int) { return std::string(); });
}
