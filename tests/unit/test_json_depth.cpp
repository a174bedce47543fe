// Nesting limits everywhere a received value is read or walked: JSON text inside string arguments
// (coercion), values built without the reader, the walks that explain, render, decode and show a
// value, and the other texts the SDK reads (requestState, header values, files). Texts are a
// million levels deep; values built in memory 100,000 (a recursive walk of them would overflow an
// 8 MiB stack; a million would cost a second each to build). Both are built without recursion,
// and nlohmann frees them without recursion too.
#include "catch.hpp"
#include "../nested_args.hpp"

#include <mcp/core/detail/mcp_headers.hpp>
#include <mcp/core/detail/request_state_seal.hpp>
#include <mcp/json/parse.hpp>
#include <mcp/validation/detail/validation_fast_path.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <random>
#include <string>
#include <vector>

using mcp::json;

namespace test_json_depth {  // a namespace per file: CMake's unity build compiles several test files as one

namespace jd {

// `levels` arrays one inside the other, the innermost holding `core` (or empty).
json nested_arrays(std::size_t levels, json core = nullptr) {
  json root = json::array();
  json* at = &root;
  for (std::size_t i = 1; i < levels; ++i) {
    at->push_back(json::array());
    at = &at->back();
  }
  if (!core.is_null()) at->push_back(std::move(core));
  return root;
}

constexpr std::size_t deep = 100000;

std::string nested_text(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

using nested::nums_args;
using nested::point;

struct tree {
  std::string name;
  std::vector<tree> children;
};
MCP_STRUCT(tree, (name, "Name"), (children, "Children"));

struct holder {
  json any;
};
MCP_STRUCT(holder, (any, "Anything"));

// The old render: the whole dump, then the cut. The bounded one must agree wherever this one works.
std::string render_by_dump(const json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  text += value.is_string() ? "...\"" : "...";
  return text;
}

mcp::server make_server(std::size_t max_json_depth = 128) {
  mcp::server_options o;
  o.max_json_depth = max_json_depth;
  o.log_sink = [](std::string_view) {};
  return mcp::server({"depth", "1.0"}, o);
}

json list_schema() {
  return json::parse(R"({"type":"object","properties":{
      "list":{"type":"array"},
      "outer":{"type":"object","properties":{"inner":{"type":"array"}}},
      "note":{"type":"string"}},"additionalProperties":false})");
}

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

}  // namespace jd

using namespace jd;

TEST_CASE("json reader: the levels already open around a value count toward the limit", "[depth]") {
  json out;
  CHECK(mcp::detail::read_json("[[1]]", out, 3, 1) == mcp::detail::read_result::ok);
  CHECK(mcp::detail::read_json("[[[1]]]", out, 3, 1) == mcp::detail::read_result::too_deep);
  CHECK(mcp::detail::read_json("[[[1]]]", out, 3, 0) == mcp::detail::read_result::ok);
  CHECK(mcp::detail::read_json("5", out, 0, 7) == mcp::detail::read_result::ok);  // a scalar adds no level
  CHECK(mcp::detail::read_json(nested_text(1000000), out, 128, 3) == mcp::detail::read_result::too_deep);
  // Where nlohmann stops at a NUL byte and keeps what it read, the reader refuses the text.
  const std::string with_nul("[1]\0[2]", 7);
  CHECK_FALSE(json::parse(with_nul, nullptr, false).is_discarded());  // nlohmann: [1], the rest dropped
  CHECK(mcp::detail::read_json(with_nul, out, 128) == mcp::detail::read_result::invalid);
}

TEST_CASE("nested_deeper_than: exact at the limit, and safe on any depth", "[depth]") {
  using mcp::detail::nested_deeper_than;
  CHECK_FALSE(nested_deeper_than(json(5), 0));
  CHECK(nested_deeper_than(json::array(), 0));
  CHECK_FALSE(nested_deeper_than(json::array(), 1));
  CHECK_FALSE(nested_deeper_than(nested_arrays(10), 10));
  CHECK(nested_deeper_than(nested_arrays(11), 10));
  CHECK(nested_deeper_than(json{{"a", {1, 2, {{"b", nested_arrays(8)}}}}}, 10));  // 1 + 1 + 1 + 8 = 11 levels
  CHECK_FALSE(nested_deeper_than(json{{"a", {1, 2, {{"b", nested_arrays(7)}}}}}, 10));
  CHECK(nested_deeper_than(nested_arrays(deep), 128));
}

TEST_CASE("render: the same text as dump-and-cut, at a cost bounded by what it shows", "[depth]") {
  const std::vector<json> values = {
      json(nullptr), json(true), json(-12), json(18446744073709551615ULL), json(2.5), json(1e300), json("short"),
      json(std::string(200, 'x')), json("caf\xC3\xA9 " + std::string(70, 'e') + "\xE2\x82\xAC"), json("bad \xFF utf-8"),
      json("\x01\"\\ escapes"), json::array({1, "two", nullptr, json::object()}),
      json{{"key", std::string(100, 'k')}, {std::string(100, 'n'), 1}},
      json{{"nested", {{"deeper", {1, 2, 3, {{"x", std::string(40, 'z')}}}}}}}, nested_arrays(40, 7),
      json::array({std::string(59, 'a') + "\xC3\xA9", 1})};
  for (const auto& v : values)
    for (std::size_t limit : {0, 1, 5, 20, 60, 200}) {
      INFO(v.dump(-1, ' ', false, json::error_handler_t::replace) << " limit " << limit);
      CHECK(mcp::detail::render(v, limit) == render_by_dump(v, limit));
    }
  // What dump could not do: 100,000 levels, or a very long string, shown in a few bytes.
  CHECK(mcp::detail::render(nested_arrays(deep)) == std::string(60, '[') + "...");
  CHECK(mcp::detail::render(json(std::string(10000000, 'y'))) == "\"" + std::string(59, 'y') + "...\"");
  CHECK(mcp::detail::describe_value(nested_arrays(deep)).size() < 80);
}

TEST_CASE("json_writer's prefix mode writes the first bytes of the whole text", "[depth]") {
  const json v = {{"a", {1, 2.5, "x\n\xC3\xA9", nullptr}}, {"b", {{"c", true}}}, {"d", std::string(30, 'd')}};
  const std::string whole = mcp::detail::to_json_text(v);
  for (std::size_t stop = 0; stop < whole.size() + 2; ++stop) {
    std::string out;
    mcp::detail::json_writer(out, stop).value(v);
    if (whole.size() <= stop) {
      CHECK(out == whole);
    } else {
      REQUIRE(out.size() > stop);
      CHECK(out.substr(0, stop + 1) == whole.substr(0, stop + 1));
    }
  }
}

TEST_CASE("validator: a value deeper than the limit gets one depth violation, for every kind of schema", "[depth]") {
  const json deep_any = {{"any", nested_arrays(deep)}};
  // Plain (the fast path does not look into a field without a type: it measures it), general, and
  // recursive: all of them refuse the same values.
  mcp::validator plain(mcp::schema_of<holder>());
  mcp::validator general(json{{"type", "object"}, {"properties", {{"any", {{"not", {{"type", "string"}}}}}}}});
  mcp::validator recursive(mcp::schema_of<tree>());
  for (const mcp::validator* v : {&plain, &general}) {
    CHECK(v->validate(json{{"any", nested_arrays(127)}}).empty());
    auto problems = v->validate(json{{"any", nested_arrays(128)}});
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].keyword == "depth");
    problems = v->validate(json{{"any", 1}, {"extra", nested_arrays(deep)}}, 20);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].keyword == "depth");
    CHECK(problems[0].message.find("more than 20 levels") != std::string::npos);
  }
  auto problems = general.validate(deep_any);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer.empty());
  json chain = {{"name", "n"}, {"children", json::array()}};
  for (int i = 0; i < 200; ++i) chain = {{"name", "n"}, {"children", json::array({std::move(chain)})}};
  problems = recursive.validate(chain);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].keyword == "depth");
  CHECK(recursive.validate(chain, 1000).empty());
}

// A value of up to `levels` levels, of random shape: objects over the names the schemas below know
// and one they do not, arrays of one to three values, scalars.
json random_value(std::mt19937& rng, int levels) {
  const int kind = levels <= 0 ? 2 : static_cast<int>(rng() % 5);
  if (kind == 0 || kind == 1) {
    json out = kind == 0 ? json::object() : json::array();
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
      json child = random_value(rng, levels - 1);
      if (kind == 1) out.push_back(std::move(child));
      else out[std::string(1, "abx"[rng() % 3])] = std::move(child);
    }
    return out;
  }
  const json scalars[] = {1, "s", nullptr, 2.5, true};
  return scalars[rng() % 5];
}

TEST_CASE("fast path: accepts_within answers accepts() and the depth check together", "[depth][fast]") {
  // Schemas that look into every level, some, or none: properties of an open object, a closed one,
  // additionalProperties, items and none, rules that compare whole values, "$ref", anyOf.
  const auto at_p = [](const char* node) {  // a validator's root is an object: other shapes sit at "p"
    return json{{"type", "object"}, {"properties", {{"p", json::parse(node)}}}};
  };
  const std::vector<json> schemas = {
      mcp::schema_of<holder>(),
      mcp::schema_of<tree>(),
      json::parse(R"({"type":"object","properties":{"a":{"type":"array","items":{"type":"array"}},"b":{}}})"),
      json::parse(R"({"type":"object","properties":{"a":{},"b":{"type":"object"}},"additionalProperties":false})"),
      json::parse(R"({"type":"object","additionalProperties":{"type":["array","object"]}})"),
      json::parse(R"({"type":"object","enum":[{"a":[[1]]},{"a":[1]},{"b":{"c":1}}]})"),
      json::parse(R"({"type":"object","const":{"a":{"b":[1]}}})"),
      json::parse(R"({"type":"object","allOf":[{"properties":{"x":{"items":{"type":"array"}}}}]})"),
      at_p(R"({"type":"array","maxItems":3})"),
      at_p(R"({"items":{"type":"array","items":{}}})"),
      at_p(R"({"type":"array","uniqueItems":true})"),
      at_p(R"({"anyOf":[{"type":"array","items":{"type":"object"}},{"type":"object","properties":{"a":{"type":"array"}}}]})"),
      at_p("true")};
  std::mt19937 rng(24);
  std::size_t yes = 0, too_deep = 0;
  for (const json& schema : schemas) {
    const mcp::validator v(schema);
    const mcp::detail::plain_schema* fast = mcp::detail::fast_path_of(v);
    REQUIRE(fast);
    std::vector<json> values = {json{{"a", {{1}}}}, json{{"a", {1}}}, json{{"b", {{"c", 1}}}}, json{{"a", {{"b", {1}}}}},
                                json{{"name", "n"}, {"children", json::array()}}, json{{"p", {{1}}}},
                                json{{"p", {1, "s"}}}, json{{"p", {json{{"a", {1}}}}}}};
    for (int i = 0; i < 300; ++i) {
      json value = random_value(rng, 1 + i % 7);
      values.push_back(i % 2 ? value : json{{"p", std::move(value)}});
    }
    for (const json& value : values)
      for (std::size_t limit = 0; limit <= 8; ++limit) {
        INFO(schema.dump() << " on " << value.dump() << " within " << limit);
        const bool expected = fast->accepts(value) && !mcp::detail::nested_deeper_than(value, limit);
        CHECK(fast->accepts_within(value, limit) == expected);
        yes += expected;
        too_deep += fast->accepts(value) && !expected;
      }
    // Rules that compare whole values, on a value too deep to recurse through: measured, not followed.
    CHECK_FALSE(fast->accepts_within(json{{"p", nested_arrays(deep)}}, 128));
    CHECK_FALSE(fast->accepts_within(json{{"a", nested_arrays(deep)}}, 128));
    CHECK_FALSE(fast->accepts_within(json{{"p", json::array({nested_arrays(deep), nested_arrays(deep)})}}, 128));
  }
  CHECK(yes > 1000);      // both answers, and refusals for depth alone, were seen
  CHECK(too_deep > 1000);
}

TEST_CASE("validator: a schema nested deeper than 128 levels is refused with a message", "[depth]") {
  json schema = {{"type", "object"}};
  for (int i = 0; i < 100; ++i) schema = {{"type", "object"}, {"properties", {{"p", std::move(schema)}}}};
  CHECK_THROWS_WITH(mcp::validator(schema), Catch::Contains("nested more than 128 levels"));
  json hostile = {{"type", "object"}, {"enum", json::array()}};
  hostile["enum"].push_back(nested_arrays(deep));
  CHECK_THROWS_AS(mcp::validator(hostile), mcp::schema_error);
}

TEST_CASE("coercion: JSON in a string is read under the limit, counting the levels around it", "[depth][coercion]") {
  const json schema = list_schema();
  json args = {{"list", nested_text(5)}};
  auto report = mcp::coerce(args, schema, mcp::coercion::lossless, 6);  // list sits one level down: room for 5
  CHECK(report.count == 1);
  CHECK(args["list"] == nested_arrays(5));
  CHECK_FALSE(mcp::detail::nested_deeper_than(args, 6));

  args = {{"list", nested_text(6)}};
  report = mcp::coerce(args, schema, mcp::coercion::lossless, 6);
  CHECK(report.count == 0);
  CHECK(args["list"] == nested_text(6));  // refused, and not wrapped into ["[[[..."] either
  REQUIRE(report.refused.size() == 1);
  CHECK(report.refused[0].pointer == "/list");
  CHECK(report.refused[0].keyword == "depth");
  CHECK(report.refused[0].message.find("nested more than 5 levels") != std::string::npos);

  // Behind a byte-order mark, which the reader skips, the same: read, or refused (not wrapped).
  const std::string bom = "\xEF\xBB\xBF";
  args = {{"list", bom + nested_text(5)}};
  CHECK(mcp::coerce(args, schema, mcp::coercion::lossless, 6).count == 1);
  CHECK(args["list"] == nested_arrays(5));
  args = {{"list", bom + " " + nested_text(6)}};
  report = mcp::coerce(args, schema, mcp::coercion::lossless, 6);
  CHECK(report.count == 0);
  CHECK(args["list"] == bom + " " + nested_text(6));
  REQUIRE(report.refused.size() == 1);
  CHECK(report.refused[0].keyword == "depth");

  args = {{"outer", {{"inner", nested_text(4)}}}};  // two levels down: room for 4
  CHECK(mcp::coerce(args, schema, mcp::coercion::lossless, 6).count == 1);
  args = {{"outer", {{"inner", nested_text(5)}}}};
  report = mcp::coerce(args, schema, mcp::coercion::lossless, 6);
  CHECK(report.count == 0);
  REQUIRE(report.refused.size() == 1);
  CHECK(report.refused[0].pointer == "/outer/inner");

  args = {{"list", nested_text(1000000)}};
  report = mcp::coerce(args, schema);
  CHECK(report.count == 0);
  CHECK(report.refused.size() == 1);
  // Wrapping one value into a list adds a level: not past the limit either.
  args = {{"outer", {{"inner", {{"deep", nested_arrays(3)}}}}}};  // 1 + 1 + 1 + 3 levels; wrapped would be 7
  CHECK(mcp::coerce(args, schema, mcp::coercion::lossless, 6).count == 0);
  CHECK(mcp::coerce(args, schema, mcp::coercion::lossless, 7).count == 1);
}

TEST_CASE("coercion: a value already deeper than the limit is left alone, never walked", "[depth][coercion]") {
  json args = {{"list", "[1]"}, {"note", nested_arrays(deep)}};
  auto report = mcp::coerce(args, list_schema());
  CHECK(report.count == 0);
  CHECK(args["list"] == "[1]");
}

TEST_CASE("coercion: a NUL byte or text after the value makes the string unreadable, not cut short",
          "[depth][coercion]") {
  const json schema = json::parse(R"({"type":"object","properties":{
      "rows":{"type":"array","items":{"type":"object"}},"filter":{"type":"object"},"n":{"type":"number"}}})");
  for (const std::string& text : {std::string("[{\"a\":1}]\0anything", 18), std::string("[{\"a\":1}]\0", 10),
                                  std::string("[{\"a\":1}] [{}]"), std::string("[{\"a\":1}]x")}) {
    json args = {{"rows", text}};
    CHECK(mcp::coerce(args, schema).count == 0);
    CHECK(args["rows"] == text);
  }
  json args = {{"filter", std::string("{\"a\":1}\0{\"b\":2}", 15)}, {"n", std::string("2.5\0", 4)}};
  CHECK(mcp::coerce(args, schema).count == 0);
  // Nor is such a string taken whole as the one item of a list: it was meant as JSON.
  for (const std::string& text : {std::string("[1]\0", 4), std::string("[1,2"), std::string(" {\"a\":1}"),
                                  nested_text(200)}) {
    json list = {{"list", text}};
    CHECK(mcp::coerce(list, list_schema()).count == 0);
    CHECK(list["list"] == text);
  }
  json solo = {{"list", "solo"}};
  CHECK(mcp::coerce(solo, list_schema()).count == 1);
  CHECK(solo["list"] == json::array({"solo"}));
  args = {{"rows", "[{\"a\":\"x\\u0000y\"}]"}};  // an escaped NUL inside a string is fine
  CHECK(mcp::coerce(args, schema).count == 1);
  CHECK(args["rows"][0]["a"] == std::string("x\0y", 3));
}

TEST_CASE("coercion: null for an optional field is left out and counted; required, nullable and unknown stay",
          "[coercion]") {
  const json schema = json::parse(R"({"type":"object","properties":{
      "name":{"type":"string"},"limit":{"type":"integer"},"maybe":{"type":["integer","null"]},
      "inner":{"type":"object","properties":{"tag":{"type":"string"}}}},
      "required":["name"],"additionalProperties":{"type":"integer"}})");
  json args = {{"name", "a"}, {"limit", nullptr}, {"maybe", nullptr}, {"inner", {{"tag", nullptr}}}};
  auto report = mcp::coerce(args, schema);
  CHECK(args == json{{"name", "a"}, {"maybe", nullptr}, {"inner", json::object()}});
  CHECK(report.count == 2);
  const std::string why = ": null -> left out (optional, and null is not one of its values)";
  CHECK(report.log == std::vector<std::string>{"/limit" + why, "/inner/tag" + why});
  CHECK(mcp::validator(schema).validate(args).empty());

  json required_null = {{"name", nullptr}};
  CHECK(mcp::coerce(required_null, schema).count == 0);
  CHECK(required_null == json{{"name", nullptr}});
  json unknown_null = {{"name", "a"}, {"other", nullptr}};  // not a declared property
  CHECK(mcp::coerce(unknown_null, schema).count == 0);
  json off = {{"name", "a"}, {"limit", nullptr}};
  CHECK(mcp::coerce(off, schema, mcp::coercion::off).count == 0);

  // Without coercion the validator refuses it, and says what to do.
  auto problems = mcp::validator(schema).validate(off);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/limit");
  CHECK(problems[0].message ==
        "must be an integer, got null; the field is optional: leave it out rather than send null");
  problems = mcp::validator(schema).validate(required_null);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message == "must be a string, got null");  // required: no such advice
}

TEST_CASE("decode: a value deeper than the limit is refused before anything recurses into it", "[depth]") {
  json chain = {{"name", "leaf"}, {"children", json::array()}};
  for (int i = 0; i < 100; ++i) chain = {{"name", "n"}, {"children", json::array({std::move(chain)})}};
  CHECK(mcp::decode<tree>(chain, 300).children.size() == 1);  // 202 levels fit a limit of 300
  CHECK_THROWS_WITH(mcp::decode<tree>(chain), Catch::Contains("nested more than 128 levels"));
  CHECK_THROWS_AS(mcp::decode<holder>(json{{"any", nested_arrays(deep)}}), mcp::decode_error);
  CHECK(mcp::decode<holder>(json{{"any", nested_arrays(100)}}).any == nested_arrays(100));
}

TEST_CASE("render_markdown: levels beyond the limit are a note, never walked", "[depth][render]") {
  const std::string text = mcp::render_markdown(json{{"deep", nested_arrays(deep, 1)}});
  CHECK(text.find("(nested more than 128 levels deep; not shown)") != std::string::npos);
  CHECK(text.size() < 200000);
  CHECK(mcp::render_markdown(json{{"a", {{"b", {{"c", 1}}}}}}, json(), 2) ==
        "```\nA:\n  B:\n    (nested more than 2 levels deep; not shown)\n```");
  CHECK(mcp::render_markdown(json{{"a", {{"b", {{"c", 1}}}}}}, json(), 3) == "```\nA:\n  B:\n    C: 1\n```");
  CHECK(mcp::detail::valid_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("server: a message deeper than max_json_depth is refused while it is read, and serving goes on", "[depth]") {
  // Every message reaches the core as text (connection::receive): there is no road for a tree
  // that could skip the reader's limit.
  auto srv = make_server();
  mcp::testing::client c(srv);
  c.initialize();
  c.send_text(R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":)" + nested_text(deep) + "}}");
  auto got = c.messages().drain();
  REQUIRE(got.size() == 1);
  CHECK(got[0]["error"]["code"] == mcp::error_code::invalid_request);
  CHECK(got[0]["error"]["message"].get<std::string>().find("deeper than 128") != std::string::npos);
  CHECK(c.request("ping").contains("result"));
}

TEST_CASE("typed and runtime tools: deep JSON in a string is a tool error that says why; serving goes on",
          "[depth][coercion]") {
  auto srv = make_server();
  srv.tool("nums", "Numbers", [](const nums_args& in) { return std::to_string(in.values.size()) + " values"; });
  srv.tool("doc", "Lists", mcp::runtime_schema{list_schema(), nullptr}, [](const json& args) { return args.dump(); });
  mcp::testing::client c(srv);
  c.initialize();
  using target = std::pair<std::string, std::string>;
  for (const auto& [tool, field] : {target{"nums", "values"}, {"nums", "at"}, {"nums", "path"}, {"doc", "list"}}) {
    json args = {{field, nested_text(1000000)}};
    if (tool == "nums" && field != "values") args["values"] = {1};
    json r = c.call_tool(tool, args);
    INFO(tool << " " << field << ": " << text_of(r));
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("/" + field + ": holds JSON nested more than 125 levels deep") != std::string::npos);
    CHECK(text_of(r).size() < 1000);
    CHECK(c.request("ping").contains("result"));
  }
  CHECK(srv.metrics("nums").validation_failures == 3);
  // Right at the limit it is read: arguments 126 deep, the message around them 128.
  json r = c.call_tool("doc", {{"list", nested_text(125)}});
  CHECK_FALSE(r.value("isError", false));
  r = c.call_tool("doc", {{"list", nested_text(126)}});
  CHECK(r["isError"] == true);
  // And the count follows the server's limit.
  auto small = make_server(10);
  small.tool("doc", "Lists", mcp::runtime_schema{list_schema(), nullptr},
             [](const json&) { return std::string("ok"); });
  mcp::testing::client s(small);
  s.initialize();
  CHECK_FALSE(s.call_tool("doc", {{"outer", {{"inner", nested_text(6)}}}}).value("isError", false));  // 2 + 2 + 6 = 10
  r = s.call_tool("doc", {{"outer", {{"inner", nested_text(7)}}}});
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("/outer/inner: holds JSON nested more than 6 levels deep") != std::string::npos);
}

TEST_CASE("typed and runtime tools: a NUL byte inside the JSON text of a string argument is refused", "[coercion]") {
  auto srv = make_server();
  int calls = 0;
  srv.tool("nums", "Numbers", [&](const nums_args&) { return std::to_string(++calls); });
  srv.tool("doc", "Lists", mcp::runtime_schema{list_schema(), nullptr},
           [&](const json&) { return std::to_string(++calls); });
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(c.call_tool("nums", {{"values", std::string("[1,2]\0[3]", 9)}})["isError"] == true);
  CHECK(c.call_tool("nums", {{"values", {1}}, {"at", std::string("{\"x\":1,\"y\":2}\0", 14)}})["isError"] == true);
  CHECK(c.call_tool("doc", {{"outer", {{"inner", std::string("[1]\0", 4)}}}})["isError"] == true);
  CHECK(calls == 0);
  CHECK(c.call_tool("nums", {{"values", "[1,2]"}})["content"][0]["text"] == "1");  // the same without the NUL
}

TEST_CASE("typed tool: null for an optional field is absent under lossless coercion (counted), refused when off",
          "[coercion]") {
  auto srv = make_server();
  std::optional<int> seen_limit = 5;
  auto handler = [&](const nums_args& in) {
    seen_limit = in.limit;
    return std::string("ok");
  };
  srv.tool("nums", "Numbers", handler);
  mcp::tool_options strict;
  strict.coerce = mcp::coercion::off;
  srv.tool("nums_strict", "Numbers", handler, strict);
  mcp::testing::client c(srv);
  c.initialize("2025-11-25", json::object());
  c.request("logging/setLevel", {{"level", "debug"}});
  json r = c.call_tool("nums", {{"values", {1}}, {"limit", nullptr}, {"path", nullptr}});
  CHECK_FALSE(r.value("isError", false));
  CHECK_FALSE(seen_limit.has_value());
  CHECK(srv.metrics("nums").coercions == 2);
  bool logged = false;
  for (const auto& m : c.messages().drain())
    if (m.value("method", "") == "notifications/message" && m["params"]["logger"] == "mcp.coercion")
      logged = m["params"]["data"]["coerced"].dump().find("/limit: null -> left out") != std::string::npos;
  CHECK(logged);

  r = c.call_tool("nums_strict", {{"values", {1}}, {"limit", nullptr}});
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("/limit: must be an integer, got null; the field is optional: leave it out") !=
        std::string::npos);
  CHECK(srv.metrics("nums_strict").coercions == 0);
  CHECK(srv.metrics("nums_strict").validation_failures == 1);
}

TEST_CASE("mcp headers: a header's number is read whole; a body value is shown cut short", "[depth]") {
  CHECK(mcp::detail::headers_impl::number_matches("42", json(42)));
  CHECK(mcp::detail::headers_impl::number_matches("4.2e1", json(42)));
  CHECK_FALSE(mcp::detail::headers_impl::number_matches(std::string("42\0", 3), json(42)));
  CHECK_FALSE(mcp::detail::headers_impl::number_matches("42 7", json(42)));
  CHECK_FALSE(mcp::detail::headers_impl::number_matches("[42]", json(42)));
  CHECK(mcp::detail::headers_impl::body_text(nested_arrays(deep)).size() < 220);
  CHECK(mcp::detail::headers_impl::body_text(json(1.5)) == "1.5");
}

TEST_CASE("requestState: a token is read back under the server's depth limit", "[depth]") {
  mcp::detail::state_sealer sealer("k3y", nullptr, 100, 8);
  const json params = {{"name", "t"}};
  const auto ttl = std::chrono::seconds(60);
  const std::string ok = sealer.seal({{"answers", {{"a", nested_arrays(5)}}}}, "tools/call", params, ttl);
  CHECK(sealer.open(ok, "tools/call", params)["answers"]["a"] == nested_arrays(5));
  // Sealed with the key yet too deep to read back (a server with a higher limit sharing the key):
  // refused as any unreadable token is.
  const std::string deep = sealer.seal({{"answers", {{"a", nested_arrays(20)}}}}, "tools/call", params, ttl);
  CHECK_THROWS_AS(sealer.open(deep, "tools/call", params), mcp::protocol_error);
}

TEST_CASE("parse_json: the reader for files, with the reason for a refusal", "[depth]") {
  std::string why;
  CHECK(mcp::parse_json("{\"a\":[1]}").value() == json{{"a", {1}}});
  CHECK_FALSE(mcp::parse_json(std::string("{}\0{}", 5), 128, &why));
  CHECK(why == "not valid JSON");
  CHECK_FALSE(mcp::parse_json("{} {}", 128, &why));
  CHECK_FALSE(mcp::parse_json(nested_text(1000000), 128, &why));
  CHECK(why == "nested more than 128 levels deep");
  CHECK(mcp::parse_json(nested_text(3), 3));
}

}  // namespace test_json_depth
