// The typed arguments the nesting tests share (unit, hostile and fuzz): arrays and objects at more
// than one level, so JSON text hidden in a string can be aimed at each kind of declared field.
#pragma once

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/reflect.hpp>

#include <optional>
#include <vector>

namespace nested {

struct point {
  int x = 0;
  int y = 0;
};
MCP_STRUCT(point, (x, "X"), (y, "Y"));

struct nums_args {
  std::vector<int> values;
  point at;
  std::optional<int> limit;
  std::optional<std::vector<point>> path;
};
MCP_STRUCT(nums_args, (values, "Numbers"), (at, "A point", mcp::default_value(point{})),
           (limit, "At most this many", mcp::minimum(0)), (path, "Points"));

}  // namespace nested
