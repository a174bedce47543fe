// expect: mcp: MCP_STRUCT.app_args.: field 'x' has the same JSON name as another field of app_args
// errors: 1
// A member renamed to "x" beside a member named x: two properties of one name, refused at compile time.
#include <mcp/schema/reflect.hpp>

MCP_STRUCT_DEF(app_args,
  (bool, dry_run, "Only check", mcp::default_value(false), mcp::json_name("x")),
  (int, x, "The x"));
