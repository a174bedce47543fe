// expect: mcp::schema_of: type not supported
#include <mcp/schema/schema.hpp>

struct plain {
  int x;
};

int main() { return mcp::schema_of<plain>().is_null() ? 1 : 0; }
