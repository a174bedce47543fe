// expect:
// Control case of tool_without_tool_header: the check must not refuse a file that includes the tools'
// header, even after the call (templates are instantiated at the end of the file).
#include <mcp/core/server.hpp>
#include <mcp/schema/reflect.hpp>

struct note_args {
  std::string title;
};
MCP_STRUCT(note_args, (title, "Note title"));

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("read_note", "Reads a note.", [](const note_args& in) -> std::string { return in.title; });
  srv.tool("echo", "Echoes.", mcp::runtime_schema{{{"type", "object"}}},
           [](const mcp::json& arguments) { return arguments.dump(); });
}

#include <mcp/tools/tool.hpp>
