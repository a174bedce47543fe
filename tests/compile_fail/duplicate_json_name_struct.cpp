// expect: mcp: MCP_STRUCT.point.: field 'y' has the same JSON name as another field of point
// errors: 1
// The older form too: y renamed to "x", the name of x (escapes and json_name in a description do not confuse the check).
#include <mcp/schema/reflect.hpp>

struct point {
  double x = 0, y = 0, z = 0;
};
MCP_STRUCT(point, (x, "Abscissa, not \"json_name(\\\"z\\\")\""), (y, R"d(Ordinate "json_name("z")")d", mcp::json_name("x")),
           (z, "Height"));
