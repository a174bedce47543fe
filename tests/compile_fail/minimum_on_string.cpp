// expect: mcp::minimum applies to numbers. use mcp::min_length/max_length for strings
#include <mcp/schema/reflect.hpp>

#include <string>

namespace app {
struct args {
  std::string name;
};
MCP_STRUCT(args, (name, "Name", mcp::minimum(1)));
}  // namespace app
