// The Streamable HTTP transport over real sockets on 127.0.0.1: every status code it answers,
// JSON and SSE replies, the GET stream, resumption, sessions, stateless mode, HTTP/1.1 framing
// and timeouts, metrics, and the notes example served over HTTP.
#include "catch.hpp"
#include "serving.hpp"
#include "http_client.hpp"
#include "subprocess.hpp"

#include <mcp/transport/http.hpp>
#include <mcp/core/server.hpp>
#include <mcp/mcp.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

using mcp::json;
using namespace std::chrono_literals;

namespace test_http {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

mcp::tool_definition make_tool(std::string name, std::function<json(const json&, mcp::context&)> fn) {
  mcp::tool_definition t;
  t.name = std::move(name);
  t.description = "A tool for tests";
  t.input_schema = {{"type", "object"}};
  t.invoke = std::move(fn);
  return t;
}

json text_result(const std::string& text) { return {{"content", json::array({{{"type", "text"}, {"text", text}}})}}; }

// A server with a few tools, served on a free port until the test ends.
struct served {
  mcp::server srv{mcp::server_info{"http-test", "1.0.0"}, quiet()};
  std::unique_ptr<test::serving> listener;

  explicit served(mcp::http::options o = {}) {
    srv.add_tool(make_tool("echo", [](const json& args, mcp::context&) { return text_result(args.dump()); }));
    srv.add_tool(make_tool("chatty", [](const json&, mcp::context& ctx) {
      ctx.log(mcp::log_level::info, "starting");
      ctx.progress(1, 2, "half");
      ctx.progress(2, 2);
      return text_result("done talking");
    }));
    // The SEP-1699 polling flow: drop the connection, finish later, let the client resume.
    srv.add_tool(make_tool("poll", [](const json&, mcp::context& ctx) {
      ctx.close_stream();
      std::this_thread::sleep_for(100ms);
      ctx.log(mcp::log_level::info, "after the close");
      return text_result("finished while you were away");
    }));
    // Asks the client for a completion: the request goes out on the POST's stream, the answer
    // comes back in a POST of its own.
    srv.add_tool(make_tool("ask", [](const json&, mcp::context& ctx) {
      json answer = ctx.create_message({{"messages", json::array()}, {"maxTokens", 10}}, 5s);
      return text_result("client said: " + answer["content"]["text"].get<std::string>());
    }));
    srv.add_tool(make_tool("nap", [](const json& args, mcp::context& ctx) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(args.value("ms", 200));
      while (std::chrono::steady_clock::now() < until && !ctx.cancelled()) std::this_thread::sleep_for(5ms);
      return text_result("rested");
    }));
    o.host = "127.0.0.1";
    o.port = 0;
    listener = std::make_unique<test::serving>(srv, std::move(o));
  }
  unsigned short port() const { return listener->port(); }

  static mcp::server_options quiet() {
    mcp::server_options o;
    o.log_sink = [](std::string_view) {};
    return o;
  }
};

using test::header;
using test::http_request;

const std::vector<header> post_headers = {{"Accept", "application/json, text/event-stream"},
                                          {"Content-Type", "application/json"}};

json rpc(long long id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json init_params(const std::string& version = "2025-11-25") {
  return {{"protocolVersion", version},
          {"capabilities", {{"sampling", json::object()}}},
          {"clientInfo", {{"name", "test"}, {"version", "1"}}}};
}

// An MCP client of one session, one connection.
struct client {
  test::http_connection conn;
  std::string session_id;
  std::string version = "2025-11-25";
  long long next_id = 1;

  explicit client(unsigned short port) : conn(port) {}

  std::vector<header> headers(std::vector<header> extra = {}) const {
    auto h = post_headers;
    if (!session_id.empty()) h.push_back({"Mcp-Session-Id", session_id});
    h.push_back({"MCP-Protocol-Version", version});
    for (auto& e : extra) h.push_back(std::move(e));
    return h;
  }
  test::http_response post(const json& message, std::vector<header> extra = {}) {
    conn.send(http_request("POST", "/mcp", message.dump(), headers(std::move(extra))));
    return conn.read(5s);
  }
  test::http_response request(const std::string& method, json params = json::object()) {
    return post(rpc(next_id++, method, std::move(params)));
  }
  void initialize() {
    conn.send(http_request("POST", "/mcp", rpc(next_id++, "initialize", init_params(version)).dump(), post_headers));
    auto r = conn.read(5s);
    REQUIRE(r.status == 200);
    REQUIRE(r.header("Mcp-Session-Id"));
    session_id = *r.header("Mcp-Session-Id");
    auto initialized = post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    REQUIRE(initialized.status == 202);
  }
};

json body_json(const test::http_response& r) {
  json j = json::parse(r.body, nullptr, false);
  INFO(r.body);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

// The JSON-RPC messages of an SSE body (the priming event has no data and is left out).
std::vector<json> messages(const test::http_response& r) {
  std::vector<json> out;
  for (const auto& e : r.events())
    if (!e.data.empty()) out.push_back(json::parse(e.data));
  return out;
}

using test::free_port;

}  // namespace

TEST_CASE("http: parse_host_port") {
  using mcp::http::parse_host_port;
  CHECK(parse_host_port("127.0.0.1:8080") == std::make_pair(std::string("127.0.0.1"), (unsigned short)8080));
  CHECK(parse_host_port("[::1]:9000") == std::make_pair(std::string("::1"), (unsigned short)9000));
  CHECK(parse_host_port("localhost:0") == std::make_pair(std::string("localhost"), (unsigned short)0));
  for (const char* bad : {"", "8080", "localhost", ":80", "host:", "host:65536", "host:8o", "::1:80", "[::1]", "[::1]80",
                          "a b:1", "[]:1"})
    CHECK_FALSE(parse_host_port(bad));
}

TEST_CASE("http: the listener binds in its constructor and stops cleanly, even before run") {
  served a;
  mcp::http::options o;
  o.port = a.port();
  try {
    mcp::http::listener taken(a.srv, o);
    FAIL("binding a port in use must throw");
  } catch (const std::system_error& e) {
    CHECK(std::string(e.what()).find("127.0.0.1:" + std::to_string(a.port())) != std::string::npos);
  }
  mcp::server other{mcp::server_info{"x", "1"}};
  mcp::http::options free;
  free.port = 0;
  mcp::http::listener l(other, free);
  CHECK(l.port() != 0);
  l.stop();
  l.run();  // returns at once
}

TEST_CASE("http: initialize, 202 for notifications, JSON replies, DELETE and 404 afterwards") {
  served s;
  client c(s.port());
  c.conn.send(http_request("POST", "/mcp", rpc(1, "initialize", init_params()).dump(), post_headers));
  auto init = c.conn.read();
  REQUIRE(init.status == 200);
  CHECK(init.header("Content-Type") == "application/json");
  auto sid = init.header("Mcp-Session-Id");
  REQUIRE(sid);
  CHECK(sid->size() == 32);
  for (char ch : *sid) CHECK((ch > 0x20 && ch < 0x7F));
  CHECK(body_json(init)["result"]["protocolVersion"] == "2025-11-25");
  c.session_id = *sid;

  auto note = c.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  CHECK(note.status == 202);
  CHECK(note.body.empty());

  auto list = c.request("tools/list");
  REQUIRE(list.status == 200);
  CHECK(list.header("Content-Type") == "application/json");
  CHECK(body_json(list)["result"]["tools"].size() == 5);

  auto call = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"x", 1}}}});
  REQUIRE(call.status == 200);
  CHECK(body_json(call)["result"]["content"][0]["text"] == R"({"x":1})");

  // A second initialize on the session is the core's business: -32600.
  auto again = c.request("initialize", init_params());
  REQUIRE(again.status == 200);
  CHECK(body_json(again)["error"]["code"] == -32600);

  // A response to nothing we asked is still accepted at the HTTP level.
  CHECK(c.post({{"jsonrpc", "2.0"}, {"id", "s99"}, {"result", json::object()}}).status == 202);
  // An invalid notification is refused with the core's error.
  auto bad = c.post({{"jsonrpc", "1.0"}, {"method", "notifications/x"}});
  CHECK(bad.status == 400);
  CHECK(body_json(bad)["error"]["code"] == -32600);

  c.conn.send(http_request("DELETE", "/mcp", "", c.headers()));
  CHECK(c.conn.read().status == 204);
  auto after = c.request("tools/list");
  CHECK(after.status == 404);
  CHECK(body_json(after)["error"]["code"] == -32001);
  c.conn.send(http_request("DELETE", "/mcp", "", c.headers()));
  CHECK(c.conn.read().status == 404);
}

TEST_CASE("http: a handler that talks before answering gets an SSE reply; the connection stays usable") {
  served s;
  client c(s.port());
  c.initialize();
  auto r = c.request("tools/call", {{"name", "chatty"}, {"_meta", {{"progressToken", "tok"}}}});
  REQUIRE(r.status == 200);
  REQUIRE(r.complete);
  CHECK(r.header("Content-Type") == "text/event-stream");
  auto events = r.events();
  REQUIRE(events.size() == 5);
  // Priming: an id, a retry, no data.
  CHECK(events[0].has_id);
  CHECK(events[0].data.empty());
  CHECK(events[0].retry == 1000);
  std::set<std::string> ids;
  for (const auto& e : events) {
    CHECK(e.has_id);
    ids.insert(e.id);
  }
  CHECK(ids.size() == events.size());
  auto m = messages(r);
  REQUIRE(m.size() == 4);
  CHECK(m[0]["method"] == "notifications/message");
  CHECK(m[0]["params"]["data"] == "starting");
  CHECK(m[1]["method"] == "notifications/progress");
  CHECK(m[1]["params"]["progressToken"] == "tok");
  CHECK(m[1]["params"]["progress"] == 1);
  CHECK(m[2]["params"]["progress"] == 2);
  CHECK(m[3]["id"] == c.next_id - 1);
  CHECK(m[3]["result"]["content"][0]["text"] == "done talking");
  // Same connection, next request.
  CHECK(body_json(c.request("ping"))["result"] == json::object());
}

TEST_CASE("http: a request to the client rides the POST's stream; its answer is POSTed back (202)") {
  served s;
  client c(s.port());
  c.initialize();
  const long long id = c.next_id++;
  c.conn.send(http_request("POST", "/mcp", rpc(id, "tools/call", {{"name", "ask"}}).dump(), c.headers()));
  auto partial = c.conn.read_events(2);
  REQUIRE(partial.status == 200);
  auto asked = messages(partial);
  REQUIRE(asked.size() == 1);
  CHECK(asked[0]["method"] == "sampling/createMessage");
  client other(s.port());
  other.session_id = c.session_id;
  auto accepted = other.post({{"jsonrpc", "2.0"},
                              {"id", asked[0]["id"]},
                              {"result", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}, {"model", "m"}}}});
  CHECK(accepted.status == 202);
  auto rest = c.conn.read();
  REQUIRE(rest.complete);
  auto all = messages(rest);
  REQUIRE(all.size() == 2);
  CHECK(all[1]["id"] == id);
  CHECK(all[1]["result"]["content"][0]["text"] == "client said: hi");
}

TEST_CASE("http: get_stream = false answers GET with 405; HTTP/1.0 requests are served and closed") {
  mcp::http::options o;
  o.get_stream = false;
  served s(o);
  client c(s.port());
  c.initialize();
  c.conn.send(http_request("GET", "/mcp", "", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", c.session_id}}));
  auto r = c.conn.read();
  CHECK(r.status == 405);
  CHECK(r.header("Allow") == "POST, DELETE");

  test::http_connection old(s.port());
  std::string raw = http_request("POST", "/mcp", rpc(5, "tools/call", {{"name", "chatty"}}).dump(), c.headers());
  raw.replace(raw.find("HTTP/1.1"), 8, "HTTP/1.0");
  old.send(raw);
  auto streamed = old.read();
  REQUIRE(streamed.status == 200);
  CHECK_FALSE(streamed.header("Transfer-Encoding"));  // HTTP/1.0 cannot take chunked: the close ends it
  CHECK(streamed.complete);
  CHECK(messages(streamed).back()["id"] == 5);
}

TEST_CASE("http: sessions on an older protocol get SSE without priming or retry") {
  served s;
  client c(s.port());
  c.version = "2025-06-18";
  c.initialize();
  auto r = c.request("tools/call", {{"name", "chatty"}});
  REQUIRE(r.status == 200);
  auto events = r.events();
  REQUIRE(events.size() == 2);  // the log and the response; no progress without a token
  for (const auto& e : events) {
    CHECK_FALSE(e.data.empty());
    CHECK_FALSE(e.retry);
  }
}

TEST_CASE("http: refusals - missing and unknown sessions, versions, media types, methods, paths") {
  served s;
  client c(s.port());
  c.initialize();
  auto& conn = c.conn;
  auto send = [&](const std::string& raw) {
    conn.send(raw);
    return conn.read();
  };
  const std::string list = rpc(9, "tools/list").dump();

  SECTION("400 without a session id, 404 with an unknown one") {
    auto r = send(http_request("POST", "/mcp", list, post_headers));
    CHECK(r.status == 400);
    CHECK(body_json(r)["error"]["message"] == "Bad Request: Mcp-Session-Id header is required");
    auto h = post_headers;
    h.push_back({"Mcp-Session-Id", "00000000000000000000000000000000"});
    CHECK(send(http_request("POST", "/mcp", list, h)).status == 404);
  }
  SECTION("MCP-Protocol-Version: any supported one is fine, others are 400") {
    auto ok = c.headers();
    ok.back().value = "2025-03-26";
    CHECK(send(http_request("POST", "/mcp", list, ok)).status == 200);
    auto bad = c.headers();
    bad.back().value = "1999-01-01";
    auto r = send(http_request("POST", "/mcp", list, bad));
    CHECK(r.status == 400);
    CHECK(body_json(r)["error"]["message"].get<std::string>().find("Unsupported protocol version: 1999-01-01") !=
          std::string::npos);
  }
  SECTION("406 when Accept lacks a type, 415 for another Content-Type") {
    std::vector<header> only_json = {{"Accept", "application/json"}, {"Content-Type", "application/json"},
                                     {"Mcp-Session-Id", c.session_id}};
    CHECK(send(http_request("POST", "/mcp", list, only_json)).status == 406);
    std::vector<header> none = {{"Content-Type", "application/json"}, {"Mcp-Session-Id", c.session_id}};
    CHECK(send(http_request("POST", "/mcp", list, none)).status == 406);
    std::vector<header> get_json = {{"Accept", "application/json"}, {"Mcp-Session-Id", c.session_id}};
    CHECK(send(http_request("GET", "/mcp", "", get_json)).status == 406);
    std::vector<header> text = {{"Accept", "*/*"}, {"Content-Type", "text/plain"}, {"Mcp-Session-Id", c.session_id}};
    CHECK(send(http_request("POST", "/mcp", list, text)).status == 415);
  }
  SECTION("400 with -32700 for a body that is not JSON, -32600 for a batch") {
    auto r = send(http_request("POST", "/mcp", "{nope", c.headers()));
    CHECK(r.status == 400);
    CHECK(body_json(r)["error"]["code"] == -32700);
    auto b = send(http_request("POST", "/mcp", "[" + list + "]", c.headers()));
    CHECK(b.status == 400);
    CHECK(body_json(b)["error"]["code"] == -32600);
    // Nested 100,000 deep inside a tool's arguments: refused while reading, before anything recurses.
    const std::string deep = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty","arguments":{"x":)" +
                             std::string(100000, '[') + std::string(100000, ']') + "}}}";
    auto d = send(http_request("POST", "/mcp", deep, c.headers()));
    CHECK(d.status == 400);
    CHECK(body_json(d)["error"]["code"] == -32600);
    CHECK(body_json(d)["error"]["message"] == "Invalid request: JSON nested deeper than 128 levels");
    CHECK(send(http_request("POST", "/mcp", list, c.headers())).status == 200);
  }
  SECTION("405 with Allow for other methods, 404 for other paths") {
    auto r = send(http_request("PUT", "/mcp", "", c.headers()));
    CHECK(r.status == 405);
    CHECK(r.header("Allow") == "GET, POST, DELETE");
    CHECK(send(http_request("POST", "/other", list, c.headers())).status == 404);
    CHECK(send(http_request("GET", "/metrics", "", {})).status == 404);  // off by default
  }
}

MCP_STRUCT_DEF(sum_args, (int, a, "A"), (int, b, "B"));

TEST_CASE("http: a tools/call whose arguments are not JSON is 400 with -32700 before every other answer, and never runs") {
  // The endpoint only delimits a call's arguments (their brackets and strings) and checks them
  // where the call runs: every answer must still be the one a whole read of the body gives.
  served s;
  std::atomic<int> runs{0};
  s.srv.tool("sum", "Adds.", [&](const sum_args& in) {
    ++runs;
    return std::to_string(in.a + in.b);
  });
  s.srv.add_tool(make_tool("count", [&](const json&, mcp::context&) {
    ++runs;
    return text_result("counted");
  }));
  client c(s.port());
  c.initialize();
  auto send = [&](const std::string& body, const std::vector<header>& h) {
    c.conn.send(http_request("POST", "/mcp", body, h));
    return c.conn.read(5s);
  };
  auto call = [](const std::string& tool, const std::string& arguments, const std::string& id = "7") {
    return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"tools/call","params":{"name":")" + tool +
           R"(","arguments":)" + arguments + "}}";
  };
  const json whole_read = body_json(send("{", c.headers()));  // a body that is not JSON at all
  REQUIRE(whole_read["error"]["code"] == -32700);
  auto is_parse_error = [&](const test::http_response& r) {
    INFO(r.status << " " << r.body);
    CHECK(r.status == 400);
    CHECK(json::parse(r.body, nullptr, false) == whole_read);
  };
  const std::string broken[] = {R"({"a":1,"b":tru})", R"({"a":[1,],"b":2})", R"({"a":"x]","b":})", R"({"a":01,"b":2})"};
  for (const std::string& args : broken) {
    INFO(args);
    is_parse_error(send(call("sum", args), c.headers()));    // a typed tool: its read is the check
    is_parse_error(send(call("count", args), c.headers()));  // a tool that takes the tree
  }
  const std::string bad = call("sum", broken[0]);
  auto without = [&](const std::string& name) {
    auto h = c.headers();
    for (auto it = h.begin(); it != h.end();)
      it = it->name == name ? h.erase(it) : it + 1;
    return h;
  };
  auto with = [&](const std::string& name, const std::string& value) {
    auto h = without(name);
    h.push_back({name, value});
    return h;
  };
  is_parse_error(send(bad, without("Mcp-Session-Id")));                                 // else 400, the header
  is_parse_error(send(bad, with("Mcp-Session-Id", "00000000000000000000000000000000")));  // else 404
  is_parse_error(send(bad, with("MCP-Protocol-Version", "1999-01-01")));                // else 400, the version
  is_parse_error(send(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"sum","arguments":)" + broken[0] + "}}",
                      c.headers()));  // a notification: else 202
  // A 2026-07-28 request (no session: every request stands alone).
  const std::string modern = R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"sum","arguments":)" +
                             broken[0] + R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)" +
                             R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
  is_parse_error(send(modern, with("MCP-Protocol-Version", "2026-07-28")));
  CHECK(runs == 0);
  // The same calls with their arguments mended run, and answer 200.
  auto fine = send(call("sum", R"({"a":1,"b":2})"), c.headers());
  CHECK(fine.status == 200);
  CHECK(body_json(fine)["result"]["content"][0]["text"] == "3");
  CHECK(send(call("count", R"({"a":1})"), c.headers()).status == 200);
  CHECK(runs == 2);
}

TEST_CASE("http: Origin and Host checks answer 403; loopback and listed names pass") {
  mcp::http::options o;
  o.allowed_origins = {"https://app.example"};
  o.allowed_hosts = {"mcp.example"};
  served s(o);
  auto init_with = [&](std::vector<header> extra, const std::string& host = "127.0.0.1") {
    test::http_connection conn(s.port());
    std::string raw = http_request("POST", "/mcp", rpc(1, "initialize", init_params()).dump(), post_headers);
    raw.replace(raw.find("Host: 127.0.0.1"), 15, "Host: " + host);
    std::string extra_lines;
    for (auto& h : extra) extra_lines += h.name + ": " + h.value + "\r\n";
    raw.insert(raw.find("\r\n") + 2, extra_lines);
    conn.send(raw);
    return conn.read().status;
  };
  CHECK(init_with({{"Origin", "http://evil.example"}}, "evil.example") == 403);
  CHECK(init_with({{"Origin", "http://evil.example"}}) == 403);
  CHECK(init_with({}, "evil.example") == 403);
  CHECK(init_with({{"Origin", "null"}}) == 403);
  CHECK(init_with({}, "localhost:8080") == 200);
  CHECK(init_with({{"Origin", "http://localhost:3000"}}, "127.0.0.1:1234") == 200);
  CHECK(init_with({{"Origin", "https://app.example"}}, "mcp.example") == 200);
  CHECK(init_with({}, "[::1]:9") == 200);
}

TEST_CASE("http: the auth hook refuses with 401 and WWW-Authenticate, admits a good token") {
  mcp::http::options o;
  std::atomic<int> calls{0};
  o.authorize = [&calls](const mcp::http::auth_request& r) {
    ++calls;
    mcp::http::auth_result out;
    out.allowed = r.authorization == std::optional<std::string_view>("Bearer good");
    if (!out.allowed) out.www_authenticate = R"(Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource")";
    return out;
  };
  o.protected_resource_metadata = {{"resource", "http://127.0.0.1/mcp"}, {"authorization_servers", {"https://as.example"}}};
  served s(o);
  test::http_connection conn(s.port());
  const std::string init = rpc(1, "initialize", init_params()).dump();
  conn.send(http_request("POST", "/mcp", init, post_headers));
  auto refused = conn.read();
  CHECK(refused.status == 401);
  CHECK(refused.header("WWW-Authenticate")->find("resource_metadata=") != std::string::npos);
  auto bad = post_headers;
  bad.push_back({"Authorization", "Bearer bad"});
  conn.send(http_request("POST", "/mcp", init, bad));
  CHECK(conn.read().status == 401);
  auto good = post_headers;
  good.push_back({"Authorization", "Bearer good"});
  conn.send(http_request("POST", "/mcp", init, good));
  CHECK(conn.read().status == 200);
  CHECK(calls == 3);
  // The metadata is public: discovery happens before the client has a token.
  conn.send(http_request("GET", "/.well-known/oauth-protected-resource/mcp", "", {}));
  auto meta = conn.read();
  CHECK(meta.status == 200);
  CHECK(body_json(meta)["authorization_servers"][0] == "https://as.example");
  CHECK(calls == 3);
}

TEST_CASE("http: parser limits answer 413, 431 and 414, then close") {
  mcp::http::options o;
  o.limits.max_body_bytes = 1000;
  o.limits.max_header_bytes = 2000;
  o.limits.max_request_line = 500;
  served s(o);
  {
    test::http_connection conn(s.port());
    conn.send(http_request("POST", "/mcp", std::string(2000, ' '), post_headers));
    CHECK(conn.read().status == 413);
    CHECK(conn.wait_closed(3s));
  }
  {
    test::http_connection conn(s.port());
    conn.send(http_request("POST", "/mcp", "{}", {{"X-Big", std::string(3000, 'a')}}));
    CHECK(conn.read().status == 431);
    CHECK(conn.wait_closed(3s));
  }
  {
    test::http_connection conn(s.port());
    conn.send(http_request("GET", "/mcp?" + std::string(600, 'q'), "", {}));
    CHECK(conn.read().status == 414);
    CHECK(conn.wait_closed(3s));
  }
}

TEST_CASE("http: the GET stream carries list_changed; one at a time; DELETE ends it") {
  served s;
  client c(s.port());
  c.initialize();
  test::http_connection get(s.port());
  std::vector<header> h = {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", c.session_id},
                           {"MCP-Protocol-Version", "2025-11-25"}};
  get.send(http_request("GET", "/mcp", "", h));
  auto head = get.read_events(1);
  REQUIRE(head.status == 200);
  CHECK(head.header("Content-Type") == "text/event-stream");
  REQUIRE(head.events().size() == 1);
  CHECK(head.events()[0].data.empty());  // priming

  {
    test::http_connection second(s.port());
    second.send(http_request("GET", "/mcp", "", h));
    CHECK(second.read().status == 409);
  }

  s.srv.add_tool(make_tool("late", [](const json&, mcp::context&) { return text_result("late"); }));
  auto got = get.read_events(2);
  REQUIRE(got.events().size() == 2);
  auto m = messages(got);
  REQUIRE(m.size() == 1);
  CHECK(m[0]["method"] == "notifications/tools/list_changed");
  CHECK_FALSE(m[0].contains("id"));

  c.conn.send(http_request("DELETE", "/mcp", "", c.headers()));
  CHECK(c.conn.read().status == 204);
  auto ended = get.read(3s);
  CHECK(ended.complete);
}

TEST_CASE("http: Last-Event-ID on GET replays what a dropped GET stream missed, then goes on live") {
  served s;
  client c(s.port());
  c.initialize();
  std::vector<header> h = {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", c.session_id}};
  std::string last_id;
  {
    test::http_connection get(s.port());
    get.send(http_request("GET", "/mcp", "", h));
    s.srv.notify_all("notifications/resources/list_changed");
    auto r = get.read_events(2);
    REQUIRE(r.events().size() == 2);
    last_id = r.events()[1].id;
  }  // dropped
  // Messages sent while nobody listens are kept.
  auto deadline = std::chrono::steady_clock::now() + 3s;
  std::this_thread::sleep_for(50ms);
  s.srv.notify_all("notifications/prompts/list_changed");
  s.srv.notify_all("notifications/tools/list_changed");
  test::http_connection again(s.port());
  auto h2 = h;
  h2.push_back({"Last-Event-ID", last_id});
  std::vector<json> seen;
  test::http_response r;
  do {
    again.send(http_request("GET", "/mcp", "", h2));
    r = again.read_events(2, 2s);
    if (r.status == 409) {  // the server has not noticed the drop yet
      std::this_thread::sleep_for(50ms);
      again.read();
      continue;
    }
    break;
  } while (std::chrono::steady_clock::now() < deadline);
  REQUIRE(r.status == 200);
  seen = messages(r);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0]["method"] == "notifications/prompts/list_changed");
  CHECK(seen[1]["method"] == "notifications/tools/list_changed");
  s.srv.notify_all("notifications/resources/list_changed");
  auto live = again.read_events(3);
  REQUIRE(messages(live).size() == 3);
  CHECK(messages(live)[2]["method"] == "notifications/resources/list_changed");
}

TEST_CASE("http: close_stream polling - the POST stream ends after priming, GET with Last-Event-ID gets the result") {
  served s;
  client c(s.port());
  c.initialize();
  auto r = c.request("tools/call", {{"name", "poll"}});
  REQUIRE(r.status == 200);
  REQUIRE(r.complete);  // ended early, no response in it
  auto events = r.events();
  REQUIRE(events.size() == 1);
  CHECK(events[0].data.empty());
  CHECK(events[0].retry == 1000);
  const std::string priming_id = events[0].id;
  CHECK(priming_id.rfind("r", 0) == 0);

  test::http_connection get(s.port());
  get.send(http_request("GET", "/mcp", "", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", c.session_id},
                                            {"MCP-Protocol-Version", "2025-11-25"}, {"Last-Event-ID", priming_id}}));
  auto resumed = get.read(5s);
  REQUIRE(resumed.status == 200);
  CHECK(resumed.complete);  // the stream completes with the response
  auto m = messages(resumed);
  REQUIRE(m.size() == 2);
  CHECK(m[0]["params"]["data"] == "after the close");
  CHECK(m[1]["id"] == c.next_id - 1);
  CHECK(m[1]["result"]["content"][0]["text"] == "finished while you were away");
  for (const auto& e : resumed.events()) CHECK(e.id.rfind(priming_id.substr(0, priming_id.find(':')) + ":", 0) == 0);
}

TEST_CASE("http: idle sessions expire; sessions past the cap get 503") {
  SECTION("expiry") {
    mcp::http::options o;
    o.session_idle_timeout = 1s;
    served s(o);
    client c(s.port());
    c.initialize();
    CHECK(c.request("ping").status == 200);
    std::this_thread::sleep_for(1600ms);
    CHECK(c.request("ping").status == 404);
  }
  SECTION("a request in flight keeps its session") {
    mcp::http::options o;
    o.session_idle_timeout = 1s;
    served s(o);
    client c(s.port());
    c.initialize();
    auto r = c.request("tools/call", {{"name", "nap"}, {"arguments", {{"ms", 1700}}}});
    CHECK(r.status == 200);
    CHECK(c.request("ping").status == 200);
  }
  SECTION("cap") {
    mcp::http::options o;
    o.max_sessions = 2;
    served s(o);
    client a(s.port()), b(s.port()), d(s.port());
    a.initialize();
    b.initialize();
    d.conn.send(http_request("POST", "/mcp", rpc(1, "initialize", init_params()).dump(), post_headers));
    auto full = d.conn.read();
    CHECK(full.status == 503);
    CHECK(full.header("Retry-After"));
    a.conn.send(http_request("DELETE", "/mcp", "", a.headers()));
    CHECK(a.conn.read().status == 204);
    d.initialize();
    CHECK(d.request("ping").status == 200);
  }
}

TEST_CASE("http: stateless mode - no session ids, every POST stands alone, GET and DELETE are 405") {
  mcp::http::options o;
  o.stateless = true;
  served s(o);
  test::http_connection conn(s.port());
  conn.send(http_request("POST", "/mcp", rpc(1, "initialize", init_params()).dump(), post_headers));
  auto init = conn.read();
  CHECK(init.status == 200);
  CHECK_FALSE(init.header("Mcp-Session-Id"));
  CHECK(body_json(init)["result"]["protocolVersion"] == "2025-11-25");

  conn.send(http_request("POST", "/mcp", rpc(2, "tools/list").dump(), post_headers));
  auto list = conn.read();
  CHECK(list.status == 200);
  CHECK(body_json(list)["result"]["tools"].size() == 5);
  auto h = post_headers;
  h.push_back({"MCP-Protocol-Version", "2025-06-18"});
  conn.send(http_request("POST", "/mcp", rpc(3, "tools/call", {{"name", "chatty"}}).dump(), h));
  auto call = conn.read();
  CHECK(call.status == 200);
  CHECK(messages(call).back()["result"]["content"][0]["text"] == "done talking");
  conn.send(http_request("POST", "/mcp", json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(),
                         post_headers));
  CHECK(conn.read().status == 202);
  conn.send(http_request("GET", "/mcp", "", {{"Accept", "text/event-stream"}}));
  auto get = conn.read();
  CHECK(get.status == 405);
  CHECK(get.header("Allow") == "POST");
  conn.send(http_request("DELETE", "/mcp", "", {}));
  CHECK(conn.read().status == 405);
}

TEST_CASE("http: pipelined requests on one keep-alive connection are answered in order") {
  served s;
  client c(s.port());
  c.initialize();
  std::string burst;
  burst += http_request("POST", "/mcp", rpc(101, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 100}}}}).dump(),
                        c.headers());
  burst += http_request("POST", "/mcp", rpc(102, "ping").dump(), c.headers());
  burst += http_request("POST", "/mcp", rpc(103, "tools/call", {{"name", "chatty"}}).dump(), c.headers());
  burst += http_request("POST", "/mcp", rpc(104, "tools/list").dump(), c.headers());
  c.conn.send(burst);
  std::vector<json> ids;
  for (int i = 0; i < 4; ++i) {
    auto r = c.conn.read();
    REQUIRE(r.status == 200);
    REQUIRE(r.complete);
    ids.push_back(r.header("Content-Type") == "text/event-stream" ? messages(r).back()["id"] : body_json(r)["id"]);
  }
  CHECK(ids == std::vector<json>{101, 102, 103, 104});
}

TEST_CASE("http: chunked request bodies and Expect: 100-continue") {
  served s;
  client c(s.port());
  c.initialize();
  const std::string body = rpc(7, "tools/call", {{"name", "echo"}, {"arguments", {{"k", "v"}}}}).dump();
  std::string raw = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n";
  for (const auto& h : c.headers()) raw += h.name + ": " + h.value + "\r\n";
  raw += "\r\n";
  c.conn.send(raw);
  const std::size_t half = body.size() / 2;
  auto hex = [](std::size_t n) {
    char b[32];
    std::snprintf(b, sizeof b, "%zx", n);
    return std::string(b);
  };
  c.conn.send(hex(half) + "\r\n" + body.substr(0, half) + "\r\n");
  std::this_thread::sleep_for(20ms);
  c.conn.send(hex(body.size() - half) + ";ext=1\r\n" + body.substr(half) + "\r\n0\r\n\r\n");
  auto r = c.conn.read();
  REQUIRE(r.status == 200);
  CHECK(body_json(r)["result"]["content"][0]["text"] == R"({"k":"v"})");

  auto h = c.headers();
  h.push_back({"Expect", "100-continue"});
  std::string with_expect = http_request("POST", "/mcp", rpc(8, "ping").dump(), h);
  const auto split = with_expect.find("\r\n\r\n") + 4;
  c.conn.send(with_expect.substr(0, split));
  auto interim = c.conn.read(2s);
  CHECK(interim.interim == std::vector<int>{100});
  CHECK(interim.status == 0);
  c.conn.send(with_expect.substr(split));
  auto pong = c.conn.read();
  CHECK(pong.status == 200);
  CHECK(body_json(pong)["id"] == 8);
}

TEST_CASE("http: a slowloris client gets 408 and is cut off; idle connections are closed") {
  mcp::http::options o;
  o.read_timeout = 1s;
  o.idle_timeout = 1s;
  served s(o);
  {
    test::http_connection slow(s.port());
    const auto start = std::chrono::steady_clock::now();
    slow.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (int i = 0; i < 3; ++i) {
      std::this_thread::sleep_for(200ms);
      slow.send("X-Drip: " + std::to_string(i) + "\r\n");
    }
    auto r = slow.read(3s);
    CHECK(r.status == 408);
    CHECK(slow.wait_closed(3s));
    CHECK(std::chrono::steady_clock::now() - start < 2500ms);
  }
  {
    test::http_connection idle(s.port());
    CHECK(idle.wait_closed(3s));
  }
}

TEST_CASE("http: half-closed and reset connections are handled; the server keeps serving") {
  served s;
  client c(s.port());
  c.initialize();
  {
    test::http_connection half(s.port());
    half.send(http_request("POST", "/mcp", rpc(1, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 50}}}}).dump(),
                           c.headers()));
    half.shutdown_write();
    auto r = half.read();
    CHECK(r.status == 200);
    CHECK(body_json(r)["result"]["content"][0]["text"] == "rested");
    CHECK(half.wait_closed(3s));
  }
  {
    test::http_connection gone(s.port());
    gone.send(http_request("POST", "/mcp", rpc(2, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 100}}}}).dump(),
                           c.headers()));
    gone.reset();
  }
  {
    test::http_connection get(s.port());
    get.send(http_request("GET", "/mcp", "", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", c.session_id}}));
    get.read_events(1);
    get.reset();
  }
  {
    test::http_connection partial(s.port());
    partial.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"");
    partial.reset();
  }
  std::this_thread::sleep_for(200ms);
  s.srv.notify_all("notifications/tools/list_changed");  // to a stream whose client reset
  CHECK(c.request("ping").status == 200);
  CHECK(body_json(c.request("tools/call", {{"name", "echo"}}))["result"]["content"][0]["text"] == "{}");
}

TEST_CASE("http: concurrent POST streams on one session with two io threads") {
  mcp::http::options o;
  o.io_threads = 2;
  served s(o);
  client c(s.port());
  c.initialize();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] {
      test::http_connection conn(s.port());
      auto h = c.headers();
      h.back().value = "2025-03-26";  // what conformance 0.1.16 sends here
      conn.send(http_request("POST", "/mcp", rpc(1000 + i, "tools/call", {{"name", "chatty"}}).dump(), h));
      auto r = conn.read();
      if (r.status == 200 && r.complete && messages(r).back()["id"] == 1000 + i) ++ok;
    });
  for (auto& t : threads) t.join();
  CHECK(ok == 3);
}

TEST_CASE("http: handlers that have lately been long get a runner beside the one io thread") {
  // Each call keeps its thread busy for 2 ms, far below the 200 ms budget after which a held runner
  // gets help: only the rule of recent_calls (handlers lately longer than share_above) can add the
  // second thread that the answers must show.
  mcp::server srv{mcp::server_info{"http-test", "1.0.0"}, served::quiet()};
  srv.add_tool(make_tool("spin", [](const json&, mcp::context&) {
    const auto until = std::chrono::steady_clock::now() + 2ms;
    while (std::chrono::steady_clock::now() < until) {
    }
    std::ostringstream id;
    id << std::this_thread::get_id();
    return text_result(id.str());
  }));
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.io_threads = 1;
  o.inline_budget = 200ms;
  test::serving listening(srv, o);
  client c(listening.port());
  c.initialize();
  // The clients only collect the answers: Catch's assertions are for the test's own thread.
  std::mutex mutex;
  std::vector<std::string> bodies;
  std::vector<std::thread> clients;
  for (int i = 0; i < 4; ++i)
    clients.emplace_back([&, i] {
      client mine(listening.port());
      mine.session_id = c.session_id;
      mine.next_id = 1000 * (i + 1);  // ids are the session's: each client its own
      for (int k = 0; k < 150; ++k) {
        std::string body = mine.request("tools/call", {{"name", "spin"}}).body;
        std::lock_guard lock(mutex);
        bodies.push_back(std::move(body));
      }
    });
  for (auto& t : clients) t.join();
  std::set<std::string> threads;
  for (const std::string& body : bodies) {
    const json answer = json::parse(body, nullptr, false);
    INFO(body);
    REQUIRE(answer.contains("result"));
    threads.insert(answer["result"]["content"][0]["text"].get<std::string>());
  }
  CHECK(bodies.size() == 600);
  CHECK(threads.size() >= 2);
}

TEST_CASE("http: /metrics shows per-tool counters and transport counters") {
  mcp::http::options o;
  o.metrics = true;
  served s(o);
  client c(s.port());
  c.initialize();
  c.request("tools/call", {{"name", "echo"}, {"arguments", {{"a", 1}}}});
  c.request("tools/call", {{"name", "echo"}});
  c.conn.send(http_request("GET", "/metrics", "", {}));
  auto r = c.conn.read();
  REQUIRE(r.status == 200);
  CHECK(r.header("Content-Type")->find("text/plain; version=0.0.4") == 0);
  const std::string& text = r.body;
  INFO(text);
  CHECK(text.find("# TYPE mcp_tool_calls_total counter\n") != std::string::npos);
  CHECK(text.find("mcp_tool_calls_total{tool=\"echo\"} 2\n") != std::string::npos);
  CHECK(text.find("mcp_tool_calls_total{tool=\"chatty\"} 0\n") != std::string::npos);
  CHECK(text.find("mcp_tool_errors_total{tool=\"echo\"} 0\n") != std::string::npos);
  CHECK(text.find("mcp_tool_latency_seconds_count{tool=\"echo\"} 2\n") != std::string::npos);
  CHECK(text.find("mcp_tool_latency_seconds_bucket{tool=\"echo\",le=\"+Inf\"} 2\n") != std::string::npos);
  CHECK(text.find("mcp_http_sessions_open 1\n") != std::string::npos);
  CHECK(text.find("mcp_http_connections_open 1\n") != std::string::npos);
  CHECK(text.find("mcp_http_responses_total{status=\"200\"} 3\n") != std::string::npos);
  CHECK(text.find("mcp_http_responses_total{status=\"202\"} 1\n") != std::string::npos);
}

#ifdef MCP_NOTES_BINARY
TEST_CASE("http: the notes example serves --http HOST:PORT") {
  const std::string store = std::string(MCP_TEST_BINARY_DIR) + "/scratch-http-notes-" + std::to_string(getpid()) + ".json";
  std::remove(store.c_str());
  const unsigned short port = free_port();
  test::subprocess notes({MCP_NOTES_BINARY, "--store", store, "--http", "127.0.0.1:" + std::to_string(port)});
  std::unique_ptr<client> c;
  for (int i = 0; i < 200 && !c; ++i) {
    try {
      c = std::make_unique<client>(port);
    } catch (const std::runtime_error&) {
      std::this_thread::sleep_for(20ms);
    }
  }
  REQUIRE(c);
  c->initialize();
  auto list = body_json(c->request("tools/list"));
  std::set<std::string> names;
  for (const auto& t : list["result"]["tools"]) names.insert(t["name"].get<std::string>());
  CHECK(names.count("create_note"));
  CHECK(names.count("search_notes"));
  auto created = body_json(c->request("tools/call", {{"name", "create_note"},
                                                     {"arguments", {{"title", "Over HTTP"}, {"body", "hello"}}}}));
  CHECK(created["result"].value("isError", false) == false);
  auto read = body_json(c->request("tools/call", {{"name", "read_note"}, {"arguments", {{"title", "Over HTTP"}}}}));
  CHECK(read["result"].value("isError", false) == false);
  CHECK(read["result"].dump().find("hello") != std::string::npos);
  notes.signal(SIGTERM);
  CHECK(notes.wait(5s) == 0);
  CHECK_FALSE(notes.read_line(100ms));  // nothing on stdout in HTTP mode
  std::remove(store.c_str());
}
#endif

}  // namespace test_http
