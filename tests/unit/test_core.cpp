// The protocol core, driven through the in-memory client: JSON-RPC framing, lifecycle,
// cancellation, progress, logging and requests to the client.
#include "catch.hpp"

#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/core/server.hpp>
#include <mcp/testing.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
using namespace std::chrono_literals;

namespace test_core {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

mcp::server make_server(mcp::server_options options = {}) {
  mcp::server_info info;
  info.name = "core-test";
  info.version = "1.2.3";
  info.title = "Core Test";
  info.description = "A server for tests";
  return mcp::server(info, std::move(options));
}

mcp::tool_definition echo_tool(std::string name) {
  mcp::tool_definition t;
  t.name = std::move(name);
  t.description = "Echoes its arguments";
  t.input_schema = {{"type", "object"}};
  t.invoke = [](const json& args, mcp::context&) {
    return json{{"content", json::array({{{"type", "text"}, {"text", args.dump()}}})}};
  };
  return t;
}

// Runs slow handlers on real threads, as the stdio and HTTP transports do.
struct pooled {
  mcp::detail::thread_pool pool{4};
  mcp::executor run() {
    return [this](std::function<void()> job) { pool.post(std::move(job)); };
  }
};

int error_code_of(const json& response) { return response.at("error").at("code").get<int>(); }

}  // namespace

TEST_CASE("ping answers exactly {} before and after initialize") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  json r = c.request("ping");
  CHECK(r == json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}});
  c.initialize();
  CHECK(c.result("ping") == json::object());
  CHECK(c.result("ping", {{"_meta", {{"progressToken", 5}}}}) == json::object());
}

TEST_CASE("requests other than ping before initialize get a clear error") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  json r = c.request("tools/list");
  CHECK(error_code_of(r) == -32600);
  CHECK(r["error"]["message"] == "Server not initialized: send 'initialize' before 'tools/list'");
}

TEST_CASE("initialize negotiates the protocol version") {
  for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    auto srv = make_server();
    mcp::testing::client c(srv);
    CHECK(c.initialize(v)["protocolVersion"] == v);
  }
  auto srv = make_server();
  mcp::testing::client c(srv);
  CHECK(c.initialize("1999-01-01")["protocolVersion"] == "2025-11-25");
}

TEST_CASE("initialize reports server info, instructions and capabilities from what is registered") {
  mcp::server_options options;
  options.instructions = "Use the tools wisely.";
  auto srv = make_server(options);
  {
    mcp::testing::client c(srv);
    json r = c.initialize();
    CHECK(r["serverInfo"] == json{{"name", "core-test"}, {"version", "1.2.3"}, {"title", "Core Test"},
                                  {"description", "A server for tests"}});
    CHECK(r["instructions"] == "Use the tools wisely.");
    CHECK(r["capabilities"] == json{{"logging", json::object()}});
  }
  srv.add_tool(echo_tool("echo"));
  mcp::testing::client c(srv);
  CHECK(c.initialize()["capabilities"]["tools"] == json{{"listChanged", true}});
}

TEST_CASE("initialize is refused twice and checks its params") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  json bad = c.request("initialize", {{"capabilities", json::object()}});
  CHECK(error_code_of(bad) == -32602);
  CHECK(bad["error"]["message"] == "Invalid params: \"protocolVersion\" must be a string");
  json bad_caps = c.request("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", 3}});
  CHECK(error_code_of(bad_caps) == -32602);
  c.initialize();
  json again = c.request("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
  CHECK(error_code_of(again) == -32600);
}

TEST_CASE("ids are echoed with their type") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  c.send(mcp::jsonrpc::request("7", "ping"));
  c.send(mcp::jsonrpc::request(7, "ping"));
  auto replies = c.messages().drain();
  REQUIRE(replies.size() == 2);
  CHECK(replies[0]["id"].is_string());
  CHECK(replies[0]["id"] == "7");
  CHECK(replies[1]["id"].is_number_integer());
  CHECK(replies[1]["id"] == 7);
}

TEST_CASE("malformed messages get -32600 or -32700") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  auto only_reply = [&] {
    auto replies = c.messages().drain();
    REQUIRE(replies.size() == 1);
    return replies.front();
  };
  SECTION("null id") {
    c.send({{"jsonrpc", "2.0"}, {"id", nullptr}, {"method", "ping"}});
    json r = only_reply();
    CHECK(error_code_of(r) == -32600);
    CHECK_FALSE(r.contains("id"));
  }
  SECTION("fractional and boolean ids") {
    c.send({{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "ping"}});
    CHECK(error_code_of(only_reply()) == -32600);
    c.send({{"jsonrpc", "2.0"}, {"id", true}, {"method", "ping"}});
    CHECK(error_code_of(only_reply()) == -32600);
  }
  SECTION("wrong or missing jsonrpc member") {
    c.send({{"jsonrpc", "1.0"}, {"id", 3}, {"method", "ping"}});
    json r = only_reply();
    CHECK(error_code_of(r) == -32600);
    CHECK(r["id"] == 3);
    c.send({{"id", 4}, {"method", "ping"}});
    CHECK(error_code_of(only_reply()) == -32600);
  }
  SECTION("batch arrays are refused") {
    c.send(json::array({mcp::jsonrpc::request(1, "ping"), mcp::jsonrpc::request(2, "ping")}));
    json r = only_reply();
    CHECK(error_code_of(r) == -32600);
    CHECK(r["error"]["message"] == "Invalid request: batch arrays are not supported; send one message at a time");
  }
  SECTION("not an object") {
    c.send(42);
    CHECK(error_code_of(only_reply()) == -32600);
  }
  SECTION("non-string method") {
    c.send({{"jsonrpc", "2.0"}, {"id", 5}, {"method", 12}});
    CHECK(error_code_of(only_reply()) == -32600);
  }
  SECTION("not JSON at all") {
    c.send_text("{\"jsonrpc\": \"2.0\", \"id\": ");
    json r = only_reply();
    CHECK(error_code_of(r) == -32700);
    CHECK_FALSE(r.contains("id"));
  }
  SECTION("nesting deeper than the limit, even inside a huge message") {
    std::string deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + std::string(100000, '[') +
                       std::string(100000, ']') + "}}";
    c.send_text(deep);
    json r = only_reply();
    CHECK(error_code_of(r) == -32600);
    CHECK(r["error"]["message"] == "Invalid request: JSON nested deeper than 128 levels");
    c.send_text("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"s\":\"[[[[[[\\\"[[[[\"}}");
    CHECK(only_reply()["id"] == 2);  // brackets inside strings do not count
  }
  SECTION("params that are not an object") {
    c.send({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "ping"}, {"params", json::array({1})}});
    CHECK(error_code_of(only_reply()) == -32602);
  }
  SECTION("a response with both result and error") {
    c.send({{"jsonrpc", "2.0"}, {"id", 9}, {"result", json::object()}, {"error", {{"code", 1}, {"message", "x"}}}});
    CHECK(error_code_of(only_reply()) == -32600);
  }
}

TEST_CASE("unknown methods get -32601; notifications are never answered") {
  auto srv = make_server();
  mcp::testing::client c(srv);
  c.initialize();
  json r = c.request("tools/frobnicate");
  CHECK(error_code_of(r) == -32601);
  CHECK(r["error"]["message"] == "Method not found: 'tools/frobnicate'");
  c.notify("notifications/whatever", {{"x", 1}});
  c.notify("notifications/initialized");
  c.notify("notifications/cancelled", {{"requestId", 999}});
  c.send({{"jsonrpc", "2.0"}, {"id", 77}, {"result", json::object()}});  // answers nothing we asked
  CHECK(c.messages().size() == 0);
}

TEST_CASE("a handler's result must be an object, and its exceptions become -32603 without details") {
  std::vector<std::string> diagnostics;
  mcp::server_options options;
  options.log_sink = [&](std::string_view s) { diagnostics.emplace_back(s); };
  auto srv = make_server(options);
  srv.method("test/array", {[](mcp::context&, const json&) { return json::array(); }});
  srv.method("test/throw", {[](mcp::context&, const json&) -> json { throw std::runtime_error("disk /secret/x failed"); }});
  srv.method("test/refuse", {[](mcp::context&, const json&) -> json {
    throw mcp::protocol_error(-32602, "Invalid params: no", json{{"why", "because"}});
  }});
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(error_code_of(c.request("test/array")) == -32603);
  json r = c.request("test/throw");
  CHECK(r["error"] == json{{"code", -32603}, {"message", "Internal error"}});
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[1].find("disk /secret/x failed") != std::string::npos);
  CHECK(c.request("test/refuse")["error"] == json{{"code", -32602}, {"message", "Invalid params: no"}, {"data", {{"why", "because"}}}});
}

TEST_CASE("tools/list and tools/call on a prepared tool; unknown tool is -32602") {
  auto srv = make_server();
  srv.add_tool(echo_tool("echo"));
  mcp::testing::client c(srv);
  c.initialize();
  json list = c.result("tools/list");
  REQUIRE(list["tools"].size() == 1);
  CHECK(list["tools"][0] == json{{"name", "echo"}, {"description", "Echoes its arguments"}, {"inputSchema", {{"type", "object"}}}});
  CHECK_FALSE(list.contains("nextCursor"));
  CHECK(c.call_tool("echo", {{"a", 1}})["content"][0]["text"] == "{\"a\":1}");
  json unknown = c.request("tools/call", {{"name", "nope"}});
  CHECK(error_code_of(unknown) == -32602);
  CHECK(unknown["error"]["message"] == "Unknown tool: 'nope'. Available tools: echo");
  CHECK(error_code_of(c.request("tools/call", {{"arguments", json::object()}})) == -32602);
  CHECK(error_code_of(c.request("tools/call", {{"name", "echo"}, {"arguments", "x"}})) == -32602);
}

TEST_CASE("tool names are checked at registration") {
  auto srv = make_server();
  CHECK_THROWS_WITH(srv.add_tool(echo_tool("bad name")), "Tool name 'bad name' contains ' '; use only A-Z a-z 0-9 _ . -");
  CHECK_THROWS_WITH(srv.add_tool(echo_tool(std::string(65, 'a'))),
                    "Tool name '" + std::string(64, 'a') + "...' is 65 characters long; the limit is 64");
  CHECK_THROWS(srv.add_tool(echo_tool("")));
  srv.add_tool(echo_tool("ok.name-1_x"));
  CHECK_THROWS_WITH(srv.add_tool(echo_tool("ok.name-1_x")), "A tool named 'ok.name-1_x' is already registered");
}

TEST_CASE("tools/list pages with opaque cursors and refuses bad ones") {
  mcp::server_options options;
  options.page_size = 2;
  auto srv = make_server(options);
  for (int i = 0; i < 5; ++i) srv.add_tool(echo_tool("t" + std::to_string(i)));
  mcp::testing::client c(srv);
  c.initialize();
  std::vector<std::string> seen;
  json params = json::object();
  for (int pages = 0; pages < 10; ++pages) {
    json page = c.result("tools/list", params);
    for (auto& t : page["tools"]) seen.push_back(t["name"]);
    if (!page.contains("nextCursor")) break;
    params = {{"cursor", page["nextCursor"]}};
  }
  CHECK(seen == std::vector<std::string>{"t0", "t1", "t2", "t3", "t4"});
  CHECK(error_code_of(c.request("tools/list", {{"cursor", "garbage!"}})) == -32602);
}

TEST_CASE("adding or removing a tool notifies initialized clients") {
  auto srv = make_server();
  srv.add_tool(echo_tool("a"));
  mcp::testing::client c(srv);
  mcp::testing::client not_initialized(srv);
  c.initialize();
  srv.add_tool(echo_tool("b"));
  CHECK(srv.remove_tool("a"));
  CHECK_FALSE(srv.remove_tool("a"));
  auto notes = c.messages().drain();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] == json{{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
  CHECK(not_initialized.messages().size() == 0);
}

TEST_CASE("cancellation: the handler sees it and no response is sent") {
  pooled workers;
  auto srv = make_server();
  std::atomic<bool> saw_cancel{false}, started{false};
  srv.method("test/slow", {[&](mcp::context& ctx, const json&) {
                             started = true;
                             for (int i = 0; i < 500 && !ctx.cancelled(); ++i) std::this_thread::sleep_for(2ms);
                             saw_cancel = ctx.cancelled();
                             return json::object();
                           },
                           true});
  mcp::testing::client c(srv, workers.run());
  c.initialize();
  json id = c.start_request("test/slow");
  while (!started) std::this_thread::sleep_for(1ms);
  CHECK(c.result("ping") == json::object());  // not blocked by the slow request
  c.notify("notifications/cancelled", {{"requestId", id}, {"reason", "user"}});
  CHECK_THROWS(c.wait_response(id, 300ms));
  CHECK(saw_cancel);
}

TEST_CASE("an id in flight cannot be reused") {
  pooled workers;
  auto srv = make_server();
  std::atomic<bool> release{false};
  srv.method("test/wait", {[&](mcp::context&, const json&) {
                             while (!release) std::this_thread::sleep_for(1ms);
                             return json::object();
                           },
                           true});
  mcp::testing::client c(srv, workers.run());
  c.initialize();
  c.send(mcp::jsonrpc::request("dup", "test/wait"));
  c.send(mcp::jsonrpc::request("dup", "test/wait"));
  json first = c.wait_response("dup", 2s);
  CHECK(error_code_of(first) == -32600);
  release = true;
  CHECK(c.wait_response("dup", 2s)["result"] == json::object());
}

TEST_CASE("progress: the token is echoed exactly, values only grow, nothing after the reply") {
  auto srv = make_server();
  std::shared_ptr<mcp::context*> keep;
  srv.method("test/progress", {[&](mcp::context& ctx, const json&) {
                                 ctx.progress(1, 3, "one");
                                 ctx.progress(2, 3);
                                 ctx.progress(2, 3);  // not growing: dropped
                                 ctx.progress(1.5);   // not growing: dropped
                                 ctx.progress(3, 3);
                                 return json{{"token_seen", *ctx.progress_token()}};
                               },
                               true});
  mcp::testing::client c(srv);
  c.initialize();
  for (json token : {json("abc"), json(42)}) {
    json r = c.request("test/progress", {{"_meta", {{"progressToken", token}}}});
    CHECK(r["result"]["token_seen"] == token);
    auto notes = c.messages().drain();
    REQUIRE(notes.size() == 3);
    CHECK(notes[0] == json{{"jsonrpc", "2.0"},
                           {"method", "notifications/progress"},
                           {"params", {{"progressToken", token}, {"progress", 1.0}, {"total", 3.0}, {"message", "one"}}}});
    CHECK(notes[1]["params"]["progress"] == 2.0);
    CHECK(notes[2]["params"]["progress"] == 3.0);
    CHECK(notes[2]["params"]["progressToken"].dump() == token.dump());  // the same JSON text
  }
  // Without a token nothing is sent.
  c.request("test/progress");
  CHECK(c.messages().size() == 0);
}

TEST_CASE("logging/setLevel returns {} and filters notifications/message") {
  auto srv = make_server();
  srv.method("test/log", {[](mcp::context& ctx, const json&) {
                            ctx.log(mcp::log_level::debug, "d");
                            ctx.log(mcp::log_level::warning, json{{"w", 1}}, "db");
                            ctx.log(mcp::log_level::emergency, "e");
                            return json::object();
                          }});
  mcp::testing::client c(srv);
  c.initialize();
  CHECK(c.request("logging/setLevel", {{"level", "warning"}})["result"] == json::object());
  c.request("test/log");
  auto notes = c.messages().drain();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0]["params"] == json{{"level", "warning"}, {"data", {{"w", 1}}}, {"logger", "db"}});
  CHECK(notes[1]["params"]["level"] == "emergency");
  CHECK(error_code_of(c.request("logging/setLevel", {{"level", "loud"}})) == -32602);
  CHECK(error_code_of(c.request("logging/setLevel")) == -32602);
}

TEST_CASE("a response from the client reaches the request that asked for it") {
  pooled workers;
  auto srv = make_server();
  srv.method("test/ask", {[](mcp::context& ctx, const json&) {
                            json roots = ctx.request_client("roots/list", json::object(), 5s);
                            return json{{"got", roots}};
                          },
                          true});
  mcp::testing::client c(srv, workers.run());
  c.initialize("2025-11-25", {{"roots", json::object()}});
  json id = c.start_request("test/ask");
  auto ask = c.messages().take([](const json& m) { return m.value("method", "") == "roots/list"; }, 2s);
  REQUIRE(ask);
  REQUIRE(ask->contains("id"));
  c.send(mcp::jsonrpc::response((*ask)["id"], {{"roots", json::array()}}));
  CHECK(c.wait_response(id)["result"] == json{{"got", {{"roots", json::array()}}}});
}

TEST_CASE("a request to the client times out, and one is given up when the call is cancelled") {
  pooled workers;
  auto srv = make_server();
  srv.method("test/ask", {[](mcp::context& ctx, const json& p) {
                            try {
                              ctx.request_client("roots/list", json::object(), std::chrono::milliseconds(p.value("ms", 100)));
                            } catch (const mcp::request_timeout& e) {
                              return json{{"timeout", e.what()}};
                            }
                            return json::object();
                          },
                          true});
  mcp::testing::client c(srv, workers.run());
  c.initialize();
  json r = c.request("test/ask", {{"ms", 100}});
  CHECK(r["result"]["timeout"] == "The client did not answer 'roots/list' in time");
  auto cancel = c.messages().take([](const json& m) { return m.value("method", "") == "notifications/cancelled"; }, 1s);
  REQUIRE(cancel);
  CHECK(cancel->at("params").at("reason") == "timeout");
  c.messages().drain();  // the first call's roots/list

  json id = c.start_request("test/ask", {{"ms", 10000}});
  auto ask = c.messages().take([](const json& m) { return m.value("method", "") == "roots/list"; }, 2s);
  REQUIRE(ask);
  c.notify("notifications/cancelled", {{"requestId", id}});
  auto given_up = c.messages().take([](const json& m) { return m.value("method", "") == "notifications/cancelled"; }, 2s);
  REQUIRE(given_up);
  CHECK(given_up->at("params").at("requestId") == (*ask)["id"]);
  CHECK_THROWS(c.wait_response(id, 200ms));  // the cancelled call itself is not answered
}

namespace {
// operator== says 1 == 1u == 1.0; the reader must also give each number nlohmann's kind.
bool same_value(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_structured()) {
    if (a.size() != b.size()) return false;
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
      if (a.is_object() && ia.key() != ib.key()) return false;
      if (!same_value(*ia, *ib)) return false;
    }
    return true;
  }
  if (a.is_number_float()) return a.get<double>() == b.get<double>() && std::signbit(a.get<double>()) == std::signbit(b.get<double>());
  return a == b;
}
}  // namespace

TEST_CASE("the JSON reader accepts and builds exactly what nlohmann does, and skip_value accepts the same") {
  const std::vector<std::string> texts = {
      // numbers: kinds, limits, forms
      "0", "-0", "-0.0", "1", "-1", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
      "-9223372036854775809", "1.5", "1e5", "1E+05", "2.5e-3", "1e-400", "-1e-400", "1e400", "-1e400",
      "1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324", "123456789012345678901234567890",
      "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1_000", "Infinity", "NaN",
      "999999999999999999", "-999999999999999999", "1000000000000000000", "-9223372036854775807", "[-0,0]",
      "[1e2]", "[12.]", "[1-]", "[007]", "[-]", "[1x]", "{\"a\":12345}", "10000000000000000000", "99999999999999999999",
      "-10000000000000000000", "-18446744073709551615", "[18446744073709551615,18446744073709551616]",
      // strings: escapes, surrogates, UTF-8, control characters
      R"("")", R"("a\"b\\c\/d\b\f\n\r\t")", R"("\u0000")", R"("\u00e9\u20ac")", R"("\ud83d\ude00")", R"("\uD83D\uDE00")",
      R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")", R"("\ud800x")", R"("\u12")", R"("\u12G4")", R"("\x")", R"("\)",
      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "\"\xc0\xaf\"", "\"\xc1\xbf\"", "\"\xe0\x80\xaf\"", "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xc3\"", "\"\xe2\x82\"", "\"\x80\"", "\"\xff\"", "\"\x7f\"",
      "\"\t\"", "\"\x1f\"", "\"abc", "\"",
      // structure, whitespace, literals
      "{}", "[]", " \t\r\n{ } ", "{\"a\":1,\"a\":[2]}", "{\"a\":{\"b\":[1,{\"c\":null}]}}", "[1,[2,[3,[]]]]",
      "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":}", "[1 2]", "[", "]", "{", "}", "",
      " ", "true", "false", "null", "tru", "nul", "True", "nulll", "[true,false,null]", "1 2", "{}{}", "[]x",
      "\xef\xbb\xbf{}", "\xef\xbb{}", " \xef\xbb\xbf{}", "\xef\xbb\xbf",
  };
  for (const auto& text : texts) {
    INFO("text: " << json(text).dump(-1, ' ', true, json::error_handler_t::replace));
    json ours;
    const auto result = mcp::detail::read_json(text, ours, 128);
    const json theirs = json::parse(text, nullptr, false);
    CHECK((result == mcp::detail::read_result::ok) == !theirs.is_discarded());
    if (result == mcp::detail::read_result::ok && !theirs.is_discarded()) CHECK(same_value(ours, theirs));
    // skip_value (a tools/call's arguments, kept as text) accepts exactly what reading accepts.
    mcp::detail::json_reader skipper(text, 128);
    skipper.skip_bom();
    CHECK((skipper.skip_value(0) && skipper.at_end()) == (result == mcp::detail::read_result::ok));
  }
  // Depth: the limit itself is fine, one more is too deep (reported before any error that follows).
  json out;
  CHECK(mcp::detail::read_json(std::string(128, '[') + std::string(128, ']'), out, 128) == mcp::detail::read_result::ok);
  CHECK(mcp::detail::read_json(std::string(129, '[') + std::string(129, ']'), out, 128) == mcp::detail::read_result::too_deep);
  CHECK(mcp::detail::read_json(std::string(200, '{'), out, 128) == mcp::detail::read_result::invalid);  // '{' needs a key first
  CHECK(mcp::detail::read_json("{\"a\":" + std::string(200, '['), out, 128) == mcp::detail::read_result::too_deep);
  // A raw NUL byte is never JSON (nlohmann would stop reading at it).
  CHECK(mcp::detail::read_json(std::string("{}\0", 3), out, 128) == mcp::detail::read_result::invalid);
  CHECK(mcp::detail::read_json(std::string("\"a\0\"", 4), out, 128) == mcp::detail::read_result::invalid);
}

// What skip_brackets answers, found one byte at a time: where the value ends, or null.
const char* brackets_end_bytewise(std::string_view text, std::size_t depth, std::size_t max_depth) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  if (i == text.size() || (text[i] != '{' && text[i] != '[')) return nullptr;
  std::size_t level = 0;
  while (i < text.size()) {
    const char c = text[i++];
    if (c == '"') {
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      if (i >= text.size()) return nullptr;
      ++i;
    } else if (c == '{' || c == '[') {
      if (depth + ++level > max_depth) return nullptr;
    } else if ((c == '}' || c == ']') && --level == 0) {
      return text.data() + i;
    }
  }
  return nullptr;
}

TEST_CASE("skip_brackets takes 64-byte blocks whole and answers as a loop over the bytes does") {
  std::mt19937 rng(20261129);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  // The masks, with SSE2 and without, on blocks rich in the bytes they mark (and bytes >= 0x80,
  // whose sign a byte compare could get wrong).
  const std::string marked = "\"\\{}[]";
  for (int round = 0; round < 20000; ++round) {
    char block[mcp::detail::block_size];
    for (char& c : block) c = pick(3) == 0 ? marked[pick(marked.size())] : static_cast<char>(pick(256));
    const auto fast = mcp::detail::block_masks_of(block), slow = mcp::detail::block_masks_bytewise(block);
    REQUIRE(fast.quote == slow.quote);
    REQUIRE(fast.backslash == slow.backslash);
    REQUIRE(fast.open == slow.open);
    REQUIRE(fast.close == slow.close);
  }
  // Texts: random ones, dense or sparse in brackets, quotes and backslashes, and orders of many
  // items whose strings hold brackets and escaped quotes, cut anywhere, under tight depth limits.
  std::vector<std::string> texts;
  const std::string alphabet = "{}[]\"\\ a,:";
  for (int round = 0; round < 30000; ++round) {
    std::string text(1, pick(2) ? '{' : '[');
    const std::size_t length = pick(700), sparse = pick(4);
    for (std::size_t i = 0; i < length; ++i)
      text.push_back(sparse == 0 || pick(100) < 3 * sparse ? alphabet[pick(alphabet.size())] : "abc"[pick(3)]);
    if (pick(2)) text.append(pick(5), pick(2) ? '}' : ']');
    texts.push_back(std::move(text));
  }
  const std::vector<std::string> names = {"plain", "with [brackets]", "a \\\"quoted\\\" one", "ends in \\\\", "{\\\"json\\\":[1]}"};
  for (int round = 0; round < 300; ++round) {
    std::string order = "{\"customer\":\"" + names[pick(names.size())] + "\",\"items\":[";
    const std::size_t items = pick(60);
    for (std::size_t i = 0; i < items; ++i)
      order += std::string(i ? "," : "") + "{\"sku\":\"" + names[pick(names.size())] + "\",\"qty\":" +
               std::to_string(pick(1000)) + ",\"tags\":[" + (pick(2) ? "\"a\",[\"b\"]" : "") + "]}";
    order += "]}";
    texts.push_back(order);
    texts.push_back(order.substr(0, pick(order.size() + 1)));
  }
  for (const std::string& text : texts) {
    for (std::size_t max_depth : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{64}}) {
      const std::size_t depth = pick(2);
      mcp::detail::json_reader in(text, max_depth);
      const bool taken = in.skip_brackets(depth);
      const char* expected = brackets_end_bytewise(text, depth, max_depth);
      INFO("text: " << text << "\nmax depth " << max_depth << ", from depth " << depth);
      REQUIRE(taken == (expected != nullptr));
      if (taken) REQUIRE(in.position() == expected);
    }
  }
}

TEST_CASE("consume_plain takes a short name compared as one word exactly where it takes it by memcmp") {
  std::mt19937 rng(1129);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::string bytes = "\"ab \\:";
  for (int round = 0; round < 200000; ++round) {
    std::string name, text;
    for (std::size_t i = pick(10); i > 0; --i) name.push_back("ab"[pick(2)]);
    // Mostly the name quoted, often with one byte changed or cut short, followed by more text.
    if (pick(4) != 0) text = std::string(pick(4) == 0 ? " " : "") + "\"" + name + "\"";
    if (!text.empty() && pick(2)) text[pick(text.size())] = bytes[pick(bytes.size())];
    for (std::size_t i = pick(12); i > 0; --i) text.push_back(bytes[pick(bytes.size())]);
    if (pick(3) == 0) text.resize(pick(text.size() + 1));
    std::uint64_t word = 0, mask = 0;
    if (name.size() <= 8) {
      const unsigned char ones[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
      std::memcpy(&word, name.data(), name.size());
      std::memcpy(&mask, ones, name.size());
    }
    // A text in its own allocation, so that ASan sees any read past its end.
    const std::unique_ptr<char[]> own(new char[text.size() + 1]);
    std::memcpy(own.get(), text.data(), text.size());
    const std::string_view view(own.get(), text.size());
    mcp::detail::json_reader by_memcmp(view, 8), by_word(view, 8);
    INFO("name: " << name << "\ntext: " << text);
    REQUIRE(by_word.consume_plain(name, word, mask) == by_memcmp.consume_plain(name));
    REQUIRE(by_word.position() == by_memcmp.position());
  }
}

TEST_CASE("the JSON reader reads over an earlier value as into a fresh one, reusing its storage") {
  // Texts of one shape and of others, valid and broken: each is read over what every other left
  // (a broken read leaves a part-built tree), and must give what a fresh read gives.
  const std::vector<std::string> texts = {
      R"({"customer":"ann","items":[{"sku":"ABC-1234","qty":2,"tags":["a","b"]},{"sku":"XYZ-0001","qty":1,"tags":[]}]})",
      R"({"customer":"bob","items":[{"sku":"QQQ-9999","qty":3,"tags":["c"]}]})",
      R"({"items":[{"qty":"7","extra":{"x":[1,2,3]}},{"sku":null},5,"s",[]],"customer":{"name":"c"}})",
      R"({"a":1,"a":[2],"a":{"b":"c"}})", R"({"a":"escaped key","café":1,"é":2})",
      R"({"customer":"ann","items":[{"sku":"ABC-1234","qty":2,"tags":["a","b"]},{"sku":)",
      R"({"customer":"ann","items":[{"sku":"ABC-1234","qty":2,"tags":["a",)", R"([1,2,3,4,5,6,7,8])", R"([1,2])",
      R"([[1,[2]],{"k":[]},"x"])", R"(["a","b",{"c":1}])", R"("just a string")", "12", "-3.5", "null", "{}", "[]",
      R"({"k":)", R"([{"a":1},)", "",
      // more members than find_member scans, in another order, some gone
      R"({"k0":0,"k1":"1","k2":[2],"k3":{"x":3},"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9})",
      R"({"k9":"nine","k7":[7,7],"k5":{"y":5},"k3":3,"k1":1,"k0":0,"k2":2,"k4":4,"k6":6,"k10":10,"k11":11})",
  };
  for (const auto& earlier : texts) {
    for (const auto& text : texts) {
      INFO("earlier: " << earlier << "\ntext: " << text);
      json fresh, over;
      const auto expected = mcp::detail::read_json(text, fresh, 128);
      (void)mcp::detail::read_json(earlier, over, 128);
      const auto result = mcp::detail::read_json(text, over, 128);
      CHECK(result == expected);
      if (expected == mcp::detail::read_result::ok && result == expected) CHECK(same_value(over, fresh));
    }
  }
  // A tree read over with a text of its shape keeps its nodes and strings where they are.
  json tree;
  REQUIRE(mcp::detail::read_json(texts[0], tree, 128) == mcp::detail::read_result::ok);
  const json* first_item = &tree["items"][0];
  const json* sku = &tree["items"][0]["sku"];
  const char* sku_chars = tree["items"][0]["sku"].get_ref<const std::string&>().data();
  REQUIRE(mcp::detail::read_json(R"({"items":[{"tags":["z"],"sku":"LONGER-THAN-SSO-0000000001","qty":9}],"customer":"c"})", tree, 128) ==
          mcp::detail::read_result::ok);
  CHECK(&tree["items"][0] == first_item);
  CHECK(&tree["items"][0]["sku"] == sku);  // the member's node was taken back
  CHECK(tree["items"].size() == 1);
  CHECK(tree["items"][0]["sku"] == "LONGER-THAN-SSO-0000000001");
  sku_chars = tree["items"][0]["sku"].get_ref<const std::string&>().data();
  REQUIRE(mcp::detail::read_json(texts[1], tree, 128) == mcp::detail::read_result::ok);
  CHECK(tree["items"][0]["sku"].get_ref<const std::string&>().data() == sku_chars);  // capacity kept
  CHECK(same_value(tree, json::parse(texts[1])));
}

TEST_CASE("the JSON writer gives dump()'s bytes, invalid UTF-8 included") {
  const std::vector<json> values = {
      nullptr, true, false, 0, -1, 1u, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::uint64_t>::max(),
      0.0, -0.0, 1.0, 1.5, -2.25, 3.0, -42.0, 999999999999999.0, -999999999999999.0, 1e15, 1e16, 4503599627370496.0, 1e20, 1e-7, 123456789.125, 5e-324, 1.7976931348623157e308,
      std::numeric_limits<double>::infinity(), std::nan(""), "", "plain", "quote \" backslash \\ slash /",
      "\b\f\n\r\t\x01\x1f\x7f", std::string("nul \0 inside", 12), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
      "bad \xff byte", "cut \xe2\x82", "\xed\xa0\x80 surrogate", "\xc0\xaf overlong", "\xf4\x90\x80\x80 too high", "\x80",
      json::array(), json::object(), json::array({1, "a", nullptr, json::array({json::object()})}),
      json{{"b", 1}, {"a", json{{"\xff key", "v\n"}}}, {"c", json::array({1.5, -3})}},
  };
  for (const auto& v : values) {
    const std::string expected = v.dump(-1, ' ', false, json::error_handler_t::replace);
    INFO("expected: " << expected);
    CHECK(mcp::detail::to_json_text(v) == expected);
  }
}

TEST_CASE("write_json_double gives dump()'s bytes for every kind of double") {
  auto check = [](double x) {
    std::string written;
    mcp::detail::write_json_double(x, written);
    const std::string expected = json(x).dump();
    if (written != expected) FAIL_CHECK("bits " << std::hex << [&] { std::uint64_t b; std::memcpy(&b, &x, 8); return b; }()
                                                 << ": " << written << " != " << expected);
  };
  auto from_bits = [](std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  };
  // Zeros, the extremes, subnormals and the normal boundary.
  for (double x : {0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.2250738585072009e-308,
                   std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                   std::numeric_limits<double>::epsilon(), 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 123456789.125})
    check(x);
  for (std::uint64_t b = 1; b < 2000; ++b) check(from_bits(b));                          // the smallest subnormals
  for (std::uint64_t b = 0x000FFFFFFFFFFFFFu - 1000; b <= 0x0010000000001000u; b += 37) check(from_bits(b));
  // Powers of ten and their neighbours, where the fixed and exponent forms meet (1e-5 .. 1e15 and on).
  for (int e = -324; e <= 308; ++e) {
    const double p = std::strtod(("1e" + std::to_string(e)).c_str(), nullptr);  // 1e-324 is 0
    for (double x : {p, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL), -p, 1.5 * p, 9.999999999999999 * p})
      if (std::isfinite(x)) check(x);
  }
  // Integers as doubles, around the whole-number shortcut's limit (1e15) and 2^53.
  for (double x = -2000; x <= 2000; x += 0.25) check(x);
  for (double base : {1e15, 4503599627370496.0, 9007199254740992.0, 1e16, 1e17})
    for (int d = -300; d <= 300; ++d) {
      check(base + d);
      check(-(base + d));
    }
  for (int i = 0; i < 64; ++i) check(std::ldexp(1.0, i)), check(std::ldexp(1.0, i) - 1), check(std::ldexp(1.0, -i));
  // Every power of two, either sign (a narrower interval below them: the fast road writes only those
  // whose shortest decimal is the value itself), and the doubles next to them.
  for (int e = -1074; e <= 1023; ++e)
    for (double x : {std::ldexp(1.0, e), std::ldexp(-1.0, e), std::nextafter(std::ldexp(1.0, e), 0.0),
                     std::nextafter(std::ldexp(1.0, e), HUGE_VAL)})
      check(x);
  // Random bit patterns (NaN and infinities are written as null, as dump writes them) and random
  // values of a few digits, as a tool's results often hold.
  std::mt19937_64 rng(20261125);
  for (int i = 0; i < 300000; ++i) check(from_bits(rng()));
  for (int i = 0; i < 100000; ++i) check(static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000) / 1000);
  // Decimals of up to 11 digits at every scale, and the doubles either side of them: where
  // write_double_as_grisu2 must tell a decimal well inside the rounding interval from one at its
  // edge or halfway to its neighbour, the two places std::to_chars and Grisu2 part.
  for (int i = 0; i < 200000; ++i) {
    const double x = static_cast<double>(rng() % 100000000000u) / std::pow(10.0, static_cast<int>(rng() % 20));
    for (double y : {x, std::nextafter(x, 0.0), std::nextafter(x, HUGE_VAL)}) check(rng() % 2 ? y : -y);
  }
  check(std::numeric_limits<double>::infinity());
  check(std::nan(""));
}

TEST_CASE("write_double_as_grisu2 writes the usual doubles itself and leaves the doubtful ones to dump()") {
  // The fast road must be the common one (tool results hold prices and scores), or the
  // comparison above would prove little about it.
  for (double x : {19.99, 0.1, -3.14159, 0.001, 123.456, 2.5, 1e-3, 98.6, 0.07, 12345.678, 0.5, 0.25, -0.125, 0.0078125})
    CHECK(mcp::detail::write_double_as_grisu2(x, *std::make_unique<std::string>()));
  // Whole numbers (written before it is asked), values beyond its exact arithmetic or past the fixed
  // form (a power of two among them), and a decimal whose text differs between Grisu2 and the
  // shortest round trip: dump() writes those.
  std::string ignored;
  for (double x : {1024.0, 1e300, 1e-30, 5e-324, 1e16 + 2, std::ldexp(1.0, -20)})
    CHECK_FALSE(mcp::detail::write_double_as_grisu2(x, ignored));
  std::mt19937_64 rng(27);
  int differing = 0, fast = 0;
  for (int i = 0; i < 200000; ++i) {
    double x;
    const std::uint64_t bits = (rng() & 0x000FFFFFFFFFFFFFu) | ((1023 + rng() % 40) << 52);
    std::memcpy(&x, &bits, sizeof x);
    char shortest[32];
    const std::string grisu = json(x).dump();
    if (grisu == std::string(shortest, std::to_chars(shortest, shortest + sizeof shortest, x).ptr)) continue;
    ++differing;
    std::string written;
    if (mcp::detail::write_double_as_grisu2(x, written)) {
      ++fast;
      CHECK(written == grisu);
    }
  }
  INFO("Grisu2 and the shortest round trip disagree on " << differing << " of 200000 doubles in 1 .. 2^40");
  CHECK(differing > 100);  // the cases exist, so the checks above were put to the test
  CHECK(fast == 0);
}

TEST_CASE("short_decimal finds std::to_chars's shortest digits, or leaves the double to it") {
  // What to_chars gives as d / 10^j: the digits and where the point goes.
  auto shortest = [](double x, std::uint64_t& d, int& j) {
    char sci[32];
    *std::to_chars(sci, sci + sizeof sci - 1, x, std::chars_format::scientific).ptr = '\0';
    d = 0;
    int k = 0;
    const char* p = sci;
    for (; *p != 'e'; ++p)
      if (*p != '.') d = d * 10 + static_cast<std::uint64_t>(*p - '0'), ++k;
    j = (k - 1) - std::atoi(p + 1);
  };
  long answered = 0, checked = 0;
  auto check = [&](double x) {
    std::uint64_t m = 0, d = 0;
    int places = 0, j = 0;
    ++checked;
    if (!mcp::detail::short_decimal(x, m, places)) return;
    ++answered;
    shortest(x, d, j);
    if (m != d || places != j)
      FAIL_CHECK(std::setprecision(17) << x << ": " << m << " / 10^" << places << " against " << d << " / 10^" << j);
  };
  std::mt19937_64 rng(20261128);
  // Decimals of one to eight places at every size up to 2^50 / 10^places and past it, and the
  // doubles either side of each (those must not be taken for the decimal).
  for (int i = 0; i < 300000; ++i) {
    const int places = 1 + static_cast<int>(rng() % 8);
    const double x = static_cast<double>(rng() % (std::uint64_t{1} << (1 + rng() % 60))) / std::pow(10.0, places);
    if (x > 0)
      for (double y : {x, std::nextafter(x, 0.0), std::nextafter(x, HUGE_VAL)}) check(y);
  }
  for (int k = 1; k < 200000; ++k) check(k / 4.0), check(k / 100.0), check(k * 0.001);
  // Random doubles: nearly all need more than six places and go to to_chars.
  for (int i = 0; i < 100000; ++i) {
    double x;
    const std::uint64_t bits = (rng() & 0x000FFFFFFFFFFFFFu) | ((1000 + rng() % 80) << 52);
    std::memcpy(&x, &bits, sizeof x);
    check(x);
  }
  INFO(answered << " of " << checked << " doubles answered");
  CHECK(answered > 500000);  // the road is taken, so the comparison meant something
}

TEST_CASE("write_json_string gives dump()'s bytes at every alignment") {
  // Runs of plain characters are scanned eight bytes at a time: every special byte at every offset
  // of a word, and random strings of plain, special and multi-byte characters.
  const std::vector<std::string> specials = {"\"", "\\", "\n", "\x01", "\x1f", "\x7f", " ", "\xc3\xa9", "\xe2\x82\xac",
                                             "\xf0\x9f\x98\x80", "\xff", "\xe2\x82", std::string(1, '\0')};
  auto check = [](const std::string& s) {
    std::string written = "x";
    mcp::detail::write_json_string(s, written);
    CHECK(written == "x" + json(s).dump(-1, ' ', false, json::error_handler_t::replace));
  };
  for (const auto& special : specials)
    for (std::size_t before = 0; before <= 17; ++before)
      for (std::size_t after = 0; after <= 9; ++after) check(std::string(before, 'a') + special + std::string(after, 'b'));
  std::mt19937 rng(7);
  const std::string plain = "abcXYZ019 {}:,/~";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int parts = static_cast<int>(rng() % 12);
    for (int k = 0; k < parts; ++k) {
      if (rng() % 3 == 0)
        s += specials[rng() % specials.size()];
      else
        s.append(rng() % 20, plain[rng() % plain.size()]);
    }
    check(s);
  }
}

TEST_CASE("JSON text this library wrote is escaped as write_json_string escapes it, a block at a time") {
  // write_compact_json_as_string escapes only '"' and '\\': right for what write_json writes (no
  // byte below 0x20, valid UTF-8). Values whose strings hold every kind of character, written and
  // then escaped both ways, with the text at every length around a word.
  const std::vector<std::string> pieces = {"\"", "\\", "\n", "\x01", "\x1f", "\x7f", " ", "\xc3\xa9", "\xe2\x82\xac",
                                           "\xf0\x9f\x98\x80", "\xff", "\xe2\x82", std::string(1, '\0'), "\\\"", "\\u0041",
                                           "a", "Zz09", "{}[],:"};
  std::mt19937 rng(20261127);
  auto random_string = [&] {
    std::string s;
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) s += pieces[rng() % pieces.size()];
    return s;
  };
  std::function<json(int)> random_value = [&](int depth) -> json {
    switch (rng() % (depth > 3 ? 5 : 7)) {
      case 0: return random_string();
      case 1: return static_cast<std::int64_t>(rng() % 2001) - 1000;
      case 2: return static_cast<double>(rng() % 10000) / 7;
      case 3: return rng() % 2 == 0;
      case 4: return nullptr;
      case 5: {
        json a = json::array();
        for (int k = static_cast<int>(rng() % 4); k > 0; --k) a.push_back(random_value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (int k = static_cast<int>(rng() % 4); k > 0; --k) o[random_string()] = random_value(depth + 1);
        return o;
      }
    }
  };
  std::size_t checked = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = mcp::detail::to_json_text(random_value(0));
    for (std::size_t length : {text.size(), text.size() / 2 + 1, std::size_t{48}, std::size_t{33}, std::size_t{32},
                               std::size_t{31}, std::size_t{9}, std::size_t{8}, std::size_t{7}}) {
      // A prefix of JSON text holds no byte below 0x20 either, though it may end inside a character.
      const std::string_view part = std::string_view(text).substr(0, std::min(length, text.size()));
      if (!mcp::detail::is_valid_utf8(part)) continue;
      std::string expected = "x";
      mcp::detail::write_json_string(part, expected);
      // Each road alone: sixteen bytes at a time (SSE2) then words, words alone, bytes alone.
      using road = mcp::detail::escape_blocks::road;
      for (road r : {road::widest, road::words, road::bytes}) {
        std::string written = "x";
        mcp::detail::write_compact_json_as_string(part, written, r);
        REQUIRE(written == expected);
      }
      ++checked;
    }
  }
  CHECK(checked > 60000);
}

TEST_CASE("a response written without building its message has the message's bytes") {
  const std::vector<json> ids = {0, -7, 42u, "", "id \"quoted\"", "\xff bad"};
  const std::vector<json> results = {json::object(), json{{"content", json::array({json{{"type", "text"}, {"text", "{\"a\":1}"}}})},
                                                          {"structuredContent", json{{"a", 1}}}}};
  for (const auto& id : ids)
    for (const auto& result : results) {
      std::string written = "prefix:";
      mcp::detail::write_response(id, result, written);
      CHECK(written == "prefix:" + mcp::detail::to_json_text(mcp::jsonrpc::response(id, result)));
    }
}

TEST_CASE("a per-thread answer buffer keeps its capacity up to kept_buffer_limit and lets a larger one go") {
  using mcp::detail::kept_buffer_limit;
  std::string kept(kept_buffer_limit / 2, 'x'), dropped(kept_buffer_limit + 1, 'x');
  mcp::detail::let_go_if_huge(kept);
  mcp::detail::let_go_if_huge(dropped);
  CHECK(kept.capacity() >= kept_buffer_limit / 2);
  CHECK(dropped.capacity() < 64);
  // reused_string hands its capacity to the next one on the thread, unless it grew past the limit.
  { mcp::detail::reused_string a; a.value.assign(kept_buffer_limit / 2, 'y'); }
  { mcp::detail::reused_string b; CHECK(b.value.capacity() >= kept_buffer_limit / 2); CHECK(b.value.empty()); b.value.assign(kept_buffer_limit + 1, 'z'); }
  { mcp::detail::reused_string c; CHECK(c.value.capacity() < 64); }
}

}  // namespace test_core
