// expect: mcp: field type not supported.*std::map<std::string, T>
// JSON object keys are strings.
#include <mcp/schema/reflect.hpp>

#include <map>

namespace app {
struct args {
  std::map<int, int> counts;
};
MCP_STRUCT(args, (counts, "Counts"));
}  // namespace app
