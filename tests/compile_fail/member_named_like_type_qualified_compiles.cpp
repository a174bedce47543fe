// expect:
// Control case of member_named_like_type: a qualified or elaborated type name still names the type
// inside the struct, so these compile and the check must not refuse them; nor a name that only
// contains the member's (visibility_level).
#include <mcp/schema/reflect.hpp>

namespace app {
enum class visibility { private_, team };
MCP_ENUM(visibility, (private_, "private"), (team, "team"));
using visibility_level = visibility;
}  // namespace app
using app::visibility;

MCP_STRUCT_DEF(note,
  (::visibility, visibility, "Who can see the note"),
  (std::optional<app::visibility>, visibility_level, "The same, optional"),
  (enum visibility, shown_to, "The same again"),
  (app::visibility_level, level, "An alias"));

MCP_STRUCT_DEF(other, (app::visibility_level, visibility, "Only the name of the alias shares a part"));

int main() { return mcp::encode(note{}).size() == 3 ? 0 : 1; }
