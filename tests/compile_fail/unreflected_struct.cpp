// expect: mcp: field 'path' of args has a type the SDK cannot map to JSON.*declare it with MCP_STRUCT
// A nested struct that has no MCP_STRUCT of its own.
#include <mcp/schema/reflect.hpp>

#include <vector>

namespace app {
struct point {
  double x, y;
};
struct args {
  std::vector<point> path;
};
MCP_STRUCT(args, (path, "Points"));
}  // namespace app
