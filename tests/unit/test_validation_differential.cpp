// Differential tests of validation. valijson (with the SDK's overrides) is the validator of record;
// the fast path must accept exactly what it accepts, and the walk that explains a refusal must
// find a value fits exactly when it accepts, so that no message ever explains a verdict that was
// not given. On random schemas of the shapes MCP_STRUCT emits, on runtime-schema shapes, and on
// hand-written corner cases. The same generator drives tests/fuzz/fuzz_arguments.cpp.
#include "catch.hpp"
#include "order_types.hpp"
#include "schema_cases.hpp"

#include <mcp/json/detail/reader.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/validation/coercion.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

using mcp::json;

namespace test_validation_differential {  // a namespace per file: CMake's unity build compiles several test files as one

// Typed tools with every keyword MCP_STRUCT emits, for the fast path's coverage (issue #24's
// order(customer, items[N]) among them).
namespace diff_types {
using order_types::item;
using order_types::order;
using order_types::priority;

struct square {
  double side = 1;
};
MCP_STRUCT(square, (side, "Side", mcp::exclusive_minimum(0)));
struct circle {
  double radius = 1;
};
MCP_STRUCT(circle, (radius, "Radius", mcp::exclusive_minimum(0), mcp::maximum(1e6)));

struct node {
  std::string name;
  std::vector<node> children;
};
MCP_STRUCT(node, (name, "Name", mcp::min_length(1)), (children, "Children"));
}  // namespace diff_types

using diff_shape = std::variant<diff_types::square, diff_types::circle>;
}  // namespace test_validation_differential  // a specialisation of mcp's lives outside the file's namespace
template <>
struct mcp::json_type<test_validation_differential::diff_shape>
    : mcp::tagged_variant<test_validation_differential::diff_shape> {
  static constexpr const char* tag = "kind";
};
namespace test_validation_differential {

namespace diff_types {
struct everything {
  std::string code;
  std::optional<std::string> nickname;
  std::string email;
  std::optional<std::string> day;
  std::int64_t step = 0;
  std::uint8_t level = 0;
  std::uint64_t huge = 0;
  double ratio = 0.5;
  float single = 0;
  int below = 0;
  std::vector<int> unique;
  std::set<std::string> labels;
  std::array<int, 2> pair{};
  std::map<std::string, std::optional<int>> counters;
  std::vector<std::optional<int>> holes;
  std::variant<std::int64_t, std::string> id;
  std::optional<priority> accent;
  std::vector<diff_shape> shapes;
  std::optional<node> tree;
  std::vector<item> items;
  bool flag = false;
};
MCP_STRUCT(everything,
           (code, "Code", mcp::pattern("^[a-z][a-z0-9-]*$"), mcp::min_length(2), mcp::max_length(5)),
           (nickname, "Nickname", mcp::max_length(3)),
           (email, "Mail", mcp::format("email")),
           (day, "Day", mcp::format("date")),
           (step, "Step", mcp::multiple_of(5), mcp::exclusive_maximum(100), mcp::default_value(0)),
           (level, "Level", mcp::default_value(0)),
           (huge, "Huge", mcp::default_value(0)),
           (ratio, "Ratio", mcp::exclusive_minimum(0), mcp::maximum(1), mcp::default_value(0.5)),
           (single, "Single", mcp::default_value(0.0f)),
           (below, "Below", mcp::minimum(-5), mcp::exclusive_maximum(5), mcp::default_value(0)),
           (unique, "Unique", mcp::unique_items(), mcp::min_items(1), mcp::max_items(4)),
           (labels, "Labels", mcp::default_value(std::set<std::string>{})),
           (pair, "Pair", mcp::default_value(std::array<int, 2>{})),
           (counters, "Counters", mcp::default_value(std::map<std::string, std::optional<int>>{})),
           (holes, "Holes", mcp::default_value(std::vector<std::optional<int>>{})),
           (id, "Id"),
           (accent, "Accent"),
           (shapes, "Shapes", mcp::default_value(std::vector<diff_shape>{})),
           (tree, "Tree"),
           (items, "Items", mcp::max_items(3), mcp::default_value(std::vector<item>{})),
           (flag, "Flag", mcp::deprecated(), mcp::title("A flag"), mcp::default_value(false)));
}  // namespace diff_types

namespace {

using schema_cases::judge;
using schema_cases::text;
using schema_cases::verdicts;

// Runs `schemas` random argument schemas with `values` values each; reports the first case where
// the engines disagree.
struct differential_run {
  int cases = 0, accepted = 0, refused = 0, fast_cases = 0, fast_accepted = 0;
  int fast_differs = 0, walk_differs = 0, validate_differs = 0;
  std::string first;

  void run(std::uint64_t seed, bool extended, int schemas, int values) {
    schema_cases::entropy e(seed);
    schema_cases::generator gen(e, extended);
    for (int s = 0; s < schemas; ++s) {
      const json schema = gen.arguments();
      std::unique_ptr<mcp::validator> v;
      try {
        v = std::make_unique<mcp::validator>(schema);
      } catch (const mcp::schema_error& err) {
        FAIL("the generator made a schema the validator refuses: " << err.what() << "\n" << text(schema));
      }
      for (int i = 0; i < values; ++i) {
        const json value = gen.value(schema);
        const verdicts got = judge(*v, value);
        ++cases;
        (got.record ? accepted : refused) += 1;
        if (got.has_fast) ++fast_cases, fast_accepted += got.fast;
        const bool fast_bad = got.has_fast && got.fast != got.record;
        const bool walk_bad = got.explained == got.record;
        const bool validate_bad = got.validate != got.record;
        fast_differs += fast_bad, walk_differs += walk_bad, validate_differs += validate_bad;
        if ((fast_bad || walk_bad || validate_bad) && first.empty())
          first = "schema " + text(schema) + "\nvalue  " + text(value) + "\n" + schema_cases::disagreement(got);
      }
    }
  }
};

// No engine disagreed with valijson, and both verdicts were exercised.
void check_agreement(const differential_run& d) {
  INFO(d.cases << " cases; first disagreement:\n" << d.first);
  CHECK(d.fast_differs == 0);
  CHECK(d.walk_differs == 0);
  CHECK(d.validate_differs == 0);
  CHECK(d.accepted > d.cases / 10);
  CHECK(d.refused > d.cases / 10);
}

}  // namespace

TEST_CASE("differential: on MCP_STRUCT-shaped schemas the fast path and the walk agree with valijson",
          "[validation][differential]") {
  differential_run d;
  d.run(20250131, false, 800, 12);  // 9,600 values
  check_agreement(d);
  CHECK(d.fast_cases == d.cases);  // every shape MCP_STRUCT emits has a fast path, both verdicts exercised
  CHECK(d.fast_accepted > d.fast_cases / 20);
}

TEST_CASE("differential: on runtime-schema shapes the walk agrees with valijson", "[validation][differential]") {
  differential_run d;
  d.run(7, true, 500, 10);  // 5,000 values
  check_agreement(d);
}

TEST_CASE("differential: corner cases, every engine against the right verdict", "[validation][differential]") {
  struct corner {
    const char* schema;
    json value;
    bool valid;
  };
  const json u64_max = std::numeric_limits<std::uint64_t>::max();
  const json two63 = static_cast<std::uint64_t>(9223372036854775808ULL);
  const std::vector<corner> corners = {
      // 1.0 is not an integer here (valijson's reading, and decode's); 1 is.
      {R"({"type":"integer"})", 1.0, false},
      {R"({"type":"integer"})", 1, true},
      {R"({"type":"number"})", 1.0, true},
      // Integers beyond 2^53 and int64 compared exactly.
      {R"({"type":"integer","maximum":9007199254740992})", 9007199254740993LL, false},
      {R"({"type":"integer","maximum":9007199254740993})", 9007199254740993LL, true},
      {R"({"type":"integer","minimum":9007199254740993})", 9007199254740992.0, false},
      {R"({"type":"integer","minimum":0,"maximum":18446744073709551615.0})", u64_max, true},
      {R"({"type":"integer","minimum":0,"maximum":18446744073709551615})", u64_max, true},
      {R"({"type":"integer","minimum":-32768,"maximum":32767})", u64_max, false},  // not -1
      {R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})", two63, false},
      {R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})",
       std::numeric_limits<std::int64_t>::min(), true},
      {R"({"type":"integer","maximum":18446744073709551615})", 5, true},
      {R"({"enum":[-1]})", u64_max, false},
      {R"({"const":18446744073709551615})", u64_max, true},
      {R"({"type":"array","uniqueItems":true})", json::array({9007199254740992LL, 9007199254740993LL}), true},
      {R"({"type":"array","uniqueItems":true})", json::array({u64_max, -1}), true},
      {R"({"type":"array","uniqueItems":true})", json::array({1, 1.0}), false},
      {R"({"type":"array","uniqueItems":true})", json::parse(R"([{"a":1},{"a":1.0}])"), false},
      {R"({"type":"array","uniqueItems":true})", json::parse("[[1,2],[2,1]]"), true},
      // -0 is 0.
      {R"({"type":"integer"})", -0.0, false},
      {R"({"const":0})", -0.0, true},
      {R"({"type":"number","exclusiveMinimum":0})", -0.0, false},
      {R"({"type":"number","minimum":0})", -0.0, true},
      // Huge and tiny exponents.
      {R"({"type":"number"})", 1e308, true},
      {R"({"type":"number","minimum":-3.4028234663852886e38,"maximum":3.4028234663852886e38})", 1e39, false},
      {R"({"type":"number","exclusiveMinimum":0})", 5e-324, true},
      {R"({"type":"integer","maximum":9223372036854775807})", 1e300, false},
      {R"({"type":"number","maximum":18446744073709551615})", 18446744073709551616.0, false},
      // multipleOf.
      {R"({"multipleOf":5})", 10.5, false},
      {R"({"multipleOf":5})", 0.5, false},
      {R"({"multipleOf":5})", 10, true},
      {R"({"multipleOf":0.1})", 0.3, true},
      {R"({"multipleOf":2})", 1e300, true},
      {R"({"multipleOf":3})", u64_max, true},  // 2^64 - 1 = 3 x 6148914691236517205
      // Lengths in code points: multi-byte characters, NUL.
      {R"({"type":"string","minLength":3,"maxLength":3})", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", true},
      {R"({"type":"string","minLength":3})", "\xE6\x97\xA5\xE6\x9C\xAC", false},
      {R"({"type":"string","minLength":4,"maxLength":4})", std::string("a\0bc", 4), true},
      {R"({"type":"string","maxLength":1})", "\xF0\x9F\x98\x80", true},
      {R"({"type":"string","maxLength":0})", "", true},
      // Duplicate enum strings, and enums of other kinds.
      {R"({"type":"string","enum":["a","a","b"]})", "a", true},
      {R"({"type":"string","enum":["a","a","b"]})", "c", false},
      {R"({"enum":[1]})", 1.0, true},
      {R"({"enum":[[1,{"a":null}]]})", json::parse(R"([1.0,{"a":null}])"), true},
      // Empty objects.
      {R"({"type":"object","properties":{},"additionalProperties":false})", json::object(), true},
      {R"({"type":"object","properties":{},"additionalProperties":false})", json{{"x", 1}}, false},
      {R"({"type":"object","required":["a"],"properties":{"a":{}}})", json::object(), false},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})", json::object(), true},
      // Nullable as a type list and as anyOf.
      {R"({"type":["string","null"]})", nullptr, true},
      {R"({"type":["string","null"]})", 3, false},
      {R"({"anyOf":[{"type":"integer","minimum":0,"maximum":255},{"type":"null"}]})", 256, false},
      // Formats: on strings only; leap years.
      {R"({"type":"string","format":"date"})", "2024-02-29", true},
      {R"({"type":"string","format":"date"})", "2023-02-29", false},
      {R"({"format":"date"})", 5, true},
      {R"({"type":"string","format":"email"})", "nobody", false},
      {R"({"type":"string","format":"made-up"})", "anything", true},
      // $ref with siblings: the siblings apply.
      {R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","minLength":2})", "x", false},
      {R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","minLength":2})", "xy", true},
  };
  int checked = 0;
  for (const auto& c : corners) {
    const mcp::validator v(json::parse(c.schema), mcp::validator::root::any);
    const verdicts got = judge(v, c.value);
    INFO("schema " << c.schema << "\nvalue  " << text(c.value));
    CHECK(got.record == c.valid);
    CHECK(got.explained == !c.valid);
    CHECK(got.validate == c.valid);
    if (got.has_fast) CHECK(got.fast == c.valid);
    ++checked;
  }
  CHECK(checked == static_cast<int>(corners.size()));
}

// --- the fast path on every keyword MCP_STRUCT emits ----------------------------------------------

namespace {

// Tallies verdicts; keeps the first case where an engine disagrees with valijson.
struct tally {
  int cases = 0, accepted = 0, refused = 0, fast_cases = 0, fast_accepted = 0, differs = 0;
  std::string first;

  void judge(const mcp::validator& v, const json& value) {
    const verdicts got = schema_cases::judge(v, value);
    ++cases;
    (got.record ? accepted : refused) += 1;
    if (got.has_fast) ++fast_cases, fast_accepted += got.fast;
    const std::string d = schema_cases::disagreement(got);
    if (d.empty()) return;
    ++differs;
    if (first.empty()) first = "schema " + text(v.schema()) + "\nvalue  " + text(value) + "\n" + d;
  }
};

// Every engine agreed with valijson, the fast path answered every case, both verdicts were seen.
void check_fast_tally(const tally& t) {
  INFO(t.cases << " cases, " << t.accepted << " accepted, " << t.refused << " refused; first disagreement:\n" << t.first);
  CHECK(t.differs == 0);
  CHECK(t.fast_cases == t.cases);
  CHECK(t.accepted > t.cases / 20);
  CHECK(t.refused > t.cases / 20);
}

// Strings of 0 to `max` characters over an alphabet of 1- to 4-byte characters and NUL.
std::vector<json> all_strings(std::size_t max) {
  static const std::vector<std::string> alphabet = {"a", "Z", "-", "0", "\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80",
                                                    std::string(1, '\0')};
  std::vector<std::string> level = {""}, all = {""};
  for (std::size_t n = 1; n <= max; ++n) {
    std::vector<std::string> next;
    for (const auto& s : level)
      for (const auto& c : alphabet) next.push_back(s + c);
    all.insert(all.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return std::vector<json>(all.begin(), all.end());
}

// `valid` and strings that match it in part: each character replaced, dropped or doubled, a
// character added at each end, and the same wrapped in text.
std::vector<json> near_misses(const std::string& valid) {
  static const std::vector<std::string> swaps = {"A", "a", "Z", "0", "9", "-", "_", "\xC3\xA9", std::string(1, '\0')};
  std::vector<json> out = {valid, "", valid + valid, "x" + valid, valid + "x", valid + "\n", "\n" + valid,
                           " " + valid, valid.substr(1), valid.substr(0, valid.size() - 1)};
  for (std::size_t i = 0; i < valid.size(); ++i) {
    for (const auto& c : swaps) out.push_back(valid.substr(0, i) + c + valid.substr(i + 1));
    out.push_back(valid.substr(0, i) + valid.substr(i + 1));
    out.push_back(valid.substr(0, i + 1) + valid.substr(i));
  }
  return out;
}

// Numbers near the edges and near each bound of `schema`: the bound, one either side, a half either
// side, the bound as a float and as an integer.
std::vector<json> numbers_near(const json& schema) {
  std::vector<json> out = schema_cases::edge_numbers();
  for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}) {
    auto b = schema.find(key);
    if (b == schema.end()) continue;
    out.push_back(*b);
    const double d = b->get<double>();
    for (double delta : {-1.0, -0.5, 0.5, 1.0}) out.push_back(d + delta);
    out.push_back(d);
    out.push_back(d * 3);
    if (b->is_number_integer() && !b->is_number_unsigned()) {
      const auto v = b->get<std::int64_t>();
      if (v > std::numeric_limits<std::int64_t>::min()) out.push_back(v - 1);
      if (v < std::numeric_limits<std::int64_t>::max()) out.push_back(v + 1);
    } else if (b->is_number_float() && std::fabs(d) < 9e18) {  // the integers around it
      for (double whole : {std::floor(d) - 1, std::floor(d), std::ceil(d), std::ceil(d) + 1})
        out.push_back(static_cast<std::int64_t>(whole));
    }
  }
  return out;
}

// A random path into `value` and what to do there: replace it with an edge value, drop or add a
// member, grow, shrink or duplicate an array, nudge a number, edit a string.
void mutate(json& value, schema_cases::entropy& e, int depth = 0) {
  static const std::vector<json> pool = [] {
    std::vector<json> p = schema_cases::edge_numbers();
    for (const char* s : {"ABC-1234", "ABC-123", "ABC-12345", "xABC-1234", "abc-1234", "ABC_1234", "", "a", "ab",
                          "ab-1", "abcde", "abcdef", "1ab", "low", "normal", "HIGH", "square", "circle", "a@b.c",
                          "nobody", "2024-02-29", "2023-02-29", "\xC3\xA9\xC3\xA9\xC3\xA9", "\xF0\x9F\x98\x80\xF0\x9F\x98\x80"})
      p.push_back(s);
    for (const char* s : {"null", "true", "false", "[]", "[1]", "[1, 1.0]", "[\"a\", \"a\"]", "{}", "{\"kind\": \"square\", \"side\": 1}",
                          "{\"kind\": \"circle\", \"radius\": 0}", "{\"name\": \"\"}", "{\"name\": \"n\", \"children\": []}",
                          "{\"sku\": \"ABC-1234\", \"qty\": 1, \"priority\": \"low\", \"tags\": []}"})
      p.push_back(json::parse(s));
    return p;
  }();
  if (value.is_structured() && !value.empty() && depth < 8 && !e.one_in(4)) {
    if (value.is_array()) return mutate(value[e.below(value.size())], e, depth + 1);
    auto it = value.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(e.below(value.size())));
    return mutate(*it, e, depth + 1);
  }
  switch (e.below(value.is_structured() ? 6 : 4)) {
    case 0:
    case 1: value = e.pick(pool); return;
    case 2:
      if (value.is_number_integer() && !value.is_number_unsigned()) {
        // One step, never past the ends of int64 (the pool holds both).
        const std::int64_t n = value.get<std::int64_t>();
        const bool up = n == std::numeric_limits<std::int64_t>::min() || (n != std::numeric_limits<std::int64_t>::max() && e.one_in(2));
        value = up ? n + 1 : n - 1;
      }
      else if (value.is_number()) value = value.get<double>() + (e.one_in(2) ? 0.5 : 0.0);  // 1 -> 1.0 too
      else if (value.is_string() && !value.get_ref<const std::string&>().empty()) value.get_ref<std::string&>().pop_back();
      else value = e.pick(pool);
      return;
    case 3:
      if (value.is_string()) value.get_ref<std::string&>() += e.pick(std::vector<std::string>{"a", "0", "\xE6\x97\xA5", "-"});
      else value = e.pick(pool);
      return;
    case 4:
      if (value.is_array()) {
        for (std::uint64_t i = 0, n = 1 + e.below(9); i < n && !value.empty(); ++i) value.push_back(value[e.below(value.size())]);
      } else {
        value[e.pick(std::vector<std::string>{"extra", "kind", "name", "sku", "a"})] = e.pick(pool);
      }
      return;
    default:
      if (value.empty()) value = e.pick(pool);
      else if (value.is_array()) value.erase(value.size() - 1);
      else value.erase(value.begin());
      return;
  }
}

}  // namespace

TEST_CASE("fast path: every schema MCP_STRUCT emits gets one", "[validation][differential][fast]") {
  for (const json* schema : {&mcp::schema_of<diff_types::order>(), &mcp::schema_of<diff_types::everything>()}) {
    INFO(text(*schema));
    CHECK(mcp::detail::plain_schema::compile(*schema, true) != nullptr);
    CHECK(mcp::detail::compiled_of(mcp::validator(*schema)).fast != nullptr);
  }
  // The keywords it covers, each alone.
  for (const char* schema :
       {R"({"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$","minLength":1,"maxLength":8,"format":"date"})",
        R"({"type":"array","items":{"type":"string"},"minItems":1,"maxItems":8,"uniqueItems":true})",
        R"({"type":"number","minimum":0,"maximum":1,"exclusiveMinimum":0,"exclusiveMaximum":1,"multipleOf":0.5})",
        R"({"enum":["a",1,null]})", R"({"const":{"a":[1]}})", R"({"anyOf":[{"type":"integer"},{"type":"null"}]})",
        R"({"oneOf":[{"const":1},{"type":"string"}]})", R"({"allOf":[{"minimum":1},{"maximum":2}]})",
        R"({"type":"object","additionalProperties":{"type":"integer"}})",
        R"({"type":"object","properties":{"a":true,"b":false},"required":["a","c"]})",
        R"({"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n","maxItems":2})",
        R"({"type":"array","items":false})"}) {
    INFO(schema);
    CHECK(mcp::detail::compiled_of(mcp::validator(json::parse(schema), mcp::validator::root::any)).fast != nullptr);
  }
  // Keywords MCP_STRUCT never emits stay with valijson.
  for (const char* schema :
       {R"({"type":"object","patternProperties":{"^a":{}}})", R"({"type":"object","minProperties":1})",
        R"({"type":"object","propertyNames":{"maxLength":2}})", R"({"type":"array","contains":{"type":"null"}})",
        R"({"type":"array","items":[{"type":"integer"}]})", R"({"if":{"type":"integer"},"then":{"minimum":0}})",
        R"({"dependencies":{"a":["b"]}})", R"({"not":{"type":"null"}})"}) {
    INFO(schema);
    CHECK(mcp::detail::compiled_of(mcp::validator(json::parse(schema), mcp::validator::root::any)).fast == nullptr);
  }
}

TEST_CASE("fast path: each keyword on generated values, edges included, accepts exactly what valijson accepts",
          "[validation][differential][fast]") {
  tally t;
  // Lengths in code points (multi-byte characters, NUL), patterns (. is one byte to std::regex, as
  // to valijson), formats, string enums, nullable strings.
  const std::vector<json> strings = all_strings(3);  // 585 strings
  for (const char* schema : {R"({"type":"string","minLength":2,"maxLength":3})", R"({"type":"string","maxLength":0})",
                             R"({"type":"string","pattern":"^[a-z][a-z0-9-]*$"})", R"({"type":"string","pattern":"[0-9]"})",
                             R"({"type":"string","pattern":"^.{2}$","minLength":1})", R"({"pattern":"^a"})",
                             R"({"type":["string","null"],"maxLength":1,"pattern":"Z"})",
                             R"({"type":"string","enum":["a","Z-","0"]})", R"({"type":"string","format":"date"})"}) {
    const mcp::validator v(json::parse(schema), mcp::validator::root::any);
    for (const auto& s : strings) t.judge(v, s);
    for (const json& other : {json(nullptr), json(1), json::array({"a"})}) t.judge(v, other);
  }
  // Patterns that partly match: issue #24's SKU and more.
  for (const auto& [schema, valid] : std::vector<std::pair<const char*, const char*>>{
           {R"({"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"})", "ABC-1234"},
           {R"({"type":"string","pattern":"[A-Z]{3}-[0-9]{4}"})", "ABC-1234"},
           {R"({"type":"string","pattern":"^(ab|cd)+$","maxLength":6})", "abcdab"},
           {R"({"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$","format":"date"})", "2024-02-29"},
           {R"({"type":"string","pattern":"^[^@]+@[^@]+$","format":"email"})", "ada@example.com"}}) {
    const mcp::validator v(json::parse(schema), mcp::validator::root::any);
    for (const auto& s : near_misses(valid)) t.judge(v, s);
  }
  // Numbers: bounds, exclusive bounds, multipleOf, floats against integers, beyond int64.
  for (const char* schema :
       {R"({"type":"integer","minimum":1,"maximum":1000})", R"({"type":"integer","minimum":-5,"exclusiveMaximum":5})",
        R"({"type":"number","exclusiveMinimum":0,"maximum":1})", R"({"type":"integer","multipleOf":5,"exclusiveMaximum":100})",
        R"({"type":"number","multipleOf":0.1})", R"({"type":"number","multipleOf":0.5,"minimum":-1.5})",
        R"({"type":"number","minimum":-3.4028234663852886e38,"maximum":3.4028234663852886e38})",
        R"({"type":"integer","minimum":0,"maximum":18446744073709551615.0})",
        R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})",
        R"({"type":"number","exclusiveMinimum":9007199254740992,"exclusiveMaximum":9007199254740994})",
        R"({"type":["integer","null"],"minimum":0,"maximum":255})", R"({"enum":[1,"1",null,2.5]})", R"({"const":0})",
        // Integers against fractional, exclusive and out-of-range bounds, and odd divisors.
        R"({"type":"integer","minimum":1.5,"exclusiveMaximum":10.5})", R"({"type":"integer","exclusiveMinimum":-3.5,"maximum":-0.5})",
        R"({"type":"integer","exclusiveMinimum":-2,"exclusiveMaximum":2.0})", R"({"type":"integer","minimum":-1e300,"maximum":1e300})",
        R"({"type":"integer","exclusiveMinimum":-9223372036854775808.0,"exclusiveMaximum":18446744073709551616.0})",
        R"({"type":"integer","exclusiveMinimum":-9223372036854775809.0,"maximum":-9223372036854775807})",
        R"({"type":"integer","exclusiveMaximum":18446744073709551615})", R"({"type":"integer","minimum":-0.0,"maximum":0.5})",
        R"({"type":"integer","multipleOf":3,"maximum":0})", R"({"type":"integer","multipleOf":2.5})", R"({"type":"integer","multipleOf":1e20})",
        R"({"type":"integer","multipleOf":9007199254740993,"minimum":0})", R"({"type":"integer","enum":[1,2.0,-3]})",
        R"({"type":"integer","const":-9223372036854775808})", R"({"type":"number","minimum":0.1,"multipleOf":7})"}) {
    const json s = json::parse(schema);
    const mcp::validator v(s, mcp::validator::root::any);
    for (const auto& n : numbers_near(s)) t.judge(v, n);
    for (const json& other : {json(nullptr), json("1"), json(true)}) t.judge(v, other);
  }
  // Arrays: empty, at and past minItems/maxItems, duplicates (1 and 1.0 too), items of each kind.
  const std::vector<json> item_pool = {1, 1.0, 2, "a", "a", "b", nullptr, json::array({1}), json::array({1.0}),
                                       json{{"a", 1}}, 1.5, -1, "ABC-1234"};
  schema_cases::entropy e(2024);
  std::vector<json> arrays = {json::array()};
  for (int i = 0; i < 400; ++i) {
    json a = json::array();
    for (std::uint64_t n = e.below(11), k = 0; k < n; ++k) a.push_back(e.pick(item_pool));
    if (!a.empty() && e.one_in(3)) a.push_back(a[e.below(a.size())]);  // a duplicate
    arrays.push_back(a);
  }
  for (const char* schema :
       {R"({"type":"array","items":{"type":"string"},"maxItems":8})", R"({"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2})",
        R"({"type":"array","uniqueItems":true})", R"({"type":"array","items":{"type":"integer"},"uniqueItems":true})",
        R"({"type":"array","items":{"anyOf":[{"type":"integer","minimum":0,"maximum":1},{"type":"null"}]}})",
        R"({"type":"array","items":{"type":"string","pattern":"^[a-z]$"},"minItems":1})",
        R"({"type":"array","items":{"oneOf":[{"type":"integer"},{"type":"number","minimum":1}]}})"}) {
    const mcp::validator v(json::parse(schema), mcp::validator::root::any);
    for (const auto& a : arrays) t.judge(v, a);
  }
  check_fast_tally(t);
}

TEST_CASE("fast path: mutated arguments of typed tools, accepted exactly when valijson accepts",
          "[validation][differential][fast]") {
  using namespace diff_types;
  order o;
  o.customer = "ACME";
  for (int i = 0; i < 4; ++i) o.items.push_back({"ABC-" + std::to_string(1000 + i), 1 + i, priority::high, {"red", "big"}});
  everything x;
  x.code = "ab-1";
  x.email = "ada@example.com";
  x.day = "2024-02-29";
  x.step = 95;
  x.ratio = 1;
  x.below = -5;
  x.unique = {1, 2, 3};
  x.labels = {"p", "q"};
  x.counters = {{"a", 1}, {"b", std::nullopt}};
  x.holes = {1, std::nullopt};
  x.id = std::string("x");
  x.accent = priority::low;
  x.shapes = {square{2}, circle{1e6}};
  x.tree = node{"root", {node{"kid", {}}, node{"kid2", {node{"leaf", {}}}}}};
  x.items = {o.items[0], o.items[1]};
  for (const json& base : {mcp::encode(o), mcp::encode(x)}) {
    const json& schema = base.contains("code") ? mcp::schema_of<everything>() : mcp::schema_of<order>();
    const mcp::validator v(schema);
    REQUIRE(v.validate(base).empty());
    tally t;
    schema_cases::entropy e(base.size());
    for (int i = 0; i < 3000; ++i) {
      json value = base;
      for (std::uint64_t m = 0, n = e.below(3); m < n; ++m) mutate(value, e);  // none at all now and then
      t.judge(v, value);
    }
    check_fast_tally(t);
  }
}

TEST_CASE("fast path: a recursive value deeper than validate() follows goes to the full path",
          "[validation][differential][fast]") {
  const mcp::validator v(mcp::schema_of<diff_types::node>());
  REQUIRE(mcp::detail::compiled_of(v).fast != nullptr);
  auto nested = [](int levels) {
    json value = {{"name", "leaf"}, {"children", json::array()}};
    for (int i = 0; i < levels; ++i) value = {{"name", "n"}, {"children", json::array({value})}};
    return value;
  };
  CHECK(mcp::detail::compiled_of(v).fast->accepts(nested(20)));
  CHECK(v.validate(nested(20)).empty());
  const json deep = nested(100);  // 201 levels of arrays and objects
  CHECK_FALSE(mcp::detail::compiled_of(v).fast->accepts(deep));
  const auto problems = v.validate(deep);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].keyword == "depth");
}

// Issue #56: "maxLength": 2.0 is valid draft-07 (a number with a zero fraction is an integer).
// Every integer-valued keyword, written both ways, on values around its bound: the validator takes
// the schema, and the fast path (where it applies, and compiled from the schema as written), valijson,
// the walk and validate() all give the verdict the bound gives.
TEST_CASE("integer-valued keywords written as 2.0 are read as 2 by every engine, around the bound",
          "[validation][differential][fast]") {
  struct keyword {
    const char* name;
    const char* type;
    bool minimum;
    bool fast;  // the fast path covers it
  };
  const keyword keywords[] = {{"minLength", "string", true, true},      {"maxLength", "string", false, true},
                              {"minItems", "array", true, true},        {"maxItems", "array", false, true},
                              {"minProperties", "object", true, false}, {"maxProperties", "object", false, false}};
  // A value of the keyword's type with n characters (every other one of two bytes), items or members.
  auto sized = [](const std::string& type, std::uint64_t n) {
    json v = type == "string" ? json("") : type == "array" ? json::array() : json::object();
    for (std::uint64_t i = 0; i < n; ++i) {
      if (type == "string") v = v.get<std::string>() + (i % 2 ? "\xC3\xA9" : "x");
      else if (type == "array") v.push_back(i);
      else v["k" + std::to_string(i)] = i;
    }
    return v;
  };
  int compared = 0;
  for (const auto& k : keywords) {
    for (std::uint64_t bound = 0; bound <= 3; ++bound) {
      const json as_float = {{"type", "object"},
                             {"properties", {{"v", {{"type", k.type}, {k.name, static_cast<double>(bound)}}}}}};
      json as_integer = as_float;
      as_integer["properties"]["v"][k.name] = bound;
      INFO(k.name << ": " << as_float.dump());
      REQUIRE(as_float["properties"]["v"][k.name].is_number_float());
      std::optional<mcp::validator> vf;
      REQUIRE_NOTHROW(vf.emplace(as_float));  // registration takes it
      const mcp::validator vi(as_integer);
      // The fast path as compiled from the schema as written (2.0), not from the validator's copy.
      const auto raw_fast = mcp::detail::plain_schema::compile(as_float, true);
      CHECK((mcp::detail::compiled_of(*vf).fast != nullptr) == k.fast);
      CHECK((raw_fast != nullptr) == k.fast);
      for (std::uint64_t n = 0; n <= bound + 2; ++n) {
        const json instance = {{"v", sized(k.type, n)}};
        const bool expected = k.minimum ? n >= bound : n <= bound;
        INFO(instance.dump() << " expected " << expected);
        CHECK(vf->validate(instance).empty() == expected);
        CHECK(vi.validate(instance).empty() == expected);
        CHECK(mcp::detail::compiled_of(*vf).record->accepts(instance) == expected);  // valijson, the validator of record
        CHECK(mcp::detail::compiled_of(*vf).explain(instance).empty() == expected);  // the walk
        if (mcp::detail::compiled_of(*vf).fast) CHECK(mcp::detail::compiled_of(*vf).fast->accepts(instance) == expected);
        if (raw_fast) CHECK(raw_fast->accepts(instance) == expected);
        ++compared;
      }
    }
  }
  CHECK(compared == 6 * (3 + 4 + 5 + 6));
  // A fraction, a negative count and a count past 64 bits stay refused, saying why.
  for (const char* bad : {R"({"type":"object","properties":{"v":{"maxLength":2.5}}})",
                          R"({"type":"object","properties":{"v":{"minItems":-1.0}}})",
                          R"({"type":"object","maxProperties":1e30})"}) {
    INFO(bad);
    CHECK_THROWS_AS(mcp::validator(json::parse(bad)), mcp::schema_error);
  }
}


// --- the walk explains, at every subschema: it never decides -------------------------------------

// valijson on one subschema of a document (valijson_record::accepts_at, what coercion asks), against
// the same subschema compiled as a document of its own, and against the walk that explains a refusal
// there: the walk finds nothing wrong exactly when valijson accepts, at the root and at every node
// under it, so no message ever explains a verdict that was not given.
TEST_CASE("differential: at every subschema the walk finds nothing wrong exactly when valijson accepts",
          "[validation][differential][walk]") {
  for (const bool extended : {false, true}) {
    schema_cases::entropy e(extended ? 5757 : 57);
    schema_cases::generator gen(e, extended);
    int cases = 0, accepted = 0, nodes = 0, walk_differs = 0, alone_differs = 0;
    std::string first;
    for (int s = 0; s < 150; ++s) {
      const mcp::validator v(gen.arguments());
      const auto& c = mcp::detail::compiled_of(v);
      for (const auto& [at, node] : mcp::detail::survey_all(c.schema).subschemas) {
        ++nodes;
        std::optional<mcp::validator> alone;  // the node as a document, with the definitions it may name
        if (node->is_object() && !at.empty()) {
          json document = *node;
          if (c.schema.contains("$defs") && !document.contains("$defs")) document["$defs"] = c.schema["$defs"];
          alone.emplace(document, mcp::validator::root::any);
        }
        for (int i = 0; i < 4; ++i) {
          const json value = gen.value(*node);
          const bool record = c.fits(value, at);
          std::vector<mcp::violation> why;
          std::string pointer;
          mcp::detail::schema_walker(c.schema, &c.regexes, nullptr).explain(value, *node, pointer, why);
          ++cases;
          accepted += record;
          const bool walk_bad = why.empty() != record;
          const bool alone_bad = alone && mcp::detail::compiled_of(*alone).record->accepts(value) != record;
          walk_differs += walk_bad;
          alone_differs += alone_bad;
          if ((walk_bad || alone_bad) && first.empty())
            first = "at " + at + " of " + text(c.schema) + "\nvalue " + text(value) + "\nvalijson " +
                    (record ? "accepts" : "refuses") + (walk_bad ? ", the walk disagrees" : "") +
                    (alone_bad ? ", the node alone disagrees" : "");
        }
      }
    }
    INFO((extended ? "runtime shapes: " : "MCP_STRUCT shapes: ") << cases << " cases at " << nodes
                                                                 << " subschemas; first disagreement:\n" << first);
    CHECK(walk_differs == 0);
    CHECK(alone_differs == 0);
    CHECK(accepted > cases / 10);
    CHECK(accepted < cases * 9 / 10);
    CHECK(nodes > 150 * 4);
  }
}

// --- the fast path: every keyword it reads, compared with valijson ---------------------------------

namespace {

// The keywords of every schema node of `schema` (a boolean schema counts as "(boolean)").
std::set<std::string> keywords_in(const json& schema) {
  std::set<std::string> out;
  for (const auto& [at, node] : mcp::detail::survey_all(schema).subschemas) {
    if (node->is_boolean()) out.insert("(boolean)");
    if (!node->is_object()) continue;
    for (auto it = node->begin(); it != node->end(); ++it) out.insert(it.key());
  }
  return out;
}

struct keyword_tally {
  std::map<std::string, std::pair<int, int>> seen;  // keyword -> fast path answers yes, no
  int cases = 0, differs = 0;
  std::string first;
  void judge(const mcp::validator& v, const json& value) {
    const verdicts got = schema_cases::judge(v, value);
    if (!got.has_fast) return;
    ++cases;
    for (const auto& k : keywords_in(v.schema())) (got.fast ? seen[k].first : seen[k].second) += 1;
    const std::string d = schema_cases::disagreement(got);
    if (d.empty()) return;
    ++differs;
    if (first.empty()) first = "schema " + text(v.schema()) + "\nvalue  " + text(value) + "\n" + d;
  }
};

}  // namespace

// The fast path answers for valijson only where it reads every keyword of the schema
// (plain_schema::keywords(), which build() holds to): each of them is compared with valijson here,
// on the random schemas of both shapes and on hand-made ones for what the generator never writes,
// and must have been seen with both verdicts.
TEST_CASE("fast path: every keyword it reads is compared with valijson, both verdicts seen",
          "[validation][differential][fast]") {
  keyword_tally t;
  for (const bool extended : {false, true}) {
    schema_cases::entropy e(extended ? 24 : 2424);
    schema_cases::generator gen(e, extended);
    for (int s = 0; s < 300; ++s) {
      const mcp::validator v(gen.arguments());
      for (int i = 0; i < 8; ++i) t.judge(v, gen.value(v.schema()));
    }
  }
  // What the generator never writes: annotations it lacks, "definitions", "$schema" at the root, and
  // the value_rules keywords in places it does not put them.
  const char* const hand[] = {
      R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object","examples":[{}],"$comment":"c",
          "properties":{"a":{"type":"integer","readOnly":true,"writeOnly":false,"maximum":3}},"required":["a"]})",
      R"({"type":"object","definitions":{"n":{"type":"string","minLength":2}},"properties":{"a":{"$ref":"#/definitions/n"}}})",
      R"({"type":"object","properties":{"a":{"const":{"k":[1]}},"b":{"enum":[1,"1",null]}},"additionalProperties":{"type":"boolean"}})",
      R"({"type":"object","properties":{"a":{"allOf":[{"minimum":0},{"exclusiveMaximum":10},{"multipleOf":2}]},
          "b":{"type":"array","items":true,"uniqueItems":true,"minItems":1},"c":false}})",
  };
  const std::vector<json> values = {json::object(), {{"a", 2}}, {{"a", 3}}, {{"a", 4}}, {{"a", -1}}, {{"a", 12}},
                                    {{"a", "xy"}}, {{"a", "x"}}, {{"a", json{{"k", {1}}}}}, {{"a", json{{"k", {2}}}}},
                                    {{"a", 2}, {"b", json::array({1, 2})}}, {{"a", 2}, {"b", json::array({1, 1})}},
                                    {{"a", 2}, {"b", json::array()}}, {{"a", 2}, {"c", 1}}, {{"a", 2}, {"b", "1"}},
                                    {{"a", 2}, {"b", 2}}, {{"a", 2}, {"z", true}}, {{"a", 2}, {"z", 1}}, {{"a", 2.5}}, {{"a", "xyz"}},
                                    {{"a", "abc"}}};
  for (const char* schema : hand) {
    const mcp::validator v(json::parse(schema));
    REQUIRE(mcp::detail::compiled_of(v).fast != nullptr);
    for (const auto& value : values) t.judge(v, value);
  }
  INFO(t.cases << " cases; first disagreement:\n" << t.first);
  CHECK(t.differs == 0);
  std::vector<std::string> read = {"(boolean)"};
  for (auto k : mcp::detail::plain_schema::keywords()) read.emplace_back(k);
  for (const auto& k : read) {
    INFO("keyword " << k << ": the fast path accepted " << t.seen[k].first << ", refused " << t.seen[k].second);
    CHECK(t.seen[k].first >= 3);
    CHECK(t.seen[k].second >= 3);
  }
  // And it reads nothing else: a keyword outside the list makes the schema not plain.
  for (const auto& [k, counts] : t.seen) {
    INFO("the fast path answered on a schema with " << k);
    CHECK(std::find(read.begin(), read.end(), k) != read.end());
  }
  CHECK(mcp::detail::plain_schema::compile(json::parse(R"({"type":"object","x-extra":1})"), true) == nullptr);
}

// --- coercion transforms; valijson decides ------------------------------------------------------

namespace {

// The pointers of every value in `value`, itself included.
void pointers_in(const json& value, std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      mcp::detail::pointer_scope scope(at, i);
      pointers_in(value[i], at, out);
    }
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      mcp::detail::pointer_scope scope(at, it.key());
      pointers_in(*it, at, out);
    }
  }
}

// A value a model might send for `valid`: one value in it written the way models get wrong (a number
// or a boolean as its text, a one-item list as its item, an array or object as its JSON text, null
// for a member the object does not have). Each kind the value allows is as likely. Empty kind:
// nothing in it to mangle.
std::pair<json, std::string> mangled(const json& valid, schema_cases::entropy& e) {
  std::vector<std::string> spots;
  std::string at;
  pointers_in(valid, at, spots);
  std::map<std::string, std::vector<std::string>> where;  // kind -> spots it applies to
  for (const auto& p : spots) {
    const json& spot = valid.at(json::json_pointer(p));
    if (spot.is_boolean()) where["boolean_from_string"].push_back(p);
    if (spot.is_number()) where["number_from_string"].push_back(p);
    if (spot.is_array() && spot.size() == 1) where["wrapped_in_array"].push_back(p);
    if (spot.is_structured()) where["json_from_string"].push_back(p);
    if (spot.is_object()) where["null_added"].push_back(p);
  }
  if (where.empty()) return {valid, ""};
  auto kind = where.begin();
  std::advance(kind, static_cast<std::ptrdiff_t>(e.below(where.size())));
  json out = valid;
  json& spot = out[json::json_pointer(e.pick(kind->second))];
  if (kind->first == "wrapped_in_array") {
    spot = json(spot[0]);
  } else if (kind->first == "null_added") {
    for (const char* name : {"a", "b", "c", "title", "count", "tags", "Z"}) {
      if (spot.contains(name)) continue;
      spot[name] = nullptr;
      return {out, kind->first};
    }
    return {valid, ""};
  } else {
    spot = spot.dump();  // a number, a boolean, an array or an object as its JSON text
  }
  return {out, kind->first};
}

struct coercion_tally {
  int cases = 0, accepted = 0, changed = 0, wrong = 0;
  std::map<std::string, std::pair<int, int>> restored;  // kind -> (refused when mangled, accepted after coercion)
  std::string first;

  void fail(const std::string& what, const json& schema, const json& value, const json& after) {
    ++wrong;
    if (first.empty()) first = what + "\nschema " + text(schema) + "\nvalue  " + text(value) + "\nafter  " + text(after);
  }

  // Coerces `value` and checks what can be checked of any value: one valijson accepts is left alone,
  // and a value left alone keeps its verdict.
  json coerce(const mcp::validator& v, const json& value) {
    const auto& c = mcp::detail::compiled_of(v);
    const bool before = c.record->accepts(value);
    json after = value;
    const mcp::coercion_report report = mcp::coerce(after, v);
    ++cases;
    accepted += before;
    changed += report.count > 0;
    if (before && (report.count != 0 || text(after) != text(value)))
      fail("coercion changed a value valijson accepts", v.schema(), value, after);
    if (report.count == 0 && (text(after) != text(value) || c.record->accepts(after) != before))
      fail("coercion left the value alone (count 0), but it changed or its verdict did", v.schema(), value, after);
    if (report.count > 0 && text(after) == text(value))
      fail("coercion counted a change it did not make", v.schema(), value, after);
    return after;
  }

  void run(bool extended, std::uint64_t seed, int schemas, int values) {
    schema_cases::entropy e(seed);
    schema_cases::generator gen(e, extended);
    for (int s = 0; s < schemas; ++s) {
      const mcp::validator v(gen.arguments());
      const auto& c = mcp::detail::compiled_of(v);
      for (int i = 0; i < values; ++i) {
        const json value = gen.value(v.schema());
        coerce(v, value);
        if (!c.record->accepts(value)) continue;
        // A valid value mangled as a model might: if valijson refuses what was sent, coercion's
        // reading of it is what valijson then accepts.
        for (int m = 0; m < 3; ++m) {
          const auto [sent, kind] = mangled(value, e);
          if (kind.empty() || c.record->accepts(sent)) {
            if (!kind.empty()) coerce(v, sent);
            continue;
          }
          const json after = coerce(v, sent);
          auto& r = restored[kind];
          ++r.first;
          r.second += c.record->accepts(after);
        }
      }
    }
  }
};

}  // namespace

// Coercion decides nothing: it asks valijson whether a reading fits where it goes, and the verdict
// after it is valijson's. Over the schema cases: a value valijson accepts is never changed, a value
// coercion leaves alone keeps its verdict, and a valid value sent the ways models send them (a
// number as text, a list's one item alone, an object as its JSON text, null for a field left out)
// is read back into one valijson accepts, at the rates below.
TEST_CASE("differential: coercion leaves what valijson accepts alone, and reads back what models mangle",
          "[validation][differential][coercion]") {
  for (const bool extended : {false, true}) {
    coercion_tally t;
    t.run(extended, extended ? 4242 : 42, 300, 12);
    std::string rates;
    for (const auto& [kind, r] : t.restored) rates += "\n" + kind + ": " + std::to_string(r.second) + " of " + std::to_string(r.first);
    INFO((extended ? "runtime shapes: " : "MCP_STRUCT shapes: ") << t.cases << " values, " << t.accepted << " accepted, "
         << t.changed << " changed by coercion; read back after mangling:" << rates << "\nfirst wrong:\n" << t.first);
    CHECK(t.wrong == 0);
    CHECK(t.changed > t.cases / 20);
    for (const char* kind : {"number_from_string", "boolean_from_string", "wrapped_in_array", "json_from_string", "null_added"}) {
      const auto r = t.restored[kind];
      INFO(kind);
      CHECK(r.first >= 10);
      CHECK(r.second * 10 >= r.first * (extended ? 7 : 8));  // measured 85% and more (the rates above)
    }
  }
}

namespace {

// A schema case's subschema S set where coercion makes a choice: as a field (required or not), as
// the items of a list, as a branch of anyOf or oneOf. The root keeps the case's definitions, for the
// "$ref"s in S.
struct choice_schemas {
  json defs;
  json object(json properties, bool required) const {
    json w = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
    if (required) w["required"] = json::array({"f"});
    if (!defs.is_null()) w["$defs"] = defs;
    return w;
  }
};

// Whether two readings are the same one: equal, and both or neither written with a fraction (the
// coercer's same_reading).
bool same_reading(const json& a, const json& b) { return a == b && a.is_number_float() == b.is_number_float(); }

// {"f": value} coerced for {"f": S} (required): what the coercer makes of `value` under S alone.
std::pair<json, int> coerced_for(const json& object_schema, const json& value) {
  json args = {{"f", value}};
  const int count = mcp::coerce(args, mcp::validator(object_schema)).count;
  return {args.contains("f") ? args["f"] : json(), count};
}

bool accepts(const json& object_schema, const json& args) {
  return mcp::detail::compiled_of(mcp::validator(object_schema)).record->accepts(args);
}

}  // namespace

// Each choice coercion makes is valijson's verdict where the value goes, at every subschema S of
// the schema cases (valijson asked on whole documents here, not on a subschema as coercion asks):
// null for an optional field of S is left out exactly when valijson refuses null there; one value
// where a list of S is expected is wrapped exactly when valijson accepts it (as coerced for S) as
// an item; a value for anyOf (or oneOf) [S, T] is left as it is when valijson accepts it against a
// branch, else takes the one reading valijson accepts from the branches, else stays.
TEST_CASE("differential: each choice coercion makes follows valijson's verdict where the value goes",
          "[validation][differential][coercion]") {
  for (const bool extended : {false, true}) {
    schema_cases::entropy e(extended ? 31 : 13);
    schema_cases::generator gen(e, extended);
    std::map<std::string, int> outcomes;  // each choice, each way it went
    int wrong = 0;
    std::string first;
    auto check = [&](const char* choice, bool ok, const json& schema, const json& sent, const json& got) {
      if (ok) return;
      ++wrong;
      if (first.empty())
        first = std::string(choice) + "\nschema " + text(schema) + "\nsent   " + text(sent) + "\ngot    " + text(got);
    };
    for (int s = 0; s < 60; ++s) {
      const json root = gen.arguments();
      const choice_schemas w{root.value("$defs", json())};
      std::vector<const json*> nodes;
      for (const auto& [at, node] : mcp::detail::survey_all(root).subschemas)
        if (!at.empty()) nodes.push_back(node);
      for (const json* node : nodes) {
        const json& S = *node;
        // A null for an optional field.
        {
          const json schema = w.object({{"f", S}}, false);
          json args = {{"f", nullptr}};
          const int count = mcp::coerce(args, mcp::validator(schema)).count;
          const bool null_fits = accepts(w.object({{"f", S}}, true), json{{"f", nullptr}});
          ++outcomes[null_fits ? "null kept" : "null left out"];
          check("null for an optional field", null_fits ? count == 0 && args == json{{"f", nullptr}}
                                                        : count == 1 && args == json::object(),
                schema, json{{"f", nullptr}}, args);
        }
        // One value where a list is expected.
        for (int i = 0; i < 2; ++i) {
          const json x = gen.value(S);
          if (x.is_array()) continue;
          if (x.is_string()) {
            const auto& t = x.get_ref<const std::string&>();
            const auto c = t.find_first_not_of(" \t\n\r");
            if (c != std::string::npos && (t[c] == '[' || t[c] == '{')) continue;  // read as JSON, not wrapped
          }
          const json schema = w.object({{"f", {{"type", "array"}, {"items", S}}}}, true);
          json args = {{"f", x}};
          const int count = mcp::coerce(args, mcp::validator(schema)).count;
          const json as_item = w.object({{"f", S}}, true);
          const auto [item, item_count] = coerced_for(as_item, x);
          const bool fits = accepts(as_item, json{{"f", item}});
          ++outcomes[fits ? "wrapped" : "not wrapped"];
          check("one value for a list", fits ? count == 1 + item_count && args == json{{"f", json::array({item})}}
                                             : count == 0 && args == json{{"f", x}},
                schema, json{{"f", x}}, args);
        }
        // A value for anyOf / oneOf [S, T].
        for (const char* key : {"anyOf", "oneOf"}) {
          const json& T = *nodes[e.below(nodes.size())];
          const json x = gen.value(e.one_in(2) ? S : T);
          const json schema = w.object({{"f", {{key, json::array({S, T})}}}}, true);
          json args = {{"f", x}};
          const int count = mcp::coerce(args, mcp::validator(schema)).count;
          const json for_s = w.object({{"f", S}}, true), for_t = w.object({{"f", T}}, true);
          std::string how;
          json expected = x;
          int expected_count = 0;
          if (accepts(for_s, json{{"f", x}}) || accepts(for_t, json{{"f", x}})) {
            how = "fits a branch as it is";
          } else {
            const auto [by_s, count_s] = coerced_for(for_s, x);
            const auto [by_t, count_t] = coerced_for(for_t, x);
            const bool s_reads = count_s > 0 && accepts(for_s, json{{"f", by_s}});
            const bool t_reads = count_t > 0 && accepts(for_t, json{{"f", by_t}});
            if (s_reads && t_reads && !same_reading(by_s, by_t)) {
              how = "two readings";
            } else if (s_reads || t_reads) {
              how = "one reading";
              expected = s_reads ? by_s : by_t;
              expected_count = s_reads ? count_s : count_t;
            } else {
              how = "no reading";
            }
          }
          ++outcomes[std::string(key) + ": " + how];
          check(key, count == expected_count && args.contains("f") && same_reading(args["f"], expected) &&
                         text(args["f"]) == text(expected),
                schema, json{{"f", x}}, args);
        }
      }
    }
    std::string seen;
    for (const auto& [outcome, n] : outcomes) seen += "\n" + outcome + ": " + std::to_string(n);
    INFO((extended ? "runtime shapes" : "MCP_STRUCT shapes") << seen << "\nfirst wrong:\n" << first);
    CHECK(wrong == 0);
    for (const char* outcome : {"null kept", "null left out", "wrapped", "not wrapped", "anyOf: fits a branch as it is",
                                "anyOf: one reading", "anyOf: no reading", "oneOf: one reading"})
      CHECK(outcomes[outcome] >= 5);
  }
}

// The tool pipeline's verdict on arguments is valijson's: on the value as sent where valijson
// accepts it, else on the coerced value, with the handler given exactly that value. Runtime-schema
// tools of the schema cases, called through a real connection.
TEST_CASE("differential: a tool call accepts exactly what valijson accepts, as sent or as coerced",
          "[validation][differential][coercion][tools]") {
  for (const bool extended : {false, true}) {
    mcp::server_options options;
    options.log_sink = [](std::string_view) {};
    mcp::server srv({"record", "1.0"}, options);
    schema_cases::entropy e(extended ? 77 : 7);
    schema_cases::generator gen(e, extended);
    std::vector<std::unique_ptr<mcp::validator>> validators;
    const int schemas = 120;
    for (int s = 0; s < schemas; ++s) {
      const json schema = gen.arguments();
      validators.push_back(std::make_unique<mcp::validator>(schema));
      srv.tool("t" + std::to_string(s), "A schema case.", mcp::runtime_schema{schema},
               [](const json& args) { return args.dump(); });
    }
    mcp::testing::client c(srv);
    c.initialize();
    const std::size_t depth = mcp::detail::argument_depth_limit(options.max_json_depth);
    int calls = 0, accepted = 0, coerced = 0, wrong = 0;
    std::string first;
    for (int s = 0; s < schemas; ++s) {
      const mcp::validator& v = *validators[static_cast<std::size_t>(s)];
      const auto& record = *mcp::detail::compiled_of(v).record;
      for (int i = 0; i < 10; ++i) {
        json value;  // as the server reads it from the message's text
        if (mcp::detail::read_json(gen.value(v.schema()).dump(), value, depth) != mcp::detail::read_result::ok ||
            !value.is_object())
          continue;
        json after = value;
        const bool as_sent = record.accepts(value);
        const bool by_coercion = !as_sent && mcp::coerce(after, v, mcp::coercion::lossless, depth).count > 0 && record.accepts(after);
        const json result = c.call_tool("t" + std::to_string(s), value);
        const bool ran = !result.value("isError", false);
        ++calls;
        accepted += ran;
        coerced += by_coercion;
        std::string why;
        if (ran != (as_sent || by_coercion)) why = ran ? "the tool ran on what valijson refuses" : "the tool refused what valijson accepts";
        else if (ran && result["content"][0]["text"] != (as_sent ? value : after).dump()) why = "the handler got another value";
        if (why.empty()) continue;
        ++wrong;
        if (first.empty()) first = why + "\nschema " + text(v.schema()) + "\nvalue  " + text(value) + "\nresult " + text(result);
      }
    }
    INFO(calls << " calls, " << accepted << " ran, " << coerced << " after coercion; first wrong:\n" << first);
    CHECK(wrong == 0);
    CHECK(accepted > calls / 10);
    CHECK(accepted < calls * 9 / 10);
    CHECK(coerced > 0);
  }
}

}  // namespace test_validation_differential
