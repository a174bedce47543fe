// expect: mcp: ctx.elicit<tags_form>\(\): field 'tags' cannot be asked in a form
// A multi-select field picks among an MCP_ENUM's values: free-form arrays of strings are not a form field.
#include <mcp/ext/elicitation.hpp>  // ctx.elicit<T>: typed forms live in the extension

#include <string>
#include <vector>

namespace app {
MCP_STRUCT_DEF(tags_form, (std::string, title, "Title"), (std::vector<std::string>, tags, "Tags"));

mcp::elicit_result<tags_form> ask(mcp::context& ctx) { return ctx.elicit<tags_form>("Tags?"); }
}  // namespace app
