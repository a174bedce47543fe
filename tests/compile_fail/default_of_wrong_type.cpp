// expect: mcp::default_value: the value must be convertible to the field's type
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  int count;
};
MCP_STRUCT(args, (count, "Count", mcp::default_value("ten")));
}  // namespace app
