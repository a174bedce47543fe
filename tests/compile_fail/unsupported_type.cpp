// expect: mcp: field 'values' of args has a type the SDK cannot map to JSON
// A std::list field: not one of the mapped containers.
#include <mcp/schema/reflect.hpp>

#include <list>

namespace app {
struct args {
  std::list<int> values;
};
MCP_STRUCT(args, (values, "Values"));
}  // namespace app
