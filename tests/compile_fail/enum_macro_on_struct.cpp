// expect: mcp: MCP_ENUM needs an enum type
#include <mcp/schema/reflect.hpp>

namespace app {
struct flags {
  static constexpr int a = 1;
};
MCP_ENUM(flags, (a, "a"));
}  // namespace app
