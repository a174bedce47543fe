// Handlers that block, or ignore a cancel, must not stall the calls behind them: over real pipes
// (serve_stream) and over HTTP on 127.0.0.1 (the listener, and the endpoint mounted without it).
// Every blocked call waits on a gate the test opens; nothing here waits for time to pass except
// where a test shows that something did NOT happen (a call that must wait for the bound).
#include "catch.hpp"
#include "http_client.hpp"
#include "serving.hpp"

#include <mcp/core/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/http_handler.hpp>
#include <mcp/transport/stdio.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_stalls {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// Calls that block until the test lets them go, and the order things happened in the server.
struct gate {
  std::mutex mutex;
  std::condition_variable changed;
  std::set<std::string> released;
  bool all = false;
  int started = 0;  // blocked calls that began
  std::vector<std::string> events;

  void block(const std::string& name) {
    std::unique_lock lock(mutex);
    ++started;
    events.push_back("start " + name);
    changed.notify_all();
    changed.wait(lock, [&] { return all || released.count(name) > 0; });
    events.push_back("end " + name);
  }
  void note(const std::string& event) {
    std::lock_guard lock(mutex);
    events.push_back(event);
    changed.notify_all();
  }
  void release(const std::string& name) {
    std::lock_guard lock(mutex);
    released.insert(name);
    changed.notify_all();
  }
  void release_all() {
    std::lock_guard lock(mutex);
    all = true;
    changed.notify_all();
  }
  bool wait_started(int n, std::chrono::milliseconds limit = 10s) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [&] { return started >= n; });
  }
  bool happened(const std::string& event) {
    std::lock_guard lock(mutex);
    return std::find(events.begin(), events.end(), event) != events.end();
  }
  // Where `event` is in the order of events; -1 when it did not happen.
  long position(const std::string& event) {
    std::lock_guard lock(mutex);
    auto it = std::find(events.begin(), events.end(), event);
    return it == events.end() ? -1 : static_cast<long>(it - events.begin());
  }
};

// Opens the gate for good when the test leaves, a failed REQUIRE included. Declared after what
// serves the calls, so that it runs first: what serves them waits for them when it ends.
struct open_on_exit {
  gate& g;
  ~open_on_exit() { g.release_all(); }
};

json text_result(const std::string& text) { return {{"content", json::array({{{"type", "text"}, {"text", text}}})}}; }

// `block` ({"name": ...}) waits at the gate and never looks at ctx.cancelled(); `quick` answers at once.
void add_gate_tools(mcp::server& srv, gate& g) {
  mcp::tool_definition block;
  block.name = "block";
  block.description = "Blocks until the test lets it go";
  block.input_schema = {{"type", "object"}};
  block.invoke = [&g](const json& args, mcp::context&) {
    const std::string name = args.value("name", "");
    g.block(name);
    return text_result("released " + name);
  };
  srv.add_tool(block);
  mcp::tool_definition quick;
  quick.name = "quick";
  quick.description = "Answers at once";
  quick.input_schema = {{"type", "object"}};
  quick.invoke = [&g](const json&, mcp::context&) {
    g.note("start quick");
    return text_result("quick");
  };
  srv.add_tool(quick);
}

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return o;
}

json call(long long id, const std::string& tool, json args = json::object()) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
}
json cancel(long long id) {
  return {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", id}}}};
}
const json init_params = {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "test"}, {"version", "1"}}}};

std::string text_of(const json& reply) { return reply["result"]["content"][0]["text"].get<std::string>(); }

// serve_stream on one end of two pipes; the test holds the client's ends.
struct piped {
  int to_server[2];
  int from_server[2];
  std::future<int> exit_code;
  std::string pending;

  piped(mcp::server& srv, mcp::stdio_options options) {
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
    exit_code = std::async(std::launch::async, [this, &srv, options] {
      const int rc = mcp::serve_stream(srv, to_server[0], from_server[1], options);
      close(from_server[1]);
      return rc;
    });
  }
  ~piped() {
    close_input();
    if (exit_code.valid()) exit_code.wait();
    close(to_server[0]);
    close(from_server[0]);
  }
  void send(const json& message) {
    const std::string line = message.dump() + "\n";
    REQUIRE(::write(to_server[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  }
  void close_input() {
    if (to_server[1] >= 0) close(to_server[1]);
    to_server[1] = -1;
  }
  std::optional<json> read(std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (auto nl = pending.find('\n'); nl != std::string::npos) {
        json j = json::parse(pending.substr(0, nl), nullptr, false);
        pending.erase(0, nl + 1);
        return j;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{from_server[0], POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
      char chunk[4096];
      const ssize_t n = ::read(from_server[0], chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      pending.append(chunk, static_cast<std::size_t>(n));
    }
  }
  json initialize() {
    send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
    auto r = read();
    REQUIRE(r);
    REQUIRE((*r)["id"] == 1);
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    return *r;
  }
  // A round trip that only the reading thread serves: reading goes on.
  void ping(long long id) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}});
    auto r = read();
    REQUIRE(r);
    REQUIRE((*r)["id"] == id);
  }
};

// An HTTP client of one session on one connection of its own.
struct http_client {
  test::http_connection conn;
  std::string session_id;

  http_client(unsigned short port, std::string session) : conn(port), session_id(std::move(session)) {}

  std::vector<test::header> headers() const {
    std::vector<test::header> h = {{"Accept", "application/json, text/event-stream"},
                                   {"Content-Type", "application/json"},
                                   {"MCP-Protocol-Version", "2025-11-25"}};
    if (!session_id.empty()) h.push_back({"Mcp-Session-Id", session_id});
    return h;
  }
  void send(const json& message) { conn.send(test::http_request("POST", "/mcp", message.dump(), headers())); }
  test::http_response read(std::chrono::milliseconds timeout = 10s) { return conn.read(timeout); }
};

// A session of `port`'s server: its id.
std::string open_session(unsigned short port) {
  http_client c(port, "");
  c.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
  auto r = c.read();
  REQUIRE(r.status == 200);
  REQUIRE(r.header("Mcp-Session-Id"));
  c.session_id = *r.header("Mcp-Session-Id");
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  REQUIRE(c.read().status == 202);
  return c.session_id;
}

// The JSON-RPC reply in an HTTP answer (a JSON body, or the last message of an SSE stream).
json reply_of(const test::http_response& r) {
  INFO(r.body);
  if (auto type = r.header("Content-Type"); type && type->find("text/event-stream") != std::string::npos) {
    json last;
    for (const auto& e : r.events())
      if (!e.data.empty()) last = json::parse(e.data);
    return last;
  }
  return json::parse(r.body, nullptr, false);
}

}  // namespace

TEST_CASE("stalls/stdio: with every worker held by a blocked handler, a quick call still answers first") {
  // The defaults: 4 workers, stall_after 100 ms, the reading thread running a call itself.
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  piped p(srv, {});
  open_on_exit opened{g};
  p.initialize();
  // Five: the reading thread runs the first itself and hands reading over; the pool's four
  // workers take the rest.
  for (int i = 0; i < 5; ++i) p.send(call(10 + i, "block", {{"name", "b" + std::to_string(i)}}));
  REQUIRE(g.wait_started(5));
  p.send(call(20, "quick"));
  auto first = p.read();
  REQUIRE(first);
  CHECK((*first)["id"] == 20);
  CHECK(text_of(*first) == "quick");
  CHECK(g.position("end b0") == -1);  // no blocked call had been let go
  g.release_all();
  std::set<long long> answered;
  for (int i = 0; i < 5; ++i) {
    auto r = p.read();
    REQUIRE(r);
    answered.insert((*r)["id"].get<long long>());
  }
  CHECK(answered == std::set<long long>{10, 11, 12, 13, 14});
  p.close_input();
  CHECK(p.exit_code.get() == 0);
}

TEST_CASE("stalls/stdio: at max_workers calls at once, the next call waits for one to return") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::stdio_options o;
  o.inline_budget = std::chrono::microseconds(0);  // every call on the pool
  o.workers = 2;
  o.max_workers = 3;
  o.stall_after = 20ms;
  piped p(srv, o);
  open_on_exit opened{g};
  p.initialize();
  p.send(call(10, "block", {{"name", "b0"}}));
  p.send(call(11, "block", {{"name", "b1"}}));
  REQUIRE(g.wait_started(2));
  p.send(call(12, "block", {{"name", "b2"}}));  // beside the two, once they have stalled
  REQUIRE(g.wait_started(3));
  p.send(call(13, "quick"));  // three at once: the bound
  p.ping(14);                 // read and handed to the pool by now
  // Ten stall periods and more: with room, it would have started.
  std::this_thread::sleep_for(300ms);
  CHECK_FALSE(g.happened("start quick"));
  g.release("b0");
  auto first = p.read();
  REQUIRE(first);
  CHECK((*first)["id"] == 10);
  auto second = p.read();
  REQUIRE(second);
  CHECK((*second)["id"] == 13);
  CHECK(g.position("end b0") < g.position("start quick"));
  g.release_all();
  REQUIRE(p.read());
  REQUIRE(p.read());
  p.close_input();
  CHECK(p.exit_code.get() == 0);
}

TEST_CASE("stalls/stdio: a cancelled call whose handler ignores the cancel frees its worker at once") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::stdio_options o;
  o.inline_budget = std::chrono::microseconds(0);
  o.workers = 1;
  o.stall_after = std::chrono::hours(1);  // only the cancel can free the worker
  piped p(srv, o);
  open_on_exit opened{g};
  p.initialize();
  p.send(call(10, "block", {{"name", "b0"}}));
  REQUIRE(g.wait_started(1));
  p.send(call(11, "quick"));
  p.ping(12);
  std::this_thread::sleep_for(100ms);
  CHECK_FALSE(g.happened("start quick"));  // one worker, and it is held
  p.send(cancel(10));
  auto r = p.read();
  REQUIRE(r);
  CHECK((*r)["id"] == 11);
  CHECK_FALSE(g.happened("end b0"));  // still blocked: it never looked at the cancel
  g.release("b0");
  p.close_input();
  CHECK(p.exit_code.get() == 0);
  CHECK_FALSE(p.read(200ms));  // a cancelled call is not answered
}

TEST_CASE("stalls/http: with every worker held by a blocked handler, a quick call still answers") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;  // workers 4, stall_after 100 ms: the defaults
  test::serving served(srv, o);
  open_on_exit opened{g};
  const std::string session = open_session(served.port());
  std::vector<std::unique_ptr<http_client>> blocked;
  for (int i = 0; i < 4; ++i) {
    blocked.push_back(std::make_unique<http_client>(served.port(), session));
    blocked.back()->send(call(10 + i, "block", {{"name", "b" + std::to_string(i)}}));
  }
  REQUIRE(g.wait_started(4));
  http_client c(served.port(), session);
  c.send(call(20, "quick"));
  auto r = c.read();
  REQUIRE(r.status == 200);
  CHECK(text_of(reply_of(r)) == "quick");
  CHECK(g.position("end b0") == -1);
  g.release_all();
  for (auto& b : blocked) CHECK(b->read().status == 200);
}

TEST_CASE("stalls/http: at max_workers handlers at once, the next call waits for one to return") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.workers = 1;
  o.max_workers = 2;
  o.stall_after = 20ms;
  test::serving served(srv, o);
  open_on_exit opened{g};
  const std::string session = open_session(served.port());
  http_client b0(served.port(), session), b1(served.port(), session), q(served.port(), session);
  b0.send(call(10, "block", {{"name", "b0"}}));
  REQUIRE(g.wait_started(1));
  b1.send(call(11, "block", {{"name", "b1"}}));  // beside b0, once it has stalled
  REQUIRE(g.wait_started(2));
  q.send(call(12, "quick"));
  http_client pinger(served.port(), session);
  pinger.send({{"jsonrpc", "2.0"}, {"id", 13}, {"method", "ping"}});
  REQUIRE(pinger.read().status == 200);
  std::this_thread::sleep_for(300ms);
  CHECK_FALSE(g.happened("start quick"));
  g.release("b0");
  CHECK(b0.read().status == 200);
  auto r = q.read();
  REQUIRE(r.status == 200);
  CHECK(text_of(reply_of(r)) == "quick");
  CHECK(g.position("end b0") < g.position("start quick"));
  g.release_all();
  CHECK(b1.read().status == 200);
}

TEST_CASE("stalls/http: a cancelled call whose handler ignores the cancel frees its worker at once") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.workers = 1;
  o.stall_after = std::chrono::hours(1);
  test::serving served(srv, o);
  open_on_exit opened{g};
  const std::string session = open_session(served.port());
  http_client b0(served.port(), session), q(served.port(), session), other(served.port(), session);
  b0.send(call(10, "block", {{"name", "b0"}}));
  REQUIRE(g.wait_started(1));
  q.send(call(11, "quick"));
  other.send({{"jsonrpc", "2.0"}, {"id", 12}, {"method", "ping"}});
  REQUIRE(other.read().status == 200);
  std::this_thread::sleep_for(100ms);
  CHECK_FALSE(g.happened("start quick"));
  other.send(cancel(10));
  CHECK(other.read().status == 202);
  auto r = q.read();
  REQUIRE(r.status == 200);
  CHECK(text_of(reply_of(r)) == "quick");
  CHECK_FALSE(g.happened("end b0"));
}

TEST_CASE("stalls/http handler: mounted without the listener, its own threads grow past a blocked handler") {
  mcp::server srv({"stalls", "1.0"}, quiet());
  gate g;
  add_gate_tools(srv, g);
  mcp::http::handler_options o;
  o.workers = 1;
  o.stall_after = 20ms;
  auto endpoint = std::make_unique<mcp::http::handler>(srv, o);
  std::future<int> blocked;  // before the gate opens on the way out: their destructors wait for the calls
  std::future<mcp::http::response> quick;
  open_on_exit opened{g};
  auto request = [](const json& body, const std::string& session) {
    mcp::http::request r;
    r.method = "POST";
    r.target = "/mcp";
    r.headers.add("Host", "127.0.0.1:1");
    r.headers.add("Accept", "application/json, text/event-stream");
    r.headers.add("Content-Type", "application/json");
    r.headers.add("MCP-Protocol-Version", "2025-11-25");
    if (!session.empty()) r.headers.add("Mcp-Session-Id", session);
    r.body = body.dump();
    return r;
  };
  auto init = endpoint->handle_blocking(request({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}}, ""));
  REQUIRE(init->wait_head().status == 200);
  const std::string session(*init->wait_head().headers.get("Mcp-Session-Id"));
  endpoint->handle_blocking(request({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session))->wait_head();
  blocked = std::async(std::launch::async, [&] {
    return endpoint->handle_blocking(request(call(10, "block", {{"name", "b0"}}), session))->wait_head().status;
  });
  REQUIRE(g.wait_started(1));
  quick = std::async(std::launch::async, [&] {
    return endpoint->handle_blocking(request(call(11, "quick"), session))->wait_head();
  });
  REQUIRE(quick.wait_for(10s) == std::future_status::ready);  // (else the gate opens on the way out)
  const mcp::http::response head = quick.get();
  REQUIRE(head.status == 200);
  CHECK(json::parse(head.body)["result"]["content"][0]["text"] == "quick");
  CHECK_FALSE(g.happened("end b0"));
  g.release_all();
  CHECK(blocked.get() == 200);
}

}  // namespace test_stalls
