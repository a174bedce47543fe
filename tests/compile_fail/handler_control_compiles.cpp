// expect:
// Every accepted handler shape compiles (control case for the handler_* cases).
#include <mcp/core/elicitation.hpp>
#include <mcp/tools/tool.hpp>

#include <vector>

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
  // What tool_error's failing conversion must leave alone: errors derived from it go into a result
  // as errors, and results of every kind of value still take a tool_error.
  srv.tool("t5", "d", [](const app::args& in) -> mcp::result<std::string> {
    if (in.a == 1) return mcp::elicitation_error("x");
    if (in.a == 2) return mcp::result<std::string>(mcp::tool_error("y"));
    if (in.a == 3) return {mcp::tool_error("z")};
    return std::string("ok");
  });
  srv.tool("t6", "d", [](const app::args& in) -> mcp::result<mcp::tool_result> {
    if (in.a) return mcp::tool_error("x");
    return mcp::tool_result{};
  });
  srv.tool("t7", "d", [](const app::args& in) -> mcp::result<std::vector<int>> {
    if (in.a) return mcp::tool_error("x");
    return std::vector<int>{1, 2};
  });
  srv.tool("t8", "d", [] { return 42; });
  srv.tool("t9", "d", [] { return mcp::json{{"a", 1}}; });
  srv.tool("t10", "d", [](const app::args&) -> mcp::tool_error { return mcp::tool_error("always"); });
  static_assert(std::is_constructible_v<mcp::result<std::string>, mcp::elicitation_error>);
}
