// expect: mcp: field type is an enum without MCP_ENUM. declare it with MCP_ENUM
#include <mcp/schema/reflect.hpp>

#include <optional>

namespace app {
enum class mode { fast, slow };
struct args {
  std::optional<mode> how;
};
MCP_STRUCT(args, (how, "Speed"));
}  // namespace app
