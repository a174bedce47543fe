// expect:
// Every accepted handler shape compiles (control case for the handler_* cases).
#include <mcp/tools/tool.hpp>

namespace app {
struct args {
  int a = 0;
};
MCP_STRUCT(args, (a, "A"));
struct out {
  int b = 0;
};
MCP_STRUCT(out, (b, "B"));
}  // namespace app

int main() {
  mcp::server srv({"s", "1"});
  srv.tool("t0", "d", [] { return std::string(); });
  srv.tool("t1", "d", [](mcp::context&) { return mcp::tool_result{}; });
  srv.tool("t2", "d", [](const app::args& in) { return app::out{in.a}; });
  srv.tool("t3", "d", [](const app::args&, mcp::context&) -> mcp::result<app::out> { return mcp::tool_error("x"); });
  srv.tool("t4", "d", [](app::args in) -> mcp::result<std::string> { return std::to_string(in.a); });
}
