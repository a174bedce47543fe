// expect: mcp: MCP_STRUCT_DEF.note_args. must be used at namespace scope, outside any function
// both compilers
// MCP_STRUCT_DEF defines functions beside the struct (found by argument-dependent lookup), which a
// function body cannot hold: before this check, 70 lines of "a function-definition is not allowed".
#include <mcp/mcp.hpp>

int main() {
  MCP_STRUCT_DEF(note_args, (std::string, title, "Note title"));
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("read_note", "Reads a note.", [](const note_args& in) -> std::string { return in.title; });
}
