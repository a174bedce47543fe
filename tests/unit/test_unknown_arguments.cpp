// Arguments a tool's schema does not know (issue #56): Gemini CLI adds "wait_for_previous" to every
// tool it shows its model and forwards it in the arguments. Under the default lossless coercion
// such a name is left out before validation, at every level, counted as its own kind and logged;
// a near miss of a known field ("limt") is refused asking "did you mean 'limit'?"; with coercion
// off every unknown name is refused. In memory, then the notes example over real pipes and over a
// real socket on 127.0.0.1, then the /metrics page (those parts POSIX only: their harness is pipes,
// fork/exec and BSD sockets; the rest also runs in the Windows build).
#include "catch.hpp"

#include <mcp/mcp.hpp>
#include <mcp/validation/detail/near_name.hpp>
#include <mcp/validation/detail/typed_reader.hpp>
#include <mcp/validation/detail/validator_for.hpp>
#include <mcp/testing.hpp>
#include <mcp/transport/http.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifndef _WIN32
#include "http_client.hpp"
#include "serving.hpp"
#include "subprocess.hpp"

#include <signal.h>
#include <unistd.h>
#endif

using mcp::json;
using namespace std::chrono_literals;

namespace test_unknown_arguments {  // a namespace per file: CMake's unity build compiles several test files as one

namespace ua {
MCP_STRUCT_DEF(page_args, (std::string, query, "Words to find", mcp::min_length(1)),
               (int, limit, "Results per page", mcp::default_value(5), mcp::minimum(1), mcp::maximum(50)),
               (std::optional<std::string>, cursor, "Where the last page ended"));
MCP_STRUCT_DEF(window, (int, width, "Width", mcp::default_value(80)), (int, height, "Height", mcp::default_value(24)));
MCP_STRUCT_DEF(layout_args, (std::string, name, "Layout name"), (window, main, "The main window"),
               (std::vector<window>, others, "More windows", mcp::default_value(std::vector<window>{})));
MCP_STRUCT_DEF(layout_result, (std::string, name, "Layout name"), (int, width, "Main width"),
               (int, height, "Main height"), (int, count, "Other windows"));
}  // namespace ua

namespace {

const std::string* near(std::string_view sent, std::initializer_list<const char*> known) {
  static json props;  // the properties of an object schema, names only
  props = json::object();
  for (const char* k : known) props[k] = json::object();
  return mcp::detail::near_miss(sent, props);
}

std::string near_name(std::string_view sent, std::initializer_list<const char*> known) {
  const std::string* found = near(sent, known);
  return found ? *found : "(none)";
}

// A result's first text (a copy is indexed: a mutant's missing member reads as null, not an assertion).
std::string text_of(json result) {
  const json& t = result["content"][0]["text"];
  return t.is_string() ? t.get<std::string>() : "(no text in " + result.dump() + ")";
}

mcp::server quiet_server() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return mcp::server({"unknown-args", "1.0"}, o);
}

// The page tool, counting the calls its handler saw; a strict twin with coercion off.
void add_page_tools(mcp::server& srv, std::atomic<int>& ran) {
  auto handler = [&ran](const ua::page_args& in) -> ua::page_args {
    ++ran;
    return in;
  };
  srv.tool("page", "Pages.", handler);
  mcp::tool_options strict;
  strict.coerce = mcp::coercion::off;
  srv.tool("page_strict", "Pages, arguments as sent.", handler, strict);
}

}  // namespace

TEST_CASE("unknown arguments: the near-miss rule", "[unknown_arguments]") {
  // One edit for names of 3-5 folded characters, two from 6; case and '_'/'-' never count.
  CHECK(near_name("limt", {"query", "limit", "cursor"}) == "limit");
  CHECK(near_name("limits", {"query", "limit", "cursor"}) == "limit");
  CHECK(near_name("qurey", {"query", "limit", "cursor"}) == "query");  // a swap of neighbours is one edit
  CHECK(near_name("cursr", {"query", "limit", "cursor"}) == "cursor");
  CHECK(near_name("crusor", {"query", "limit", "cursor"}) == "cursor");
  CHECK(near_name("Limit", {"query", "limit", "cursor"}) == "limit");
  CHECK(near_name("LIMIT", {"query", "limit", "cursor"}) == "limit");
  CHECK(near_name("maxResults", {"max_results"}) == "max_results");
  CHECK(near_name("max-results", {"max_results"}) == "max_results");
  CHECK(near_name("maxResult", {"max_results"}) == "max_results");
  CHECK(near_name("titel", {"title", "body"}) == "title");
  CHECK(near_name("visiblity", {"title", "body", "visibility"}) == "visibility");
  CHECK(near_name("ID", {"id"}) == "id");
  CHECK(near_name("cursorr", {"cursors", "cursor"}) == "cursor");  // a tie goes to the first in the schema's order
  CHECK(near_name("cursorss", {"cursors", "cursor"}) == "cursors");  // else to the closest (1 edit against 2)

  CHECK(near_name("lmt", {"limit"}) == "(none)");      // two edits from a five-letter name
  CHECK(near_name("ids", {"id"}) == "(none)");         // two letters: folding only
  CHECK(near_name("x", {"q"}) == "(none)");
  CHECK(near_name("course", {"cursor"}) == "(none)");  // three edits
  CHECK(near_name("subtitle", {"title"}) == "(none)");
  CHECK(near_name("", {"a", "ab"}) == "(none)");
  CHECK(near_name(std::string(5000, 'a'), {"aaaa", "aaaaa"}) == "(none)");

  // What hosts add is no near miss of the names tools have: Gemini CLI's name against the notes
  // example's fields and a list of common argument names.
  for (const char* injected : {"wait_for_previous", "waitForPrevious"}) {
    INFO(injected);
    CHECK(near_name(injected, {"title", "body", "visibility", "query", "limit", "cursor"}) == "(none)");
    CHECK(near_name(injected, {"id", "name", "path", "file", "files", "content", "text", "count", "page", "offset",
                               "previous", "wait", "wait_for", "wait_time", "for_previous", "timeout", "force",
                               "recursive", "dry_run", "verbose", "format", "language", "pattern", "prompt",
                               "message", "description", "sequential", "parallel", "run_in_background"}) ==
          "(none)");
  }
  CHECK(mcp::detail::bounded_edit_distance("ca", "abc", 3) == 3);  // optimal string alignment, not full Damerau
  CHECK(mcp::detail::bounded_edit_distance("kitten", "sitting", 2) == 3);  // over the bound: bound + 1
  CHECK(mcp::detail::bounded_edit_distance("kitten", "sitting", 5) == 3);
}

TEST_CASE("unknown arguments: lossless coercion leaves them out at every level, counted by kind",
          "[unknown_arguments][coercion]") {
  const json schema = mcp::schema_of<ua::layout_args>();
  REQUIRE(schema["additionalProperties"] == false);
  REQUIRE(schema["properties"]["main"]["additionalProperties"] == false);
  REQUIRE(schema["properties"]["others"]["items"]["additionalProperties"] == false);
  json args = json::parse(R"({"name":"two","wait_for_previous":true,
      "main":{"width":100,"wait_for_previous":{"deep":[1,2]}},
      "others":[{"height":5,"wait_for_previous":null},{"width":"7"}]})");
  mcp::validator v(schema);
  REQUIRE_FALSE(v.validate(args).empty());
  const auto report = mcp::coerce(args, v.schema());
  CHECK(args == json::parse(R"({"name":"two","main":{"width":100},"others":[{"height":5},{"width":7}]})"));
  CHECK(v.validate(args).empty());
  CHECK(report.count == 4);
  CHECK(report.by_kind == std::map<std::string, int>{{"unknown_argument", 3}, {"number_from_string", 1}});
  CHECK(report.log == std::vector<std::string>{"/main/wait_for_previous: object {\"deep\":[1,2]} -> left out (unknown field)",
                                               "/others/0/wait_for_previous: null -> left out (unknown field)",
                                               "/others/1/width: string \"7\" -> number 7",
                                               "/wait_for_previous: boolean true -> left out (unknown field)"});

  // A near miss stays, at any level, for validation to refuse.
  json typo = json::parse(R"({"name":"t","main":{"widht":3,"wait_for_previous":1}})");
  const auto kept = mcp::coerce(typo, v.schema());
  CHECK(typo == json::parse(R"({"name":"t","main":{"widht":3}})"));
  CHECK(kept.by_kind == std::map<std::string, int>{{"unknown_argument", 1}});
  const auto problems = v.validate(typo);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/main");
  CHECK(problems[0].message == "unknown field 'widht' (did you mean 'width'?); valid fields: height, width");

  // Coercion off changes nothing; an object whose schema is open, or a map, keeps every member.
  json as_sent = json::parse(R"({"name":"t","wait_for_previous":true})");
  CHECK(mcp::coerce(as_sent, v.schema(), mcp::coercion::off).count == 0);
  CHECK(as_sent.contains("wait_for_previous"));
  json open = json::parse(R"({"a":1,"wait_for_previous":true})");
  CHECK(mcp::coerce(open, json::parse(R"({"type":"object","properties":{"a":{"type":"string"}}})")).by_kind ==
        std::map<std::string, int>{});
  CHECK(open.contains("wait_for_previous"));
  json map = json::parse(R"({"scores":{"wait_for_previous":"1"}})");
  CHECK(mcp::coerce(map, json::parse(R"({"type":"object","properties":{"scores":{"type":"object",
                             "additionalProperties":{"type":"integer"}}},"additionalProperties":false})"))
            .by_kind == std::map<std::string, int>{{"number_from_string", 1}});
  CHECK(map == json::parse(R"({"scores":{"wait_for_previous":1}})"));

  // patternProperties know the names they match; a tool without arguments knows none.
  json patterned = json::parse(R"({"x_1":1,"wait_for_previous":true})");
  mcp::coerce(patterned, json::parse(R"({"type":"object","patternProperties":{"^x_":{}},"additionalProperties":false})"));
  CHECK(patterned == json::parse(R"({"x_1":1})"));
  json none = json::parse(R"({"wait_for_previous":true})");
  CHECK(mcp::coerce(none, json::parse(R"({"type":"object","additionalProperties":false})")).count == 1);
  CHECK(none == json::object());
}

TEST_CASE("unknown arguments: a typed tool drops them, refuses a near miss, and counts the kind",
          "[unknown_arguments][tools]") {
  auto srv = quiet_server();
  std::atomic<int> ran{0};
  add_page_tools(srv, ran);
  mcp::testing::client c(srv);
  c.initialize();
  c.request("logging/setLevel", {{"level", "debug"}});
  c.messages().drain();

  // tools/list still says additionalProperties: false.
  const json listed = c.result("tools/list");  // a copy: a loop over a temporary's member would dangle
  for (const auto& t : listed["tools"]) CHECK(t["inputSchema"]["additionalProperties"] == false);

  // Gemini CLI's shape: the call succeeds as if the name were not there.
  json plain = c.call_tool("page", {{"query", "milk"}});
  json gemini = c.call_tool("page", {{"query", "milk"}, {"wait_for_previous", true}});
  CHECK_FALSE(gemini.value("isError", false));
  CHECK(gemini["structuredContent"] == json{{"query", "milk"}, {"limit", 5}});
  CHECK(gemini == plain);
  CHECK(ran == 2);
  auto m = srv.metrics("page");
  CHECK(m.coercions == 1);
  CHECK(m.coercions_by_kind == std::map<std::string, std::uint64_t>{{"unknown_argument", 1}});
  CHECK(m.validation_failures == 0);
  // Logged at debug, as every coercion is.
  bool logged = false;
  for (const auto& msg : c.messages().drain())
    if (msg.value("method", "") == "notifications/message" && msg["params"]["logger"] == "mcp.coercion") {
      CHECK(msg["params"]["level"] == "debug");
      CHECK(msg["params"]["data"] ==
            json{{"tool", "page"}, {"coerced", {"/wait_for_previous: boolean true -> left out (unknown field)"}}});
      logged = true;
    }
  CHECK(logged);

  // Another coercion in the same call is counted under its own kind.
  CHECK(c.call_tool("page", {{"query", "milk"}, {"limit", "7"}, {"wait_for_previous", false}})["structuredContent"] ==
        json{{"query", "milk"}, {"limit", 7}});
  m = srv.metrics("page");
  CHECK(m.coercions == 3);
  CHECK(m.coercions_by_kind == std::map<std::string, std::uint64_t>{{"unknown_argument", 2}, {"number_from_string", 1}});

  // A typo is refused, never a silent default, and the handler does not run.
  json typo = c.call_tool("page", {{"query", "milk"}, {"limt", 20}, {"wait_for_previous", true}});
  CHECK(typo["isError"] == true);
  CHECK(text_of(typo) ==
        "Invalid arguments for tool 'page' (1 problem):\n"
        "- unknown field 'limt' (did you mean 'limit'?); valid fields: cursor, limit, query (additionalProperties)\n"
        "Fix this and call the tool again.");
  CHECK(ran == 3);
  CHECK(srv.metrics("page").validation_failures == 1);
  CHECK(srv.metrics("page").failures_by_keyword.at("additionalProperties") == 1);

  // Coercion off: every unknown name is refused, a near miss with the hint.
  json strict = c.call_tool("page_strict", {{"query", "milk"}, {"wait_for_previous", true}});
  CHECK(strict["isError"] == true);
  CHECK(text_of(strict).find("unknown field 'wait_for_previous'; valid fields: cursor, limit, query") != std::string::npos);
  json strict_typo = c.call_tool("page_strict", {{"query", "milk"}, {"Limit", 20}});
  CHECK(text_of(strict_typo).find("unknown field 'Limit' (did you mean 'limit'?)") != std::string::npos);
  CHECK(ran == 3);
  CHECK(srv.metrics("page_strict").coercions == 0);
  CHECK(srv.metrics("page_strict").coercions_by_kind.empty());
}

TEST_CASE("unknown arguments: nested levels, a tool without arguments and a runtime-schema tool",
          "[unknown_arguments][tools]") {
  auto srv = quiet_server();
  srv.tool("layout", "Lays out.", [](const ua::layout_args& in) -> ua::layout_result {
    return {in.name, in.main.width, in.main.height, static_cast<int>(in.others.size())};
  });
  srv.tool("now", "No arguments.", []() -> std::string { return "12:00"; });
  mcp::runtime_schema rs{json::parse(R"({"type":"object","required":["finding"],"additionalProperties":false,
      "properties":{"finding":{"type":"string"},"where":{"type":"object","additionalProperties":false,
                    "properties":{"file":{"type":"string"},"line":{"type":"integer"}}}}})")};
  srv.tool("submit", "Records.", rs, [](const json& args) { return args.dump(); });
  mcp::testing::client c(srv);
  c.initialize();

  json r = c.call_tool("layout", json::parse(R"({"name":"n","wait_for_previous":true,
      "main":{"width":9,"wait_for_previous":true},"others":[{"wait_for_previous":true},{}]})"));
  CHECK(r["structuredContent"] == json{{"name", "n"}, {"width", 9}, {"height", 24}, {"count", 2}});
  CHECK(srv.metrics("layout").coercions_by_kind.at("unknown_argument") == 3);
  json nested_typo = c.call_tool("layout", json::parse(R"({"name":"n","main":{"hieght":9}})"));
  CHECK(nested_typo["isError"] == true);
  CHECK(text_of(nested_typo).find("- /main: unknown field 'hieght' (did you mean 'height'?); valid fields: height, width") !=
        std::string::npos);

  CHECK(c.call_tool("now", {{"wait_for_previous", true}})["content"][0]["text"] == "12:00");
  CHECK(srv.metrics("now").coercions_by_kind.at("unknown_argument") == 1);

  json submitted =
      c.call_tool("submit", json::parse(R"({"finding":"f","wait_for_previous":true,"where":{"line":3,"column":4}})"));
  CHECK(text_of(submitted) == R"({"finding":"f","where":{"line":3}})");
  CHECK(srv.metrics("submit").coercions_by_kind.at("unknown_argument") == 2);
  CHECK(text_of(c.call_tool("submit", {{"finding", "f"}, {"fnding", "g"}})).find("did you mean 'finding'?") !=
        std::string::npos);
}

TEST_CASE("unknown arguments: the text road gives up on them and the tree road decides as without them",
          "[unknown_arguments][typed_reader]") {
  // The typed reader answers only "read, and valid"; a key its type lacks makes it give up, so the
  // call takes the tree road (validate, coerce, validate again: valijson decides), and nothing on
  // the fast path decides what valijson would not.
  const auto reader = mcp::detail::typed_reader<ua::page_args>::make(mcp::detail::fast_path_of(mcp::detail::validator_for<ua::page_args>()));
  REQUIRE(reader);
  ua::page_args out;
  CHECK(reader->read(R"({"query":"milk","limit":3})", 64, out));
  CHECK(out.limit == 3);
  for (const char* text : {R"({"query":"milk","limit":3,"wait_for_previous":true})",
                           R"({"wait_for_previous":true,"query":"milk","limit":3})", R"({"query":"milk","limt":3})"}) {
    INFO(text);
    ua::page_args fresh;
    CHECK_FALSE(reader->read(text, 64, fresh));
    CHECK_FALSE(mcp::detail::validator_for<ua::page_args>().validate(json::parse(text)).empty());
  }

  // Over a connection (the text road where the reader takes the text), the same answers with the
  // name as without it, for each valid text; with a typo, a refusal on both.
  auto srv = quiet_server();
  std::atomic<int> ran{0};
  add_page_tools(srv, ran);
  mcp::testing::client c(srv);
  c.initialize();
  for (const char* args : {R"({"query":"a"})", R"({"query":"a","limit":50})", R"({"query":"a","cursor":"x","limit":1})",
                           R"({"query":"a","limit":51})", R"({"query":"","limit":2})", R"({"limit":2})"}) {
    INFO(args);
    json with = json::parse(args);
    with["wait_for_previous"] = true;
    const std::string text = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"page","arguments":)";
    c.send_text(text + args + "}}");
    json without_name = c.wait_response(1);
    c.send_text(text + with.dump() + "}}");
    json with_name = c.wait_response(1);
    if (without_name["result"].value("isError", false)) {
      CHECK(with_name["result"]["isError"] == true);  // the same refusal, the dropped name not in it
      CHECK(text_of(with_name["result"]) == text_of(without_name["result"]));
    } else {
      CHECK(with_name == without_name);
    }
  }
}

#ifndef _WIN32
#ifdef MCP_NOTES_BINARY

namespace {

std::string scratch_store(const std::string& name) {
  const std::string path =
      std::string(MCP_TEST_BINARY_DIR) + "/scratch-unknown-args-" + name + "-" + std::to_string(getpid()) + ".json";
  std::remove(path.c_str());
  return path;
}

json rpc(long long id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json init_params() {
  return {{"protocolVersion", "2025-11-25"},
          {"capabilities", json::object()},
          {"clientInfo", {{"name", "gemini-cli-mcp-client"}, {"version", "0.61.0"}}}};
}

// What Gemini CLI sends: the model's arguments plus its own "wait_for_previous".
json gemini(json args) {
  args["wait_for_previous"] = true;
  return args;
}

}  // namespace

TEST_CASE("unknown arguments: Gemini CLI's call shape on the notes example over real pipes",
          "[unknown_arguments][examples]") {
  const std::string store = scratch_store("stdio");
  test::subprocess notes({MCP_NOTES_BINARY, "--store", store});
  long long id = 0;
  auto request = [&](const std::string& method, json params) {
    notes.write_line(rpc(++id, method, std::move(params)).dump());
    const auto line = notes.read_line(10s);
    REQUIRE(line);
    const json r = json::parse(*line);
    REQUIRE(r["id"] == id);
    INFO(*line);
    REQUIRE(r.contains("result"));
    return r["result"];
  };
  request("initialize", init_params());
  notes.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  const json listed = request("tools/list", json::object());  // a copy: a loop over a temporary's member would dangle
  for (const auto& t : listed["tools"]) CHECK(t["inputSchema"]["additionalProperties"] == false);

  json created =
      request("tools/call", {{"name", "create_note"}, {"arguments", gemini({{"title", "Groceries"}, {"body", "milk, eggs"}})}});
  CHECK_FALSE(created.value("isError", false));
  json found = request("tools/call", {{"name", "search_notes"}, {"arguments", gemini({{"query", "milk"}})}});
  INFO(found.dump());
  CHECK_FALSE(found.value("isError", false));
  CHECK(found["structuredContent"]["total_matches"] == 1);
  CHECK(found["structuredContent"]["notes"][0]["title"] == "Groceries");
  json stats = request("tools/call", {{"name", "note_stats"}, {"arguments", gemini({{"title", "Groceries"}})}});
  CHECK(stats["structuredContent"]["word_count"] == 2);

  json typo = request("tools/call", {{"name", "search_notes"}, {"arguments", gemini({{"query", "milk"}, {"limt", 1}})}});
  CHECK(typo["isError"] == true);
  CHECK(text_of(typo).find("unknown field 'limt' (did you mean 'limit'?)") !=
        std::string::npos);

  notes.close_stdin();
  CHECK(notes.wait(10s) == 0);
  std::remove(store.c_str());
}

TEST_CASE("unknown arguments: Gemini CLI's call shape on the notes example over HTTP", "[unknown_arguments][examples]") {
  const std::string store = scratch_store("http");
  const unsigned short port = test::free_port();
  test::subprocess notes({MCP_NOTES_BINARY, "--store", store, "--http", "127.0.0.1:" + std::to_string(port)});
  auto conn = test::connect_when_listening(port);
  REQUIRE(conn);
  std::vector<test::header> headers = {{"Accept", "application/json, text/event-stream"},
                                       {"Content-Type", "application/json"}};
  long long id = 0;
  auto post = [&](const json& message) {
    conn->send(test::http_request("POST", "/mcp", message.dump(), headers));
    return conn->read(10s);
  };
  const auto init = post(rpc(++id, "initialize", init_params()));
  REQUIRE(init.status == 200);
  REQUIRE(init.header("Mcp-Session-Id"));
  headers.push_back({"Mcp-Session-Id", *init.header("Mcp-Session-Id")});
  headers.push_back({"MCP-Protocol-Version", "2025-11-25"});
  REQUIRE(post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status == 202);
  auto call = [&](const std::string& tool, json args) {
    const auto r = post(rpc(++id, "tools/call", {{"name", tool}, {"arguments", std::move(args)}}));
    REQUIRE(r.status == 200);
    const json body = json::parse(r.body);
    INFO(r.body);
    REQUIRE(body["id"] == id);
    REQUIRE(body.contains("result"));
    return body["result"];
  };

  CHECK_FALSE(call("create_note", gemini({{"title", "Over HTTP"}, {"body", "hello there"}})).value("isError", false));
  json found = call("search_notes", gemini({{"query", "hello"}}));
  INFO(found.dump());
  CHECK_FALSE(found.value("isError", false));
  CHECK(found["structuredContent"]["total_matches"] == 1);
  CHECK(found["structuredContent"]["notes"][0]["title"] == "Over HTTP");
  json typo = call("search_notes", gemini({{"query", "hello"}, {"limt", 1}}));
  CHECK(typo["isError"] == true);
  CHECK(text_of(typo).find("unknown field 'limt' (did you mean 'limit'?)") !=
        std::string::npos);

  notes.signal(SIGTERM);
  CHECK(notes.wait(10s) == 0);
  std::remove(store.c_str());
}

#endif  // MCP_NOTES_BINARY

TEST_CASE("unknown arguments: /metrics shows coercions by kind", "[unknown_arguments][http]") {
  auto srv = quiet_server();
  std::atomic<int> ran{0};
  add_page_tools(srv, ran);
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.metrics = true;
  test::serving serving(srv, std::move(o));
  test::http_connection conn(serving.port());
  std::vector<test::header> headers = {{"Accept", "application/json, text/event-stream"},
                                       {"Content-Type", "application/json"},
                                       {"MCP-Protocol-Version", "2025-11-25"}};
  // 2026-07-28 would do too; a 2025 session needs initialize first.
  conn.send(test::http_request("POST", "/mcp",
                               json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                                    {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                                {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}}
                                   .dump(),
                               headers));
  const auto init = conn.read(5s);
  REQUIRE(init.header("Mcp-Session-Id"));
  headers.push_back({"Mcp-Session-Id", *init.header("Mcp-Session-Id")});
  const json call = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                     {"params", {{"name", "page"}, {"arguments", {{"query", "a"}, {"limit", "2"}, {"wait_for_previous", true}}}}}};
  conn.send(test::http_request("POST", "/mcp", call.dump(), headers));
  const auto answer = conn.read(5s);
  REQUIRE(answer.status == 200);
  CHECK(json::parse(answer.body)["result"]["structuredContent"] == json{{"query", "a"}, {"limit", 2}});

  conn.send(test::http_request("GET", "/metrics", "", {}));
  const auto metrics = conn.read(5s);
  REQUIRE(metrics.status == 200);
  const std::string& text = metrics.body;
  INFO(text);
  CHECK(text.find("mcp_tool_coercions_total{tool=\"page\"} 2\n") != std::string::npos);
  CHECK(text.find("# TYPE mcp_tool_coercions_by_kind_total counter\n") != std::string::npos);
  CHECK(text.find("mcp_tool_coercions_by_kind_total{tool=\"page\",kind=\"unknown_argument\"} 1\n") != std::string::npos);
  CHECK(text.find("mcp_tool_coercions_by_kind_total{tool=\"page\",kind=\"number_from_string\"} 1\n") != std::string::npos);
  CHECK(text.find("mcp_tool_coercions_by_kind_total{tool=\"page_strict\"") == std::string::npos);  // none yet
}
#endif  // _WIN32

}  // namespace test_unknown_arguments
