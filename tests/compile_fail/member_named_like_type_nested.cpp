// expect: mcp: MCP_STRUCT_DEF.note.: the member 'visibility' is named like its type
// The type's name inside another type (std::optional<visibility>) hides it just the same.
#include <mcp/schema/reflect.hpp>

enum class visibility { private_, team };
MCP_ENUM(visibility, (private_, "private"), (team, "team"));

MCP_STRUCT_DEF(note, (std::optional<visibility>, visibility, "Who can see the note"));
