// expect: mcp: MCP_STRUCT.note_args. must be used at namespace scope, outside any function
// both compilers
// The same for MCP_STRUCT on a struct declared in the function.
#include <mcp/schema/reflect.hpp>

int main() {
  struct note_args {
    std::string title;
  };
  MCP_STRUCT(note_args, (title, "Note title"));
}
