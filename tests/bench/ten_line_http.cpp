// The ten-line typed server (ten_line.cpp) over HTTP: a file that only starts a listener. In
// compiled mode it parses no asio header (ctest listener_parses_no_asio).
#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

struct add_args { int a; int b; };
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

int main() {
  mcp::server server({"calc", "1.0.0"});
  server.tool("add", "Adds two integers", [](const add_args& x) { return x.a + x.b; });
  return mcp::http::serve(server, {});
}
