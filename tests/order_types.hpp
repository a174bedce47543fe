// The order of issue #24 (a pattern, bounds, a string enum, an array with maxItems, in an array of
// structs), as the unit tests that compare validation's and reading's roads declare it.
#pragma once

#include <mcp/schema/reflect.hpp>

#include <string>
#include <vector>

namespace order_types {
enum class priority { low, normal, high };
MCP_ENUM(priority, (low, "low"), (normal, "normal"), (high, "high"));

struct item {
  std::string sku;
  int qty = 1;
  priority prio = priority::normal;
  std::vector<std::string> tags;
};
MCP_STRUCT(item, (sku, "SKU", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")), (qty, "Quantity", mcp::minimum(1), mcp::maximum(1000)),
           (prio, "Priority", mcp::json_name("priority")), (tags, "Tags", mcp::max_items(8)));

struct order {
  std::string customer;
  std::vector<item> items;
};
MCP_STRUCT(order, (customer, "Customer"), (items, "Items"));
}  // namespace order_types
