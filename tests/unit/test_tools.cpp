// The typed tool pipeline end to end: schemas from handler types, validation, coercion, results,
// rendering, runtime-schema tools, metrics; every reply checked against the official schema.
#include "catch.hpp"
#include "official_schema.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

using mcp::json;

namespace tt {

struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

struct add_result {
  long long total = 0;
};
MCP_STRUCT(add_result, (total, "a + b"));

enum class color { red, green };
MCP_ENUM(color, (red, "red"), (green, "green"));

struct paint_args {
  std::string name;
  color shade = color::green;
  std::optional<std::string> note;
  std::vector<int> sizes;
};
MCP_STRUCT(paint_args, (name, "What to paint", mcp::min_length(3)), (shade, "Colour"), (note, "Optional note"),
           (sizes, "Sizes to paint", mcp::max_items(3)));

struct profile {
  std::string name;
  std::optional<std::string> email;
  std::string bio;
};
MCP_STRUCT(profile, (name, "Name"), (email, "Email"), (bio, "Biography"));

struct shouty {
  std::string word;
};
MCP_STRUCT(shouty, (word, "A word"));

}  // namespace tt

template <>
struct mcp::text_renderer<tt::shouty> {
  static std::string render(const tt::shouty& s) { return s.word + "!"; }
};

namespace {

mcp::server make_server(std::vector<std::string>* diagnostics = nullptr) {
  mcp::server_info info;
  info.name = "tools-test";
  info.version = "1.0";
  mcp::server_options options;
  if (diagnostics) options.log_sink = [diagnostics](std::string_view s) { diagnostics->emplace_back(s); };
  return mcp::server(info, options);
}

json call(mcp::testing::client& c, const std::string& tool, json args) {
  json r = c.request("tools/call", {{"name", tool}, {"arguments", std::move(args)}});
  INFO(r.dump());
  REQUIRE(r.contains("result"));
  CHECK_OFFICIAL(r["result"], "CallToolResult");
  return r["result"];
}

std::string text_of(const json& result) { return result.at("content").at(0).at("text").get<std::string>(); }

}  // namespace

TEST_CASE("typed tool: schemas from the handler's types, structured result plus JSON text") {
  auto srv = make_server();
  srv.tool("add", "Adds two integers.", [](const tt::add_args& in) -> tt::add_result { return {in.a + in.b}; },
           mcp::annotations{.read_only = true, .open_world = false});
  mcp::testing::client c(srv);
  c.initialize();
  json list = c.result("tools/list");
  CHECK_OFFICIAL(list, "ListToolsResult");
  json tool = list["tools"][0];
  CHECK(tool["inputSchema"] == mcp::schema_of<tt::add_args>());
  CHECK(tool["outputSchema"] == mcp::schema_of<tt::add_result>());
  CHECK(tool["annotations"] == json{{"readOnlyHint", true}, {"openWorldHint", false}});

  json r = call(c, "add", {{"a", 2}, {"b", 40}});
  CHECK(r["structuredContent"] == json{{"total", 42}});
  CHECK(text_of(r) == "{\"total\":42}");
  CHECK_FALSE(r.contains("isError"));
}

TEST_CASE("typed tool: every handler shape and return type") {
  auto srv = make_server();
  srv.tool("nothing", "No arguments.", [] { return std::string("plain"); });
  srv.tool("with_ctx", "Context only.", [](mcp::context& ctx) { return std::string(ctx.cancelled() ? "c" : "ok"); });
  srv.tool("both", "Args and context.", [](const tt::add_args& in, mcp::context&) -> mcp::result<tt::add_result> {
    if (in.b == 0) return mcp::tool_error("b must not be zero here; pass any other integer.");
    return tt::add_result{in.a * in.b};
  });
  srv.tool("full", "Full control.", [](const tt::add_args&) {
    mcp::tool_result r;
    r.content.push_back(mcp::text("one"));
    r.content.push_back(mcp::image("\x89PNG", "image/png"));
    return r;
  });
  srv.tool("thrower", "Throws a tool_error.", [](const tt::add_args&) -> std::string { throw mcp::tool_error("nope, try b=1"); });
  mcp::testing::client c(srv);
  c.initialize();

  json list = c.result("tools/list");
  CHECK(list["tools"][0]["inputSchema"] == json{{"type", "object"}, {"additionalProperties", false}});
  CHECK_FALSE(list["tools"][0].contains("outputSchema"));

  CHECK(text_of(call(c, "nothing", json::object())) == "plain");
  CHECK(text_of(call(c, "with_ctx", json::object())) == "ok");
  json unexpected = call(c, "nothing", {{"x", 1}});
  CHECK(unexpected["isError"] == true);
  CHECK(text_of(unexpected).find("x") != std::string::npos);

  CHECK(call(c, "both", {{"a", 6}, {"b", 7}})["structuredContent"] == json{{"total", 42}});
  json refused = call(c, "both", {{"a", 6}, {"b", 0}});
  CHECK(refused == json{{"content", {{{"type", "text"}, {"text", "b must not be zero here; pass any other integer."}}}},
                        {"isError", true}});

  json full = call(c, "full", {{"a", 1}, {"b", 1}});
  CHECK(full["content"].size() == 2);
  CHECK(full["content"][1]["type"] == "image");

  json thrown = call(c, "thrower", {{"a", 1}, {"b", 1}});
  CHECK(thrown["isError"] == true);
  CHECK(text_of(thrown) == "nope, try b=1");
}

TEST_CASE("typed tool: argument errors list every violation for the model") {
  auto srv = make_server();
  srv.tool("paint", "Paints.", [](const tt::paint_args& in) { return "painted " + in.name; });
  mcp::testing::client c(srv);
  c.initialize();
  json r = call(c, "paint", {{"name", "ab"}, {"shade", "blue"}, {"sizes", {1, 2, 3, 4}}, {"colour", "x"}});
  CHECK(r["isError"] == true);
  std::string text = text_of(r);
  INFO(text);
  CHECK(text.find("paint") != std::string::npos);
  CHECK(text.find("/name") != std::string::npos);
  CHECK(text.find("/shade") != std::string::npos);
  CHECK(text.find("green") != std::string::npos);  // the allowed values
  CHECK(text.find("/sizes") != std::string::npos);
  CHECK(text.find("colour") != std::string::npos);  // the unknown argument...
  CHECK(text.find("note") != std::string::npos);    // ...and the valid names
  CHECK(text == mcp::describe_violations("paint", mcp::validator(mcp::schema_of<tt::paint_args>()).validate(
                                                      {{"name", "ab"}, {"shade", "blue"}, {"sizes", {1, 2, 3, 4}}, {"colour", "x"}}),
                                         mcp::schema_of<tt::paint_args>()));

  json missing = call(c, "paint", json::object());
  CHECK(missing["isError"] == true);
  CHECK(text_of(missing).find("name") != std::string::npos);
  CHECK(call(c, "paint", {{"name", "wall"}, {"sizes", json::array()}})["content"][0]["text"] == "painted wall");
}

TEST_CASE("typed tool: lossless coercion is on by default, per-tool off, and counted") {
  auto srv = make_server();
  auto handler = [](const tt::add_args& in) -> tt::add_result { return {in.a + in.b}; };
  srv.tool("add", "Adds.", handler);
  mcp::tool_options strict;
  strict.coerce = mcp::coercion::off;
  srv.tool("add_strict", "Adds, no coercion.", handler, strict);
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(call(c, "add", {{"a", "5"}, {"b", 1}})["structuredContent"]["total"] == 6);
  CHECK(srv.metrics("add").coercions == 1);
  CHECK(call(c, "add", {{"a", "5.5"}, {"b", 1}})["isError"] == true);  // lossy: refused
  CHECK(call(c, "add_strict", {{"a", "5"}, {"b", 1}})["isError"] == true);
  CHECK(srv.metrics("add_strict").coercions == 0);
}

TEST_CASE("typed tool: output is validated against its schema when asked") {
  std::vector<std::string> diagnostics;
  auto srv = make_server(&diagnostics);
  mcp::runtime_schema schema{{{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}},
                             {{"type", "object"},
                              {"properties", {{"count", {{"type", "integer"}, {"minimum", 0}}}}},
                              {"required", {"count"}}}};
  mcp::tool_options checked;
  checked.validate_output = true;
  srv.tool("count", "Counts.", schema, [](const json& args) { return json{{"count", static_cast<int>(args.value("q", "").size()) - 10}}; },
           checked);
  mcp::tool_options unchecked;
  unchecked.validate_output = false;
  srv.tool("count_unchecked", "Counts.", schema,
           [](const json& args) { return json{{"count", static_cast<int>(args.value("q", "").size()) - 10}}; }, unchecked);
  mcp::testing::client c(srv);
  c.initialize();
  json bad = call(c, "count", {{"q", "abc"}});
  CHECK(bad["isError"] == true);
  CHECK(text_of(bad).find("does not match its declared output schema") != std::string::npos);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].find("/count") != std::string::npos);
  CHECK(call(c, "count_unchecked", {{"q", "abc"}})["structuredContent"]["count"] == -7);
}

TEST_CASE("typed tool: Markdown, custom and per-type renderers; non-object outputs are wrapped") {
  auto srv = make_server();
  mcp::tool_options md;
  md.format = mcp::text_format::markdown;
  srv.tool("who", "Profile.", [] { return tt::profile{"Ada", std::nullopt, "uses ``` fences"}; }, md);
  mcp::tool_options custom;
  custom.render = [](const json& j) { return "name=" + j["name"].get<std::string>(); };
  srv.tool("who_custom", "Profile.", [] { return tt::profile{"Ada", std::nullopt, "x"}; }, custom);
  srv.tool("shout", "Shouts.", [] { return tt::shouty{"hey"}; });
  srv.tool("sizes", "A list.", [] { return std::vector<int>{1, 2, 3}; });
  mcp::testing::client c(srv);
  c.initialize();

  std::string text = text_of(call(c, "who", json::object()));
  CHECK(text == mcp::render_markdown(json{{"name", "Ada"}, {"bio", "uses ``` fences"}}, mcp::schema_of_ordered<tt::profile>()));
  CHECK(text.find("Name: Ada") < text.find("Email: N/A"));  // declaration order, not alphabetical
  CHECK(text.find("Email: N/A") < text.find("Bio:"));
  CHECK(text.find("N/A") != std::string::npos);
  CHECK(text.rfind("````", 0) == 0);  // a fence longer than the backticks inside
  CHECK(text_of(call(c, "who_custom", json::object())) == "name=Ada");
  CHECK(text_of(call(c, "shout", json::object())) == "hey!");

  json sizes = call(c, "sizes", json::object());
  CHECK(sizes["structuredContent"] == json{{"result", {1, 2, 3}}});
  json list = c.result("tools/list");
  for (auto& t : list["tools"])
    if (t["name"] == "sizes") {
      CHECK(t["outputSchema"]["type"] == "object");
      CHECK(t["outputSchema"]["properties"]["result"]["type"] == "array");
    }
}

TEST_CASE("typed tool: a text budget truncates with an explicit marker") {
  auto srv = make_server();
  mcp::tool_options budget;
  budget.text_budget = 100;
  budget.truncation_hint = "ask for a smaller range";
  srv.tool("long", "Long text.", [] { return std::string(1000, 'x'); }, budget);
  mcp::testing::client c(srv);
  c.initialize();
  std::string text = text_of(call(c, "long", json::object()));
  CHECK(text.size() < 200);
  CHECK(text.find("ask for a smaller range") != std::string::npos);
  CHECK(text.find("1000") != std::string::npos);
}

TEST_CASE("typed tool: an unexpected exception is a short isError, details only in the log") {
  std::vector<std::string> diagnostics;
  auto srv = make_server(&diagnostics);
  srv.tool("boom", "Fails.", []() -> std::string { throw std::runtime_error("db password=hunter2 at /srv/x"); });
  mcp::testing::client c(srv);
  c.initialize();
  json r = call(c, "boom", json::object());
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("hunter2") == std::string::npos);
  CHECK(text_of(r).find("internal error") != std::string::npos);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].find("hunter2") != std::string::npos);
}

TEST_CASE("runtime-schema tools take the same pipeline; bad schemas are refused at registration") {
  auto srv = make_server();
  json schema = {{"type", "object"},
                 {"properties",
                  {{"summary", {{"type", "string"}, {"minLength", 10}}},
                   {"findings", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
                 {"required", {"summary", "findings"}},
                 {"additionalProperties", false}};
  srv.tool("submit", "Submit.", mcp::runtime_schema{schema}, [](const json& a) {
    return "got " + std::to_string(a["findings"].size()) + " findings";
  });
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(text_of(call(c, "submit", {{"summary", "a long enough summary"}, {"findings", {"x", "y"}}})) == "got 2 findings");
  json missing = call(c, "submit", {{"summary", "a long enough summary"}});
  CHECK(missing["isError"] == true);
  CHECK(text_of(missing).find("findings") != std::string::npos);
  CHECK(text_of(missing).find("parse") == std::string::npos);

  auto noop = [](const json&) { return std::string(); };
  CHECK_THROWS_AS(srv.tool("b1", "x", mcp::runtime_schema{{{"type", "array"}}}, noop), mcp::schema_error);
  CHECK_THROWS_AS(srv.tool("b2", "x", mcp::runtime_schema{json::array()}, noop), mcp::schema_error);
  CHECK_THROWS_AS(srv.tool("b3", "x", mcp::runtime_schema{{{"type", "object"}, {"properties", {{"a", {{"type", "strin"}}}}}}}, noop),
                  mcp::schema_error);
  CHECK_THROWS_AS(srv.tool("b4", "x", mcp::runtime_schema{{{"type", "object"}, {"properties", {{"a", {{"type", "string"}, {"pattern", "(unclosed"}}}}}}}, noop),
                  mcp::schema_error);
  CHECK(srv.tool_names() == std::vector<std::string>{"submit"});
}

TEST_CASE("tool metrics count calls, errors, validation failures by rule, and latency") {
  auto srv = make_server();
  srv.tool("paint", "Paints.", [](const tt::paint_args& in) -> mcp::result<std::string> {
    if (in.name == "fail") return mcp::tool_error("no");
    return std::string("ok");
  });
  mcp::testing::client c(srv);
  c.initialize();
  call(c, "paint", {{"name", "wall"}, {"sizes", {1}}});
  call(c, "paint", {{"name", "fail"}, {"sizes", {1}}});
  call(c, "paint", {{"name", "ab"}, {"sizes", {1}}});
  call(c, "paint", {{"name", "ab"}, {"shade", "blue"}, {"sizes", {1}}});
  mcp::tool_metrics m = srv.metrics("paint");
  CHECK(m.calls == 4);
  CHECK(m.errors == 3);
  CHECK(m.validation_failures == 2);
  CHECK(m.failures_by_keyword["minLength"] == 2);
  CHECK(m.failures_by_keyword["enum"] == 1);
  CHECK(m.latency_count == 4);
  std::uint64_t bucketed = 0;
  for (auto n : m.latency_buckets) bucketed += n;
  CHECK(bucketed == 4);
  CHECK_THROWS_AS(srv.metrics("nope"), std::out_of_range);
}
