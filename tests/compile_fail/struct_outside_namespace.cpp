// expect: mcp: MCP_STRUCT.app::args. must be written in the namespace that declares app::args
// MCP_STRUCT at global scope for a type of namespace app: the SDK's lookup would never find it.
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  int count = 0;
};
}  // namespace app
MCP_STRUCT(app::args, (count, "How many"));
