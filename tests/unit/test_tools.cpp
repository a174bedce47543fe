// The typed tool pipeline end to end: schemas from handler types, validation, coercion, results,
// rendering, runtime-schema tools, metrics; every kind of reply checked against the official schema.
#include "catch.hpp"
#include "official_schema.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <mutex>
#include <random>
#include <string_view>
#include <thread>
#include <tuple>

using mcp::json;

namespace test_tools {  // a namespace per file: CMake's unity build compiles several test files as one

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
MCP_STRUCT(paint_args, (name, "What to paint", mcp::min_length(3)), (shade, "Colour", mcp::default_value(color::green)), (note, "Optional note"),
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

}  // namespace test_tools  // a specialisation of mcp's lives outside the file's namespace
template <>
struct mcp::text_renderer<test_tools::tt::shouty> {
  static std::string render(const test_tools::tt::shouty& s) { return s.word + "!"; }
};
namespace test_tools {

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
  // An argument a tool without arguments does not know is left out by lossless coercion (issue #56).
  CHECK(text_of(call(c, "nothing", {{"x", 1}})) == "plain");
  CHECK(srv.metrics("nothing").coercions_by_kind.at("unknown_argument") == 1);

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
  // "colour" is no near miss of a field: lossless coercion leaves it out, so it is not a problem.
  CHECK(text.find("colour") == std::string::npos);
  CHECK(text == mcp::describe_violations("paint", mcp::validator(mcp::schema_of<tt::paint_args>()).validate(
                                                      {{"name", "ab"}, {"shade", "blue"}, {"sizes", {1, 2, 3, 4}}}),
                                         mcp::schema_of<tt::paint_args>()));
  // A near miss is kept and named with the field it likely means, along with the valid names.
  const std::string typo = text_of(call(c, "paint", {{"name", "ab"}, {"sizse", {1}}, {"colour", "x"}}));
  INFO(typo);
  CHECK(typo.find("unknown field 'sizse' (did you mean 'sizes'?); valid fields: name, note, shade, sizes") !=
        std::string::npos);
  CHECK(typo.find("colour") == std::string::npos);

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

TEST_CASE("a tool that takes the tree gets each call's arguments as sent, read over a tree kept from earlier calls") {
  auto srv = make_server();
  std::vector<const json*> trees;
  srv.tool("echo", "Echoes its arguments.", mcp::runtime_schema{{{"type", "object"}}}, [&](const json& a) {
    trees.push_back(&a);
    return a.dump();
  });
  mcp::testing::client c(srv);
  c.initialize();
  // Shapes that grow, shrink, change a member's type, repeat a key and drop members, in turn.
  const std::vector<std::string> texts = {
      R"({"customer":"ann","items":[{"sku":"ABC-1234","qty":2,"tags":["a","b"]},{"sku":"XYZ-0001","qty":1,"tags":[]}]})",
      R"({"customer":"bob","items":[{"sku":"QQQ-9999","qty":3,"tags":["c"]}]})",
      R"({"items":[{"qty":"7","extra":{"x":[1,2,3]}},{"sku":null},5,"s",[]],"customer":{"name":"c"}})",
      R"({"a":1,"a":[2],"a":{"b":"c"}})",
      R"({"customer":"ann","items":[{"sku":"ABC-1234","qty":2,"tags":["a","b"]},{"sku":"XYZ-0001","qty":1,"tags":[]}]})",
      R"({})",
      R"({"items":[]})",
  };
  int id = 10;
  for (const auto& text : texts) {
    INFO("arguments: " << text);
    c.send_text(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":"echo","arguments":)" +
                text + "}}");
    const json reply = c.wait_response(id++);
    REQUIRE(reply.contains("result"));
    CHECK(json::parse(text_of(reply["result"])) == json::parse(text));  // (a repeated key: the last value)
  }
  REQUIRE(trees.size() == texts.size());
  CHECK(trees[1] == trees[0]);  // one tree, kept and read over
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

TEST_CASE("runtime-schema tools: a count written 2.0 (valid draft-07) registers and means 2") {
  auto srv = make_server();
  const json schema = json::parse(R"({"type":"object","required":["code"],"properties":{
      "code":{"type":"string","minLength":1.0,"maxLength":2.0},
      "tags":{"type":"array","items":{"type":"string"},"maxItems":2.0},
      "extra":{"type":"object","maxProperties":1.0}}})");
  REQUIRE_NOTHROW(srv.tool("code", "Takes a code.", mcp::runtime_schema{schema}, [](const json& a) { return a.dump(); }));
  mcp::testing::client c(srv);
  c.initialize();
  const json listed = c.result("tools/list")["tools"][0]["inputSchema"];
  CHECK(listed["properties"]["code"]["maxLength"].is_number_float());  // advertised as given
  CHECK(listed == schema);
  CHECK(text_of(call(c, "code", {{"code", "ab"}, {"tags", {"x", "y"}}, {"extra", {{"a", 1}}}})) ==
        R"({"code":"ab","extra":{"a":1},"tags":["x","y"]})");
  const json refused = call(c, "code", {{"code", "abc"}, {"tags", {"x", "y", "z"}}, {"extra", {{"a", 1}, {"b", 2}}}});
  CHECK(refused["isError"] == true);
  CHECK(text_of(refused) ==
        "Invalid arguments for tool 'code' (3 problems):\n"
        "- /code: must be at most 2 characters long, got 3 characters: \"abc\" (maxLength)\n"
        "- /extra: must have at most 1 field, got 2 (maxProperties)\n"
        "- /tags: must have at most 2 items, got 3 (maxItems)\n"
        "Fix these and call the tool again.");
  CHECK(call(c, "code", {{"code", ""}})["isError"] == true);  // minLength 1.0
  try {
    srv.tool("half", "x", mcp::runtime_schema{json::parse(R"({"type":"object","properties":{"a":{"maxLength":2.5}}})")},
             [](const json&) { return std::string(); });
    FAIL("a count with a fraction was taken");
  } catch (const mcp::schema_error& e) {
    CHECK(std::string(e.what()) == "invalid schema: /properties/a/maxLength: must be an integer, got number 2.5");
  }
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
  CHECK_THROWS_AS(srv.metrics("nope"), mcp::error);
}

// --- one road: every message read by message::read, a tool result built into a tree or written as text --

namespace {

// Keeps every message as the bytes a transport would write, whichever sink the server's result
// builder wrote it with: text where the outbound takes text (as stdio's does), a tree where not.
class text_recorder final : public mcp::outbound {
 public:
  explicit text_recorder(bool takes_text = true) : takes_text_(takes_text) {}
  bool takes_text() const override { return takes_text_; }
  void send(const json& message) override { add(mcp::detail::to_json_text(message)); }
  void send_result(const json& id, json result) override {
    std::string line;
    mcp::detail::write_response(id, result, line);
    add(std::move(line));
  }
  void send_result_text(const json& id, std::string_view result) override {
    std::string line;
    mcp::detail::write_response_text(id, result, line);
    add(std::move(line));
    ++as_text;
  }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(lines_, {});
  }
  int as_text = 0;  // replies that came as text: the text sink wrote them

 private:
  const bool takes_text_;
  void add(std::string line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::move(line));
  }
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

// An initialized connection whose replies are recorded as text.
struct recorded_session {
  std::shared_ptr<text_recorder> out;
  mcp::connection conn;

  recorded_session(mcp::server& srv, const std::string& version, bool takes_text = true,
                   mcp::executor run = mcp::inline_executor())
      : out(std::make_shared<text_recorder>(takes_text)), conn(srv, out, std::move(run)) {
    conn.receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" + version +
                 R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    conn.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    out->take();
  }
};

// Calls `tool` (no arguments) through a tree sink and a text sink: both must write the same bytes,
// the text one as text. Returns the result.
json call_through_both_sinks(recorded_session& tree_sink, recorded_session& text_sink, const std::string& tool) {
  const std::string message = json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", {{"name", tool}}}}.dump();
  tree_sink.conn.receive(message);
  text_sink.conn.receive(message);
  const auto from_tree = tree_sink.out->take(), from_text = text_sink.out->take();
  REQUIRE(from_tree.size() == 1);
  CHECK(from_text == from_tree);
  CHECK(text_sink.out->as_text == 1);
  text_sink.out->as_text = 0;
  return json::parse(from_tree[0])["result"];
}

struct tagged {
  int level = 0;
  tt::color shade = tt::color::red;
};
MCP_STRUCT(tagged, (level, "Level"), (shade, "Shade"));

// A server with a tool of every kind of answer: typed structs under each text option, text,
// full results, errors of every channel, a list (wrapped for 2025-era clients), a runtime schema.
void add_every_kind_of_tool(mcp::server& srv) {
  srv.tool("add", "Adds.", [](const tt::add_args& in) -> tt::add_result { return {in.a + in.b}; });
  srv.tool("paint", "Paints.", [](const tt::paint_args& in) {
    return tt::profile{in.name, in.note, std::string(static_cast<std::size_t>(in.sizes.size()), '*') + "\"\xC3\xA9\n"};
  });
  mcp::tool_options md;
  md.format = mcp::text_format::markdown;
  srv.tool("paint_md", "Paints.", [](const tt::paint_args& in) { return tt::profile{in.name, in.note, "``` x"}; }, md);
  mcp::tool_options custom;
  custom.render = [](const json& j) { return "name=" + j["name"].get<std::string>(); };
  srv.tool("paint_custom", "Paints.", [](const tt::paint_args& in) { return tt::profile{in.name, std::nullopt, ""}; }, custom);
  mcp::tool_options budget;
  budget.text_budget = 24;
  srv.tool("paint_budget", "Paints.", [](const tt::paint_args& in) { return tt::profile{in.name, in.note, std::string(40, 'b')}; },
           budget);
  srv.tool("text_budget", "Text.", [](const tt::add_args& in) { return std::string(static_cast<std::size_t>(in.a % 100), 'x'); },
           budget);
  mcp::tool_options checked;
  checked.validate_output = true;
  srv.tool("checked", "Checked.", [](const tt::add_args& in) -> tt::paint_args {
    return {std::string(static_cast<std::size_t>(in.a % 6), 'n'), tt::color::red, std::nullopt, {}};
  }, checked);
  srv.tool("shout", "Shouts.", [](const tt::paint_args& in) { return tt::shouty{in.name}; });
  srv.tool("either", "Result.", [](const tt::add_args& in) -> mcp::result<tt::add_result> {
    if (in.b < 0) return mcp::tool_error("b must not be negative");
    return tt::add_result{in.a - in.b};
  });
  srv.tool("nothing", "No arguments.", [](mcp::context& ctx) { return std::string(ctx.cancelled() ? "c" : "ok"); });
  srv.tool("full", "Full control.", [](const tt::add_args& in) {
    mcp::tool_result r;
    r.content.push_back(mcp::text("one"));
    if (in.a > 0) r.structured_content = json::array({in.a, in.b});
    r.is_error = in.b > 5;
    return r;
  });
  srv.tool("media", "Every kind of content block.", [](const tt::add_args& in) {
    mcp::tool_result r;
    r.content.push_back(mcp::text("caf\xC3\xA9 \"q\"\n"));
    r.content.push_back(mcp::image(std::string("\x89PNG\r\n\x1A\n\0", 9), "image/png"));
    r.content.push_back(mcp::audio("RIFF....WAVE", "audio/wav"));
    r.content.push_back(mcp::resource_link("file:///notes/a.md", "a.md", "text/markdown", "A note"));
    r.content.push_back(mcp::embedded_text("file:///notes/b.md", "# B\n", "text/markdown"));
    r.content.push_back(mcp::embedded_blob("file:///b.bin", std::string("\0\xFF", 2), "application/octet-stream"));
    r.content.push_back(mcp::with_annotations(mcp::text("for the user"), {{"user"}, 0.5, "2025-01-31T14:00:00Z"}));
    if (in.a > 0) r.structured_content = json{{"count", in.a}, {"names", {"a", "b"}}};
    r.is_error = in.b > 5;
    return r;
  });
  srv.tool("sizes", "A list.", [](const tt::add_args& in) { return std::vector<int>{in.a, in.b}; });
  srv.tool("fails", "Throws.", [](const tt::add_args& in) -> tt::add_result {
    if (in.a == 1) throw mcp::tool_error("try a=2");
    if (in.a == 2) throw mcp::protocol_error(mcp::error_code::invalid_params, "a must not be 2");
    if (in.a == 3) throw 7;
    throw std::runtime_error("secret detail");
  });
  srv.tool("stray_enum", "Writes an enum value it has no name for.", [](const tt::add_args& in) {
    return tagged{in.a, in.b == 0 ? tt::color::green : static_cast<tt::color>(9)};
  });
  srv.tool("raw", "Runtime schema.", mcp::runtime_schema{{{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}, nullptr},
           [](const json& args) { return args.dump(); });
}

std::vector<std::string> every_kind_of_call() {
  const std::vector<std::pair<std::string, std::vector<std::string>>> tools = {
      {"add", {R"({"a":1,"b":2})", R"({"a":"5","b":2})", R"({"a":1})", R"({"a":1,"b":2,"c":3})", R"({"a":1.5,"b":2})", "{}"}},
      {"paint", {R"({"name":"wall","shade":"red","sizes":[1,2]})", R"({"name":"door","note":"\u00e9 \"q\"","sizes":[]})",
                 R"({"name":"x"})", R"({"name":"wall","shade":"purple"})", R"({"name":"\ud83d\ude00\ud83d\ude00\ud83d\ude00"})"}},
      {"paint_md", {R"({"name":"wall","note":"n"})", R"({"name":"wall"})"}},
      {"paint_custom", {R"({"name":"wall"})"}},
      {"paint_budget", {R"({"name":"wall"})", R"({"name":"wall","note":"a note"})"}},
      {"text_budget", {R"({"a":10,"b":0})", R"({"a":90,"b":0})"}},
      {"checked", {R"({"a":5,"b":0})", R"({"a":1,"b":0})"}},
      {"shout", {R"({"name":"hey"})"}},
      {"either", {R"({"a":5,"b":1})", R"({"a":5,"b":-1})"}},
      {"nothing", {"{}", R"({"x":1})", "null"}},
      {"full", {R"({"a":1,"b":2})", R"({"a":0,"b":9})"}},
      {"media", {R"({"a":1,"b":2})", R"({"a":0,"b":9})"}},
      {"sizes", {R"({"a":1,"b":2})"}},
      {"fails", {R"({"a":1,"b":0})", R"({"a":2,"b":0})", R"({"a":3,"b":0})", R"({"a":4,"b":0})"}},
      {"stray_enum", {R"({"a":1,"b":0})", R"({"a":1,"b":1})"}},
      {"raw", {R"({"q":"x"})", R"({"q":1})", "{}"}},
      {"missing", {"{}"}},
  };
  std::vector<std::string> calls;
  int id = 1;
  for (const auto& [tool, argument_sets] : tools)
    for (const auto& args : argument_sets)
      calls.push_back(R"({"jsonrpc":"2.0","id":)" + std::to_string(id++) + R"(,"method":"tools/call","params":{"name":")" +
                      tool + R"(","arguments":)" + args + "}}");
  // The envelope in other shapes: member order, white space, ids, what it leaves to the general path.
  const std::vector<std::string> shapes = {
      R"({"params":{"arguments":{"a":1,"b":2},"name":"add"},"method":"tools/call","id":"s-1","jsonrpc":"2.0"})",
      " { \"jsonrpc\" : \"2.0\" ,\t\"id\" : 9007199254740993 , \"method\" : \"tools/call\" , \"params\" : { \"name\" : \"add\" , \"arguments\" : { \"a\" : 1 , \"b\" : 2 } } } \r\n",
      R"({"jsonrpc":"2.0","id":-5,"method":"tools/call","params":{"name":"nothing"}})",
      R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":"\u00e9","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":4}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}},"extra":true})",
      R"({"jsonrpc":"2.0","id":3,"id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools\/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\u0061dd","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":[1,2]}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":7,"arguments":{}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call"})",
      R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})",
      "\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":1,\"b\":2}}}",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})",
      R"([{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{}}}])",
  };
  calls.insert(calls.end(), shapes.begin(), shapes.end());
  return calls;
}

}  // namespace

namespace tt {
struct word_count {
  std::string title;
  int words = 0;
};
MCP_STRUCT(word_count, (title, "Title"), (words, "Words", mcp::minimum(0)));
}  // namespace tt

TEST_CASE("typed tool: output is validated by default, in every build, where a result can break its schema") {
  // The same default in every build: no public header reads NDEBUG.
  CHECK(mcp::server_options{}.validate_output);
  std::size_t headers = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(MCP_TEST_SOURCE_DIR) + "/../include")) {
    if (entry.path().extension() != ".hpp") continue;
    ++headers;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(entry.path().string());
    CHECK(text.find("NDEBUG") == std::string::npos);
  }
  CHECK(headers > 20);

  std::vector<std::string> diagnostics;
  auto srv = make_server(&diagnostics);  // default options
  srv.tool("count_words", "Counts words.", [](const tt::paint_args& in) {
    return tt::word_count{in.name, static_cast<int>(in.sizes.size()) - 1};  // -1 for no sizes: a bug
  });
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(call(c, "count_words", {{"name", "wall"}, {"sizes", {1, 2}}})["structuredContent"] == json{{"title", "wall"}, {"words", 1}});
  CHECK(diagnostics.empty());

  // The model is told the server is at fault, not its call; the log says the result broke the
  // tool's output schema, and lists how.
  json bad = call(c, "count_words", {{"name", "wall"}, {"sizes", json::array()}});
  CHECK(bad["isError"] == true);
  CHECK_FALSE(bad.contains("structuredContent"));
  CHECK(text_of(bad) == "Tool 'count_words' produced a result that does not match its declared output schema. This is a "
                        "bug in the server, not in your call; the details were logged.");
  REQUIRE(diagnostics.size() == 1);
  INFO(diagnostics[0]);
  CHECK(diagnostics[0] == "tool 'count_words' returned a result that breaks its own output schema (1 problem):\n"
                          "- /words: must be at least 0, got -1 (minimum)\n"
                          "The client was sent an isError result instead.");
  CHECK(diagnostics[0].find("Invalid arguments") == std::string::npos);
  CHECK(diagnostics[0].find("call the tool again") == std::string::npos);

  // The text sink checks it the same way.
  recorded_session direct(srv, "2025-11-25");
  direct.conn.receive(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count_words","arguments":{"name":"wall","sizes":[]}}})");
  const auto lines = direct.out->take();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("does not match its declared output schema") != std::string::npos);
  CHECK(diagnostics.size() == 2);

  // Where no value of the output type can break its schema (no constraint in it), there is nothing
  // to check and none is made: such replies are written straight from the value.
  CHECK(mcp::detail::output_may_break<tt::word_count>());
  CHECK(mcp::detail::output_may_break<mcp::result<std::vector<tt::word_count>>>());
  CHECK(mcp::detail::output_may_break<tt::paint_args>());
  CHECK_FALSE(mcp::detail::output_may_break<tt::add_result>());
  CHECK_FALSE(mcp::detail::output_may_break<mcp::result<tt::profile>>());
  CHECK_FALSE(mcp::detail::output_may_break<std::vector<int>>());
  CHECK_FALSE(mcp::detail::output_may_break<std::string>());
}

TEST_CASE("official schema: tools/list and every kind of tools/call result", "[.official-schema]") {
  for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    mcp::server_options options;
    options.log_sink = [](std::string_view) {};
    mcp::server srv({"official", "1.0"}, options);
    add_every_kind_of_tool(srv);
    recorded_session session(srv, version);
    session.conn.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    auto lines = session.out->take();
    REQUIRE(lines.size() == 1);
    CHECK_OFFICIAL(json::parse(lines[0])["result"], "ListToolsResult");
    int results = 0;
    for (const std::string& text : every_kind_of_call()) {
      json request;
      if (mcp::detail::read_json(text, request, 128) != mcp::detail::read_result::ok || !request.is_object() ||
          request.value("method", "") != "tools/call")
        continue;
      INFO(version << ": " << text);
      session.conn.receive(text);
      for (const auto& line : session.out->take()) {
        const json reply = json::parse(line);
        if (!reply.contains("result")) continue;  // a JSON-RPC error
        CHECK_OFFICIAL(reply["result"], "CallToolResult");
        ++results;
      }
    }
    CHECK(results > 30);
  }
}

TEST_CASE("message::read reads every envelope as a whole read does, and refuses what is not one message") {
  auto m = mcp::message::read(R"({"params":{"arguments":{"a":1},"name":"add"},"id":"x","method":"tools/call","jsonrpc":"2.0"})", 128);
  REQUIRE(m.readable());
  CHECK(m.is_request());
  CHECK(m.id() == "x");
  CHECK(m.method() == "tools/call");
  CHECK(m.params() == json{{"name", "add"}, {"arguments", {{"a", 1}}}});
  m = mcp::message::read(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", 128);
  CHECK(m.is_notification());
  CHECK(m.params().is_null());
  m = mcp::message::read(R"({"jsonrpc":"2.0","id":4,"result":{}})", 128);
  CHECK(m.is_response());

  const std::string usual = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":[[1]]}}})";
  CHECK(mcp::message::read(usual, 5).readable());
  CHECK_FALSE(mcp::message::read(usual, 4).readable());  // the arguments reach five levels
  CHECK(mcp::message::read(usual, 4).refusal()["error"]["code"] == -32600);
  for (std::size_t cut = 0; cut < usual.size(); ++cut) CHECK_FALSE(mcp::message::read(usual.substr(0, cut), 128).readable());
  CHECK(mcp::message::read("[1]", 128).refusal()["error"]["message"].get<std::string>().find("batch") != std::string::npos);
  CHECK(mcp::message::read("{", 128).refusal()["error"]["code"] == -32700);

  // Whatever it reads, the general reader reads the same; whatever is not JSON, it refuses.
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\":,\\ u0123456789abcdeftrulnsj.-+eE\x80\xC3\xA9";
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = usual;
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
      const std::size_t at = rng() % (text.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text.insert(text.begin() + static_cast<long>(at), c); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        default: if (at < text.size()) text[at] = c;
      }
    }
    auto read = mcp::message::read(text, 128);
    read.check();  // what read() left unchecked (a call's arguments), as a transport does before it answers
    json whole;
    const bool is_object = mcp::detail::read_json(text, whole, 128) == mcp::detail::read_result::ok && whole.is_object();
    INFO(text);
    REQUIRE(read.readable() == is_object);
    if (!is_object) continue;
    ++accepted;
    CHECK(read.id() == whole.value("id", json()));
    CHECK(read.params() == whole.value("params", json()));
    const json method = whole.value("method", json());
    CHECK(read.method() == (method.is_string() ? method.get<std::string>() : std::string()));
    CHECK(read.is_request() == (whole.contains("method") && whole.contains("id")));
  }
  CHECK(accepted > 100);  // the mutations do keep some messages valid
}

TEST_CASE("message::read keeps tools/call's name and arguments apart from params, and gives params back whole") {
  // Each params text as a whole read gives it: the last of repeated members, any type anywhere.
  const char* cases[] = {
      R"({"name":"add","arguments":{"a":1}})",
      R"({"arguments":{"b":[1,{"c":null}]},"name":"add","_meta":{"progressToken":3}})",
      R"({"name":"add","name":5})",
      R"({"name":5,"name":"add"})",
      R"({"name":"a","arguments":{"x":1},"arguments":null,"name":"b"})",
      R"({"arguments":[1,2]})",
      R"({"arguments":"text","other":true})",
      R"({"name":"\u00e9\n","arguments":{}})",
      R"({"name":null})",
      R"({})",
      R"([1,{"name":"x"}])",
      R"("params")",
      R"(null)",
  };
  for (const char* params : cases) {
    const std::string text = std::string(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":)") + params + "}";
    INFO(text);
    const auto read = mcp::message::read(text, 128);
    REQUIRE(read.readable());
    CHECK(read.params() == json::parse(params));
  }
  // A repeated "params": the last one counts, with none of the first one's members.
  auto twice = mcp::message::read(R"({"params":{"name":"a","arguments":{}},"params":{"x":1},"id":1,"method":"m"})", 128);
  CHECK(twice.params() == json{{"x", 1}});
  // params one level too deep is refused as a whole read refuses it.
  CHECK(mcp::message::read(R"({"params":{"name":"a"}})", 2).readable());
  CHECK(mcp::message::read(R"({"params":{"name":"a"}})", 1).refusal()["error"]["code"] == -32600);
  CHECK(mcp::message::read(R"({"params":{"arguments":{}}})", 2).refusal()["error"]["code"] == -32600);
}

TEST_CASE("tools/call answers repeated or odd name and arguments as the whole params say") {
  mcp::server srv({"t", "1"});
  srv.tool("add", "Adds", [](const tt::add_args& a) { return a.a + a.b; });
  mcp::testing::client c(srv);
  c.initialize();
  auto answer = [&](const std::string& params) {
    c.send_text(R"({"jsonrpc":"2.0","id":"q","method":"tools/call","params":)" + params + "}");
    return c.wait_response("q");
  };
  CHECK(answer(R"({"name":"add","arguments":{"a":1,"b":2}})")["result"]["structuredContent"]["result"] == 3);
  CHECK(answer(R"({"name":"nope","name":"add","arguments":{"a":1,"b":3}})")["result"]["structuredContent"]["result"] == 4);
  CHECK(answer(R"({"name":"add","arguments":{"a":1,"b":1},"arguments":{"a":2,"b":3}})")["result"]["structuredContent"]["result"] == 5);
  const json not_string = answer(R"({"name":"add","name":5,"arguments":{}})");
  CHECK(not_string["error"]["code"] == -32602);
  CHECK(not_string["error"]["message"].get<std::string>().find("\"name\" must be") != std::string::npos);
  const json not_object = answer(R"({"name":"add","arguments":[1]})");
  CHECK(not_object["error"]["code"] == -32602);
  CHECK(not_object["error"]["message"].get<std::string>().find("\"arguments\" must be an object") != std::string::npos);
  // A method that reads params whole (prompts/get takes name and arguments too) sees them all.
  srv.method("custom/echo", {[](mcp::context&, const json& params) { return json{{"params", params}}; }});
  c.send_text(R"({"jsonrpc":"2.0","id":"p","method":"custom/echo","params":{"name":"n","arguments":{"k":1},"z":2}})");
  CHECK(c.wait_response("p")["result"]["params"] == json{{"name", "n"}, {"arguments", {{"k", 1}}}, {"z", 2}});
}

TEST_CASE("result builder: the text sink writes byte for byte what the tree sink sends") {
  for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    for (bool validate_output : {false, true}) {
      mcp::server_options options;
      options.validate_output = validate_output;
      options.log_sink = [](std::string_view) {};
      mcp::server srv({"direct", "1.0"}, options);
      add_every_kind_of_tool(srv);
      recorded_session text(srv, version, true), tree(srv, version, false);
      std::map<std::string, int> by_text_sink;  // tool -> its results the text sink wrote
      for (const std::string& call : every_kind_of_call()) {
        INFO(version << (validate_output ? " with" : " without") << " output validation: " << call);
        const int before = text.out->as_text;
        text.conn.receive(call);
        tree.conn.receive(call);
        const auto expected = tree.out->take();
        const auto got = text.out->take();
        CHECK(got == expected);
        json request;
        if (text.out->as_text > before && mcp::detail::read_json(call, request, 128) == mcp::detail::read_result::ok)
          ++by_text_sink[request["params"]["name"].get<std::string>()];
      }
      CHECK(text.out->as_text > 30);  // most calls were written by the text sink
      CHECK(tree.out->as_text == 0);
      // Every shape of result went through both sinks: typed structs (compact JSON, Markdown, a
      // renderer, a text budget, checked output, text_renderer), text, text cut to a budget,
      // tool_result with every kind of content block and isError, errors of every channel, a list
      // wrapped for 2025-era clients, a runtime schema.
      for (const char* tool : {"add", "paint", "paint_md", "paint_custom", "paint_budget", "text_budget", "checked", "shout",
                               "either", "nothing", "full", "media", "sizes", "fails", "stray_enum", "raw"}) {
        INFO(tool);
        CHECK(by_text_sink[tool] > 0);
      }
    }
  }
}

TEST_CASE("one road: text results keep busy ids, initialization and a replaced tools/call") {
  auto srv = make_server();
  add_every_kind_of_tool(srv);
  const std::string add = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})";

  // Before initialize: refused.
  auto early = std::make_shared<text_recorder>();
  mcp::connection fresh(srv, early);
  fresh.receive(add);
  auto lines = early->take();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("Server not initialized") != std::string::npos);
  CHECK(early->as_text == 0);

  // A busy id: the second call is refused while the first runs.
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  srv.tool("wait", "Waits.", [&] {
    started = true;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return std::string("done");
  });
  std::vector<std::thread> workers;
  std::mutex workers_mutex;
  {
    recorded_session busy(srv, "2025-11-25", true, [&](std::function<void()> job) {
      std::lock_guard lock(workers_mutex);
      workers.emplace_back(std::move(job));
    });
    const std::string wait = R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}})";
    busy.conn.receive(wait);
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    busy.conn.receive(wait);
    release = true;
    lines.clear();
    for (int i = 0; i < 2000 && lines.size() < 2; ++i) {
      for (auto& l : busy.out->take()) lines.push_back(std::move(l));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::string all;  // whatever came, however many lines (fewer than two when it fails)
    for (const auto& l : lines) all += l + "\n";
    INFO(all);
    REQUIRE(lines.size() == 2);  // the refusal, the answer
    CHECK(lines[0].find("already in use") != std::string::npos);
    CHECK(lines[1].find("done") != std::string::npos);
    CHECK(busy.out->as_text == 1);
  }
  for (auto& w : workers) w.join();

  // A replaced tools/call method is called as it is.
  srv.method("tools/call", {[](mcp::context&, const json&) { return json{{"replaced", true}}; }, false});
  recorded_session replaced(srv, "2025-11-25");
  replaced.conn.receive(add);
  lines = replaced.out->take();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == R"({"id":1,"jsonrpc":"2.0","result":{"replaced":true}})");
  CHECK(replaced.out->as_text == 0);
}

TEST_CASE("typed tool: one order decides the text block, the same on both sinks") {
  auto srv = make_server();
  mcp::tool_options own_and_markdown;  // 1. the tool's render beats text_renderer<shouty> and Markdown
  own_and_markdown.render = [](const json& j) { return "own:" + j["word"].get<std::string>(); };
  own_and_markdown.format = mcp::text_format::markdown;
  srv.tool("own", "x", [] { return tt::shouty{"hey"}; }, own_and_markdown);
  mcp::tool_options markdown;
  markdown.format = mcp::text_format::markdown;
  srv.tool("typed", "x", [] { return tt::shouty{"hey"}; }, markdown);  // 2. text_renderer<shouty> beats Markdown
  srv.tool("md", "x", [] { return tt::profile{"Ada", std::nullopt, "b"}; }, markdown);  // 3. Markdown
  srv.tool("plain", "x", [] { return tt::profile{"Ada", std::nullopt, "b"}; });       // 4. compact JSON
  recorded_session text_sink(srv, "2025-11-25", true), tree_sink(srv, "2025-11-25", false);
  const json ada{{"name", "Ada"}, {"bio", "b"}};
  const std::pair<const char*, std::string> expected[] = {
      {"own", "own:hey"},
      {"typed", "hey!"},
      {"md", mcp::render_markdown(ada, mcp::schema_of_ordered<tt::profile>())},
      {"plain", R"({"name":"Ada","bio":"b"})"}};  // declaration order: name, email, bio
  for (const auto& [tool, text] : expected) {
    INFO(tool);
    CHECK(text_of(call_through_both_sinks(tree_sink, text_sink, tool)) == text);
  }
}

TEST_CASE("typed tool: tools/list writes derived schemas in declaration order; in-memory clients get plain trees") {
  auto srv = make_server();
  srv.tool("paint", "Paints.", [](const tt::paint_args& in) { return tt::profile{in.name, in.note, ""}; });
  srv.tool("people", "Lists.", [] { return std::vector<tt::profile>{}; });
  // On the wire (the SDK's writer): properties and required in declaration order, for both eras.
  recorded_session wire(srv, "2025-11-25");
  wire.conn.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  const auto lines = wire.out->take();
  REQUIRE(lines.size() == 1);
  const std::string& text = lines[0];
  CHECK(text.find(R"("inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"What to paint",)"
                  R"("minLength":3},"shade":)") != std::string::npos);
  CHECK(text.find(R"("note":{"type":"string","description":"Optional note"},"sizes":)") != std::string::npos);
  CHECK(text.find(R"("required":["name","sizes"])") != std::string::npos);
  CHECK(text.find(R"("outputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Name"},)"
                  R"("email":{"type":"string","description":"Email"},"bio":)") != std::string::npos);
  // A list's output schema, wrapped for a 2025-era client, keeps the items' order inside.
  CHECK(text.find(R"("outputSchema":{"type":"object","properties":{"result":{"type":"array","items":{"type":"object",)"
                  R"("properties":{"name":)") != std::string::npos);

  // The in-memory client's outbound gets the same schemas as plain trees.
  mcp::testing::client c(srv);
  c.initialize();
  const json tools = c.result("tools/list")["tools"];
  REQUIRE(tools.size() == 2);
  CHECK(tools[0]["inputSchema"] == mcp::schema_of<tt::paint_args>());
  CHECK(tools[0]["outputSchema"] == mcp::schema_of<tt::profile>());
  CHECK(tools[1]["outputSchema"] == mcp::detail::legacy_output_schema(mcp::schema_of<std::vector<tt::profile>>()));
  mcp::testing::client c2026(srv);
  const json stateless = c2026.stateless_request("tools/list")["result"]["tools"];
  CHECK(stateless[1]["outputSchema"] == mcp::schema_of<std::vector<tt::profile>>());
  // No raw JSON leaks into a plain tree (nlohmann would write it as {"bytes":[...],"subtype":74}).
  for (const json& t : {tools[0], tools[1], stateless[0], stateless[1]}) CHECK(t.dump().find("bytes") == std::string::npos);
  const json called = c.call_tool("paint", {{"name", "Ada"}, {"sizes", json::array()}});
  CHECK(called["structuredContent"] == json{{"name", "Ada"}, {"bio", ""}});
}

TEST_CASE("typed tool: a list result: render and Markdown get the list, a 2025 client's structuredContent wraps it") {
  auto srv = make_server();
  auto two = [] { return std::vector<tt::profile>{{"Ada", std::nullopt, "a"}, {"Bob", std::string("n"), "b"}}; };
  mcp::tool_options counted;
  json seen;
  counted.render = [&seen](const json& j) {
    seen = j;
    return std::to_string(j.size()) + " profiles";
  };
  srv.tool("counted", "x", two, counted);
  mcp::tool_options markdown;
  markdown.format = mcp::text_format::markdown;
  srv.tool("md_list", "x", two, markdown);
  srv.tool("plain_list", "x", two);
  const json list = mcp::encode(two());
  const std::pair<const char*, std::string> expected[] = {
      {"counted", "2 profiles"},
      {"md_list", mcp::render_markdown(list, mcp::schema_of_ordered<std::vector<tt::profile>>())},
      // the compact JSON a 2025 client's content holds, members in declaration order
      {"plain_list", R"({"result":[{"name":"Ada","bio":"a"},{"name":"Bob","email":"n","bio":"b"}]})"}};
  recorded_session text_sink(srv, "2025-11-25", true), tree_sink(srv, "2025-11-25", false);
  for (const auto& [tool, text] : expected) {
    INFO(tool);
    const json result = call_through_both_sinks(tree_sink, text_sink, tool);
    CHECK(text_of(result) == text);
    CHECK(result["structuredContent"] == json{{"result", list}});  // 2025-11-25: an object, the list inside
  }
  CHECK(seen == list);  // the renderer saw what the handler returned, not the wrapper
  const std::string md = std::get<1>(expected[1]);
  CHECK(md.find("Result: N/A") == std::string::npos);  // not the wrapper's one empty field
  CHECK(md.find("1. Name: Ada") != std::string::npos);
  CHECK(md.find("2. Name: Bob") != std::string::npos);
  CHECK(md.find("Email: n") != std::string::npos);
}

TEST_CASE("typed tool: the title sits at the top of the Tool; annotations.title is its older spelling") {
  auto srv = make_server();
  auto noop = [] { return std::string("x"); };
  mcp::tool_options titled;
  titled.title = "New spelling";
  srv.tool("titled", "x", noop, titled);
  srv.tool("old_spelling", "x", noop, mcp::annotations{.read_only = true, .title = "Old spelling"});
  mcp::tool_options both;
  both.title = "Same";
  both.hints.title = "Same";
  srv.tool("both", "x", noop, both);
  srv.tool("none", "x", noop);
  mcp::tool_options differ;
  differ.title = "One";
  differ.hints.title = "Another";
  CHECK_THROWS_AS(srv.tool("differ", "x", noop, differ), mcp::definition_error);
  mcp::testing::client c(srv);
  c.initialize();
  const json list = c.result("tools/list");
  std::map<std::string, json> tools;
  for (const auto& t : list["tools"]) tools[t["name"].get<std::string>()] = t;
  CHECK(tools.count("differ") == 0);
  CHECK(tools["titled"]["title"] == "New spelling");
  CHECK_FALSE(tools["titled"].contains("annotations"));
  CHECK(tools["old_spelling"]["title"] == "Old spelling");
  CHECK(tools["old_spelling"]["annotations"] == json{{"readOnlyHint", true}});
  CHECK(tools["both"]["title"] == "Same");
  CHECK_FALSE(tools["both"].contains("annotations"));
  CHECK_FALSE(tools["none"].contains("title"));
}

namespace tt {
struct reading {
  std::string sensor;
  double value = 0;
  std::vector<double> history;
};
MCP_STRUCT(reading, (sensor, "Sensor"), (value, "Value"), (history, "Earlier values"));
}  // namespace tt

TEST_CASE("find_non_finite: the pointer of the first NaN or infinity, escaped, after what the caller had") {
  const double nan = std::nan("");
  std::string where = "prefix";
  const std::map<std::string, std::vector<double>> map = {{"a/b~c", {1.0, 2.0}}, {"d", {0.5, nan}}};
  CHECK(mcp::detail::find_non_finite(map, where));
  CHECK(where == "prefix/d/1");
  const std::map<std::string, std::vector<std::optional<double>>> tilde = {{"x~/y", {std::nullopt, 1.0, -HUGE_VAL}}};
  where.clear();
  CHECK(mcp::detail::find_non_finite(tilde, where));
  CHECK(where == "/x~0~1y/2");
  where.clear();
  CHECK(mcp::detail::find_non_finite(json{{"k/", json::array({1, json{{"~", nan}}})}}, where));
  CHECK(where == "/k~1/1/~0");
  where.clear();
  CHECK_FALSE(mcp::detail::find_non_finite(std::vector<double>{1.0, 2.0}, where));
  CHECK_FALSE(mcp::detail::find_non_finite(json{{"a", json::array({1.5, "x"})}}, where));
  CHECK(where.empty());
  CHECK(mcp::detail::find_non_finite(HUGE_VAL, where));
  CHECK(where.empty());  // the value itself: the empty pointer
}

TEST_CASE("result builder: a NaN or infinity in structured output is the server's bug, on both sinks") {
  std::vector<std::string> diagnostics;
  auto srv = make_server(&diagnostics);
  srv.tool("read", "Reads a sensor.", [](const tt::add_args& in) {
    const double bad = in.a == 1 ? std::nan("") : std::numeric_limits<double>::infinity() * (in.a == 2 ? 1 : -1);
    tt::reading r{"s", 1.5, {0.5}};
    if (in.b == 0) r.value = bad;           // a field
    else if (in.b == 1) r.history = {0.25, bad};  // an item in a list
    return r;
  });
  srv.tool("series", "A list of numbers.", [](const tt::add_args& in) {
    return std::vector<double>{1.0, in.a == 0 ? 2.0 : std::nan("")};
  });
  recorded_session text(srv, "2025-11-25", true), tree(srv, "2025-11-25", false);
  auto call = [&](const char* tool, int a, int b) {
    const std::string message = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + std::string(tool) +
                                R"(","arguments":{"a":)" + std::to_string(a) + R"(,"b":)" + std::to_string(b) + "}}}";
    text.conn.receive(message);
    tree.conn.receive(message);
    const auto got = text.out->take(), expected = tree.out->take();
    REQUIRE(got.size() == 1);
    CHECK(got == expected);  // the same bytes from both sinks
    return json::parse(got[0])["result"];
  };
  const std::vector<std::tuple<const char*, int, int, std::string>> bad_ones = {
      {"read", 1, 0, "/value"}, {"read", 2, 0, "/value"}, {"read", 3, 0, "/value"},
      {"read", 1, 1, "/history/1"}, {"read", 2, 1, "/history/1"}, {"series", 1, 0, "/1"}};
  for (const auto& [tool, a, b, where] : bad_ones) {
    INFO(tool << " a=" << a << " b=" << b);
    diagnostics.clear();
    const json r = call(tool, a, b);
    CHECK(r["isError"] == true);
    CHECK_FALSE(r.contains("structuredContent"));
    CHECK(text_of(r).find("This is a bug in the server, not in your call") != std::string::npos);
    REQUIRE(diagnostics.size() == 2);  // one log line per sink
    CHECK(diagnostics[0] == diagnostics[1]);
    CHECK(diagnostics[0].find(where + ": must be a finite number") != std::string::npos);
  }
  diagnostics.clear();
  CHECK(call("read", 1, 2)["structuredContent"] == json{{"sensor", "s"}, {"value", 1.5}, {"history", {0.5}}});
  CHECK(call("series", 0, 0)["structuredContent"] == json{{"result", {1.0, 2.0}}});
  CHECK(diagnostics.empty());
}


TEST_CASE("arguments checked when the call runs answer as arguments checked with the message, and never run a call") {
  // message::read reads a tools/call's arguments only to their closing bracket, and the core checks
  // them where the call runs. Every message below goes to two
  // connections, one reading each way, on an executor that runs calls when told: the replies must
  // be the same bytes, and a call whose arguments are not JSON reaches neither middleware nor tool.
  mcp::server srv({"checks", "1.0"});
  std::atomic<int> middleware_calls{0}, tool_calls{0};
  srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
    if (r.method() == "tools/call") ++middleware_calls;
    next();
  });
  srv.tool("add", "Adds.", [&](const tt::add_args& in) {
    ++tool_calls;
    return tt::add_result{in.a + in.b};
  });
  srv.tool("raw", "Runtime schema.", mcp::runtime_schema{{{"type", "object"}}}, [&](const json& a) {
    ++tool_calls;
    return a.dump();
  });
  struct road {
    std::vector<std::function<void()>> queued;
    std::shared_ptr<text_recorder> out;
    std::unique_ptr<mcp::connection> conn;
    bool checked_at_once;
  };
  road roads[2];
  roads[0].checked_at_once = true;   // as a whole read: checked with the message
  roads[1].checked_at_once = false;  // checked where the call runs
  auto open = [&](bool initialize) {
    for (road& r : roads) {
      r.queued.clear();
      r.out = std::make_shared<text_recorder>(true);
      r.conn = std::make_unique<mcp::connection>(srv, r.out, [&r](std::function<void()> job) { r.queued.push_back(std::move(job)); });
      if (!initialize) continue;
      r.conn->receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                      R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
      r.conn->receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
      r.out->take();
    }
  };
  auto send = [&](const std::string& text) {
    for (road& r : roads)
      r.conn->receive(r.checked_at_once ? mcp::detail::message_access::read_checked(text, srv.options().max_json_depth)
                                        : mcp::message::read(text, srv.options().max_json_depth));
  };
  auto run_queued = [&] {
    for (road& r : roads)
      for (auto& job : std::exchange(r.queued, {})) job();
  };
  // Calls run when told may answer in another order than the reading thread answers a refusal.
  auto replies_alike = [&] {
    auto with_message = roads[0].out->take(), when_run = roads[1].out->take();
    std::sort(with_message.begin(), with_message.end());
    std::sort(when_run.begin(), when_run.end());
    CHECK(with_message == when_run);
    return with_message;
  };
  auto call = [](const std::string& id, const std::string& params, const std::string& jsonrpc = "2.0") {
    return R"({"jsonrpc":")" + jsonrpc + R"(","id":)" + id + R"(,"method":"tools/call","params":)" + params + "}";
  };
  const json refusal = mcp::message::read("{", srv.options().max_json_depth).refusal();  // a text that is not JSON
  REQUIRE(refusal["error"]["code"] == -32700);
  REQUIRE(refusal.value("id", json()).is_null());
  const std::string parse_error = mcp::detail::to_json_text(refusal);

  // Arguments that are not JSON though their brackets close, each way a full check refuses.
  const std::string broken[] = {R"({"a":1,"b":tru})", R"({"a":[1,],"b":2})", R"({"a":"\q","b":2})",
                                "{\"a\":\"\xC3(\",\"b\":2}", R"({"a":01,"b":2})", R"({"a":1 "b":2})",
                                R"({"a":"x]","b":})", "{\"a\":\"\x01\",\"b\":2}"};
  open(true);
  int id = 0;
  for (const std::string& args : broken) {
    INFO(args);
    for (const std::string& params : {R"({"name":"add","arguments":)" + args + "}", R"({"arguments":)" + args + R"(,"name":"add"})",
                                      R"({"name":"raw","arguments":)" + args + "}"}) {
      send(call(std::to_string(++id), params));
      run_queued();
      CHECK(replies_alike() == std::vector<std::string>{parse_error});
    }
  }
  CHECK(middleware_calls == 0);
  CHECK(tool_calls == 0);

  // Refused before the call would run: the parse error still comes first, as from a whole read.
  const std::string bad = broken[0];
  for (const std::string& text :
       {call("1", R"({"name":"add","arguments":)" + bad + "}", "1.0"),                      // jsonrpc
        call("null", R"({"name":"add","arguments":)" + bad + "}"),                          // the id
        R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":)" + bad + "}}",  // a notification
        R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"arguments":)" + bad + "}}",     // another method
        call("4", R"({"name":"add","arguments":)" + bad + R"(,"arguments":{"a":1,"b":2}})"),  // repeated: both are JSON
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":)" + bad +
            R"(},"params":{"name":"add","arguments":{"a":1,"b":2}}})"}) {
    INFO(text);
    send(text);
    run_queued();
    CHECK(replies_alike() == std::vector<std::string>{parse_error});
  }
  // An id in use by a call not run yet; a call cancelled before it runs.
  send(call("7", R"({"name":"add","arguments":{"a":1,"b":2}})"));
  send(call("7", R"({"name":"add","arguments":)" + bad + "}"));
  CHECK(replies_alike() == std::vector<std::string>{parse_error});
  send(call("8", R"({"name":"add","arguments":)" + bad + "}"));
  send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}})");
  run_queued();
  const auto answered = replies_alike();
  REQUIRE(answered.size() == 2);
  CHECK(std::count(answered.begin(), answered.end(), parse_error) == 1);
  for (const auto& line : answered)
    if (line != parse_error) CHECK(json::parse(line)["result"]["structuredContent"] == json{{"total", 3}});
  CHECK(tool_calls == 2);
  // Too deep, and brackets that never close: refused while reading, on both roads.
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  const std::pair<std::string, int> unread[] = {
      {call("9", R"({"name":"add","arguments":{"a":1,"b":2,"c":)" + deep + "}}"), -32600},
      {R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":[1,2,{"b":"]}"})", -32700}};
  for (const auto& [text, code] : unread) {
    INFO(text);
    send(text);
    const auto refused = replies_alike();
    REQUIRE(refused.size() == 1);
    CHECK(json::parse(refused[0])["error"]["code"] == code);
  }
  // Valid arguments, either tool, either order: the same results, each call run once per road.
  for (const std::string& params : {std::string(R"({"name":"add","arguments":{"a":2,"b":"x]"}})"),
                                    std::string(R"({"arguments":{ "a" : 2 , "b" : 5 },"name":"add"})"),
                                    std::string(R"({"name":"raw","arguments":{"s":"\"}]\\","n":[{}]}})")}) {
    INFO(params);
    tool_calls = 0;
    send(call("10", params));
    run_queued();
    const auto results = replies_alike();
    REQUIRE(results.size() == 1);
    CHECK(json::parse(results[0]).contains("result"));
    CHECK(tool_calls == (params.find("\"x]\"") == std::string::npos ? 2 : 0));
  }
  // Before initialize.
  open(false);
  send(call("11", R"({"name":"add","arguments":)" + bad + "}"));
  CHECK(replies_alike() == std::vector<std::string>{parse_error});
}

}  // namespace test_tools
