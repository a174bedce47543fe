// Argument validation and coercion: exact messages per rule, every violation at once with precise
// pointers, bad schemas refused with a reason, lossless coercion and its refusals, concurrency.
#include "catch.hpp"

#include <mcp/validation/coercion.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/validation/validation.hpp>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

using mcp::json;

namespace test_validation {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

json parse(const char* text) { return json::parse(text); }

// Wraps one property schema in an argument object schema.
json args_schema(const json& property) { return json{{"type", "object"}, {"properties", {{"a", property}}}}; }

std::vector<mcp::violation> check(const json& schema, const json& instance) {
  return mcp::validator(schema).validate(instance);
}

// The single violation of {"a": value} against a property schema, as "pointer|keyword|message".
std::string one_problem(const json& property, const json& value) {
  auto problems = check(args_schema(property), json{{"a", value}});
  if (problems.size() != 1) return "expected 1 problem, got " + std::to_string(problems.size());
  const auto& p = problems[0];
  return p.pointer + "|" + p.keyword + "|" + p.message;
}

std::string schema_error_of(const json& schema) {
  try {
    mcp::validator v(schema);
  } catch (const mcp::schema_error& e) {
    return e.what();
  }
  return "(accepted)";
}

// valijson alone, as it reads a draft-07 schema: what the SDK's overrides correct.
bool plain_valijson_accepts(const json& schema, const json& value) {
  valijson::Schema compiled;
  valijson::SchemaParser(valijson::SchemaParser::kDraft7).populateSchema(valijson::adapters::NlohmannJsonAdapter(schema), compiled);
  valijson::Validator v;
  return v.validate(compiled, valijson::adapters::NlohmannJsonAdapter(value), nullptr);
}

// One override of valijson's verdict: valijson alone says the opposite of the SDK, the SDK says
// `valid`, and a refusal names `keyword`.
struct override_case {
  const char* schema;
  json value;
  bool valid;
  const char* keyword;
};

void check_override(const override_case& c) {
  const json schema = json::parse(c.schema);
  const mcp::validator v(schema, mcp::validator::root::any);
  INFO("schema " << c.schema << "\nvalue  " << c.value.dump());
  CHECK(plain_valijson_accepts(schema, c.value) != c.valid);  // the reason for the override
  const auto problems = v.validate(c.value);
  CHECK(problems.empty() == c.valid);
  if (!c.valid) {
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].keyword == c.keyword);
  }
}

}  // namespace

TEST_CASE("validation: each rule has a specific message", "[validation]") {
  CHECK(one_problem({{"type", "integer"}}, "abc") == "/a|type|must be an integer, got string \"abc\"");
  CHECK(one_problem({{"type", "integer"}}, 5.5) == "/a|type|must be an integer, got number 5.5");
  CHECK(one_problem({{"type", {"string", "null"}}}, 3) == "/a|type|must be a string or null, got number 3");
  CHECK(one_problem({{"type", "object"}}, json::array({1, 2})) == "/a|type|must be an object, got array [1,2]");
  CHECK(one_problem({{"enum", {"low", "high"}}}, "mid") == "/a|enum|must be one of \"low\", \"high\", got \"mid\"");
  CHECK(one_problem({{"const", "v1"}}, "v2") == "/a|const|must be \"v1\", got \"v2\"");
  CHECK(one_problem({{"minimum", 0}}, -3) == "/a|minimum|must be at least 0, got -3");
  CHECK(one_problem({{"maximum", 2.5}}, 3) == "/a|maximum|must be at most 2.5, got 3");
  CHECK(one_problem({{"exclusiveMinimum", 0}}, 0) == "/a|exclusiveMinimum|must be greater than 0, got 0");
  CHECK(one_problem({{"exclusiveMaximum", 1}}, 1) == "/a|exclusiveMaximum|must be less than 1, got 1");
  CHECK(one_problem({{"multipleOf", 5}}, 12) == "/a|multipleOf|must be a multiple of 5, got 12");
  CHECK(one_problem({{"minLength", 3}}, "ab") == "/a|minLength|must be at least 3 characters long, got \"ab\"");
  CHECK(one_problem({{"maxLength", 1}}, "abc") == "/a|maxLength|must be at most 1 character long, got 3 characters: \"abc\"");
  CHECK(one_problem({{"pattern", "^[a-z]+$"}}, "ABC") == "/a|pattern|must match the pattern '^[a-z]+$', got \"ABC\"");
  CHECK(one_problem({{"type", "string"}, {"format", "date-time"}}, "tomorrow") ==
        "/a|format|must be an RFC 3339 date-time such as \"2025-01-31T14:00:00Z\", got \"tomorrow\"");
  CHECK(one_problem({{"format", "date"}}, "2025-02-30") == "/a|format|must be a date such as \"2025-01-31\", got \"2025-02-30\"");
  CHECK(one_problem({{"format", "email"}}, "nobody") ==
        "/a|format|must be an email address such as \"name@example.com\", got \"nobody\"");
  CHECK(one_problem({{"format", "uri"}}, "not a uri") ==
        "/a|format|must be an absolute URI such as \"https://example.com/page\", got \"not a uri\"");
  CHECK(one_problem({{"minItems", 1}}, json::array()) == "/a|minItems|must have at least 1 item, got 0");
  CHECK(one_problem({{"maxItems", 2}}, json::array({1, 2, 3})) == "/a|maxItems|must have at most 2 items, got 3");
  CHECK(one_problem({{"uniqueItems", true}}, json::array({"x", "y", "x"})) ==
        "/a|uniqueItems|must not contain duplicates, but items 0 and 2 are both \"x\"");
  CHECK(one_problem({{"anyOf", {{{"type", "string"}}, {{"type", "integer"}}}}}, true) ==
        "/a|anyOf|must be a string or an integer, got boolean true");
  CHECK(one_problem({{"oneOf", {{{"type", "integer"}}, {{"type", "number"}}}}}, 3) ==
        "/a|oneOf|must match exactly one of 2 alternatives, but matches alternatives 1 and 2");
  CHECK(one_problem({{"not", {{"type", "null"}}}}, nullptr) == "/a|not|must not match the schema under 'not', got null");
  CHECK(one_problem(false, 1) == "/a|false|no value is allowed here, got number 1");
  CHECK(one_problem({{"minProperties", 1}}, json::object()) == "/a|minProperties|must have at least 1 field, got 0");
}

TEST_CASE("validation: values that pass", "[validation]") {
  CHECK(check(args_schema({{"format", "date-time"}}), {{"a", "2025-01-31T14:00:00.5+02:00"}}).empty());
  CHECK(check(args_schema({{"format", "date"}}), {{"a", "2024-02-29"}}).empty());  // leap year
  CHECK(check(args_schema({{"format", "date"}}), {{"a", 20240229}}).empty());      // format is for strings only
  CHECK(check(args_schema({{"format", "email"}}), {{"a", "ada@example.com"}}).empty());
  CHECK(check(args_schema({{"multipleOf", 0.1}}), {{"a", 0.3}}).empty());
  CHECK(check(args_schema({{"type", "integer"}, {"maximum", 18446744073709551615ULL}}), {{"a", 18446744073709551615ULL}}).empty());
  CHECK(check(args_schema({{"minLength", 3}, {"maxLength", 3}}), {{"a", "日本語"}}).empty());  // code points, not bytes
  CHECK(check(args_schema({{"minLength", 3}}), {{"a", "日本"}}).size() == 1);
}

TEST_CASE("validation: required names the field with its type and description", "[validation]") {
  json schema = parse(R"({"type":"object","properties":{"body":{"type":"string","description":"Note body"},
                          "tags":{"type":"array"},"x":{}},"required":["body","tags","x","y"]})");
  auto problems = check(schema, json::object());
  REQUIRE(problems.size() == 4);
  CHECK(problems[0].pointer == "");
  CHECK(problems[0].keyword == "required");
  CHECK(problems[0].message == "missing required field 'body' (string: Note body)");
  CHECK(problems[1].message == "missing required field 'tags' (array)");
  CHECK(problems[2].message == "missing required field 'x'");
  CHECK(problems[3].message == "missing required field 'y'");
}

TEST_CASE("validation: unknown arguments are named along with the valid ones", "[validation]") {
  json schema = parse(R"({"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}},
                          "additionalProperties":false})");
  auto problems = check(schema, parse(R"({"titel":"x","body":"y","colour":1})"));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "");
  CHECK(problems[0].keyword == "additionalProperties");
  CHECK(problems[0].message == "unknown fields 'colour', 'titel' (did you mean 'title'?); valid fields: body, title");

  auto none = check(parse(R"({"type":"object","additionalProperties":false})"), parse(R"({"x":1})"));
  REQUIRE(none.size() == 1);
  CHECK(none[0].message == "unknown field 'x'; this object takes no fields");

  // An additionalProperties schema validates the extra members instead.
  auto typed = check(parse(R"({"type":"object","additionalProperties":{"type":"integer"}})"), parse(R"({"n":"1"})"));
  REQUIRE(typed.size() == 1);
  CHECK(typed[0].pointer == "/n");
  CHECK(typed[0].keyword == "type");
}

TEST_CASE("validation: every violation at once, with pointers into nested values", "[validation]") {
  json schema = parse(R"({
    "type": "object",
    "properties": {
      "title": {"type": "string", "minLength": 3},
      "findings": {"type": "array", "items": {
        "type": "object",
        "properties": {"confidence": {"type": "number", "minimum": 0, "maximum": 1},
                       "label": {"enum": ["bug", "style"]}},
        "required": ["label"], "additionalProperties": false}},
      "a/b~c": {"type": "boolean"}
    },
    "required": ["title", "findings"]
  })");
  json instance = parse(R"({
    "title": "ab",
    "findings": [{"confidence": 0.5, "label": "bug"},
                 {"confidence": 1.5, "label": "perf"},
                 {"confidence": "high", "extra": 1}],
    "a/b~c": "yes"
  })");
  auto problems = check(schema, instance);
  std::vector<std::string> got;
  for (const auto& p : problems) got.push_back(p.pointer + " " + p.keyword);
  CHECK(got == std::vector<std::string>{"/a~1b~0c type", "/findings/1/confidence maximum", "/findings/1/label enum",
                                        "/findings/2 required", "/findings/2/confidence type",
                                        "/findings/2 additionalProperties", "/title minLength"});
}

TEST_CASE("validation: recursive schemas through $defs", "[validation]") {
  json schema = parse(R"({"type":"object","$defs":{"node":{"type":"object","properties":{
      "value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},
      "properties":{"root":{"$ref":"#/$defs/node"}}})");
  auto problems = check(schema, parse(R"({"root":{"children":[{"value":1},{"value":"x","children":[{"value":2.5}]}]}})"));
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].pointer == "/root/children/1/children/0/value");
  CHECK(problems[1].pointer == "/root/children/1/value");

  // Siblings of $ref apply (2020-12 reading) even though valijson checks draft-07.
  json sibling = parse(R"({"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","minLength":2}}})");
  auto short_string = check(sibling, parse(R"({"a":"x"})"));
  REQUIRE(short_string.size() == 1);
  CHECK(short_string[0].keyword == "minLength");

  // Hostile nesting is refused, not recursed into without end.
  json deep = json::object();
  json* cursor = &deep;
  for (int i = 0; i < 1000; ++i) cursor = &((*cursor)["children"] = json::array({json::object()}))[0];
  auto too_deep = check(schema, json{{"root", deep}});
  REQUIRE(too_deep.size() == 1);
  CHECK(too_deep[0].keyword == "depth");
}

TEST_CASE("validation: oneOf reports the closest alternative's own problems", "[validation]") {
  json schema = parse(R"({"type":"object","properties":{"shape":{"oneOf":[
      {"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind","r"]},
      {"type":"object","properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind","side"]}]}}})");
  auto problems = check(schema, parse(R"({"shape":{"kind":"circle","r":"5"}})"));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/shape/r");
  CHECK(problems[0].message == "must be a number, got string \"5\"");
}

TEST_CASE("validation: describe_violations writes one message a model can act on", "[validation]") {
  json schema = parse(R"({"type":"object","properties":{
      "title":{"type":"string","minLength":3,"description":"Unique title"},
      "body":{"type":"string","description":"Note body"}},
      "required":["title","body"],"additionalProperties":false})");
  mcp::validator v(schema);
  auto problems = v.validate(parse(R"({"title":"ab","vis":"team"})"));
  CHECK(mcp::describe_violations("create_note", problems, schema) ==
        "Invalid arguments for tool 'create_note' (3 problems):\n"
        "- missing required field 'body' (string: Note body) (required)\n"
        "- /title: must be at least 3 characters long, got \"ab\" (minLength)\n"
        "- unknown field 'vis'; valid fields: body, title (additionalProperties)\n"
        "Fix these and call the tool again.");
  auto one = v.validate(parse(R"({"title":"abc"})"));
  CHECK(mcp::describe_violations("create_note", one, schema) ==
        "Invalid arguments for tool 'create_note' (1 problem):\n"
        "- missing required field 'body' (string: Note body) (required)\n"
        "Fix this and call the tool again.");
  CHECK(mcp::describe_violations("create_note", {}, schema).empty());
}

TEST_CASE("validation: long values are cut short in messages", "[validation]") {
  std::string long_text(200, 'x');
  auto msg = one_problem({{"type", "integer"}}, long_text);
  CHECK(msg == "/a|type|must be an integer, got string \"" + std::string(59, 'x') + "...\"");
  // Bad UTF-8 in a value does not make the message throw.
  auto bad = check(args_schema({{"type", "integer"}}), json{{"a", std::string("\xff\xfe")}});
  REQUIRE(bad.size() == 1);
}

TEST_CASE("validation: bad schemas are refused with the reason", "[validation]") {
  CHECK(schema_error_of(parse(R"({"type":"array"})")) ==
        "invalid schema: the root must be an object schema with \"type\": \"object\" (tool arguments are a JSON "
        "object), got \"type\": \"array\"");
  CHECK(schema_error_of(parse(R"({"properties":{}})")) ==
        "invalid schema: the root must be an object schema with \"type\": \"object\" (tool arguments are a JSON "
        "object), got no \"type\"");
  CHECK(schema_error_of(json::array()) ==
        "invalid schema: the root must be an object schema with \"type\": \"object\" (tool arguments are a JSON "
        "object), got array []");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"type":"strin"}}})")) ==
        "invalid schema: /properties/a/type: must be one of \"array\", \"boolean\", \"integer\", \"null\", \"number\", "
        "\"object\", \"string\", got \"strin\"");
  CHECK(schema_error_of(parse(R"({"type":"object","minLength":-1})")) ==
        "invalid schema: /minLength: must be at least 0, got -1");
  CHECK(schema_error_of(parse(R"({"type":"object","required":"a"})")) ==
        "invalid schema: /required: must be an array, got string \"a\"");
  CHECK(schema_error_of(parse(R"({"type":"object","$defs":{"p":{"type":"strig"}}})")) ==
        "invalid schema: /$defs/p/type: must be one of \"array\", \"boolean\", \"integer\", \"null\", \"number\", "
        "\"object\", \"string\", got \"strig\"");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"type":"string","pattern":"(ab"}}})")) ==
        "invalid schema: /properties/a/pattern: '(ab' is not a valid regular expression (an unmatched '(' or ')')");
  CHECK(schema_error_of(parse(R"({"type":"object","patternProperties":{"[x":{}}})")) ==
        "invalid schema: /patternProperties/[x: '[x' is not a valid regular expression (an unmatched '[')");
  // Numbers std::regex would read past a long (undefined behaviour in libstdc++) are refused first.
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"pattern":"a{1111111111111111111111}"}}})")) ==
        "invalid schema: /properties/a/pattern: 'a{1111111111111111111111}' is not a valid regular expression (an "
        "invalid {n,m} repetition)");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"pattern":"a{1,99999999999}"}}})")) ==
        "invalid schema: /properties/a/pattern: 'a{1,99999999999}' is not a valid regular expression (an invalid "
        "{n,m} repetition)");
  CHECK(schema_error_of(parse(R"({"type":"object","patternProperties":{"(a)\\12345678901234567890":{}}})")) ==
        "invalid schema: /patternProperties/(a)\\12345678901234567890: '(a)\\12345678901234567890' is not a valid "
        "regular expression (an invalid back-reference)");
  for (const char* fine : {"^12345678901234567890$", "\\{12345678901234567890}", "[{]12345678901234567890", "a{2,3}b{4}"}) {
    INFO(fine);
    CHECK_NOTHROW(mcp::validator(mcp::json{{"type", "object"}, {"properties", {{"a", {{"pattern", fine}}}}}}));
  }
  CHECK(schema_error_of(parse(R"({"$schema":"http://json-schema.org/draft-04/schema#","type":"object"})")) ==
        "invalid schema: unsupported JSON Schema dialect \"$schema\": \"http://json-schema.org/draft-04/schema#\"; use "
        "draft-07 (\"http://json-schema.org/draft-07/schema#\") or 2020-12 "
        "(\"https://json-schema.org/draft/2020-12/schema\"), or leave \"$schema\" out");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}})")) ==
        "invalid schema: /properties/a/$ref: \"#/$defs/missing\" does not point to a schema in this document");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}})")) ==
        "invalid schema: /properties/a/$ref: \"https://example.com/s.json\" refers to another document; only "
        "references within this schema (\"#/...\") are supported");
  CHECK(schema_error_of(parse(R"({"type":"object","$defs":{"x":{"allOf":[{"$ref":"#/$defs/x"}]}},
                                  "properties":{"a":{"$ref":"#/$defs/x"}}})")) ==
        "invalid schema: '/$defs/x' refers back to itself through $ref/allOf/anyOf/oneOf/not/if without descending "
        "into the value, so validation would never end");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"prefixItems":[{"type":"string"}]}}})")) ==
        "invalid schema: /properties/a/prefixItems: keyword 'prefixItems' is not supported: arguments are checked "
        "with draft-07 rules, which have no equivalent; use only keywords that mean the same in draft-07 and 2020-12");
}

TEST_CASE("validation: accepted dialects and shapes", "[validation]") {
  CHECK(schema_error_of(parse(R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object"})")) == "(accepted)");
  CHECK(schema_error_of(parse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
                                  "$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}},
                                  "title":"t","description":"d","examples":[{}]})")) == "(accepted)");
  CHECK(schema_error_of(parse(R"({"type":"object","properties":{"a":{"type":"string","format":"made-up"}}})")) ==
        "(accepted)");
}

TEST_CASE("validation: a validator compiles once and is reused, copies share it", "[validation]") {
  json schema = parse(R"({"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"}},
                          "required":["code"]})");
  mcp::validator v(schema);
  CHECK(v.schema() == schema);
  mcp::validator copy = v;
  for (int i = 0; i < 200; ++i) {
    REQUIRE(v.validate(json{{"code", "ABC"}}).empty());
    REQUIRE(copy.validate(json{{"code", "abc"}}).size() == 1);
  }
}

TEST_CASE("validation: the fast path for plain schemas accepts exactly what the full validator accepts",
          "[validation]") {
  // Every keyword the fast path handles, at the root, nested, in items, with integer and
  // fractional bounds, type lists and string enums.
  const json schema = parse(R"({"type":"object","additionalProperties":false,"required":["n","name"],
    "properties":{
      "n":{"type":"integer","minimum":-3,"maximum":9007199254740993,"description":"d"},
      "x":{"type":"number","minimum":0.5,"maximum":10},
      "u":{"type":"integer","minimum":0,"maximum":18446744073709551615},
      "name":{"type":"string","enum":["a","b"]},
      "maybe":{"type":["string","null"]},
      "flag":{"type":"boolean","default":false},
      "any":{},
      "list":{"type":"array","items":{"type":"integer","maximum":2}},
      "inner":{"type":"object","required":["k"],"properties":{"k":{"type":"number"}}}}})");
  REQUIRE(mcp::detail::plain_schema::compile(schema, true) != nullptr);
  // A keyword the fast path does not know sends every call down the full path.
  json full_schema = schema;
  full_schema["minProperties"] = 0;
  REQUIRE(mcp::detail::plain_schema::compile(full_schema, true) == nullptr);
  const mcp::validator fast(schema), full(full_schema);

  const std::vector<json> values = parse(R"([null, true, false, 0, -1, -3, -4, 1, 2, 3, 1.0, 0.5, 0.4999, 1.5,
    -3.0, 10, 10.5, 9007199254740992, 9007199254740993, 9007199254740994, 9223372036854775807,
    9223372036854775808, 18446744073709551615, -9223372036854775808, 1e300, -1e300, "", "a", "b", "c",
    [], [1], [1, 2, 3], [1.5], ["a"], {}, {"k": 1}, {"k": "1"}, {"k": 1, "z": 0}, {"z": 0}])");
  // Per key: values near its rules (most calls), or anything from the pool above.
  const std::vector<std::pair<std::string, json>> keys = {
      {"n", parse("[-3, -4, 0, 9007199254740993, 9007199254740994, 1.0, -3.5]")},
      {"x", parse("[0.5, 0.4999, 1, 10, 10.0001, 0]")},
      {"u", parse("[0, 18446744073709551615, 9223372036854775808, -1, 1.0]")},
      {"name", parse(R"(["a", "b", "c", ""])")},
      {"maybe", parse(R"(["s", null, 1])")},
      {"flag", parse("[true, false, 0]")},
      {"any", parse("[1, null]")},
      {"list", parse("[[], [1, 2], [3], [1.0], [2, 2.5]]")},
      {"inner", parse(R"([{"k": 1}, {"k": 0.5, "other": 1}, {}, {"k": null}])")},
      {"extra", parse("[1]")}};
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  int accepted = 0, refused = 0, differ = 0;
  std::string first_difference;
  for (int i = 0; i < 20000; ++i) {
    json instance = json::object();
    for (const auto& [key, near] : keys) {
      const bool present = key == "extra" ? next(10) == 0 : key == "n" || key == "name" ? next(5) != 0 : next(2) == 0;
      if (!present) continue;
      instance[key] = next(4) == 0 ? values[next(values.size())] : near[next(near.size())];
    }
    if (next(50) == 0) instance = values[next(values.size())];  // now and then not an object at all
    const bool by_fast = fast.validate(instance).empty();
    const bool by_full = full.validate(instance).empty();
    (by_full ? accepted : refused) += 1;
    if (by_fast != by_full && differ++ == 0) first_difference = instance.dump();
  }
  INFO("first instance the two paths disagree on: " << first_difference);
  CHECK(differ == 0);
  CHECK(accepted > 100);  // both outcomes were exercised
  CHECK(refused > 100);
}

TEST_CASE("validation: concurrent validate() from several threads", "[validation]") {
  mcp::validator v(parse(R"({"type":"object","properties":{"code":{"type":"string","pattern":"^[a-z]+[0-9]$"},
                             "n":{"type":"integer","minimum":0}},"required":["code","n"]})"));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        bool good = (i + t) % 2 == 0;
        json args = good ? json{{"code", "abc1"}, {"n", i}} : json{{"code", "ABC"}, {"n", -i - 1}};
        auto problems = v.validate(args);
        if (problems.size() != (good ? 0u : 2u)) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
}

// --- coercion ---------------------------------------------------------------------------------

namespace {

json coerce_schema() {
  return parse(R"({"type":"object","properties":{
      "limit":{"type":"integer"}, "ratio":{"type":"number"}, "flag":{"type":"boolean"},
      "tags":{"type":"array","items":{"type":"string"}}, "ids":{"type":"array","items":{"type":"integer"}},
      "filter":{"type":"object","properties":{"max":{"type":"integer"}}}, "list":{"type":"array"},
      "text":{"type":"string"}, "maybe":{"type":["integer","null"]}}})");
}

// Coerces {"<name>": value} and returns the result for that member, plus the change count.
std::pair<json, int> coerced(const char* name, json value, mcp::coercion policy = mcp::coercion::lossless) {
  json args = {{name, std::move(value)}};
  auto report = mcp::coerce(args, coerce_schema(), policy);
  return {args[name], report.count};
}

}  // namespace

TEST_CASE("coercion: each lossless rule, and off changes nothing", "[coercion]") {
  CHECK(coerced("limit", "5") == std::pair<json, int>(5, 1));
  CHECK(coerced("limit", "-12") == std::pair<json, int>(-12, 1));
  CHECK(coerced("limit", "18446744073709551615").first.get<std::uint64_t>() == 18446744073709551615ULL);
  CHECK(coerced("limit", 5.0) == std::pair<json, int>(5, 1));
  CHECK(coerced("limit", 5.0).first.is_number_integer());
  CHECK(coerced("ratio", "2.5") == std::pair<json, int>(2.5, 1));
  CHECK(coerced("ratio", "3") == std::pair<json, int>(3, 1));
  CHECK(coerced("flag", "true") == std::pair<json, int>(true, 1));
  CHECK(coerced("flag", "false") == std::pair<json, int>(false, 1));
  CHECK(coerced("tags", "solo") == std::pair<json, int>(json::array({"solo"}), 1));
  CHECK(coerced("list", 7) == std::pair<json, int>(json::array({7}), 1));
  CHECK(coerced("tags", R"(["a","b"])") == std::pair<json, int>(json::array({"a", "b"}), 1));
  CHECK(coerced("ids", "4") == std::pair<json, int>(json::array({4}), 2));  // wrapped, then the item converted
  CHECK(coerced("filter", R"({"max":"3"})") == std::pair<json, int>(json{{"max", 3}}, 2));
  CHECK(coerced("maybe", "8") == std::pair<json, int>(8, 1));

  CHECK(coerced("limit", "5", mcp::coercion::off) == std::pair<json, int>("5", 0));
  CHECK(coerced("flag", "true", mcp::coercion::off) == std::pair<json, int>("true", 0));
  CHECK(coerced("tags", "solo", mcp::coercion::off) == std::pair<json, int>("solo", 0));
  CHECK(coerced("filter", R"({"max":3})", mcp::coercion::off) == std::pair<json, int>(R"({"max":3})", 0));
}

TEST_CASE("coercion: refuses anything lossy or ambiguous", "[coercion]") {
  CHECK(coerced("limit", "5.5") == std::pair<json, int>("5.5", 0));
  CHECK(coerced("limit", "007") == std::pair<json, int>("007", 0));
  CHECK(coerced("limit", "+5") == std::pair<json, int>("+5", 0));
  CHECK(coerced("limit", "-0") == std::pair<json, int>("-0", 0));
  CHECK(coerced("limit", " 5") == std::pair<json, int>(" 5", 0));
  CHECK(coerced("limit", "99999999999999999999") == std::pair<json, int>("99999999999999999999", 0));
  CHECK(coerced("limit", 5.5) == std::pair<json, int>(5.5, 0));
  CHECK(coerced("ratio", "2.50") == std::pair<json, int>("2.50", 0));
  CHECK(coerced("ratio", "1e400") == std::pair<json, int>("1e400", 0));
  CHECK(coerced("flag", "yes") == std::pair<json, int>("yes", 0));
  CHECK(coerced("flag", "True") == std::pair<json, int>("True", 0));
  CHECK(coerced("flag", 1) == std::pair<json, int>(1, 0));
  CHECK(coerced("text", 5) == std::pair<json, int>(5, 0));          // no rule turns numbers into strings
  CHECK(coerced("ids", "x") == std::pair<json, int>("x", 0));       // wrapping would not make it fit
  CHECK(coerced("filter", "[1]") == std::pair<json, int>("[1]", 0));  // JSON, but not an object
  CHECK(coerced("limit", 5) == std::pair<json, int>(5, 0));          // already right
}

TEST_CASE("coercion: the log says what changed where", "[coercion]") {
  json args = parse(R"({"limit":"5","flag":"true","tags":"a","filter":"{\"max\":1}"})");
  auto report = mcp::coerce(args, coerce_schema());
  CHECK(report.count == 4);
  CHECK(report.log == std::vector<std::string>{"/filter: string \"{\\\"max\\\":1}\" -> object {\"max\":1}",
                                               "/flag: string \"true\" -> boolean true",
                                               "/limit: string \"5\" -> number 5",
                                               "/tags: string \"a\" -> array [\"a\"]"});
  CHECK(mcp::validator(coerce_schema()).validate(args).empty());
}

TEST_CASE("coercion: follows items, additionalProperties, $ref, and oneOf only when unambiguous", "[coercion]") {
  json schema = parse(R"({"type":"object","$defs":{"n":{"type":"integer"}},"properties":{
      "rows":{"type":"array","items":{"type":"object","properties":{"n":{"$ref":"#/$defs/n"}}}},
      "scores":{"type":"object","additionalProperties":{"type":"number"}},
      "id":{"oneOf":[{"type":"integer"},{"type":"boolean"}]},
      "either":{"anyOf":[{"type":"integer"},{"type":"number"}]},
      "split":{"oneOf":[{"type":"integer"},{"type":"array","items":{"type":"string"}}]},
      "as_is":{"oneOf":[{"type":"integer"},{"type":"string"}]}}})");
  json args = parse(R"({"rows":[{"n":"1"},{"n":2}],"scores":{"x":"0.5"},"id":"true","either":"3","split":"4","as_is":"4"})");
  auto report = mcp::coerce(args, schema);
  CHECK(args["rows"] == parse(R"([{"n":1},{"n":2}])"));
  CHECK(args["scores"]["x"] == 0.5);
  CHECK(args["id"] == true);
  CHECK(args["either"] == 3);    // two branches fit, both reading it as 3
  CHECK(args["split"] == "4");   // 4 or ["4"]: ambiguous, left alone
  CHECK(args["as_is"] == "4");   // already fits a branch
  CHECK(report.count == 4);
}

TEST_CASE("coercion: a root string holding the arguments object", "[coercion]") {
  json args = R"({"limit":"2"})";
  auto report = mcp::coerce(args, coerce_schema());
  CHECK(args == json{{"limit", 2}});
  CHECK(report.count == 2);
  CHECK(report.log.front() == "(root): string \"{\\\"limit\\\":\\\"2\\\"}\" -> object {\"limit\":\"2\"}");
}

// One test per override listed in include/mcp/validation/detail/validation_valijson.hpp. Each checks
// that valijson alone gives the other verdict (so an override that became needless shows up here).
TEST_CASE("override 1: enum, const and uniqueItems compare numbers exactly", "[validation][override]") {
  const json u64_max = std::numeric_limits<std::uint64_t>::max();
  for (const auto& c : std::vector<override_case>{
           {R"({"type":"array","uniqueItems":true})", json::array({9007199254740992LL, 9007199254740993LL}), true, ""},
           {R"({"enum":[-1]})", u64_max, false, "enum"},
           {R"({"const":-1})", u64_max, false, "const"},
       })
    check_override(c);
}

TEST_CASE("override 2: numeric bounds compare exactly, bounds beyond int64 too", "[validation][override]") {
  for (const auto& c : std::vector<override_case>{
           {R"({"type":"integer","maximum":9007199254740992})", 9007199254740993LL, false, "maximum"},
           {R"({"type":"integer","exclusiveMinimum":9007199254740992})", 9007199254740993LL, true, ""},
           {R"({"type":"integer","maximum":18446744073709551615})", 5, true, ""},
           {R"({"type":"integer","minimum":9223372036854775808})", 5, false, "minimum"},
       })
    check_override(c);
}

TEST_CASE("override 3: multipleOf keeps the fraction", "[validation][override]") {
  for (const auto& c : std::vector<override_case>{
           {R"({"multipleOf":5})", 10.5, false, "multipleOf"},
           {R"({"multipleOf":5})", 0.5, false, "multipleOf"},
       })
    check_override(c);
  CHECK(check(args_schema(parse(R"({"multipleOf":0.1})")), json{{"a", 0.3}}).empty());  // 3 x 0.1, within 1e-9
}

TEST_CASE("override 4: lengths count every code point, NUL too", "[validation][override]") {
  for (const auto& c : std::vector<override_case>{
           {R"({"type":"string","minLength":4})", std::string("a\0bc", 4), true, ""},
           {R"({"type":"string","maxLength":1})", std::string("\0\0", 2), false, "maxLength"},
       })
    check_override(c);
  CHECK(one_problem(parse(R"({"type":"string","maxLength":2})"), "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E") ==
        "/a|maxLength|must be at most 2 characters long, got 3 characters: \"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\"");
}

TEST_CASE("override 5: formats the SDK checks, on strings only", "[validation][override]") {
  for (const auto& c : std::vector<override_case>{
           {R"({"type":"string","format":"date"})", "2023-02-29", false, "format"},
           {R"({"type":"string","format":"email"})", "nobody", false, "format"},
           {R"({"type":"string","format":"uuid"})", "123e4567e89b12d3a456426614174000", false, "format"},
           {R"({"type":"string","format":"ipv4"})", "256.0.0.1", false, "format"},
           {R"({"format":"date"})", 5, true, ""},
       })
    check_override(c);
  // Formats the SDK does not know are annotations, as valijson reads them.
  CHECK(check(args_schema(parse(R"({"type":"string","format":"made-up"})")), json{{"a", "x"}}).empty());
}

TEST_CASE("override 6: integers beyond int64 in the value are read as themselves", "[validation][override]") {
  const json u64_max = std::numeric_limits<std::uint64_t>::max();
  for (const auto& c : std::vector<override_case>{
           {R"({"type":"integer","minimum":0})", u64_max, true, ""},
           {R"({"type":"integer","minimum":-32768,"maximum":32767})", u64_max, false, "maximum"},
           {R"({"type":"array","items":{"type":"integer","minimum":0}})", json::array({1, u64_max}), true, ""},
       })
    check_override(c);
  // A stand-in never collides with a negative the value really holds.
  const mcp::validator v(parse(R"({"type":"array","items":{"type":"integer","minimum":-5}})"), mcp::validator::root::any);
  const auto problems = v.validate(json::array({u64_max, std::numeric_limits<std::int64_t>::min()}));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/1");
}

TEST_CASE("override 7: $ref with siblings applies them (2020-12), not ignores them (draft-07)", "[validation][override]") {
  check_override({R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","minLength":2})", "x", false, "minLength"});
}

TEST_CASE("validation: a refusal the walk can not explain stays a refusal, at valijson's pointer",
          "[validation][override]") {
  // valijson's context path, read as data: the pointer of the deepest value it refused.
  const json schema = parse(R"({"type":"object","properties":{"list":{"type":"array","items":{"type":"integer"}}}})");
  const mcp::validator v(schema);
  const auto at = mcp::detail::compiled_of(v).record->refused_at(json{{"list", json::array({1, "x"})}});
  CHECK(at == std::vector<std::string>{"/list/1"});
  CHECK(mcp::detail::compiled_of(v).record->refused_at(json{{"list", json::array({1})}}).empty());
}

}  // namespace test_validation
