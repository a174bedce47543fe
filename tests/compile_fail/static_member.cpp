// expect: mcp: MCP_STRUCT lists non-static data members only
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  static int shared;
  int count;
};
MCP_STRUCT(args, (count, "Count"), (shared, "Shared"));
}  // namespace app
