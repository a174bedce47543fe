// Reflected types shared by the harnesses: every kind of field the reflection supports, with
// constraints, so that schema generation, coercion, validation and decoding all get exercised.
#pragma once

#include <mcp/schema/reflect.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace fz {

enum class color { red, green, blue };
MCP_ENUM(color, (red, "red"), (green, "green", "The colour of grass"), (blue, "blue"));

struct point {
  double x = 0;
  double y = 0;
};
MCP_STRUCT(point, (x, "X", mcp::minimum(-1000), mcp::maximum(1000)), (y, "Y"));

struct tag {
  std::string name;
  std::optional<int> weight;
};
MCP_STRUCT(tag, (name, "Tag name", mcp::min_length(1), mcp::max_length(16), mcp::pattern("^[a-z][a-z0-9-]*$")),
           (weight, "Weight", mcp::minimum(0), mcp::maximum(10)));

// An order line (issue #24): a pattern, bounds, a string enum, an array with maxItems.
struct line {
  std::string sku;
  int qty = 1;
  color hue = color::red;
  std::vector<std::string> tags;
};
MCP_STRUCT(line, (sku, "SKU", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")), (qty, "Quantity", mcp::minimum(1), mcp::maximum(1000)),
           (hue, "Colour"), (tags, "Tags", mcp::max_items(8)));

// Recursive: its schema goes through $defs/$ref.
struct tree {
  std::string name;
  std::vector<tree> children;
};
MCP_STRUCT(tree, (name, "Node name"), (children, "Sub-trees"));

struct rich {
  std::string title;
  int count = 0;
  std::int64_t big = 0;
  std::uint8_t small = 0;
  std::uint64_t huge = 0;
  bool flag = false;
  double ratio = 0.5;
  float single = 0;
  color hue = color::red;
  std::optional<color> accent;
  point origin;
  std::vector<point> path;
  std::vector<tag> tags;
  std::map<std::string, int> counters;
  std::map<std::string, point> named;
  std::variant<std::int64_t, std::string, point> id;
  std::variant<bool, double> amount;  // not <int64_t, double>: an integer would match both (by design)
  std::optional<std::vector<std::string>> aliases;
  std::set<int> unique;
  std::array<int, 2> pair{};
  std::optional<std::string> email;
  std::optional<tree> outline;
  int step = 0;
  std::optional<std::vector<line>> lines;
};
MCP_STRUCT(rich,
           (title, "Title", mcp::min_length(1), mcp::max_length(40)),
           (count, "Count", mcp::minimum(0), mcp::maximum(100), mcp::default_value(1)),
           (big, "Big", mcp::default_value(0)),
           (small, "Small", mcp::default_value(0)),
           (huge, "Huge", mcp::default_value(0)),
           (flag, "Flag", mcp::default_value(false)),
           (ratio, "Ratio", mcp::exclusive_minimum(0), mcp::maximum(1), mcp::default_value(0.5)),
           (single, "Single precision", mcp::default_value(0.0f)),
           (hue, "Hue", mcp::default_value(color::red)),
           (accent, "Accent"),
           (origin, "Origin", mcp::default_value(point{})),
           (path, "Path", mcp::max_items(20), mcp::default_value(std::vector<point>{})),
           (tags, "Tags", mcp::unique_items(), mcp::default_value(std::vector<tag>{})),
           (counters, "Counters", mcp::default_value(std::map<std::string, int>{})),
           (named, "Named points", mcp::default_value(std::map<std::string, point>{})),
           (id, "Id: number, string or point"),
           (amount, "Amount: a number, or false for none", mcp::default_value(false)),
           (aliases, "Aliases", mcp::min_items(1)),
           (unique, "Unique numbers", mcp::default_value(std::set<int>{})),
           (pair, "Two numbers", mcp::default_value(std::array<int, 2>{})),
           (email, "Mail address", mcp::format("email")),
           (outline, "A tree"),
           (step, "Multiple of 5", mcp::multiple_of(5), mcp::default_value(0)),
           (lines, "Order lines", mcp::max_items(50)));

}  // namespace fz
