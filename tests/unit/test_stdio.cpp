// The stdio transport over real pipes: serve_stream runs in a thread, the test plays the client.
#include "catch.hpp"

#include <mcp/ext/elicitation.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/tools/tool.hpp>
#include <mcp/transport/stdio.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_stdio {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// A server on one end of two pipes, and the client's ends.
struct piped_server {
  mcp::server& srv;
  int to_server[2];
  int from_server[2];
  std::future<int> exit_code;
  std::string pending;

  piped_server(mcp::server& s, mcp::stdio_options options) : srv(s) {
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
    exit_code = std::async(std::launch::async, [this, options] {
      int rc = mcp::serve_stream(srv, to_server[0], from_server[1], options);
      close(from_server[1]);
      return rc;
    });
  }
  ~piped_server() {
    close_input();
    if (exit_code.valid()) exit_code.wait();
    close(to_server[0]);
    close(from_server[0]);
  }
  void write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(to_server[1], bytes.data() + done, bytes.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
  }
  void close_input() {
    if (to_server[1] >= 0) close(to_server[1]);
    to_server[1] = -1;
  }
  std::optional<std::string> read_line(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (auto nl = pending.find('\n'); nl != std::string::npos) {
        std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        return line;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{from_server[0], POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
      char chunk[4096];
      ssize_t n = ::read(from_server[0], chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      pending.append(chunk, static_cast<std::size_t>(n));
    }
  }
  json read_message(std::chrono::milliseconds timeout = 5s) {
    auto line = read_line(timeout);
    REQUIRE(line);
    json j = json::parse(*line, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
  }
};

std::string ping(int id) { return mcp::jsonrpc::request(id, "ping").dump() + "\n"; }

std::string initialize_line(int id) {
  return mcp::jsonrpc::request(id, "initialize",
                               {{"protocolVersion", "2025-11-25"},
                                {"capabilities", json::object()},
                                {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
             .dump() +
         "\n";
}

mcp::server make_server() {
  mcp::server_info info;
  info.name = "stdio-test";
  info.version = "1.0";
  return mcp::server(info);
}

// Registers test/reader, which notes the thread it ran on in `reader`: it is not marked slow, so
// it always runs on whichever thread is reading.
void add_reader_probe(mcp::server& srv, std::mutex& mutex, std::thread::id& reader) {
  srv.method("test/reader", {[&mutex, &reader](mcp::context&, const json&) {
                               std::lock_guard lock(mutex);
                               reader = std::this_thread::get_id();
                               return json::object();
                             },
                             false});
}

// Works for `d` on the calling thread, as a tool that computes would.
void spin_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// What a client saw that wrote a batch without reading: whether its write ended within `wait`,
// and the ids of the replies (up to `expected`) it read afterwards.
struct unread_batch {
  bool written = false;
  std::set<int> ids;
};

// `then` runs once the wait is over, before the replies are read.
unread_batch write_unread(piped_server& p, const std::string& batch, int expected, std::chrono::milliseconds wait,
                          const std::function<void()>& then = {}) {
  auto writing = std::async(std::launch::async, [&] { p.write(batch); });
  unread_batch outcome;
  outcome.written = writing.wait_for(wait) == std::future_status::ready;
  if (then) then();
  for (int i = 0; i < expected; ++i) {
    auto line = p.read_line(10s);
    if (!line) break;
    outcome.ids.insert(json::parse(*line)["id"].get<int>());
  }
  writing.wait();
  return outcome;
}

}  // namespace

namespace stdio_order {
MCP_STRUCT_DEF(search_args,
  (std::string, query, "What to search for"),
  (int, limit, "How many results", mcp::default_value(10), mcp::minimum(1)));
}  // namespace stdio_order

// Properties reach the wire in declaration order, not sorted: the schemas in tools/list, the
// structuredContent and its text block, for a 2025-era client (the text sink) and a 2026-07-28
// one (the tree sink, whose structured content travels as raw JSON text).
TEST_CASE("stdio: a struct declared {query, limit} keeps that order in tools/list and structuredContent") {
  auto srv = make_server();
  srv.tool("search", "Echoes its arguments",
           [](const stdio_order::search_args& in) -> stdio_order::search_args { return in; });
  const json meta_2026{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", json::object()},
                       {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};
  for (const bool stateless : {false, true}) {
    INFO((stateless ? "2026-07-28" : "2025-11-25"));
    piped_server p(srv, {});
    json list_params = json::object(), call_params{{"name", "search"}, {"arguments", {{"query", "x"}}}};
    if (stateless) {
      list_params["_meta"] = meta_2026;
      call_params["_meta"] = meta_2026;
    } else {
      p.write(initialize_line(1));
      p.read_message();
      p.write(mcp::jsonrpc::notification("notifications/initialized", nullptr).dump() + "\n");
    }
    p.write(mcp::jsonrpc::request(2, "tools/list", list_params).dump() + "\n");
    auto listed = p.read_line();
    REQUIRE(listed);
    const std::string schema =
        R"("inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"What to search for"},)"
        R"("limit":{"type":"integer","maximum":2147483647,"description":"How many results","default":10,"minimum":1}},)"
        R"("required":["query"],"additionalProperties":false})";
    INFO(*listed);
    CHECK(listed->find(schema) != std::string::npos);
    CHECK(listed->find(R"("outputSchema":{"type":"object","properties":{"query":)") != std::string::npos);

    p.write(mcp::jsonrpc::request(3, "tools/call", call_params).dump() + "\n");
    auto called = p.read_line();
    REQUIRE(called);
    INFO(*called);
    CHECK(called->find(R"("content":[{"text":"{\"query\":\"x\",\"limit\":10}","type":"text"}])") != std::string::npos);
    CHECK(called->find(R"("structuredContent":{"query":"x","limit":10})") != std::string::npos);
    p.close_input();
    CHECK(p.exit_code.get() == 0);
  }
}

namespace stdio_order {
struct booking {
  std::string when;
  int seats = 1;
};
MCP_STRUCT(booking, (when, "When to come"), (seats, "How many seats", mcp::default_value(1)));
}  // namespace stdio_order

// A typed form (ctx.elicit<T>) asks with T's fields in declaration order ("when" before "seats",
// which sorting would swap): in the elicitation/create request of a 2025-11-25 session, and in
// the inputRequests of a 2026-07-28 input_required result.
TEST_CASE("stdio: a typed form keeps declaration order in the elicitation it sends, both eras") {
  auto srv = make_server();
  srv.tool("book", "Asks when to come", [](mcp::context& ctx) -> std::string {
    auto answer = ctx.elicit<stdio_order::booking>("When?");
    return answer.accepted() ? answer.content->when + " x" + std::to_string(answer.content->seats) : "declined";
  });
  const std::string form = R"("requestedSchema":{"type":"object","properties":{"when":{"type":"string",)"
                           R"("description":"When to come"},"seats":{"type":"integer",)";
  const json form_caps{{"elicitation", json::object()}};
  {
    INFO("2025-11-25");
    piped_server p(srv, {});
    p.write(mcp::jsonrpc::request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", form_caps},
                                                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
                .dump() + "\n");
    p.read_message();
    p.write(mcp::jsonrpc::notification("notifications/initialized", nullptr).dump() + "\n");
    p.write(mcp::jsonrpc::request(2, "tools/call", {{"name", "book"}, {"arguments", json::object()}}).dump() + "\n");
    auto asked = p.read_line();
    REQUIRE(asked);
    INFO(*asked);
    CHECK(asked->find(form) != std::string::npos);
    const json question = json::parse(*asked);
    REQUIRE(question["method"] == "elicitation/create");
    p.write(json{{"jsonrpc", "2.0"}, {"id", question["id"]},
                 {"result", {{"action", "accept"}, {"content", {{"when", "noon"}, {"seats", 3}}}}}}.dump() + "\n");
    const json done = p.read_message();
    CHECK(done["id"] == 2);
    CHECK(done["result"]["content"][0]["text"] == "noon x3");
  }
  {
    INFO("2026-07-28");
    piped_server p(srv, {});
    const json meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                    {"io.modelcontextprotocol/clientCapabilities", form_caps},
                    {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};
    p.write(mcp::jsonrpc::request(3, "tools/call", {{"name", "book"}, {"arguments", json::object()}, {"_meta", meta}})
                .dump() + "\n");
    auto result = p.read_line();
    REQUIRE(result);
    INFO(*result);
    CHECK(result->find(R"("resultType":"input_required")") != std::string::npos);
    CHECK(result->find(form) != std::string::npos);
  }
}

namespace stdio_roads {
MCP_STRUCT_DEF(line_item, (std::string, sku, "Stock keeping unit", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")),
  (int, qty, "How many", mcp::minimum(1)));
MCP_STRUCT_DEF(basket, (std::string, customer, "Who"), (std::vector<line_item>, items, "The lines"));
MCP_STRUCT_DEF(basket_total, (int, lines, "Lines"), (long long, quantity, "Sum of the quantities"));
}  // namespace stdio_roads

TEST_CASE("stdio: a call's arguments answer alike whether read with the message or when the call runs") {
  // With "name" before "arguments" (as clients write them), a call the reading thread runs itself
  // has its arguments read with the message, and a line over 32 KB has them checked and read when
  // the call runs; with "name" after them, they are always read when the call runs.
  auto srv = make_server();
  srv.tool("basket", "Totals a basket.", [](const stdio_roads::basket& in) {
    stdio_roads::basket_total out{static_cast<int>(in.items.size()), 0};
    for (const auto& i : in.items) out.quantity += i.qty;
    return out;
  });
  piped_server p(srv, {});
  p.write(initialize_line(1));
  p.read_message();
  std::string long_items = "[";
  for (int i = 0; i < 2000; ++i) long_items += std::string(i ? "," : "") + R"({"sku":"ABC-1234","qty":2})";
  long_items += "]";
  REQUIRE(long_items.size() > 40000);
  std::string broken_long = long_items;  // one number deep inside is not JSON: checked where the call runs
  broken_long.replace(broken_long.find(R"("qty":2)", 30000), 7, R"("qty":02)");
  struct argument_text {
    std::string text;
    json expected;  // the structured content, or null for an isError result; "parse" for -32700
  };
  const argument_text texts[] = {
      {R"({"customer":"c","items":[{"sku":"ABC-1234","qty":2},{"sku":"XYZ-0001","qty":3}]})", {{"lines", 2}, {"quantity", 5}}},
      {R"({"customer":"c","items":)" + long_items + "}", {{"lines", 2000}, {"quantity", 4000}}},
      {R"({"customer":"c","items":[{"sku":"bad","qty":2}]})", nullptr},
      {R"({"customer":"c","items":[],"unknown":1})", {{"lines", 0}, {"quantity", 0}}},  // left out (issue #56)
      {R"({"customer":"c","items":[],"itmes":[]})", nullptr},  // a near miss of "items": refused
      {R"({"customer":"c","items":[1,]})", "parse"},
      {R"({"customer":"c","items":)" + broken_long + "}", "parse"},
  };
  int id = 10;
  for (const auto& a : texts) {
    INFO(a.text.substr(0, 200));
    std::vector<json> replies;
    for (const std::string& params : {R"({"name":"basket","arguments":)" + a.text + "}",
                                      R"({"arguments":)" + a.text + R"(,"name":"basket"})"}) {
      p.write(R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":"tools/call","params":)" + params + "}\n");
      json reply = p.read_message();
      reply.erase("id");
      replies.push_back(reply);
    }
    CHECK(replies[0] == replies[1]);
    if (a.expected == "parse") {
      CHECK(replies[0]["error"]["code"] == -32700);
    } else if (a.expected.is_null()) {
      CHECK(replies[0]["result"]["isError"] == true);
    } else {
      CHECK(replies[0]["result"]["structuredContent"] == a.expected);
    }
  }
  // The same for a tool that takes the tree (read with the message into a kept tree, or when the
  // call runs): each call gets its own arguments, whatever the calls before it sent.
  srv.tool("echo", "Echoes its arguments.", mcp::runtime_schema{{{"type", "object"}}},
           [](const json& a) { return a.dump(); });
  const std::string deep = R"({"customer":"c","x":)" + std::string(200, '[') + std::string(200, ']') + "}";
  for (const std::string& text : {texts[0].text, texts[1].text, texts[2].text, texts[3].text, texts[0].text,
                                  std::string(R"({})"), texts[4].text, deep, texts[5].text, texts[2].text}) {
    INFO(text.substr(0, 200));
    std::vector<json> replies;
    for (const std::string& params : {R"({"name":"echo","arguments":)" + text + "}", R"({"arguments":)" + text + R"(,"name":"echo"})"}) {
      p.write(R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":"tools/call","params":)" + params + "}\n");
      json reply = p.read_message();
      reply.erase("id");
      replies.push_back(reply);
    }
    CHECK(replies[0] == replies[1]);
    const json sent = json::parse(text, nullptr, false, true);
    if (sent.is_discarded() || text == deep) {
      CHECK(replies[0].contains("error"));
    } else {
      REQUIRE(replies[0].contains("result"));
      CHECK(json::parse(replies[0]["result"]["content"][0]["text"].get<std::string>()) == sent);
    }
  }
}

TEST_CASE("stdio: one message per line, parse errors answered, the stream goes on") {
  auto srv = make_server();
  piped_server p(srv, {});
  p.write(ping(1));
  CHECK(p.read_message() == json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}});
  p.write("this is not json\n");
  json err = p.read_message();
  CHECK(err["error"]["code"] == -32700);
  p.write("\n   \r\n");  // blank lines are not messages
  p.write(mcp::jsonrpc::request(2, "ping").dump() + "\r\n");
  CHECK(p.read_message()["id"] == 2);
  // One message split across writes.
  std::string msg = ping(3);
  p.write(msg.substr(0, 7));
  std::this_thread::sleep_for(20ms);
  p.write(msg.substr(7));
  CHECK(p.read_message()["id"] == 3);
  p.close_input();
  CHECK(p.exit_code.get() == 0);
}

TEST_CASE("stdio: a slow handler blocks neither ping nor cancellation") {
  auto srv = make_server();
  std::atomic<int> cancelled_seen{0}, started{0};
  srv.method("test/slow", {[&](mcp::context& ctx, const json&) {
                             ++started;
                             for (int i = 0; i < 1000 && !ctx.cancelled(); ++i) std::this_thread::sleep_for(2ms);
                             if (ctx.cancelled()) ++cancelled_seen;
                             return json{{"done", true}};
                           },
                           true});
  piped_server p(srv, {});
  p.write(initialize_line(1));
  CHECK(p.read_message()["id"] == 1);
  p.write(mcp::jsonrpc::request(2, "test/slow").dump() + "\n");
  p.write(mcp::jsonrpc::request(3, "test/slow").dump() + "\n");
  // Both handlers run before the cancel is sent, so the cancel reaches a running handler (a
  // request cancelled while still queued is simply never run, which is fine but not this test).
  for (int i = 0; i < 1000 && started < 2; ++i) std::this_thread::sleep_for(1ms);
  REQUIRE(started == 2);
  p.write(ping(4));
  CHECK(p.read_message(1s)["id"] == 4);
  p.write(mcp::jsonrpc::notification("notifications/cancelled", {{"requestId", 2}}).dump() + "\n");
  json next = p.read_message(5s);
  CHECK(next["id"] == 3);  // request 2 was cancelled: never answered
  CHECK(next["result"]["done"] == true);
  p.close_input();
  CHECK(p.exit_code.get() == 0);
  CHECK_FALSE(p.read_line(200ms));
  CHECK(cancelled_seen == 1);
}

TEST_CASE("stdio: end of input lets in-flight work finish, then exits 0") {
  auto srv = make_server();
  srv.method("test/sleep", {[](mcp::context&, const json&) {
                              std::this_thread::sleep_for(200ms);
                              return json{{"slept", true}};
                            },
                            true});
  piped_server p(srv, {});
  p.write(initialize_line(1));
  CHECK(p.read_message()["id"] == 1);
  p.write(mcp::jsonrpc::request(2, "test/sleep").dump());  // no trailing newline: still a message at EOF
  p.close_input();
  json r = p.read_message();
  CHECK(r["result"]["slept"] == true);
  CHECK(p.exit_code.get() == 0);
}

TEST_CASE("stdio: a line over the limit gets a clear error and the stream resynchronises") {
  auto srv = make_server();
  mcp::stdio_options options;
  options.max_message_bytes = 1000;
  piped_server p(srv, options);
  std::string huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + std::string(200000, 'a') + "\"}}\n";
  p.write(huge + ping(2));
  json err = p.read_message();
  CHECK(err["error"]["code"] == -32600);
  CHECK(err["error"]["message"] == "Invalid request: message longer than the limit of 1000 bytes; it was skipped");
  CHECK(p.read_message()["id"] == 2);
  // A long line that ends within one read is refused the same way.
  p.write("{\"pad\":\"" + std::string(1500, 'b') + "\"}\n" + ping(3));
  CHECK(p.read_message()["error"]["code"] == -32600);
  CHECK(p.read_message()["id"] == 3);
}

TEST_CASE("stdio: replies from many threads arrive whole, one per line") {
  auto srv = make_server();
  srv.method("test/big", {[](mcp::context&, const json& params) {
                            return json{{"n", params["n"]}, {"pad", std::string(20000, 'x')}};
                          },
                          true});
  mcp::stdio_options options;
  options.workers = 8;
  piped_server p(srv, options);
  p.write(initialize_line(0));
  p.read_message();
  std::string batch;
  for (int i = 1; i <= 50; ++i) batch += mcp::jsonrpc::request(i, "test/big", {{"n", i}}).dump() + "\n";
  // The writer thread must not use Catch2 assertions (not thread-safe): it reports, the main thread checks.
  std::atomic<bool> written{false};
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < batch.size()) {
      ssize_t n = ::write(p.to_server[1], batch.data() + done, batch.size() - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
    written = true;
  });
  std::set<int> seen;
  for (int i = 0; i < 50; ++i) {
    json r = p.read_message();
    CHECK(r["result"]["n"] == r["id"]);
    seen.insert(r["id"].get<int>());
  }
  writer.join();
  CHECK(written);
  CHECK(seen.size() == 50);
}

TEST_CASE("stdio: quick calls run on the reading thread; a slow one hands reading over and gets it back") {
  auto srv = make_server();
  std::mutex mutex;
  std::thread::id reader, worker;  // the thread of the last test/reader and test/where call
  add_reader_probe(srv, mutex, reader);
  srv.method("test/where", {[&](mcp::context&, const json&) {
                              std::lock_guard lock(mutex);
                              worker = std::this_thread::get_id();
                              return json::object();
                            },
                            true});
  srv.method("test/slow", {[](mcp::context&, const json&) {
                             std::this_thread::sleep_for(600ms);
                             return json{{"done", true}};
                           },
                           true});
  auto same_thread = [&] {
    std::lock_guard lock(mutex);
    return reader == worker;
  };
  auto call = [&](piped_server& p, int id, const char* method) {
    p.write(mcp::jsonrpc::request(id, method).dump() + "\n");
    return p.read_message();
  };

  SECTION("with an inline budget") {
    // 100 ms, not the default 1 ms: a quick call under ThreadSanitizer on a busy machine took over
    // a millisecond once, and the watchdog rightly read in its place (CI of 11-29, c63a29f).
    mcp::stdio_options options;
    options.inline_budget = 100ms;
    piped_server p(srv, options);
    p.write(initialize_line(1));
    p.read_message();
    CHECK(call(p, 2, "test/reader")["id"] == 2);
    CHECK(call(p, 3, "test/where")["id"] == 3);
    CHECK(same_thread());
    std::thread::id serving = reader;

    p.write(mcp::jsonrpc::request(4, "test/slow").dump() + "\n");
    std::this_thread::sleep_for(300ms);  // past the budget and its watchdog's tick: another thread reads now
    CHECK(call(p, 5, "test/reader")["id"] == 5);
    {
      std::lock_guard lock(mutex);
      CHECK(reader != serving);
    }
    CHECK(call(p, 6, "ping")["id"] == 6);
    CHECK(p.read_message(2s)["result"]["done"] == true);

    // The slow call is over. The other thread may be waiting in read(): it hands reading back
    // after a line it reads, and then the serving thread runs calls itself again.
    int id = 7;
    for (bool back = false; !back && id < 100; ++id) {
      REQUIRE(call(p, id, "test/reader")["id"] == id);
      std::lock_guard lock(mutex);
      back = reader == serving;
    }
    CHECK(id < 100);
    CHECK(call(p, id, "test/where")["id"] == id);
    std::lock_guard lock(mutex);
    CHECK(worker == serving);
  }
  SECTION("without one, every call goes to the pool") {
    mcp::stdio_options options;
    options.inline_budget = 0ms;
    piped_server p(srv, options);
    p.write(initialize_line(1));
    p.read_message();
    CHECK(call(p, 2, "test/reader")["id"] == 2);
    CHECK(call(p, 3, "test/where")["id"] == 3);
    CHECK_FALSE(same_thread());
  }
}

TEST_CASE("stdio: long calls that arrive together are shared with the pool; one at a time they stay on the reading thread") {
  auto srv = make_server();
  std::mutex mutex;
  std::set<std::thread::id> threads;  // where test/work ran
  std::thread::id reader;
  add_reader_probe(srv, mutex, reader);
  // Well over the 100 us above which calls are shared, well under the inline budget below.
  srv.method("test/work", {[&](mcp::context&, const json&) {
                             spin_for(400us);
                             std::lock_guard lock(mutex);
                             threads.insert(std::this_thread::get_id());
                             return json::object();
                           },
                           true});
  mcp::stdio_options options;
  options.inline_budget = 10s;  // the watchdog never takes reading over here
  piped_server p(srv, options);
  p.write(initialize_line(1));
  p.read_message();
  p.write(mcp::jsonrpc::request(2, "test/reader").dump() + "\n");
  p.read_message();

  // One at a time: no input waits behind a call, so each runs on the reading thread.
  for (int id = 10; id < 15; ++id) {
    p.write(mcp::jsonrpc::request(id, "test/work").dump() + "\n");
    CHECK(p.read_message()["id"] == id);
  }
  {
    std::lock_guard lock(mutex);
    CHECK(threads == std::set<std::thread::id>{reader});
    threads.clear();
  }

  // Thirty in one write: after the first, the calls are known to be long and input waits.
  std::string batch;
  for (int id = 100; id < 130; ++id) batch += mcp::jsonrpc::request(id, "test/work").dump() + "\n";
  p.write(batch);
  std::set<int> answered;
  for (int i = 0; i < 30; ++i) {
    const json reply = p.read_message();
    CHECK(reply.contains("result"));
    answered.insert(reply["id"].get<int>());
  }
  CHECK(answered.size() == 30);
  CHECK(*answered.begin() == 100);
  CHECK(*answered.rbegin() == 129);
  std::lock_guard lock(mutex);
  CHECK(threads.size() > 1);
}

TEST_CASE("stdio: a call that takes less than reading its line took stays on the reading thread") {
  // Passing such a call to the pool would leave the reading thread most of the work anyway. A line's
  // params other than the arguments become trees while it is read: a big `_meta` makes the line
  // cost milliseconds on the reading thread while the call itself spins 600 us and reads nothing.
  auto srv = make_server();
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::thread::id reader;
  add_reader_probe(srv, mutex, reader);
  srv.tool("sum", "Adds the values.", mcp::runtime_schema{{{"type", "object"}}}, [&](const json& a) {
    spin_for(600us);  // over the 100 us above which calls may be shared, even as the first sample
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
    return std::to_string(a["values"].size());
  });
  mcp::stdio_options options;
  options.inline_budget = 10s;
  piped_server p(srv, options);
  p.write(initialize_line(1));
  p.read_message();
  p.write(mcp::jsonrpc::request(2, "test/reader").dump() + "\n");
  p.read_message();

  json meta = json::array();
  for (int i = 0; i < 30000; ++i) meta.push_back(i);  // a tree of 30,000 nodes to build while reading
  std::string batch;
  for (int id = 100; id < 112; ++id)
    batch += mcp::jsonrpc::request(id, "tools/call",
                                   {{"name", "sum"},
                                    {"arguments", {{"values", {1, 2, 3}}}},
                                    {"_meta", {{"client.example/trace", meta}}}})
                 .dump() +
             "\n";
  // 2 MB: more than a pipe holds, so written from another thread (without Catch, which is not thread-safe).
  auto writer = std::async(std::launch::async, [&] {
    for (std::size_t done = 0; done < batch.size();) {
      const ssize_t n = ::write(p.to_server[1], batch.data() + done, batch.size() - done);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  });
  for (int i = 0; i < 12; ++i) {
    const json reply = p.read_message(30s);
    CHECK(reply["result"]["content"][0]["text"] == "3");
  }
  CHECK(writer.get());
  std::lock_guard lock(mutex);
  CHECK(threads == std::set<std::thread::id>{reader});
}

namespace {
json call_ping(piped_server& p, int id) {
  p.write(ping(id));
  return p.read_message();
}
}  // namespace

TEST_CASE("stdio: a call running on the reading thread can wait for the client's answer") {
  auto srv = make_server();
  srv.method("test/ask", {[](mcp::context& ctx, const json&) {
                            json answer = ctx.elicit("Proceed?", {{"type", "object"}, {"properties", json::object()}});
                            return json{{"action", answer["action"]}};
                          },
                          true});
  piped_server p(srv, {});
  p.write(mcp::jsonrpc::request(1, "initialize",
                                {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", {{"elicitation", json::object()}}},
                                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
              .dump() +
          "\n");
  p.read_message();
  p.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
          "\n");
  p.write(mcp::jsonrpc::request(2, "test/ask").dump() + "\n");
  json question = p.read_message();
  REQUIRE(question["method"] == "elicitation/create");
  // The asking call still holds the serving thread; its answer must be read by another one.
  p.write(json{{"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", {{"action", "decline"}}}}.dump() + "\n");
  json reply = p.read_message();
  CHECK(reply["id"] == 2);
  CHECK(reply["result"]["action"] == "decline");
  CHECK(call_ping(p, 3)["id"] == 3);
}

TEST_CASE("stdio: end of input ends open listen streams with their final result, without waiting out the grace") {
  auto srv = make_server();
  srv.tool("t", "A tool", [] { return std::string("x"); });
  mcp::stdio_options options;
  options.shutdown_grace = 30s;  // what an unended listen stream would hold the exit for
  piped_server p(srv, options);
  p.write(mcp::jsonrpc::request(7, "subscriptions/listen",
                                {{"notifications", {{"toolsListChanged", true}}},
                                 {"_meta",
                                  {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                   {"io.modelcontextprotocol/clientCapabilities", json::object()}}}})
              .dump() +
          "\n");
  CHECK(p.read_message()["method"] == "notifications/subscriptions/acknowledged");
  p.close_input();
  json last = p.read_message();
  CHECK(last["id"] == 7);
  CHECK(last["result"]["resultType"] == "complete");
  CHECK(last["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 7);
  REQUIRE(p.exit_code.wait_for(10s) == std::future_status::ready);
  CHECK(p.exit_code.get() == 0);
}

TEST_CASE("stdio: a client that writes a large batch before reading any reply does not lock both sides") {
  auto srv = make_server();
  srv.tool("echo", "Echoes", [] { return std::string(40, 'e'); });
  for (const auto budget : {std::chrono::microseconds(1000), std::chrono::microseconds(0)}) {
    mcp::stdio_options options;
    options.inline_budget = budget;
    piped_server p(srv, options);
    p.write(initialize_line(0));
    REQUIRE(p.read_message()["id"] == 0);
    // Far more requests and replies than two pipe buffers hold.
    constexpr int count = 5000;
    std::string batch;
    for (int i = 1; i <= count; ++i)
      batch += i % 2 ? ping(i) : mcp::jsonrpc::request(i, "tools/call", {{"name", "echo"}}).dump() + "\n";
    REQUIRE(batch.size() > 4 * 65536);
    // The whole batch goes in while nothing is read: the server keeps reading while its writes wait.
    const auto outcome = write_unread(p, batch, count, 10s);
    CHECK(outcome.written);
    CHECK(outcome.ids.size() == count);
  }
}

// When a call holds the serving thread past the budget, the watchdog's thread reads in its place:
// it releases the replies the serving thread held back, and answers ping itself. Were it to write
// either, a client that is still writing (and not yet reading) would fill the pipe between us and
// hold it in write(): nobody would read, and the client's write would never end. They must be
// written by another thread while it reads on.
TEST_CASE("stdio: the thread that reads in a long call's place never waits in write()") {
  auto srv = make_server();
  // The slow call lasts until the test has seen whether the client's write ended (20 s at most).
  std::mutex gate_mutex;
  std::condition_variable gate_cv;
  bool gate_open = false;
  srv.tool("slow", "Waits until the test lets it end", [&] {
    std::unique_lock lock(gate_mutex);
    gate_cv.wait_for(lock, 20s, [&] { return gate_open; });
    return std::string("done");
  });
  const auto open_gate = [&] {
    std::lock_guard lock(gate_mutex);
    gate_open = true;
    gate_cv.notify_all();
  };
  srv.tool("big", "Returns more than a pipe holds", [] { return std::string(100000, 'b'); });
  for (const bool held_reply_fills_the_pipe : {true, false}) {
    CAPTURE(held_reply_fills_the_pipe);
    gate_open = false;
    mcp::stdio_options options;
    options.inline_budget = std::chrono::milliseconds(1);
    piped_server p(srv, options);
    p.write(initialize_line(0));
    REQUIRE(p.read_message()["id"] == 0);
    // The calls run on the serving thread (calls have not yet been long), the big one's reply held
    // back until the slow one is over; then far more pings than the two pipes hold: their answers
    // alone fill the pipe to us.
    std::string batch;
    int id = 0;
    if (held_reply_fills_the_pipe) batch += mcp::jsonrpc::request(++id, "tools/call", {{"name", "big"}}).dump() + "\n";
    batch += mcp::jsonrpc::request(++id, "tools/call", {{"name", "slow"}}).dump() + "\n";
    while (id < 8000) batch += ping(++id);
    REQUIRE(batch.size() > 4 * 65536);
    // While the slow call goes on: the reading went on while the replies waited.
    const auto outcome = write_unread(p, batch, id, 10s, open_gate);
    CHECK(outcome.written);
    CHECK(outcome.ids.size() == static_cast<std::size_t>(id));
  }
}

// A tool that works for `work` on each call and notes how many of its calls ran at once, and
// which call ended first.
struct turn_probe {
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  std::mutex mutex;
  std::vector<std::string> ended;  // each call's "tag", in the order they ended

  void add_to(mcp::server& srv, std::function<void()> work) {
    srv.tool("take", "Takes a document.",
             mcp::runtime_schema{{{"type", "object"},
                                  {"properties", {{"tag", {{"type", "string"}}}, {"doc", {{"type", "string"}}}}},
                                  {"required", {"tag", "doc"}}}},
             [this, work](const json& args) {
               const int now = ++running;
               int seen = most.load();
               while (now > seen && !most.compare_exchange_weak(seen, now)) {
               }
               if (args["doc"].get_ref<const std::string&>().size() > 1000) work();
               --running;
               std::lock_guard lock(mutex);
               ended.push_back(args["tag"].get<std::string>());
               return std::string("taken");
             });
  }
};

std::string take_call(int id, const std::string& tag, std::size_t doc_bytes) {
  return mcp::jsonrpc::request(id, "tools/call",
                               {{"name", "take"}, {"arguments", {{"tag", tag}, {"doc", std::string(doc_bytes, 'x')}}}})
             .dump() +
         "\n";
}

TEST_CASE("stdio: calls with large arguments take turns, as many at once as server_options says") {
  // Two calls of 300 KB that each work 60 ms, sent together: the first runs on the reading
  // thread, the watchdog reads the second and the pool runs it; with one turn it waits for the
  // first (well within the 100 ms a call waits at most), with two they overlap.
  for (std::size_t at_once : {1, 2}) {
    INFO("large_calls_at_once = " << at_once);
    mcp::server_options options;
    options.large_calls_at_once = at_once;
    mcp::server srv(mcp::server_info{"stdio-test", "1.0"}, options);
    turn_probe probe;
    probe.add_to(srv, [] { spin_for(60ms); });
    piped_server p(srv, {});
    p.write(initialize_line(1));
    p.read_message();
    p.write(take_call(2, "a", 300 * 1024) + take_call(3, "b", 300 * 1024));
    for (int i = 0; i < 2; ++i) CHECK(p.read_message()["result"]["content"][0]["text"] == "taken");
    CHECK(probe.most == static_cast<int>(at_once));
  }
}

TEST_CASE("stdio: a large call waits at most 100 ms for a turn, and a small one never waits") {
  // One turn, held by a large call that sleeps 800 ms (as one waiting on a service would): a
  // second large call (which does not sleep) gets no turn within 100 ms and runs anyway, and a
  // small call, sent 50 ms after it, never asks for one, so it ends first (had it to wait out the
  // 100 ms too, it would end 50 ms after the large one); both end while the first still sleeps.
  mcp::server_options options;
  options.large_calls_at_once = 1;
  mcp::server srv(mcp::server_info{"stdio-test", "1.0"}, options);
  turn_probe probe;
  probe.add_to(srv, [first = std::make_shared<std::atomic<bool>>(true)] {
    if (first->exchange(false)) std::this_thread::sleep_for(800ms);
  });
  mcp::stdio_options stdio;
  stdio.inline_budget = {};  // every call to the pool: the first holds no reading thread
  piped_server p(srv, stdio);
  p.write(initialize_line(1));
  p.read_message();
  p.write(take_call(2, "sleeper", 300 * 1024));
  std::this_thread::sleep_for(100ms);  // the sleeper has its turn
  p.write(take_call(3, "large", 300 * 1024));
  std::this_thread::sleep_for(50ms);
  p.write(take_call(4, "small", 10));
  for (int i = 0; i < 3; ++i) CHECK(p.read_message()["result"]["content"][0]["text"] == "taken");
  std::lock_guard lock(probe.mutex);
  REQUIRE(probe.ended.size() == 3);
  CHECK(probe.ended[0] == "small");
  CHECK(probe.ended.back() == "sleeper");
  CHECK(probe.most >= 2);
}

}  // namespace test_stdio
