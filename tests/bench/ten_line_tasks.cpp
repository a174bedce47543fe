// The control of ctest umbrella_no_extensions: the ten-line server with the tasks and events extensions
// included, whose headers the check must see.
#include <mcp/ext/events.hpp>
#include <mcp/ext/tasks.hpp>
#include <mcp/mcp.hpp>

int main() {
  mcp::server server({"calc", "1.0.0"});
  mcp::enable_tasks(server);
  return mcp::serve_stdio(server);
}
