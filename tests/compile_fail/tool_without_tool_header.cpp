// expect: mcp: srv.tool\(...\) is defined in <mcp/tools/tool.hpp>: #include <mcp/mcp.hpp> \(or <mcp/tools/tool.hpp>\)
// errors: 1
// both compilers
// Only the server's header: server::tool's body is in tools/tool.hpp. Without this check the call
// was "used but never defined" (a local lambda) or a link error that names no header.
#include <mcp/core/server.hpp>
#include <mcp/schema/reflect.hpp>

struct note_args {
  std::string title;
};
MCP_STRUCT(note_args, (title, "Note title"));

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("read_note", "Reads a note.", [](const note_args& in) -> std::string { return in.title; });
}
