// JSON text inside string arguments, against real servers: a string holding a million nested
// arrays where an array or object is expected once crashed the server (lossless coercion read it
// with no depth limit, then recursed into it), and a NUL byte cut such a string short silently
// (the cut value was accepted and stored). Over real pipes (the submit_result example, whose
// tools come from a JSON Schema file, and a typed tool in a server of its own) and real sockets
// (the Streamable HTTP listener), each must get a tool error that says what is wrong, and the
// server must answer a ping afterwards. Also: null for an optional field is left out under the
// lossless coercion and refused when coercion is off.
#include "catch.hpp"
#include "http_client.hpp"
#include "subprocess.hpp"
#include "../nested_args.hpp"

#include <mcp/transport/http.hpp>
#include <mcp/mcp.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace hostile_json {

// Sanitizer builds are several times slower; the deadlines are generous for them.
constexpr auto deadline = 60s;

const std::string million_deep = std::string(1000000, '[') + std::string(1000000, ']');

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

// One server process on real pipes, with the JSON-RPC basics.
class stdio_server {
 public:
  explicit stdio_server(std::vector<std::string> argv) : proc_(std::move(argv)) {}

  json ask(const json& message) {
    proc_.write_line(message.dump());
    auto line = proc_.read_line(deadline);
    REQUIRE(line.has_value());
    json reply;
    // The replies are read as strictly as the server reads requests.
    REQUIRE(mcp::detail::read_json(*line, reply, 128) == mcp::detail::read_result::ok);
    return reply;
  }
  void initialize() {
    json r = ask({{"jsonrpc", "2.0"}, {"id", "init"}, {"method", "initialize"},
                  {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                              {"clientInfo", {{"name", "hostile"}, {"version", "1"}}}}}});
    REQUIRE(r.contains("result"));
    proc_.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }
  // The CallToolResult of one call (a protocol error fails the test).
  json call(const std::string& tool, const json& arguments) {
    json r = ask({{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", "tools/call"},
                  {"params", {{"name", tool}, {"arguments", arguments}}}});
    INFO(r.dump().substr(0, 500));
    REQUIRE(r["id"] == id_);
    REQUIRE(r.contains("result"));
    return r["result"];
  }
  void expect_alive() {
    json pong = ask({{"jsonrpc", "2.0"}, {"id", "ping"}, {"method", "ping"}});
    CHECK(pong == json{{"jsonrpc", "2.0"}, {"id", "ping"}, {"result", json::object()}});
  }
  // End of input: a clean exit.
  void finish() {
    proc_.close_stdin();
    while (proc_.read_line(deadline)) {
    }
    auto code = proc_.wait(deadline);
    REQUIRE(code.has_value());
    CHECK(*code == 0);
  }

 private:
  test::subprocess proc_;
  long long id_ = 0;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct temp_dir {
  std::string path;
  temp_dir() {
    char tmpl[] = "/tmp/mcp-hostile-json-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~temp_dir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

using nested::nums_args;
using nested::point;

// A listener on 127.0.0.1 with a typed tool and a runtime-schema tool, for the HTTP test.
struct http_served {
  mcp::server srv{info(), quiet()};
  std::unique_ptr<mcp::http::listener> listener;
  std::thread thread;

  http_served() {
    srv.tool("nums", "Numbers", [](const nums_args& in) { return mcp::encode(in).dump(); });
    srv.tool("doc", "Lists",
             mcp::runtime_schema{{{"type", "object"},
                                  {"properties", {{"rows", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                                                  {"filter", {{"type", "object"}}}}},
                                  {"additionalProperties", false}},
                                 nullptr},
             [](const json& args) { return args.dump(); });
    mcp::http::options o;
    o.host = "127.0.0.1";
    o.port = 0;
    listener = std::make_unique<mcp::http::listener>(srv, std::move(o));
    thread = std::thread([this] { listener->run(); });
  }
  ~http_served() {
    listener->stop();
    thread.join();
  }
  static mcp::server_info info() {
    mcp::server_info i;
    i.name = "hostile-json";
    i.version = "1.0.0";
    return i;
  }
  static mcp::server_options quiet() {
    mcp::server_options o;
    o.log_sink = [](std::string_view) {};
    return o;
  }
};

std::vector<test::header> post_headers(const std::string& session = {}) {
  std::vector<test::header> h = {{"Accept", "application/json, text/event-stream"},
                                 {"Content-Type", "application/json"},
                                 {"MCP-Protocol-Version", "2025-11-25"}};
  if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
  return h;
}

// The JSON-RPC message in a response: the JSON body, or the last SSE event's data.
json message_of(const test::http_response& r) {
  const std::string ct = r.header("Content-Type").value_or("");
  const bool sse = ct.find("text/event-stream") != std::string::npos && !r.events().empty();
  const std::string data = sse ? r.events().back().data : r.body;
  json m;
  REQUIRE(mcp::detail::read_json(data, m, 128) == mcp::detail::read_result::ok);
  return m;
}

}  // namespace hostile_json

using namespace hostile_json;

#ifdef MCP_SUBMIT_RESULT_BINARY

TEST_CASE("hostile json: submit_result over pipes: a million nested arrays in a string, a NUL, a null",
          "[hostile][json]") {
  temp_dir dir;
  const std::string out = dir.path + "/results.jsonl";
  stdio_server s({MCP_SUBMIT_RESULT_BINARY, "--tools", std::string(MCP_EXAMPLES_DIR) + "/submit_result/tools.json",
                  "--out", out});
  s.initialize();
  const std::string summary(60, 's');

  // The crash: findings (an array of objects) given as a string of a million nested arrays.
  json r = s.call("submit_result", {{"summary", summary}, {"findings", million_deep}});
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("/findings: holds JSON nested more than 125 levels deep") != std::string::npos);
  CHECK(text_of(r).size() < 1000);
  s.expect_alive();

  // The silent truncation: the JSON text ends, a NUL byte follows, then anything.
  const std::string finding = R"([{"title":"Leak","confidence":"high"}])";
  r = s.call("submit_result", {{"summary", summary}, {"findings", finding + std::string(1, '\0') + "anything"}});
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("/findings: must be an array") != std::string::npos);
  r = s.call("submit_result", {{"summary", summary}, {"findings", finding + std::string(1, '\0')}});
  CHECK(r["isError"] == true);
  CHECK(read_file(out).empty());  // nothing stored
  s.expect_alive();

  // The same text without the NUL is read; a null for the optional "evidence" is left out.
  r = s.call("submit_result", {{"summary", summary},
                               {"findings", R"([{"title":"Leak","confidence":"high","evidence":null}])"}});
  CHECK_FALSE(r.value("isError", false));
  json stored;
  REQUIRE(mcp::detail::read_json(read_file(out), stored, 16) == mcp::detail::read_result::ok);
  const json stored_finding = {{"title", "Leak"}, {"confidence", "high"}};  // no "evidence"
  CHECK(stored == json{{"tool", "submit_result"},
                       {"arguments", {{"summary", summary}, {"findings", json::array({stored_finding})}}}});
  s.finish();
}

#endif

TEST_CASE("hostile json: a typed tool over pipes: a million nested arrays in a string, a NUL, a null",
          "[hostile][json]") {
  stdio_server s({MCP_TYPED_SERVER_BINARY});
  s.initialize();
  // A std::vector<int>, a struct and an optional vector of structs, each given the deep string.
  for (const char* field : {"values", "at", "path"}) {
    json args = {{"values", {1}}};
    args[field] = million_deep;
    json r = s.call("nums", args);
    INFO(field << ": " << text_of(r).substr(0, 300));
    CHECK(r["isError"] == true);
    const std::string why = "/" + std::string(field) + ": holds JSON nested more than 125 levels deep";
    CHECK(text_of(r).find(why) != std::string::npos);
    s.expect_alive();
  }
  json r = s.call("nums", {{"values", std::string("[1,2]\0[3]", 9)}});
  CHECK(r["isError"] == true);
  r = s.call("nums", {{"values", {1}}, {"at", std::string("{\"x\":1,\"y\":2}\0", 14)}});
  CHECK(r["isError"] == true);
  s.expect_alive();
  r = s.call("nums", {{"values", "[1,2]"}, {"at", R"({"x":1,"y":2})"}});
  CHECK(json::parse(text_of(r)) == json{{"values", {1, 2}}, {"at", {{"x", 1}, {"y", 2}}}});

  // null for the optional fields: left out under the lossless coercion, refused with advice when off.
  r = s.call("nums", {{"values", {3}}, {"limit", nullptr}, {"path", nullptr}});
  CHECK_FALSE(r.value("isError", false));
  CHECK(json::parse(text_of(r)) == json{{"values", {3}}, {"at", {{"x", 0}, {"y", 0}}}});
  r = s.call("nums_strict", {{"values", {3}}, {"limit", nullptr}});
  CHECK(r["isError"] == true);
  CHECK(text_of(r).find("/limit: must be an integer, got null; the field is optional: leave it out") !=
        std::string::npos);
  s.finish();
}

TEST_CASE("hostile json: over HTTP, a million nested arrays in a string is a tool error and serving goes on",
          "[hostile][json][http]") {
  http_served served;
  test::http_connection conn(served.listener->port());
  const std::string init = json{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                                {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                            {"clientInfo", {{"name", "hostile"}, {"version", "1"}}}}}}.dump();
  conn.send(test::http_request("POST", "/mcp", init, post_headers()));
  auto r = conn.read(deadline);
  REQUIRE(r.status == 200);
  const std::string session = r.header("Mcp-Session-Id").value_or("");
  REQUIRE_FALSE(session.empty());
  conn.send(test::http_request("POST", "/mcp", R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                               post_headers(session)));
  REQUIRE(conn.read(deadline).status == 202);

  long long id = 1;
  auto post = [&](const std::string& method, json params) {
    conn.send(test::http_request("POST", "/mcp", json{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method},
                                                      {"params", std::move(params)}}.dump(),
                                 post_headers(session)));
    auto response = conn.read(deadline);
    REQUIRE(response.status == 200);
    json m = message_of(response);
    REQUIRE(m["id"] == id);
    return m;
  };
  for (const auto& [tool, field] : {std::pair<std::string, std::string>{"nums", "values"}, {"nums", "at"},
                                    {"doc", "rows"}, {"doc", "filter"}}) {
    json args = {{field, million_deep}};
    if (tool == "nums" && field != "values") args["values"] = {1};
    json m = post("tools/call", {{"name", tool}, {"arguments", args}});
    INFO(tool << " " << field << ": " << m.dump().substr(0, 400));
    REQUIRE(m.contains("result"));
    CHECK(m["result"]["isError"] == true);
    const std::string why = "/" + field + ": holds JSON nested more than 125 levels deep";
    CHECK(text_of(m["result"]).find(why) != std::string::npos);
    CHECK(post("ping", json::object())["result"] == json::object());
  }
  // A NUL after the JSON text: refused too.
  json m = post("tools/call", {{"name", "doc"}, {"arguments", {{"rows", std::string("[{}]\0x", 6)}}}});
  CHECK(m["result"]["isError"] == true);
  m = post("tools/call", {{"name", "doc"}, {"arguments", {{"rows", "[{}]"}}}});
  CHECK_FALSE(m["result"].value("isError", false));
}
