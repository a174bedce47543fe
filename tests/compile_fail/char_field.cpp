// expect: mcp: field type not supported
// A plain char is refused rather than guessed to be a number or a one-letter string.
#include <mcp/schema/reflect.hpp>

namespace app {
struct args {
  char initial;
};
MCP_STRUCT(args, (initial, "Initial"));
}  // namespace app
