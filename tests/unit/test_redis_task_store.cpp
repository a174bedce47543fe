// The Redis task store (stores/redis_task_store.hpp) against a real redis-server the test starts on
// 127.0.0.1 (tests/redis_server.hpp): two store objects stand for two processes. What one writes
// the other reads; concurrent updates through both lose nothing; Redis forgets expired tasks; a
// Redis that freezes or dies is a clear error within the timeouts, and one that comes back is used
// again; prefixes keep servers apart; junk in Redis is refused, not trusted; two servers on one
// Redis share their tasks. Then the replay guard (stores/redis_replay_guard.hpp): a requestState used
// through one server is refused by every other on the same Redis. Tagged [.redis]: the ctest
// mcp_tests.redis, skipped without redis-server.
#if MCP_TEST_REDIS
#include "catch.hpp"
#include "redis_server.hpp"

#include <mcp/ext/tasks.hpp>
#include <mcp/stores/redis_replay_guard.hpp>
#include <mcp/stores/redis_task_store.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using mcp::json;

namespace test_redis_task_store {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// A redis-server for one test case; REQUIREd, since main() reports the tag skipped without one.
std::unique_ptr<test::redis_server> start_redis() {
  auto program = test::find_redis_server();
  REQUIRE(program);
  return std::make_unique<test::redis_server>(*program);
}

mcp::redis_options options_for(const test::redis_server& redis, std::string prefix = "test:task:") {
  mcp::redis_options o;
  o.port = redis.port();
  o.prefix = std::move(prefix);
  o.connect_timeout = std::chrono::milliseconds(500);
  o.command_timeout = std::chrono::milliseconds(500);
  return o;
}

mcp::task_record new_task(std::int64_t ttl_ms = 60000) {
  mcp::task_record t;
  t.id = mcp::detail::new_task_id();
  t.ttl_ms = ttl_ms;
  return t;
}

// A raw connection for looking at Redis behind the store's back.
struct raw_redis {
  explicit raw_redis(int port) : c(redisConnect("127.0.0.1", port)) { REQUIRE((c && !c->err)); }
  ~raw_redis() { redisFree(c); }
  json command(const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    auto* r = static_cast<redisReply*>(redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data()));
    REQUIRE(r);
    json out;
    if (r->type == REDIS_REPLY_INTEGER) out = r->integer;
    if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) out = std::string(r->str, r->len);
    freeReplyObject(r);
    return out;
  }
  redisContext* c;
};

template <class F>
std::chrono::milliseconds time_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
}

const json tasks_caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}};

}  // namespace

TEST_CASE("redis task store: what one store object writes, another reads and changes", "[.redis]") {
  auto redis = start_redis();
  mcp::redis_task_store a(options_for(*redis));
  mcp::redis_task_store b(options_for(*redis));

  const mcp::task_record created = a.create(new_task());
  CHECK(created.created_at > 0);
  auto seen = b.get(created.id);
  REQUIRE(seen);
  CHECK(seen->status == mcp::task_status::working);
  CHECK(seen->created_at == created.created_at);
  CHECK(seen->ttl_ms == 60000);

  mcp::task_update ask;
  ask.ask = {{"confirm", {{"method", "elicitation/create"}, {"params", {{"message", "Sure?"}}}}}};
  CHECK(b.update(created.id, ask) == mcp::update_outcome::applied);
  CHECK(a.get(created.id)->status == mcp::task_status::input_required);
  mcp::task_update answer;
  answer.answers = {{"confirm", {{"action", "accept"}}}};
  CHECK(a.update(created.id, answer) == mcp::update_outcome::applied);
  auto answered = b.get(created.id);
  CHECK(answered->status == mcp::task_status::working);
  CHECK(answered->input_responses["confirm"]["action"] == "accept");

  mcp::task_update done;
  done.status = mcp::task_status::completed;
  done.result = {{"content", {{{"type", "text"}, {"text", "deleted, \xC3\xA9t\xC3\xA9"}}}}};
  CHECK(b.update(created.id, done) == mcp::update_outcome::applied);
  CHECK(a.get(created.id)->result == done.result);
  CHECK(a.update(created.id, ask) == mcp::update_outcome::terminal);
  CHECK(a.get(created.id)->status == mcp::task_status::completed);

  // One id, one task: the other process's create is refused, and the first task is untouched.
  mcp::task_record again;
  again.id = created.id;
  CHECK_THROWS_WITH(b.create(again), Catch::Matchers::Contains("already exists"));
  CHECK(a.get(created.id)->status == mcp::task_status::completed);

  CHECK_FALSE(a.get("00000000000000000000000000000000"));
  CHECK(a.update("00000000000000000000000000000000", done) == mcp::update_outcome::unknown);
  // A taskId from a request is untrusted: one that could not be an id is not looked up.
  CHECK_FALSE(a.get("*"));
  CHECK_FALSE(a.get(std::string(100000, 'a')));
  CHECK(a.update("../x y", done) == mcp::update_outcome::unknown);
  mcp::task_record bad;
  bad.id = "a b";
  CHECK_THROWS_AS(a.create(bad), mcp::error);
}

TEST_CASE("redis task store: concurrent updates through two store objects lose no question and no answer",
          "[.redis]") {
  auto redis = start_redis();
  mcp::redis_task_store a(options_for(*redis));
  mcp::redis_task_store b(options_for(*redis));
  const std::string id = a.create(new_task()).id;
  constexpr int threads = 8;
  constexpr int keys_per_thread = 4;
  auto run = [&](auto&& body) {
    std::vector<std::thread> workers;
    std::atomic<int> failures{0};
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        try {
          for (int k = 0; k < keys_per_thread; ++k) body(t % 2 ? a : b, "k" + std::to_string(t) + "-" + std::to_string(k));
        } catch (const std::exception&) {
          ++failures;
        }
      });
    for (auto& w : workers) w.join();
    CHECK(failures == 0);
  };
  // Every thread asks its own questions at once: each must land beside the others'.
  run([&](mcp::redis_task_store& store, const std::string& key) {
    mcp::task_update ask;
    ask.ask = {{key, {{"method", "elicitation/create"}, {"params", {{"message", key}}}}}};
    if (store.update(id, ask) != mcp::update_outcome::applied) throw std::runtime_error("not applied");
  });
  auto asked = a.get(id);
  REQUIRE(asked);
  CHECK(asked->input_requests.size() == threads * keys_per_thread);
  CHECK(asked->status == mcp::task_status::input_required);
  // Every thread answers its own questions at once, as clients hitting different processes would.
  run([&](mcp::redis_task_store& store, const std::string& key) {
    mcp::task_update answer;
    answer.answers = {{key, {{"action", "accept"}, {"content", {{"key", key}}}}}};
    if (store.update(id, answer) != mcp::update_outcome::applied) throw std::runtime_error("not applied");
  });
  auto answered = b.get(id);
  REQUIRE(answered);
  CHECK(answered->input_requests.empty());
  CHECK(answered->input_responses.size() == threads * keys_per_thread);
  for (const auto& [key, value] : answered->input_responses.items()) CHECK(value["content"]["key"] == key);
  CHECK(answered->status == mcp::task_status::working);
}

TEST_CASE("redis task store: Redis forgets a task at createdAt + ttlMs, and the record's own clock is checked too",
          "[.redis]") {
  auto redis = start_redis();
  raw_redis raw(redis->port());
  mcp::redis_task_store store(options_for(*redis));
  const std::string short_lived = store.create(new_task(400)).id;
  const std::string kept = store.create(new_task(60000)).id;
  mcp::task_record forever = new_task();
  forever.ttl_ms.reset();
  const std::string unlimited = store.create(forever).id;
  const json ttl = raw.command({"PTTL", "test:task:" + short_lived});
  CHECK(ttl.get<std::int64_t>() > 0);
  CHECK(ttl.get<std::int64_t>() <= 400);
  CHECK(raw.command({"PTTL", "test:task:" + unlimited}) == -1);  // no expiry
  // An update rewrites the record and puts the same expiry back (SET alone would drop it).
  mcp::task_update note;
  note.status_message = "halfway";
  CHECK(store.update(kept, note) == mcp::update_outcome::applied);
  const std::int64_t kept_ttl = raw.command({"PTTL", "test:task:" + kept}).get<std::int64_t>();
  CHECK(kept_ttl > 50000);
  CHECK(kept_ttl <= 60000);
  CHECK(store.get(short_lived));
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  CHECK_FALSE(store.get(short_lived));
  CHECK(store.update(short_lived, note) == mcp::update_outcome::unknown);
  CHECK(raw.command({"EXISTS", "test:task:" + short_lived}) == 0);  // Redis removed it itself
  CHECK(store.get(kept));
  // A new ttl from an update moves the Redis expiry (still counted from createdAt).
  mcp::task_update shorter;
  shorter.ttl_ms = std::optional<std::int64_t>(1000);
  CHECK(store.update(kept, shorter) == mcp::update_outcome::applied);
  CHECK(raw.command({"PTTL", "test:task:" + kept}).get<std::int64_t>() <= 1000);
  // A process whose clock is ahead sees the task expired before Redis has removed it.
  mcp::redis_task_store ahead(options_for(*redis), [] { return mcp::detail::unix_ms_now() + 120000; });
  CHECK(store.get(unlimited));
  CHECK_FALSE(ahead.get(store.create(new_task(60000)).id));
  CHECK(ahead.get(unlimited));
  CHECK(store.remove_expired() == 0);  // Redis's work, not the store's
}

TEST_CASE("redis task store: a frozen or dead Redis is a clear error within the timeouts, and one that comes back "
          "is used again",
          "[.redis]") {
  auto redis = start_redis();
  mcp::redis_task_store store(options_for(*redis));
  const std::string id = store.create(new_task()).id;
  CHECK(store.get(id));

  redis->freeze();  // connections stay open, nothing answers
  std::string message;
  int code = 0;
  const auto frozen = time_of([&] {
    try {
      store.get(id);
    } catch (const mcp::error& e) {
      message = e.what();
      code = e.code();
    }
  });
  CHECK(code == mcp::error_code::task_refused);
  CHECK(message.find("Redis at 127.0.0.1:" + std::to_string(redis->port())) != std::string::npos);
  CHECK(frozen < std::chrono::milliseconds(3000));
  mcp::task_update note;
  note.status_message = "x";
  CHECK_THROWS_AS(store.update(id, note), mcp::error);
  redis->thaw();
  CHECK(store.get(id));  // a new connection; the one that timed out was dropped

  redis->kill();
  message.clear();
  const auto dead = time_of([&] {
    try {
      store.create(new_task());
    } catch (const mcp::error& e) {
      message = e.what();
      code = e.code();
    }
  });
  CHECK(code == mcp::error_code::task_refused);
  CHECK(message.find("Redis") != std::string::npos);
  CHECK(dead < std::chrono::milliseconds(3000));
  CHECK_THROWS_AS(store.get(id), mcp::error);
  CHECK_THROWS_AS(store.update(id, note), mcp::error);

  // The same port, an empty Redis: the store reconnects; the old task is gone with the old data.
  redis->restart();
  const std::size_t before = store.connections_opened();
  CHECK_FALSE(store.get(id));
  const std::string fresh = store.create(new_task()).id;
  CHECK(store.get(fresh));
  CHECK(store.connections_opened() > before);

  // A pooled connection Redis dropped meanwhile (a restart between two calls) is not an error.
  redis->restart();
  CHECK_FALSE(store.get(fresh));
  CHECK(store.create(new_task()).id.size() == 32);

  // Through a server: tools/call that cannot store its task answers an error, and the server lives.
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv, {std::make_shared<mcp::redis_task_store>(options_for(*redis))});
  mcp::tool_options o;
  o.task = mcp::task_mode::required;
  srv.tool("count", "Counts.", [](mcp::context&) { return std::string("7"); }, o);
  mcp::testing::client c(srv);
  redis->kill();
  json refused = c.stateless_request("tools/call", {{"name", "count"}, {"arguments", json::object()}}, tasks_caps);
  REQUIRE(refused.contains("error"));
  CHECK(refused["error"]["message"].get<std::string>().find("could not be stored") != std::string::npos);
  CHECK(refused.dump().find("127.0.0.1") == std::string::npos);  // where the store is stays in the log
  json get = c.stateless_request("tasks/get", {{"taskId", fresh}}, tasks_caps);
  REQUIRE(get.contains("error"));
  CHECK(get["error"]["code"] == -32603);
  CHECK(get.dump().find("127.0.0.1") == std::string::npos);
}

TEST_CASE("redis task store: stores with different prefixes share a Redis and nothing else", "[.redis]") {
  auto redis = start_redis();
  raw_redis raw(redis->port());
  mcp::redis_task_store one(options_for(*redis, "app1:tasks:"));
  mcp::redis_task_store two(options_for(*redis, "app2:tasks:"));
  mcp::task_record t = new_task();
  const std::string id = t.id;
  one.create(t);
  CHECK_FALSE(two.get(id));
  two.create(t);  // the same id is free under another prefix
  mcp::task_update done;
  done.status = mcp::task_status::completed;
  CHECK(two.update(id, done) == mcp::update_outcome::applied);
  CHECK(one.get(id)->status == mcp::task_status::working);
  CHECK(two.get(id)->status == mcp::task_status::completed);
  CHECK(raw.command({"EXISTS", "app1:tasks:" + id}) == 1);
  CHECK(raw.command({"EXISTS", "app2:tasks:" + id}) == 1);
  CHECK(raw.command({"DBSIZE"}) == 2);

  CHECK(mcp::redis_options::from_url("redis://127.0.0.1:6380/app1:tasks:").prefix == "app1:tasks:");
  CHECK(mcp::redis_options::from_url("redis://127.0.0.1:6380/app1:tasks:").port == 6380);
  CHECK(mcp::redis_options::from_url("redis://cache.internal").host == "cache.internal");
  CHECK(mcp::redis_options::from_url("redis://cache.internal").prefix == "mcp:task:");
  CHECK(mcp::redis_options::from_url("unix:/run/redis.sock#p:").unix_socket == "/run/redis.sock");
  CHECK(mcp::redis_options::from_url("unix:/run/redis.sock#p:").prefix == "p:");
  CHECK(mcp::redis_options::from_url("redis://[::1]:7000/x:").host == "::1");
  CHECK(mcp::redis_options::from_url("redis://[::1]:7000/x:").port == 7000);
  CHECK(mcp::redis_options::from_url("redis://[::1]").port == 6379);
  for (const char* bad : {"http://x", "redis://", "redis://h:0", "redis://h:99999", "redis://h:1x", "redis://h:", "unix:",
                          "redis://[::1", "redis://[::1]x", "redis://:6379"})
    CHECK_THROWS_AS(mcp::redis_options::from_url(bad), mcp::error);
}

TEST_CASE("redis task store: what Redis holds is read as untrusted: junk, deep, huge and misplaced records are refused",
          "[.redis]") {
  auto redis = start_redis();
  raw_redis raw(redis->port());
  mcp::redis_options o = options_for(*redis);
  o.max_record_bytes = 4096;
  mcp::redis_task_store store(o);
  auto refused = [&](const std::string& id, const std::string& value, const std::string& why) {
    raw.command({"SET", "test:task:" + id, value});
    CHECK_THROWS_WITH(store.get(id), Catch::Matchers::Contains(why));
    mcp::task_update note;
    note.status_message = "x";
    CHECK_THROWS_WITH(store.update(id, note), Catch::Matchers::Contains(why));
    CHECK(raw.command({"GET", "test:task:" + id}) == value);  // left as it was
  };
  refused("torn", R"({"id": "torn", "status": )", "not valid JSON");
  refused("deep", std::string(500, '[') + std::string(500, ']'), "nested more than 160 levels");
  refused("huge", R"({"id": "huge", "status": "working", "statusMessage": ")" + std::string(5000, 'x') + "\"}",
          "more than the 4096 allowed");
  refused("other", R"({"id": "someone-else", "status": "working"})", "holds the task 'someone-else'");
  refused("sleepy", R"({"id": "sleepy", "status": "sleeping"})", "\"status\" must be working");
  // A key of another type under the prefix: Redis refuses GET on it; the store says so.
  raw.command({"RPUSH", "test:task:list", "x"});
  CHECK_THROWS_WITH(store.get("list"), Catch::Matchers::Contains("Redis refused"));
  // The store is still fine for real tasks afterwards.
  CHECK(store.get(store.create(new_task()).id));
}

TEST_CASE("redis task store: two servers on one Redis: a task started on one is answered and finished through the "
          "other",
          "[.redis]") {
  auto redis = start_redis();
  auto serve = [&](mcp::server& srv) {
    mcp::tool_options o;
    o.task = mcp::task_mode::optional;
    srv.tool("confirm", "Asks, then answers.",
             [](mcp::context& ctx) -> std::string {
               json answer = ctx.ask(mcp::elicitation_input("ok", "Sure?", json{{"type", "object"}}));
               return "answered " + answer.value("action", std::string());
             },
             o);
  };
  mcp::server first({"tasks", "1.0.0"});
  mcp::enable_tasks(first, {std::make_shared<mcp::redis_task_store>(options_for(*redis))});
  serve(first);
  mcp::server second({"tasks", "1.0.0"});
  mcp::enable_tasks(second, {std::make_shared<mcp::redis_task_store>(options_for(*redis))});
  serve(second);
  mcp::testing::client on_first(first);
  mcp::testing::client on_second(second);

  const json caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}, {"elicitation", json::object()}};
  json created = on_first.stateless_request("tools/call", {{"name", "confirm"}, {"arguments", json::object()}}, caps);
  REQUIRE(created["result"]["resultType"] == "task");
  const std::string id = created["result"]["taskId"];
  auto status_on_second = [&](const std::string& want) {
    json task;
    for (auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10); std::chrono::steady_clock::now() < limit;
         std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
      task = on_second.stateless_request("tasks/get", {{"taskId", id}}, caps)["result"];
      if (task["status"] == want) break;
    }
    return task;
  };
  json parked = status_on_second("input_required");
  REQUIRE(parked["status"] == "input_required");
  CHECK(parked["inputRequests"]["ok"]["method"] == "elicitation/create");
  json ack = on_second.stateless_request("tasks/update", {{"taskId", id}, {"inputResponses", {{"ok", {{"action", "accept"}}}}}},
                                         caps);
  CHECK(ack["result"]["resultType"] == "complete");
  // The second server has no run of this task to wake: the first one's worker reads Redis again.
  json done = status_on_second("completed");
  REQUIRE(done["status"] == "completed");
  CHECK(done["result"]["content"][0]["text"] == "answered accept");
  CHECK(on_first.stateless_request("tasks/get", {{"taskId", id}}, caps)["result"]["status"] == "completed");
}

TEST_CASE("redis replay guard: a key is new once across guards and threads, expires with its token, and a Redis "
          "that is down is an error",
          "[.redis]") {
  auto redis = start_redis();
  raw_redis raw(redis->port());
  mcp::redis_replay_guard a(options_for(*redis, "test:"));
  mcp::redis_replay_guard b(options_for(*redis, "test:"));
  const std::int64_t now = mcp::detail::unix_ms_now() / 1000;
  CHECK(a.first_use("nonce-1", now + 60, now));
  CHECK_FALSE(b.first_use("nonce-1", now + 60, now));
  CHECK_FALSE(a.first_use("nonce-1", now + 60, now));
  const std::int64_t ttl = raw.command({"PTTL", "test:used:nonce-1"}).get<std::int64_t>();
  CHECK(ttl > 59000);
  CHECK(ttl <= 61000);
  mcp::redis_replay_guard other_prefix(options_for(*redis, "other:"));
  CHECK(other_prefix.first_use("nonce-1", now + 60, now));

  // 16 threads on two guards present one key at once: exactly one is first.
  std::atomic<int> firsts{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      try {
        if ((t % 2 ? a : b).first_use("nonce-race", now + 60, now)) ++firsts;
      } catch (const std::exception&) {
        ++failures;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(firsts == 1);
  CHECK(failures == 0);

  // Kept about as long as the token lives (a second more), then Redis forgets it.
  CHECK(a.first_use("nonce-short", now + 1, now + 1));
  CHECK(raw.command({"PTTL", "test:used:nonce-short"}).get<std::int64_t>() <= 1000);

  redis->kill();
  int code = 0;
  const auto dead = time_of([&] {
    try {
      a.first_use("nonce-2", now + 60, now);
    } catch (const mcp::error& e) {
      code = e.code();
    }
  });
  CHECK(code == mcp::error_code::guard_unavailable);
  CHECK(dead < std::chrono::milliseconds(3000));
  redis->restart();
  CHECK(a.first_use("nonce-2", now + 60, now));
}

TEST_CASE("redis replay guard: a requestState used through one server is refused by another on the same Redis; "
          "with the default guard it is accepted there once more",
          "[.redis]") {
  auto redis = start_redis();
  auto make = [&](bool shared) {
    mcp::server_options opts;
    opts.request_state_key = "replay-test-key-0123456789abcdef";
    if (shared) opts.request_state_guard = std::make_shared<mcp::redis_replay_guard>(options_for(*redis, "test:"));
    auto srv = std::make_unique<mcp::server>(mcp::server_info{"replay", "1.0.0"}, opts);
    srv->tool("greet", "Asks a name, then greets it.", [](mcp::context& ctx) -> std::string {
      json answer = ctx.ask(mcp::elicitation_input("name", "Name?", json{{"type", "object"}}));
      return "Hello, " + answer["content"].value("name", std::string("?"));
    });
    return srv;
  };
  const json caps = {{"elicitation", json::object()}};
  // Round one on the first server, the retry on the second, then the same retry replayed to each.
  auto replays = [&](bool shared) {
    auto one = make(shared), two = make(shared);
    mcp::testing::client c1(*one), c2(*two);
    json first = c1.stateless_request("tools/call", {{"name", "greet"}, {"arguments", json::object()}}, caps);
    REQUIRE(first["result"]["resultType"] == "input_required");
    const json retry = {{"name", "greet"},
                        {"arguments", json::object()},
                        {"inputResponses", {{"name", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}}},
                        {"requestState", first["result"]["requestState"]}};
    json answered = c2.stateless_request("tools/call", retry, caps);
    REQUIRE(answered.contains("result"));
    CHECK(answered["result"]["content"][0]["text"] == "Hello, Ada");
    json again_on_two = c2.stateless_request("tools/call", retry, caps);
    CHECK(again_on_two["error"]["message"] == "requestState was already used");
    json again_on_one = c1.stateless_request("tools/call", retry, caps);
    return again_on_one;
  };
  json refused = replays(true);
  REQUIRE(refused.contains("error"));
  CHECK(refused["error"]["code"] == -32602);
  CHECK(refused["error"]["message"] == "requestState was already used");
  // The default guard: the first server never saw the token used, and takes it once more.
  json accepted = replays(false);
  CHECK(accepted.contains("result"));

  // A guard whose Redis is down refuses the token (an internal error), never accepts it unchecked.
  auto one = make(true);
  mcp::testing::client c(*one);
  json first = c.stateless_request("tools/call", {{"name", "greet"}, {"arguments", json::object()}}, caps);
  REQUIRE(first["result"]["resultType"] == "input_required");
  redis->kill();
  json down = c.stateless_request("tools/call",
                                  {{"name", "greet"},
                                   {"arguments", json::object()},
                                   {"inputResponses", {{"name", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}}},
                                   {"requestState", first["result"]["requestState"]}},
                                  caps);
  REQUIRE(down.contains("error"));
  CHECK(down["error"]["code"] == -32603);
  CHECK(down["error"]["message"].get<std::string>().find("could not be checked for reuse") != std::string::npos);
}

}  // namespace test_redis_task_store
#endif
