// expect: mcp: field .created. of event has a type the SDK cannot map to JSON: give the type a mapping
// A field of a type of the user's own: the message names the struct, the field and the way to map it.
#include <mcp/schema/reflect.hpp>

namespace app {
struct uuid {
  unsigned char bytes[16];
};
MCP_STRUCT_DEF(event, (std::string, title, "Title"), (uuid, created, "Who made it"));
}  // namespace app
