// expect:
// The control case of the elicit_* cases: every field kind a form carries compiles.
#include <mcp/ext/elicitation.hpp>  // ctx.elicit<T>: typed forms live in the extension

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace app {
enum class color { red, green };
MCP_ENUM(color, (red, "red", "Red"), (green, "green", "Green"));

MCP_STRUCT_DEF(form, (std::string, name, "Name", mcp::min_length(1)), (int, age, "Age", mcp::minimum(0)),
               (double, score, "Score"), (bool, ok, "OK", mcp::default_value(true)), (color, favourite, "Colour"),
               (std::set<color>, colors, "Colours"), (std::vector<color>, ordered, "In order"),
               (std::optional<std::string>, note, "Note"));

mcp::elicit_result<form> ask(mcp::context& ctx) { return ctx.elicit<form>("Tell me"); }
}  // namespace app
