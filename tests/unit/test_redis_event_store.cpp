// 2025-11-25 resumable SSE streams shared through Redis: two HTTP handlers, each with its own
// server and its own mcp::http::redis_event_store on one redis-server the test starts on 127.0.0.1
// (tests/redis_server.hpp), stand for two processes behind a load balancer. A client whose stream
// broke on one resumes it (GET, Last-Event-ID) on the other, which replays what it missed from
// Redis and follows the rest until the response. Tagged [.redis] (the ctest mcp_tests.redis).
#if MCP_TEST_REDIS
#include "catch.hpp"
#include "blocking_read.hpp"
#include "redis_server.hpp"

#include <mcp/core/server.hpp>
#include <mcp/transport/http_handler.hpp>
#include <mcp/stores/redis_event_store.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

using mcp::json;
using namespace std::chrono_literals;

namespace test_redis_event_store {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

mcp::redis_options redis_at(const test::redis_server& redis, std::string prefix) {
  mcp::redis_options o;
  o.port = redis.port();
  o.prefix = std::move(prefix);
  o.connect_timeout = 500ms;
  o.command_timeout = 500ms;
  return o;
}

// One "process": a server with a tool that lets go of its client's stream at once, then waits for
// the test before it reports progress and answers.
struct process {
  std::atomic<bool> release{false};
  mcp::server srv;
  mcp::http::handler endpoint;

  explicit process(std::shared_ptr<mcp::http::event_store> store)
      : srv(mcp::server_info{"resume-test", "1.0.0"}, quiet()), endpoint(srv, options(std::move(store))) {
    mcp::tool_definition later;
    later.name = "answer_later";
    later.description = "Closes the stream, then answers when the test says so";
    later.input_schema = {{"type", "object"}};
    later.invoke = [this](const json&, mcp::context& ctx) -> json {
      ctx.close_stream();
      for (int i = 0; i < 1000 && !release; ++i) std::this_thread::sleep_for(5ms);
      ctx.progress(1, 2, "half way");
      return {{"content", json::array({{{"type", "text"}, {"text", "answered after the resume"}}})}};
    };
    srv.add_tool(later);
  }

  static mcp::server_options quiet() {
    mcp::server_options o;
    o.log_sink = [](std::string_view) {};
    return o;
  }
  static mcp::http::handler_options options(std::shared_ptr<mcp::http::event_store> store) {
    mcp::http::handler_options o;
    o.event_store = std::move(store);
    // "Bearer NAME" is NAME: a session belongs to who opened it.
    o.authorize = [](const mcp::http::auth_request& r) {
      if (!r.authorization || r.authorization->substr(0, 7) != "Bearer ") return mcp::http::auth_result::refuse();
      mcp::identity who;
      who.subject = std::string(r.authorization->substr(7));
      return mcp::http::auth_result::allow(who);
    };
    return o;
  }
};

mcp::http::request make_request(const std::string& method, const json& body, const std::string& who,
                                const std::string& session = "") {
  mcp::http::request r;
  r.method = method;
  r.target = "/mcp";
  r.headers.add("Host", "127.0.0.1:1");
  r.headers.add("Accept", method == "GET" ? "text/event-stream" : "application/json, text/event-stream");
  r.headers.add("Content-Type", "application/json");
  r.headers.add("MCP-Protocol-Version", "2025-11-25");
  r.headers.add("Authorization", "Bearer " + who);
  if (!session.empty()) r.headers.add("Mcp-Session-Id", session);
  if (!body.is_null()) r.body = body.dump();
  return r;
}

mcp::http::request resume(const std::string& session, const std::string& last_event_id, const std::string& who = "ann") {
  mcp::http::request r = make_request("GET", nullptr, who, session);
  r.headers.add("Last-Event-ID", last_event_id);
  return r;
}

using test::read_all;

// The id of the first or the last event in SSE text.
std::string event_id(const std::string& sse, bool last) {
  const auto at = last ? sse.rfind("id: ") : sse.find("id: ");
  REQUIRE(at != std::string::npos);
  return sse.substr(at + 4, sse.find('\n', at) - at - 4);
}

// A 2025-11-25 session on `p` opened by `who`; its id.
std::string open_session(process& p, const std::string& who) {
  const json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                     {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}};
  auto answer = p.endpoint.handle_blocking(make_request("POST", init, who));
  const auto id = answer->wait_head().headers.get("Mcp-Session-Id");
  REQUIRE(id);
  const std::string session(*id);
  p.endpoint.handle_blocking(make_request("POST", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, who, session))
      ->wait_head();
  return session;
}

// Calls answer_later on `p`: the response ends after the priming event; its id.
std::string call_and_lose_stream(process& p, const std::string& session, int id) {
  const json call = {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                     {"params", {{"name", "answer_later"}, {"arguments", json::object()}, {"_meta", {{"progressToken", 7}}}}}};
  auto answer = p.endpoint.handle_blocking(make_request("POST", call, "ann", session));
  const std::string primed = read_all(*answer);
  CHECK(primed.find("\"result\"") == std::string::npos);
  return event_id(primed, true);
}

}  // namespace

TEST_CASE("redis event store: a stream broken on one process is resumed on another, which follows it to the "
          "response; the owner, a store-less process and a Redis that is down", "[.redis]") {
  auto program = test::find_redis_server();
  REQUIRE(program);
  test::redis_server redis(*program);
  auto a_store = std::make_shared<mcp::http::redis_event_store>(redis_at(redis, "resume:"));
  auto b_store = std::make_shared<mcp::http::redis_event_store>(redis_at(redis, "resume:"));
  process a(a_store), b(b_store);

  const std::string session = open_session(a, "ann");
  const std::string primed = call_and_lose_stream(a, session, 2);
  CHECK(primed.substr(0, 3) == "r1:");

  SECTION("resumed on the other process while the call runs: what follows arrives there, to the response") {
    auto resumed = b.endpoint.handle_blocking(resume(session, primed));
    CHECK(resumed->wait_head().status == 200);
    CHECK(resumed->streaming());
    a.release = true;
    const std::string rest = read_all(*resumed);
    CHECK(rest.find("notifications/progress") != std::string::npos);
    CHECK(rest.find("half way") != std::string::npos);
    CHECK(rest.find("answered after the resume") != std::string::npos);
    CHECK(rest.find("\"id\":2") != std::string::npos);
    CHECK(rest.find("id: " + primed + "\n") == std::string::npos);  // only what came after it

    // Resumed again from after the progress: the response alone, from Redis, and the end.
    auto again = b.endpoint.handle_blocking(resume(session, event_id(rest, false)));  // after the progress
    const std::string tail = read_all(*again);
    CHECK(tail.find("half way") == std::string::npos);
    CHECK(tail.find("answered after the resume") != std::string::npos);
  }

  SECTION("someone else's stream, an unknown one, and a process without the store: Session not found") {
    CHECK(b.endpoint.handle_blocking(resume(session, primed, "bob"))->wait_head().status == 404);
    CHECK(b.endpoint.handle_blocking(resume(session, "r9:1"))->wait_head().status == 404);
    CHECK(b.endpoint.handle_blocking(resume("0123456789abcdef0123456789abcdef", primed))->wait_head().status == 404);
    process alone(nullptr);
    CHECK(alone.endpoint.handle_blocking(resume(session, primed))->wait_head().status == 404);
    a.release = true;
  }

  SECTION("Redis down: the process running the call still serves its own client's resume; the other says 503") {
    redis.kill();
    a.release = true;
    std::string local;
    for (int i = 0; i < 200 && local.find("answered after the resume") == std::string::npos; ++i) {
      std::this_thread::sleep_for(10ms);
      local = read_all(*a.endpoint.handle_blocking(resume(session, primed)));
    }
    CHECK(local.find("answered after the resume") != std::string::npos);
    CHECK(b.endpoint.handle_blocking(resume(session, primed))->wait_head().status == 503);
  }
}

TEST_CASE("redis event store: what Redis keeps of a stream, in order, bounded, complete once", "[.redis]") {
  auto program = test::find_redis_server();
  REQUIRE(program);
  test::redis_server redis(*program);
  mcp::http::redis_event_store writer(redis_at(redis, "kept:"), std::chrono::minutes(1), 3);
  mcp::http::redis_event_store reader(redis_at(redis, "kept:"), std::chrono::minutes(1), 3);
  CHECK_FALSE(reader.read("s/r1", 0));
  writer.open("s/r1", "ann");
  auto empty = reader.read("s/r1", 0);
  REQUIRE(empty);
  CHECK(empty->owner == "ann");
  CHECK(empty->events.empty());
  CHECK_FALSE(empty->complete);
  for (std::uint64_t seq = 2; seq <= 6; ++seq) writer.append("s/r1", seq, "data: " + std::to_string(seq) + "\n\n", seq == 6);
  writer.append("s/r1", 6, "data: 6\n\n", true);  // a retried append is read once
  auto all = reader.read("s/r1", 0);
  REQUIRE(all);
  CHECK(all->complete);
  REQUIRE(all->events.size() == 2);  // the newest three were kept, one of them twice
  CHECK(all->events[0].first == 5);
  CHECK(all->events[1].first == 6);
  CHECK(all->events[1].second == "data: 6\n\n");
  auto after = reader.read("s/r1", 5);
  REQUIRE(after);
  REQUIRE(after->events.size() == 1);
  CHECK(after->events[0].first == 6);
  CHECK_FALSE(reader.read("s/r2", 0));
  mcp::http::redis_event_store other(redis_at(redis, "other:"));
  CHECK_FALSE(other.read("s/r1", 0));  // prefixes keep servers apart
  redis.kill();
  CHECK_THROWS_AS(reader.read("s/r1", 0), mcp::error);
}

}  // namespace test_redis_event_store
#endif
