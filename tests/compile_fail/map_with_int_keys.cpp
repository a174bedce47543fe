// expect: mcp: field 'counts' of args has a type the SDK cannot map to JSON.*std::map<std::string, T>
// JSON object keys are strings.
#include <mcp/schema/reflect.hpp>

#include <map>

namespace app {
struct args {
  std::map<int, int> counts;
};
MCP_STRUCT(args, (counts, "Counts"));
}  // namespace app
