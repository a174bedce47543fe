// expect: mcp: the tool handler returns a C string .const char.., as a lambda that returns a string literal does. declare the return type
#include <mcp/tools/tool.hpp>

int main() {
  mcp::server srv({"s", "1"});
  srv.tool("hello", "Says hello", [] { return "hello"; });
}
