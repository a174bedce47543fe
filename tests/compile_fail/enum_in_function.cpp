// expect: mcp: MCP_ENUM.color. must be used at namespace scope, outside any function
// both compilers
// The same for MCP_ENUM, here in a lambda (a function too).
#include <mcp/schema/reflect.hpp>

auto declare = [] {
  enum class color { red, green };
  MCP_ENUM(color, (red, "red"), (green, "green"));
};
