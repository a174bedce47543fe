// expect: Generic lambdas \(auto parameters\) cannot be inspected
// A tool handler's argument type is its input schema, so it must be spelled out.
#include <mcp/tools/tool.hpp>

int main() {
  mcp::server srv({"s", "1"});
  srv.tool("t", "d", [](const auto&) { return std::string(); });
}
