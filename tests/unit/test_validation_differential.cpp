// Differential tests of validation. valijson (with the SDK's overrides) is the validator of record;
// the fast path must accept exactly what it accepts, and the walk that explains a refusal must
// find a value fits exactly when it accepts, so that no message ever explains a verdict that was
// not given. On random schemas of the shapes MCP_STRUCT emits, on runtime-schema shapes, and on
// hand-written corner cases. The same generator drives tests/fuzz/fuzz_arguments.cpp.
#include "catch.hpp"
#include "schema_cases.hpp"

#include <mcp/schema/validation.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using mcp::json;

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
  CHECK(d.fast_cases > d.cases / 5);  // the fast path was exercised, both verdicts too
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
