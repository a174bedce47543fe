// expect: mcp::min_items applies to arrays
#include <mcp/schema/reflect.hpp>

#include <string>

namespace app {
struct args {
  std::string name;
};
MCP_STRUCT(args, (name, "Name", mcp::min_items(1)));
}  // namespace app
