// The compile table's ten-line typed server (tests/bench/compile_time.sh): what a user writes first.
#include <mcp/mcp.hpp>

struct add_args { int a; int b; };
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

int main() {
  mcp::server server({"calc", "1.0.0"});
  server.tool("add", "Adds two integers", [](const add_args& x) { return x.a + x.b; });
  return mcp::serve_stdio(server);
}
