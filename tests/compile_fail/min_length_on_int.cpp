// expect: mcp::min_length applies to strings. use mcp::minimum for numbers
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  int count;
};
MCP_STRUCT(args, (count, "Count", mcp::min_length(1)));
}  // namespace app
