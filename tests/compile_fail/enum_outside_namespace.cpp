// expect: mcp: MCP_ENUM.app::color. must be written in the namespace that declares app::color
#include <mcp/schema/reflect.hpp>

namespace app {
enum class color { red, green };
}  // namespace app
MCP_ENUM(app::color, (red, "red"), (green, "green"));
