// expect: mcp: ctx.elicit<booking>\(\): field 'deliver_to' cannot be asked in a form
// A form is flat: a nested struct (here an address) cannot be one of its fields.
#include <mcp/ext/elicitation.hpp>  // ctx.elicit<T>: typed forms live in the extension

#include <string>
#include <vector>

namespace app {
struct address {
  std::string street;
};
MCP_STRUCT(address, (street, "Street"));

struct booking {
  std::string name;
  address deliver_to;
};
MCP_STRUCT(booking, (name, "Name"), (deliver_to, "Where to deliver"));

mcp::elicit_result<booking> ask(mcp::context& ctx) { return ctx.elicit<booking>("Where to?"); }
}  // namespace app
