// expect: mcp: a field is written \(member, "description", constraints...\)
#include <mcp/schema/reflect.hpp>

#include <string>

namespace app {
struct args {
  std::string name;
};
MCP_STRUCT(args, (name, mcp::min_length(1)));
}  // namespace app
