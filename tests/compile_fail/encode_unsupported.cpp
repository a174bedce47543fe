// expect: mcp::encode: type not supported
#include <mcp/schema/reflect.hpp>

#include <list>

int main() {
  auto j = mcp::encode(std::list<int>{1, 2});
  return j.is_null() ? 1 : 0;
}
