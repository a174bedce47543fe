// expect: mcp: after the description a field takes only mcp:: constraints
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  int count;
};
MCP_STRUCT(args, (count, "Count", 5));
}  // namespace app
