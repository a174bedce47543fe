// expect: mcp::pattern applies to strings
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  double ratio;
};
MCP_STRUCT(args, (ratio, "Ratio", mcp::pattern("^[0-9]+$")));
}  // namespace app
