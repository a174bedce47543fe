// A stdio server for the hostile tests: a typed tool whose arguments have a std::vector<int>, a
// struct, an optional int and an optional vector of structs, once with the server's lossless
// coercion and once with coercion off. Each call answers what the handler received, so a test
// sees what got through.
#include "../nested_args.hpp"

#include <mcp/mcp.hpp>

#include <optional>
#include <string>
#include <vector>

int main() {
  mcp::server srv({"typed", "1.0"});
  auto record = [](const nested::nums_args& in) { return mcp::encode(in).dump(); };
  srv.tool("nums", "Records numbers", record);
  mcp::tool_options strict;
  strict.coerce = mcp::coercion::off;
  srv.tool("nums_strict", "Records numbers, no coercion", record, strict);
  return mcp::serve_stdio(srv);
}
