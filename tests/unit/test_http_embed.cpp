// Embedding the Streamable HTTP transport: the endpoint mounted as a handler without the SDK's
// listener (answers read from a blocking_writer), the listener on the caller's io_context, a Unix
// domain socket, and the same HTTP statuses from notes --http and from the notes tools mounted in
// cpp-httplib (examples/httplib).
#include "catch.hpp"
#include "blocking_read.hpp"
#include "serving.hpp"
#include "http_client.hpp"
#include "subprocess.hpp"

#include <mcp/core/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/detail/sse_follower.hpp>
#include <mcp/transport/http_handler.hpp>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/local/stream_protocol.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

using mcp::json;
using namespace std::chrono_literals;

namespace test_http_embed {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return o;
}

void add_tools(mcp::server& srv) {
  mcp::tool_definition chatty;
  chatty.name = "chatty";
  chatty.description = "Reports progress, then answers";
  chatty.input_schema = {{"type", "object"}};
  chatty.invoke = [](const json&, mcp::context& ctx) -> json {
    ctx.progress(1, 2, "half");
    return {{"content", json::array({{{"type", "text"}, {"text", "done talking"}}})}};
  };
  srv.add_tool(chatty);
  mcp::tool_definition nap;
  nap.name = "nap";
  nap.description = "Sleeps a while";
  nap.input_schema = {{"type", "object"}};
  nap.invoke = [](const json& args, mcp::context&) -> json {
    std::this_thread::sleep_for(std::chrono::milliseconds(args.value("ms", 100)));
    return {{"content", json::array({{{"type", "text"}, {"text", "rested"}}})}};
  };
  srv.add_tool(nap);
}

// The test tools behind the SDK's listener on a free port of 127.0.0.1, for as long as the scope lasts.
struct tools_served {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  test::serving listener;
  explicit tools_served(mcp::http::options o = {}) : listener((add_tools(srv), srv), on_free_port(std::move(o))) {}
  unsigned short port() const { return listener.port(); }

 private:
  static mcp::http::options on_free_port(mcp::http::options o) {
    o.port = 0;
    return o;
  }
};

json rpc(long long id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

const json init_params = {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "test"}, {"version", "1"}}}};

mcp::http::request make_request(const std::string& method, const json& body, const std::string& session = "") {
  mcp::http::request r;
  r.method = method;
  r.target = "/mcp";
  r.headers.add("Host", "127.0.0.1:1");
  r.headers.add("Accept", "application/json, text/event-stream");
  r.headers.add("Content-Type", "application/json");
  r.headers.add("MCP-Protocol-Version", "2025-11-25");
  if (!session.empty()) r.headers.add("Mcp-Session-Id", session);
  if (!body.is_null()) r.body = body.dump();
  return r;
}

using test::read_all;

}  // namespace

TEST_CASE("http handler: mounted without a listener - sessions, JSON and SSE answers, 404 after DELETE, Origin") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  mcp::http::handler endpoint(srv, {});

  auto init = endpoint.handle_blocking(make_request("POST", rpc(1, "initialize", init_params)));
  REQUIRE(init->wait_head().status == 200);
  REQUIRE_FALSE(init->streaming());
  const auto id = init->wait_head().headers.get("Mcp-Session-Id");
  REQUIRE(id);
  const std::string session(*id);
  CHECK(json::parse(init->wait_head().body)["result"]["serverInfo"]["name"] == "embed-test");
  CHECK(endpoint.sessions_open() == 1);

  auto note = endpoint.handle_blocking(
      make_request("POST", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session));
  CHECK(note->wait_head().status == 202);

  // A progress notification makes the answer a stream: the progress event, then the result.
  auto call = endpoint.handle_blocking(
      make_request("POST", rpc(2, "tools/call", {{"name", "chatty"}, {"arguments", json::object()}, {"_meta", {{"progressToken", "p"}}}}), session));
  REQUIRE(call->streaming());
  CHECK(call->wait_head().headers.get("Content-Type") == std::optional<std::string_view>("text/event-stream"));
  const auto events = test::parse_sse(read_all(*call));
  std::vector<json> messages;
  for (const auto& e : events)
    if (!e.data.empty()) messages.push_back(json::parse(e.data));
  REQUIRE(messages.size() == 2);
  CHECK(messages[0]["method"] == "notifications/progress");
  CHECK(messages[1]["result"]["content"][0]["text"] == "done talking");

  auto hostile = make_request("POST", rpc(3, "ping"), session);
  hostile.headers.add("Origin", "https://evil.example");
  CHECK(endpoint.handle_blocking(hostile)->wait_head().status == 403);

  auto del = endpoint.handle_blocking(make_request("DELETE", nullptr, session));
  CHECK(del->wait_head().status == 204);
  CHECK(endpoint.handle_blocking(make_request("POST", rpc(4, "ping"), session))->wait_head().status == 404);
  CHECK(endpoint.handle_blocking(make_request("POST", rpc(5, "ping")))->wait_head().status == 400);  // no session
  auto elsewhere = make_request("GET", nullptr);
  elsewhere.target = "/other";
  CHECK(endpoint.handle_blocking(elsewhere)->wait_head().status == 404);
}

TEST_CASE("http handler: a client that leaves a stream is let go; the session's GET stream can be taken again") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  mcp::http::handler endpoint(srv, {});
  auto init = endpoint.handle_blocking(make_request("POST", rpc(1, "initialize", init_params)));
  const std::string session(*init->wait_head().headers.get("Mcp-Session-Id"));

  auto get = endpoint.handle_blocking(make_request("GET", nullptr, session));
  REQUIRE(get->streaming());
  CHECK(endpoint.handle_blocking(make_request("GET", nullptr, session))->wait_head().status == 409);
  get->client_gone();
  std::string ignored;
  CHECK(get->pull(ignored, 1ms) == mcp::http::blocking_writer::pulled::ended);
  auto again = endpoint.handle_blocking(make_request("GET", nullptr, session));
  CHECK(again->streaming());
  endpoint.close();  // ends the open stream
  std::string rest;
  for (int i = 0; i < 100 && again->pull(rest, 10ms) != mcp::http::blocking_writer::pulled::ended; ++i) {
  }
  CHECK(again->pull(rest, 1ms) == mcp::http::blocking_writer::pulled::ended);
}

namespace {

const std::vector<test::header> post_headers = {{"Accept", "application/json, text/event-stream"},
                                                {"Content-Type", "application/json"},
                                                {"MCP-Protocol-Version", "2025-11-25"}};

// post_headers naming the session.
std::vector<test::header> session_headers(const std::string& session) {
  auto h = post_headers;
  h.push_back({"Mcp-Session-Id", session});
  return h;
}

// initialize and notifications/initialized on `conn`; returns the session id.
std::string open_session(test::http_connection& conn) {
  conn.send(test::http_request("POST", "/mcp", rpc(1, "initialize", init_params).dump(), post_headers));
  auto r = conn.read(5s);
  REQUIRE(r.status == 200);
  REQUIRE(r.header("Mcp-Session-Id"));
  std::string session = *r.header("Mcp-Session-Id");
  conn.send(test::http_request("POST", "/mcp", json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(),
                               session_headers(session)));
  REQUIRE(conn.read(5s).status == 202);
  return session;
}

test::http_response call(test::http_connection& conn, const std::string& session, long long id, const std::string& tool,
                         json args = json::object()) {
  const auto h = session_headers(session);
  json params = {{"name", tool}, {"arguments", std::move(args)}, {"_meta", {{"progressToken", id}}}};
  conn.send(test::http_request("POST", "/mcp", rpc(id, "tools/call", std::move(params)).dump(), h));
  return conn.read(5s);
}

}  // namespace

TEST_CASE("http listener on the caller's io_context: a user timer keeps firing on one thread while calls are served") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  asio::io_context io;
  mcp::http::options o;
  o.port = 0;
  mcp::http::listener listener(srv, io, o);
  listener.start();

  // The user's own work on the same loop: a 10 ms timer, counting its ticks.
  std::atomic<int> ticks{0};
  std::atomic<bool> ticking{true};
  asio::steady_timer timer(io);
  std::function<void()> tick = [&] {
    timer.expires_after(10ms);
    timer.async_wait([&](asio::error_code ec) {
      if (ec || !ticking) return;
      ++ticks;
      tick();
    });
  };
  tick();
  std::thread loop([&] { io.run(); });  // the only thread running the user's loop

  {
    test::http_connection conn(listener.port());
    const std::string session = open_session(conn);
    // A 300 ms tool call: it runs on the listener's worker, so the loop's timer keeps ticking.
    const int before = ticks;
    auto r = call(conn, session, 2, "nap", {{"ms", 300}});
    CHECK(r.status == 200);
    CHECK(r.body.find("rested") != std::string::npos);
    CHECK(ticks - before >= 10);  // 30 ticks if the loop were never held; a blocked loop gives ~0
    auto sse = call(conn, session, 3, "chatty");
    CHECK(sse.header("Content-Type") == std::optional<std::string>("text/event-stream"));
    CHECK(sse.body.find("notifications/progress") != std::string::npos);
  }

  listener.stop();
  // The loop still runs the user's timer after the listener stopped; the port is closed.
  const int after_stop = ticks;
  std::this_thread::sleep_for(100ms);
  CHECK(ticks > after_stop);
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    try {
      test::http_connection again(listener.port());
      std::this_thread::sleep_for(10ms);
    } catch (const std::runtime_error&) {
      refused = true;
    }
  }
  CHECK(refused);
  // A cancel alone can miss: a wait that has just expired is already queued and would tick again.
  ticking = false;
  asio::post(io, [&] { timer.cancel(); });
  // Nothing of the listener's is left on the loop: run() returns by itself.
  for (int i = 0; i < 1000 && !io.stopped(); ++i) std::this_thread::sleep_for(10ms);
  CHECK(io.stopped());
  io.stop();
  loop.join();
}

TEST_CASE("http listener on the caller's io_context: destroyed while the loop runs, with a connection open") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  std::thread loop([&] { io.run(); });
  mcp::http::options o;
  o.port = 0;
  auto listener = std::make_unique<mcp::http::listener>(srv, io, o);
  listener->start();
  test::http_connection conn(listener->port());
  open_session(conn);
  listener.reset();  // stops; what is pending on the loop keeps what it needs
  auto r = conn.read(2s);
  CHECK(r.status == 0);  // the connection was closed, no answer
  guard.reset();
  for (int i = 0; i < 1000 && !io.stopped(); ++i) std::this_thread::sleep_for(10ms);
  CHECK(io.stopped());  // nothing of the listener's is left on the loop
  io.stop();
  loop.join();
}

#if defined(ASIO_HAS_LOCAL_SOCKETS)
TEST_CASE("http listener on a Unix domain socket: a round trip, and the socket file is removed on stop") {
  char dir_template[] = "/tmp/mcp-unix-XXXXXX";
  REQUIRE(::mkdtemp(dir_template));
  const std::string dir = dir_template;
  const std::string path = dir + "/mcp.sock";
  {
    mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
    add_tools(srv);
    mcp::http::options o;
    o.unix_socket = path;
    mcp::http::listener listener(srv, o);
    std::thread serving([&] { listener.run(); });
    CHECK(listener.port() == 0);
    {
      test::http_connection conn(path);
      const std::string session = open_session(conn);
      auto r = call(conn, session, 2, "nap", {{"ms", 1}});
      CHECK(r.status == 200);
      CHECK(r.body.find("rested") != std::string::npos);
    }
    listener.stop();
    serving.join();
    CHECK(::access(path.c_str(), F_OK) != 0);
  }
  // A stale socket file (a process that died) does not stop the next one from listening there.
  {
    mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
    asio::io_context io;
    asio::local::stream_protocol::acceptor stale(io, asio::local::stream_protocol::endpoint(path));
    stale.close();  // the file stays
    REQUIRE(::access(path.c_str(), F_OK) == 0);
    mcp::http::options o;
    o.unix_socket = path;
    mcp::http::listener listener(srv, o);
    listener.stop();
  }
  ::rmdir(dir.c_str());
}
#endif

// ---- the same status checks against notes --http and the notes tools mounted in cpp-httplib ----

#if defined(MCP_NOTES_BINARY)
namespace {

using test::free_port;

// Every status the suite checks of `notes --http`, asked of the server at `port`.
void check_statuses(unsigned short port) {
  auto connect = [&] {
    for (int i = 0; i < 200; ++i) {
      try {
        return std::make_unique<test::http_connection>(port);
      } catch (const std::runtime_error&) {
        std::this_thread::sleep_for(20ms);
      }
    }
    FAIL("the server did not start");
    return std::unique_ptr<test::http_connection>();
  };
  auto ask = [&](const std::string& method, const std::string& body, std::vector<test::header> headers,
                 const std::string& host = "") {
    auto conn = connect();
    std::string bytes = test::http_request(method, "/mcp", body, headers);
    if (!host.empty()) bytes.replace(bytes.find("Host: 127.0.0.1"), 15, "Host: " + host);
    conn->send(bytes);
    return conn->read(5s);
  };
  auto conn = connect();
  const std::string session = open_session(*conn);
  auto with_session = post_headers;
  with_session.push_back({"Mcp-Session-Id", session});

  const std::string ping = rpc(7, "ping").dump();
  CHECK(ask("POST", rpc(2, "tools/list").dump(), with_session).status == 200);
  CHECK(ask("POST", ping, post_headers).status == 400);  // no session id
  auto unknown = post_headers;
  unknown.push_back({"Mcp-Session-Id", "no-such-session"});
  CHECK(ask("POST", ping, unknown).status == 404);
  auto bad_version = with_session;
  bad_version[2].value = "1999-01-01";
  CHECK(ask("POST", ping, bad_version).status == 400);
  auto json_only = with_session;
  json_only[0].value = "application/json";
  CHECK(ask("POST", ping, json_only).status == 406);
  auto text_body = with_session;
  text_body[1].value = "text/plain";
  CHECK(ask("POST", ping, text_body).status == 415);
  auto evil = with_session;
  evil.push_back({"Origin", "https://evil.example"});
  CHECK(ask("POST", ping, evil).status == 403);
  CHECK(ask("POST", ping, with_session, "evil.example").status == 403);
  CHECK(ask("POST", "{\"jsonrpc\":", with_session).status == 400);  // not JSON
  CHECK(ask("PUT", ping, with_session).status == 405);
  CHECK(ask("POST", std::string(5 * 1024 * 1024, ' '), with_session).status == 413);

  // A browser page on a local dev server: its preflight and its request (the host must route
  // OPTIONS to the handler: issue #56).
  const std::string page = "http://localhost:5173";
  auto preflight = ask("OPTIONS", "", {{"Origin", page}, {"Access-Control-Request-Method", "POST"},
                                       {"Access-Control-Request-Headers", "content-type, mcp-session-id, mcp-protocol-version"}});
  CHECK(preflight.status == 204);
  CHECK(preflight.header("Access-Control-Allow-Origin") == std::optional<std::string>(page));
  CHECK(preflight.header("Access-Control-Allow-Methods") == std::optional<std::string>("GET, POST, DELETE"));
  const std::string allowed_headers = preflight.header("Access-Control-Allow-Headers").value_or("");
  for (const char* h : {"Content-Type", "Mcp-Session-Id", "MCP-Protocol-Version"})
    CHECK(allowed_headers.find(h) != std::string::npos);
  CHECK(ask("OPTIONS", "", {{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "POST"}}).status == 403);
  auto from_page = with_session;
  from_page.push_back({"Origin", page});
  auto answered = ask("POST", ping, from_page);
  CHECK(answered.status == 200);
  CHECK(answered.header("Access-Control-Allow-Origin") == std::optional<std::string>(page));
  CHECK(answered.header("Access-Control-Expose-Headers").value_or("").find("Mcp-Session-Id") != std::string::npos);

  CHECK(ask("DELETE", "", with_session).status == 204);
  CHECK(ask("POST", ping, with_session).status == 404);
}

void check_server(const char* binary) {
  const std::string store = std::string(MCP_TEST_BINARY_DIR) + "/scratch-statuses-" + std::to_string(getpid()) + ".json";
  std::remove(store.c_str());
  const unsigned short port = free_port();
  test::subprocess server({binary, "--store", store, "--http", "127.0.0.1:" + std::to_string(port)});
  check_statuses(port);
  server.signal(SIGTERM);
  CHECK(server.wait(10s) == 0);
  std::remove(store.c_str());
}

}  // namespace

TEST_CASE("http statuses: notes --http") { check_server(MCP_NOTES_BINARY); }

#if defined(MCP_HTTPLIB_NOTES_BINARY)
TEST_CASE("http statuses: the notes tools mounted in cpp-httplib answer the same") {
  check_server(MCP_HTTPLIB_NOTES_BINARY);
}
#endif
#endif

TEST_CASE("http listener: past max_connections a new connection gets 503 with Retry-After; a freed slot is taken again") {
  mcp::http::options o;
  o.max_connections = 2;
  tools_served served(o);
  auto& listener = served.listener;
  {
    auto first = std::make_unique<test::http_connection>(listener.port());
    test::http_connection second(listener.port());
    const std::string session = open_session(*first);  // both are open (and counted) once one has answered
    CHECK(call(second, session, 2, "nap", {{"ms", 1}}).status == 200);

    test::http_connection third(listener.port());
    third.send(test::http_request("POST", "/mcp", R"({"jsonrpc":"2.0","id":9,"method":"ping"})",
                                  {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}}));
    const auto busy = third.read();
    CHECK(busy.status == 503);
    CHECK(busy.header("Retry-After") == std::optional<std::string>("1"));
    CHECK(busy.body.find("Too many connections") != std::string::npos);
    CHECK(third.wait_closed(std::chrono::seconds(3)));

    first.reset();  // a slot frees once the listener has seen the close
    bool taken = false;
    for (int attempt = 0; attempt < 50 && !taken; ++attempt) {
      test::http_connection again(listener.port());
      taken = call(again, session, 3, "nap", {{"ms", 1}}).status == 200;
      if (!taken) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(taken);
  }
}

TEST_CASE("http listener: a quiet SSE stream gets keep-alive comments, and events still arrive whole") {
  mcp::http::options o;
  o.sse_keepalive = std::chrono::milliseconds(100);
  tools_served served(o);
  auto& listener = served.listener;
  {
    test::http_connection conn(listener.port());
    const auto h = session_headers(open_session(conn));
    test::http_connection stream(listener.port());
    stream.send(test::http_request("GET", "/mcp", "", h));
    // The listen stream is quiet: within a second several comments must have come.
    auto quiet_stream = stream.read(std::chrono::seconds(1), [](const test::http_response& r) {
      std::size_t n = 0;
      for (std::size_t at = r.body.find(": keep-alive\n\n"); at != std::string::npos; at = r.body.find(": keep-alive\n\n", at + 1)) ++n;
      return n >= 3;
    });
    CHECK(quiet_stream.status == 200);
    CHECK(quiet_stream.body.find(": keep-alive\n\n") != std::string::npos);
    // A notification still arrives as an event among them.
    served.srv.notify_all("notifications/tools/list_changed");
    auto later = stream.read(std::chrono::seconds(2), [](const test::http_response& r) {
      return r.body.find("list_changed") != std::string::npos;
    });
    bool event_seen = false;
    for (const auto& e : later.events()) event_seen = event_seen || e.data.find("tools/list_changed") != std::string::npos;
    CHECK(event_seen);
  }
}

TEST_CASE("http listener: a browser's preflight and answers carry CORS headers for an allowed origin only") {
  mcp::http::options o;
  o.allowed_origins = {"https://app.example"};
  // A preflight carries no credentials: it must be answered before the auth hook would refuse it.
  o.authorize = [](const mcp::http::auth_request& r) {
    return r.authorization && *r.authorization == "Bearer good" ? mcp::http::auth_result{}
                                                                : mcp::http::auth_result::refuse();
  };
  tools_served served(o);
  auto& listener = served.listener;
  test::http_connection conn(listener.port());
  const std::vector<test::header> preflight = {{"Origin", "https://app.example"},
                                               {"Access-Control-Request-Method", "POST"},
                                               {"Access-Control-Request-Headers", "content-type, mcp-session-id"}};
  conn.send(test::http_request("OPTIONS", "/mcp", "", preflight));
  auto r = conn.read(5s);
  CHECK(r.status == 204);
  CHECK(r.header("Access-Control-Allow-Origin") == std::optional<std::string>("https://app.example"));
  CHECK(r.header("Access-Control-Allow-Methods") == std::optional<std::string>("GET, POST, DELETE"));
  const std::string allowed_headers = r.header("Access-Control-Allow-Headers").value_or("");
  for (const char* h : {"Content-Type", "Mcp-Session-Id", "MCP-Protocol-Version", "Authorization", "Last-Event-ID"})
    CHECK(allowed_headers.find(h) != std::string::npos);
  CHECK(r.header("Access-Control-Max-Age"));
  CHECK(r.header("Vary") == std::optional<std::string>("Origin"));

  // Another origin is refused outright, preflight or not.
  conn.send(test::http_request("OPTIONS", "/mcp", "", {{"Origin", "https://evil.example"}}));
  r = conn.read(5s);
  CHECK(r.status == 403);
  CHECK_FALSE(r.header("Access-Control-Allow-Origin"));

  // The page's real requests: the answer names the origin and lets the page read the session id,
  // also when it is a refusal.
  auto h = post_headers;
  h.push_back({"Origin", "https://app.example"});
  conn.send(test::http_request("POST", "/mcp", rpc(1, "initialize", init_params).dump(), h));
  r = conn.read(5s);
  CHECK(r.status == 401);
  CHECK(r.header("Access-Control-Allow-Origin") == std::optional<std::string>("https://app.example"));
  h.push_back({"Authorization", "Bearer good"});
  conn.send(test::http_request("POST", "/mcp", rpc(1, "initialize", init_params).dump(), h));
  r = conn.read(5s);
  CHECK(r.status == 200);
  CHECK(r.header("Mcp-Session-Id"));
  CHECK(r.header("Access-Control-Allow-Origin") == std::optional<std::string>("https://app.example"));
  CHECK(r.header("Access-Control-Expose-Headers").value_or("").find("Mcp-Session-Id") != std::string::npos);

  // No Origin (not a browser): no CORS headers at all; OPTIONS is then just a method /mcp lacks.
  conn.send(test::http_request("OPTIONS", "/mcp", "", {{"Authorization", "Bearer good"}}));
  r = conn.read(5s);
  CHECK(r.status == 405);
  CHECK_FALSE(r.header("Access-Control-Allow-Origin"));
}

TEST_CASE("http listener: shutdown() lets a running call answer, refuses new requests, ends listen streams") {
  tools_served served;
  auto& listener = served.listener;
  test::http_connection conn(listener.port());
  const auto h = session_headers(open_session(conn));
  test::http_connection stream(listener.port());
  stream.send(test::http_request("GET", "/mcp", "", h));
  REQUIRE(stream.read(5s, [](const test::http_response& r) { return r.status != 0; }).status == 200);
  test::http_connection busy(listener.port());
  busy.send(test::http_request("POST", "/mcp",
                               rpc(2, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 600}}}}).dump(), h));
  test::http_connection late(listener.port());  // open before the shutdown: the acceptor closes
  test::http_connection broken(listener.port());
  std::this_thread::sleep_for(150ms);           // the nap is running

  listener.listener().shutdown(10s);
  std::this_thread::sleep_for(50ms);
  late.send(test::http_request("POST", "/mcp", rpc(3, "ping").dump(), h));
  auto refused = late.read(5s);
  CHECK(refused.status == 503);
  CHECK(refused.body.find("shutting down") != std::string::npos);
  CHECK(refused.header("Retry-After"));
  // A call whose arguments are not JSON is that first, as when its body is read whole.
  broken.send(test::http_request(
      "POST", "/mcp", R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nap","arguments":{"ms":tru}}})", h));
  auto not_json = broken.read(5s);
  CHECK(not_json.status == 400);
  CHECK(not_json.body.find("-32700") != std::string::npos);

  auto answered = busy.read(5s);
  CHECK(answered.status == 200);
  CHECK(answered.body.find("rested") != std::string::npos);
  // The listen stream ends cleanly (its last chunk), and run() returns well before the grace is over.
  CHECK(stream.read(5s).complete);
  CHECK(listener.returns_within(5s));
  CHECK_THROWS(test::http_connection(listener.port()));
}

TEST_CASE("http listener: a call still running when the grace period ends is cut off") {
  tools_served served;
  auto& listener = served.listener;
  test::http_connection conn(listener.port());
  const auto h = session_headers(open_session(conn));
  conn.send(test::http_request("POST", "/mcp",
                               rpc(2, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 1500}}}}).dump(), h));
  std::this_thread::sleep_for(100ms);
  const auto t0 = std::chrono::steady_clock::now();
  listener.listener().shutdown(200ms);
  CHECK(conn.wait_closed(5s));
  CHECK(std::chrono::steady_clock::now() - t0 < 1200ms);  // closed at the grace, not when the nap ends
  CHECK(conn.read(10ms).status == 0);                     // no answer came
  CHECK(listener.returns_within(5s));                     // once the nap is over
}

TEST_CASE("http handler: drain() lets a running call answer, then refuses new requests with 503") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  mcp::http::handler endpoint(srv, {});
  auto init = endpoint.handle_blocking(make_request("POST", rpc(1, "initialize", init_params)));
  REQUIRE(init->wait_head().status == 200);
  const std::string session(*init->wait_head().headers.get("Mcp-Session-Id"));
  endpoint.handle_blocking(make_request("POST", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session));

  std::string answer;
  std::thread host([&] {  // the host's thread for the running call: blocks until its answer
    auto call = endpoint.handle_blocking(
        make_request("POST", rpc(2, "tools/call", {{"name", "nap"}, {"arguments", {{"ms", 300}}}}), session));
    answer = read_all(*call);
  });
  for (int i = 0; i < 200 && endpoint.requests_in_flight() == 0; ++i) std::this_thread::sleep_for(5ms);
  CHECK(endpoint.requests_in_flight() == 1);
  CHECK(endpoint.drain(5s));
  host.join();
  CHECK(answer.find("rested") != std::string::npos);
  CHECK(endpoint.requests_in_flight() == 0);
  auto late = endpoint.handle_blocking(make_request("POST", rpc(3, "ping"), session));
  CHECK(late->wait_head().status == 503);
  CHECK(late->wait_head().body.find("shutting down") != std::string::npos);
}

TEST_CASE("http listener: shutdown() ends a 2026-07-28 listen stream at once, with its final result") {
  tools_served served;
  auto& listener = served.listener;
  const json listen = rpc(7, "subscriptions/listen",
                          {{"notifications", {{"toolsListChanged", true}}},
                           {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                      {"io.modelcontextprotocol/clientCapabilities", json::object()},
                                      {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
  test::http_connection stream(listener.port());
  stream.send(test::http_request("POST", "/mcp", listen.dump(),
                                 {{"Accept", "application/json, text/event-stream"},
                                  {"Content-Type", "application/json"},
                                  {"MCP-Protocol-Version", "2026-07-28"},
                                  {"Mcp-Method", "subscriptions/listen"}}));
  auto acknowledged = stream.read(5s, [](const test::http_response& r) {
    return r.body.find("notifications/subscriptions/acknowledged") != std::string::npos;
  });
  REQUIRE(acknowledged.status == 200);
  REQUIRE(listener.listener().port() != 0);

  const auto t0 = std::chrono::steady_clock::now();
  listener.listener().shutdown(10s);
  auto ended = stream.read(5s);
  CHECK(ended.complete);
  bool final_result = false;
  for (const auto& e : ended.events()) {
    if (e.data.empty()) continue;
    const json m = json::parse(e.data);
    final_result = final_result || (m.value("id", json()) == 7 && m["result"]["resultType"] == "complete");
  }
  CHECK(final_result);
  CHECK(listener.returns_within(5s));
  CHECK(std::chrono::steady_clock::now() - t0 < 5s);  // not the 10 s grace: nothing was left running
}

namespace {

// An event store whose read() waits for the test, so that the follower's thread is held in the
// middle of a poll; released, it says the stream is complete (the follower then drops it).
class held_store final : public mcp::http::event_store {
 public:
  void open(const std::string&, const std::string&) override {}
  void append(const std::string&, std::uint64_t, const std::string&, bool) override {}
  std::optional<replay> read(const std::string&, std::uint64_t) override {
    std::unique_lock lock(mutex_);
    reading_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
    replay r;
    r.complete = true;
    return r;
  }
  bool wait_reading() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return reading_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool reading_ = false, released_ = false;
};

}  // namespace

TEST_CASE("http: closing the stream followers while one is being read ends it once, and nothing breaks") {
  // The follower's thread drops a finished stream after the poll, under the lock; close() may have
  // taken every followed stream in between (it was seen under UBSan: an erase at end()).
  auto store = std::make_shared<held_store>();
  mcp::detail::http::stream_followers followers(store, 4, 1ms);
  auto out = std::make_shared<mcp::http::blocking_writer>(mcp::inline_executor());
  out->start_stream(mcp::http::response{});
  followers.follow(out, "stream", 0);
  REQUIRE(store->wait_reading());
  std::thread closer([&] { followers.close(); });  // takes the followed list, then waits for the thread
  std::this_thread::sleep_for(100ms);
  store->release();
  closer.join();
  CHECK(followers.followed() == 0);
  CHECK_FALSE(followers.has_room());  // closed: nothing is followed afterwards
  std::string body;
  CHECK(out->pull(body, 1s) == mcp::http::blocking_writer::pulled::ended);
}

}  // namespace test_http_embed
