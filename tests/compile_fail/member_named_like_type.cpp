// expect: mcp: MCP_STRUCT_DEF.note.: the member 'visibility' is named like its type, .*rename the member .*mcp::json_name.
// both compilers
// The member would hide its type inside the struct: before this check, 151 lines that never named
// mcp::json_name, the way to keep "visibility" as the JSON name.
#include <mcp/schema/reflect.hpp>

enum class visibility { private_, team };
MCP_ENUM(visibility, (private_, "private"), (team, "team"));

MCP_STRUCT_DEF(note,
  (std::string, title, "Note title"),
  (visibility, visibility, "Who can see the note", mcp::default_value(visibility::team)));
