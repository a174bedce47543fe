// expect: a tool handler must return something
#include <mcp/tools/tool.hpp>

namespace app {
struct args {
  int a = 0;
};
MCP_STRUCT(args, (a, "A"));
}  // namespace app

int main() {
  mcp::server srv({"s", "1"});
  srv.tool("t", "d", [](const app::args&) {});
}
