// expect:
// Control case: correct use must compile, so that the failures above are failures for their reason.
#include <mcp/schema/schema.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace app {
enum class mode { fast, slow };
MCP_ENUM(mode, (fast, "fast"), (slow, "slow"));
struct point {
  double x, y;
};
MCP_STRUCT(point, (x, "X"), (y, "Y"));
class args {
  MCP_STRUCT_FRIEND(args);
  std::string name;
  int count = 1;
  std::optional<mode> how;
  std::vector<point> path;
  std::map<std::string, int> counts;
};
MCP_STRUCT(args, (name, "Name", mcp::min_length(1), mcp::pattern("^a")), (count, "Count", mcp::minimum(0)),
           (how, "Speed", mcp::default_value(mode::fast)), (path, "Points", mcp::max_items(3)), (counts));
// JSON names: the compile-time check of duplicates reads json_name("...") in the code, never in
// a description or a raw string, and leaves a name given by a variable to the check at first use.
constexpr const char* chosen = "c2";
MCP_STRUCT_DEF(tricky,
  (int, a, "Mentions json_name(\"b\") in text", mcp::json_name("aa")),
  (int, b, R"x(json_name("aa") in a raw string)x"),
  (int, c, "Named by a variable", mcp::json_name(chosen)));
}  // namespace app

int main() { return mcp::schema_of<app::args>().is_object() && mcp::schema_of<app::tricky>().is_object() ? 0 : 1; }
