// expect: mcp: srv.tool\(...\) is defined in <mcp/tools/tool.hpp>: #include <mcp/mcp.hpp> \(or <mcp/tools/tool.hpp>\)
// errors: 1
// both compilers
// The same in compiled mode (mcp::compiled), and for the runtime-schema overload: a link error
// there before, naming no header.
#define MCP_SEPARATE_COMPILATION
#include <mcp/core/server.hpp>

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("echo", "Echoes.", mcp::runtime_schema{{{"type", "object"}}},
           [](const mcp::json& arguments) { return arguments.dump(); });
}
