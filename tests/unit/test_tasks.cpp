// Tasks (the io.modelcontextprotocol/tasks extension, SEP-2663): the store's rules and expiry, the
// wire shapes a 2026-07-28 client sees, the gates (-32601, -32021, -32602), input while a task
// runs, cancellation, multi-round input before a task, several tasks at once and shutdown.
// Waits poll tasks/get with a generous limit; nothing asserts how fast anything is.
#include "catch.hpp"

#include <mcp/ext/tasks.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>

using mcp::json;

namespace test_tasks {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// The tasks extension as the server holds it (its seam), for the counts tests look at.
const mcp::detail::task_service& service_of(mcp::server& srv) {
  auto seam = mcp::detail::server_access::seam(srv);
  REQUIRE(dynamic_cast<const mcp::detail::task_service*>(seam.get()));
  return *dynamic_cast<const mcp::detail::task_service*>(seam.get());
}
std::size_t tasks_running(mcp::server& srv) { return service_of(srv).runs(); }
std::size_t task_workers(mcp::server& srv) { return service_of(srv).threads(); }

const json tasks_caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}};
const json tasks_and_elicitation = {{"extensions", {{mcp::tasks_extension, json::object()}}},
                                    {"elicitation", json::object()}};

// A door a handler waits at until the test opens it (or the task is cancelled).
struct gate {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  std::atomic<int> waiting{0};
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    opened.notify_all();
  }
  // True when opened, false when the task was cancelled first.
  bool wait(mcp::context& ctx) {
    ++waiting;
    std::unique_lock lock(mutex);
    while (!open) {
      if (ctx.cancelled()) return false;
      opened.wait_for(lock, std::chrono::milliseconds(5));
    }
    return true;
  }
};

mcp::tool_options task_tool(mcp::task_mode mode, mcp::task_start begins = mcp::task_start::at_call) {
  mcp::tool_options o;
  o.task = mode;
  o.task_begins = begins;
  return o;
}

json call(mcp::testing::client& c, const std::string& tool, const json& caps, json arguments = json::object()) {
  return c.stateless_request("tools/call", {{"name", tool}, {"arguments", std::move(arguments)}}, caps);
}

json task_request(mcp::testing::client& c, const std::string& method, json params, const json& caps = tasks_caps) {
  return c.stateless_request(method, std::move(params), caps);
}

json get(mcp::testing::client& c, const std::string& id) {
  json r = task_request(c, "tasks/get", {{"taskId", id}});
  REQUIRE(r.contains("result"));
  return r["result"];
}

// Polls tasks/get until the task's status is `want` (or it ended otherwise); 10 s at most.
json wait_for(mcp::testing::client& c, const std::string& id, const std::string& want) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    json task = get(c, id);
    const std::string status = task["status"];
    if (status == want || status == "completed" || status == "failed" || status == "cancelled") return task;
    if (std::chrono::steady_clock::now() > limit) return task;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Waits until `cond` holds; 10 s at most.
template <class Cond>
bool eventually(Cond cond) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!cond()) {
    if (std::chrono::steady_clock::now() > limit) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

std::string started_task(mcp::testing::client& c, const std::string& tool, const json& caps = tasks_caps,
                         json arguments = json::object()) {
  json r = call(c, tool, caps, std::move(arguments));
  REQUIRE(r.contains("result"));
  REQUIRE(r["result"]["resultType"] == "task");
  return r["result"]["taskId"];
}

int error_code_of(const json& response) { return response.contains("error") ? response["error"]["code"].get<int>() : 0; }

}  // namespace

TEST_CASE("tasks: a declaring request gets a CreateTaskResult, then the result from tasks/get", "[tasks]") {
  mcp::server_options options;
  mcp::task_options options_tasks;
  options_tasks.ttl = std::chrono::minutes(5);
  options_tasks.poll_interval = std::chrono::milliseconds(250);
  gate g;
  std::atomic<bool> knew_its_task{false};  // Catch's CHECK is for the test's thread only
  mcp::server srv({"tasks", "1.0.0"}, options);
  mcp::enable_tasks(srv, options_tasks);
  srv.tool("work", "Works until released",
           [&](mcp::context& ctx) -> std::string {
             knew_its_task = ctx.in_task() && ctx.task_id().size() == 32;
             return g.wait(ctx) ? "done" : "cancelled";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);

  json created = call(c, "work", tasks_caps);
  REQUIRE(created.contains("result"));
  const json& r = created["result"];
  CHECK(r["resultType"] == "task");
  CHECK(r["status"] == "working");
  REQUIRE(r["taskId"].is_string());
  const std::string id = r["taskId"];
  CHECK(std::regex_match(id, std::regex("[0-9a-f]{32}")));
  const std::regex iso(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");
  CHECK(std::regex_match(r["createdAt"].get<std::string>(), iso));
  CHECK(std::regex_match(r["lastUpdatedAt"].get<std::string>(), iso));
  CHECK(r["ttlMs"] == 300000);
  CHECK(r["pollIntervalMs"] == 250);
  for (const char* absent : {"result", "error", "inputRequests", "task", "ttl", "pollInterval", "requestState", "content"})
    CHECK_FALSE(r.contains(absent));

  json working = get(c, id);
  CHECK(working["taskId"] == id);
  CHECK(working["status"] == "working");
  CHECK(working["resultType"] == "complete");
  CHECK_FALSE(working.contains("result"));
  CHECK_FALSE(working.contains("inputRequests"));

  g.release();
  json done = wait_for(c, id, "completed");
  REQUIRE(done["status"] == "completed");
  CHECK(done["result"]["content"][0]["text"] == "done");
  CHECK(done["result"]["resultType"] == "complete");
  CHECK_FALSE(done["result"].contains("isError"));
  CHECK_FALSE(done["result"].contains("_meta"));  // no related-task meta
  CHECK_FALSE(done.contains("error"));
  CHECK(done["createdAt"] == r["createdAt"]);
  CHECK(knew_its_task);

  // Two tasks never share an id.
  g.release();
  CHECK(started_task(c, "work") != id);
}

TEST_CASE("tasks: who gets a task: the mode and the request's declaration decide, never params.task", "[tasks]") {
  std::atomic<int> runs{0};
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  auto handler = [&](mcp::context& ctx) -> std::string {
    ++runs;
    return ctx.in_task() ? "task" : "sync";
  };
  srv.tool("plain", "Never a task", handler);
  srv.tool("maybe", "A task when declared", handler, task_tool(mcp::task_mode::optional));
  srv.tool("always", "Only a task", handler, task_tool(mcp::task_mode::required));
  mcp::testing::client c(srv);

  // A plain tool stays synchronous, even with the legacy params.task hint.
  json legacy = c.stateless_request(
      "tools/call", {{"name", "plain"}, {"arguments", json::object()}, {"task", {{"ttl", 60000}, {"pollInterval", 100}}}},
      tasks_caps);
  CHECK(legacy["result"]["resultType"] == "complete");
  CHECK(legacy["result"]["content"][0]["text"] == "sync");
  CHECK_FALSE(legacy["result"].contains("taskId"));

  // Optional: synchronous for a request that does not declare the extension, whatever came before.
  json sync = call(c, "maybe", json::object());
  CHECK(sync["result"]["resultType"] == "complete");
  CHECK(sync["result"]["content"][0]["text"] == "sync");
  CHECK_FALSE(sync["result"].contains("taskId"));
  std::string id = started_task(c, "maybe");
  CHECK(wait_for(c, id, "completed")["result"]["content"][0]["text"] == "task");

  // Required: refused before the handler runs, with the capability that is missing.
  const int before = runs;
  json refused = call(c, "always", json::object());
  CHECK(error_code_of(refused) == -32021);
  CHECK(refused["error"]["data"] == json{{"requiredCapabilities", {{"extensions", {{mcp::tasks_extension, json::object()}}}}}});
  CHECK(runs == before);
  id = started_task(c, "always");
  CHECK(wait_for(c, id, "completed")["status"] == "completed");

  // A 2025-era session follows its own era's rules (test_tasks_legacy.cpp), whatever it declared
  // at initialize: a task only with params.task, and a required tool without it is -32601.
  mcp::testing::client old(srv);
  old.initialize("2025-11-25", tasks_caps);
  CHECK(old.call_tool("maybe")["content"][0]["text"] == "sync");
  json old_refused = old.request("tools/call", {{"name", "always"}, {"arguments", json::object()}});
  CHECK(error_code_of(old_refused) == -32601);
  // The id is what reaches a task nobody authenticated, in either era.
  CHECK(old.request("tasks/get", {{"taskId", id}})["result"]["status"] == "completed");
}

TEST_CASE("tasks: the extension is declared once a tool has a task mode, and capabilities.tasks only to 2025-11-25",
          "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("plain", "Never a task", []() -> std::string { return "x"; });
  mcp::testing::client c(srv);
  json discover = c.stateless_request("server/discover", json::object(), tasks_caps)["result"];
  CHECK_FALSE(discover["capabilities"].contains("extensions"));
  CHECK(error_code_of(task_request(c, "tasks/get", {{"taskId", "x"}})) == -32601);  // no tasks: no methods

  srv.tool("maybe", "A task when declared", []() -> std::string { return "x"; }, task_tool(mcp::task_mode::optional));
  discover = c.stateless_request("server/discover", json::object(), json::object())["result"];
  CHECK(discover["capabilities"]["extensions"][mcp::tasks_extension] == json::object());
  CHECK_FALSE(discover["capabilities"].contains("tasks"));
  mcp::testing::client old(srv);
  json init = old.initialize();
  CHECK(init["capabilities"]["extensions"][mcp::tasks_extension] == json::object());
  CHECK(init["capabilities"]["tasks"]["requests"]["tools"]["call"] == json::object());  // that era's own
  // The Tool object says nothing of tasks (2026-07-28 has no execution.taskSupport).
  json tools = c.stateless_request("tools/list", json::object(), tasks_caps)["result"]["tools"];
  for (const auto& t : tools) CHECK_FALSE(t.contains("execution"));
}

TEST_CASE("tasks: how a run ends: completed with the result, a tool error completed too, a protocol error failed",
          "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("tool_error", "Fails as a tool", []() -> mcp::result<std::string> { return mcp::tool_error("no data"); },
           task_tool(mcp::task_mode::optional));
  srv.tool("protocol", "Fails with a JSON-RPC error",
           []() -> std::string { throw mcp::protocol_error(-32050, "backend down", json{{"retry", true}}); },
           task_tool(mcp::task_mode::optional));
  srv.tool("crash", "Throws something unexpected", []() -> std::string { throw std::runtime_error("oops"); },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);

  json t = wait_for(c, started_task(c, "tool_error"), "completed");
  CHECK(t["status"] == "completed");
  CHECK(t["result"]["isError"] == true);
  CHECK(t["result"]["content"][0]["text"] == "no data");

  t = wait_for(c, started_task(c, "protocol"), "failed");
  CHECK(t["status"] == "failed");
  CHECK(t["error"] == json{{"code", -32050}, {"message", "backend down"}, {"data", {{"retry", true}}}});
  CHECK_FALSE(t.contains("result"));
  CHECK(t["statusMessage"] == "backend down");

  // An unexpected exception is the tool's failure, told to the model as the synchronous call would.
  t = wait_for(c, started_task(c, "crash"), "completed");
  CHECK(t["result"]["isError"] == true);
}

TEST_CASE("tasks: the gates: -32601 for removed methods, -32021 before -32602, -32602 for unknown ids", "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "quick");
  wait_for(c, id, "completed");

  CHECK(error_code_of(task_request(c, "tasks/result", {{"taskId", id}})) == -32601);
  CHECK(error_code_of(task_request(c, "tasks/list", json::object())) == -32601);

  const json required = {{"requiredCapabilities", {{"extensions", {{mcp::tasks_extension, json::object()}}}}}};
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    INFO(method);
    json params = {{"taskId", "nonexistent"}, {"inputResponses", json::object()}};
    json undeclared = task_request(c, method, params, json::object());
    CHECK(error_code_of(undeclared) == -32021);  // checked before the id
    CHECK(undeclared["error"]["data"] == required);
    CHECK(error_code_of(task_request(c, method, {{"taskId", id}, {"inputResponses", json::object()}}, json::object())) ==
          -32021);
    json unknown = task_request(c, method, params);
    CHECK(error_code_of(unknown) == -32602);
    CHECK(unknown["error"]["message"].get<std::string>().find("nonexistent") != std::string::npos);
    CHECK(error_code_of(task_request(c, method, {{"taskId", 42}, {"inputResponses", json::object()}})) == -32602);
    CHECK(error_code_of(task_request(c, method, {{"inputResponses", json::object()}})) == -32602);
  }
  CHECK(error_code_of(task_request(c, "tasks/update", {{"taskId", id}})) == -32602);  // no inputResponses
  CHECK(error_code_of(task_request(c, "tasks/update", {{"taskId", id}, {"inputResponses", "yes"}})) == -32602);
}

TEST_CASE("tasks: cancel while working: an empty ack, the handler sees it, and cancelled stays", "[tasks]") {
  gate g;
  std::atomic<bool> saw_cancel{false};
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("work", "Works until released",
           [&](mcp::context& ctx) -> std::string {
             if (g.wait(ctx)) return "done";
             saw_cancel = true;
             return "stopped";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "work");
  REQUIRE(eventually([&] { return g.waiting > 0; }));

  json ack = task_request(c, "tasks/cancel", {{"taskId", id}});
  REQUIRE(ack.contains("result"));
  for (const char* absent : {"taskId", "status", "result", "error", "inputRequests"}) CHECK_FALSE(ack["result"].contains(absent));
  CHECK(ack["result"]["resultType"] == "complete");
  CHECK(get(c, id)["status"] == "cancelled");  // at once, before the handler has noticed
  CHECK(eventually([&] { return saw_cancel.load(); }));
  CHECK(eventually([&] { return tasks_running(srv) == 0; }));
  json after = get(c, id);
  CHECK(after["status"] == "cancelled");  // what the handler returned afterwards is dropped
  CHECK_FALSE(after.contains("result"));
  // Idempotent: again on the cancelled task, and on a completed one, which stays completed.
  CHECK(task_request(c, "tasks/cancel", {{"taskId", id}})["result"]["resultType"] == "complete");
  g.release();
  const std::string finished = started_task(c, "work");
  REQUIRE(wait_for(c, finished, "completed")["status"] == "completed");
  CHECK(task_request(c, "tasks/cancel", {{"taskId", finished}})["result"]["resultType"] == "complete");
  CHECK(get(c, finished)["status"] == "completed");
}

TEST_CASE("tasks: ctx.ask() in a task parks it in input_required until tasks/update answers every key", "[tasks]") {
  const json schema = {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}};
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("two", "Asks two questions at once, then one more under a key it used before",
           [&](mcp::context& ctx) -> std::string {
             auto both = ctx.ask({mcp::elicitation_input("a", "A?", schema), mcp::elicitation_input("b", "B?", schema)});
             auto again = ctx.ask(mcp::elicitation_input("a", "A again?", schema));
             return both["a"]["content"]["name"].get<std::string>() + both["b"]["content"]["name"].get<std::string>() +
                    again["content"]["name"].get<std::string>();
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "two", tasks_and_elicitation);

  json parked = wait_for(c, id, "input_required");
  REQUIRE(parked["status"] == "input_required");
  REQUIRE(parked["inputRequests"].size() == 2);
  CHECK(parked["inputRequests"]["a"]["method"] == "elicitation/create");
  CHECK(parked["inputRequests"]["a"]["params"]["message"] == "A?");
  CHECK(parked["inputRequests"]["b"]["params"]["requestedSchema"] == schema);

  auto update = [&](json responses) {
    json r = task_request(c, "tasks/update", {{"taskId", id}, {"inputResponses", std::move(responses)}});
    REQUIRE(r.contains("result"));
    CHECK(r["result"]["resultType"] == "complete");
    for (const char* absent : {"taskId", "status", "result", "error", "inputRequests"}) CHECK_FALSE(r["result"].contains(absent));
  };
  // Unknown keys and answers of the wrong shape are ignored: nothing changes.
  update({{"unknown-key", {{"ignored", true}}}, {"a", {{"action", "maybe"}}}, {"b", "yes"}});
  json still = get(c, id);
  CHECK(still["status"] == "input_required");
  CHECK(still["inputRequests"].size() == 2);
  // A partial answer: the answered key goes at once, the task stays input_required.
  update({{"a", {{"action", "accept"}, {"content", {{"name", "x"}}}}}});
  still = get(c, id);
  CHECK(still["status"] == "input_required");
  CHECK(still["inputRequests"].size() == 1);
  CHECK(still["inputRequests"].contains("b"));
  update({{"b", {{"action", "accept"}, {"content", {{"name", "y"}}}}}});

  // The next question reuses the handler's key "a": on the wire it is a key the task never used.
  json next = wait_for(c, id, "input_required");
  for (int i = 0; i < 1000 && next["status"] == "input_required" && next["inputRequests"].contains("b"); ++i)
    next = get(c, id);  // the answers to the first round may not have been taken yet
  REQUIRE(next["status"] == "input_required");
  REQUIRE(next["inputRequests"].size() == 1);
  const std::string key = next["inputRequests"].begin().key();
  CHECK(key != "a");
  CHECK(key != "b");
  CHECK(next["inputRequests"][key]["params"]["message"] == "A again?");
  update({{"a", {{"action", "accept"}, {"content", {{"name", "old key"}}}}}});  // no longer outstanding
  CHECK(get(c, id)["status"] == "input_required");
  update({{key, {{"action", "accept"}, {"content", {{"name", "z"}}}}}});
  json done = wait_for(c, id, "completed");
  CHECK(done["result"]["content"][0]["text"] == "xyz");
  CHECK_FALSE(done.contains("inputRequests"));
}

TEST_CASE("tasks: cancel while input_required ends the wait and the task", "[tasks]") {
  std::atomic<bool> ask_threw{false};
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("confirm", "Asks for a confirmation",
           [&](mcp::context& ctx) -> std::string {
             try {  // "no limit": the wait must not overflow the clock
               ctx.ask(mcp::elicitation_input("ok", "Sure?", json{{"type", "object"}}), std::chrono::milliseconds::max());
             } catch (const mcp::request_timeout&) {
               ask_threw = true;
               throw;
             }
             return "confirmed";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "confirm", tasks_and_elicitation);
  REQUIRE(wait_for(c, id, "input_required")["status"] == "input_required");
  CHECK(task_request(c, "tasks/cancel", {{"taskId", id}})["result"]["resultType"] == "complete");
  json t = get(c, id);
  CHECK(t["status"] == "cancelled");
  CHECK_FALSE(t.contains("inputRequests"));
  CHECK(eventually([&] { return ask_threw.load(); }));
  CHECK(eventually([&] { return tasks_running(srv) == 0; }));
  CHECK(get(c, id)["status"] == "cancelled");
  // Answers after the end change nothing.
  task_request(c, "tasks/update", {{"taskId", id}, {"inputResponses", {{"ok", {{"action", "accept"}}}}}});
  CHECK(get(c, id)["status"] == "cancelled");
}

TEST_CASE("tasks: a task's asks need the client's capability like any other", "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("confirm", "Asks for a confirmation",
           [](mcp::context& ctx) -> std::string {
             ctx.ask(mcp::elicitation_input("ok", "Sure?", json{{"type", "object"}}));
             return "confirmed";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  json t = wait_for(c, started_task(c, "confirm", tasks_caps), "completed");  // no elicitation declared
  CHECK(t["status"] == "completed");
  CHECK(t["result"]["isError"] == true);
  CHECK(t["result"]["content"][0]["text"].get<std::string>().find("elicitation") != std::string::npos);
}

TEST_CASE("tasks: multi-round input on the request first, then ctx.begin_task() makes the rest a task", "[tasks]") {
  std::atomic<int> runs{0};
  std::atomic<int> in_task_runs{0};
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  auto handler = [&](mcp::context& ctx) -> std::string {
    ++runs;
    auto answer = ctx.ask(mcp::elicitation_input("user_name", "Name?", json{{"type", "object"}}));
    const bool task = ctx.begin_task();
    if (task) ++in_task_runs;
    // Asked after begin_task under the same key: a new question, answered through tasks/update.
    std::string extra;
    if (task) extra = ctx.ask(mcp::elicitation_input("user_name", "Again?", json{{"type", "object"}}))["content"]["name"];
    return "Hello, " + answer["content"]["name"].get<std::string>() + extra + (task ? " (task)" : " (sync)");
  };
  srv.tool("required", "MRTR, then a task", handler, task_tool(mcp::task_mode::required, mcp::task_start::at_begin_task));
  srv.tool("optional", "MRTR, then a task when declared", handler,
           task_tool(mcp::task_mode::optional, mcp::task_start::at_begin_task));
  mcp::testing::client c(srv);

  json round1 = call(c, "required", tasks_and_elicitation);
  REQUIRE(round1["result"]["resultType"] == "input_required");
  CHECK_FALSE(round1["result"].contains("taskId"));
  REQUIRE(round1["result"]["inputRequests"].contains("user_name"));
  const json state = round1["result"]["requestState"];
  json round2 = c.stateless_request("tools/call",
                                    {{"name", "required"},
                                     {"arguments", json::object()},
                                     {"inputResponses", {{"user_name", {{"action", "accept"}, {"content", {{"name", "Alice"}}}}}}},
                                     {"requestState", state}},
                                    tasks_and_elicitation);
  REQUIRE(round2.contains("result"));
  const json& created = round2["result"];
  CHECK(created["resultType"] == "task");
  CHECK_FALSE(created.contains("requestState"));
  CHECK_FALSE(created.contains("inputRequests"));
  const std::string id = created["taskId"];
  json parked = wait_for(c, id, "input_required");
  REQUIRE(parked["status"] == "input_required");
  CHECK(parked["inputRequests"].size() == 1);  // only the question asked after begin_task
  CHECK(parked["inputRequests"].begin().value()["params"]["message"] == "Again?");
  task_request(c, "tasks/update",
               {{"taskId", id},
                {"inputResponses", {{parked["inputRequests"].begin().key(), {{"action", "accept"}, {"content", {{"name", "!"}}}}}}}},
               tasks_and_elicitation);
  json done = wait_for(c, id, "completed");
  CHECK(done["result"]["content"][0]["text"] == "Hello, Alice! (task)");
  CHECK(in_task_runs == 1);

  // Without the extension, an optional one runs its rounds and finishes synchronously.
  const json elicitation_only = {{"elicitation", json::object()}};
  json sync1 = call(c, "optional", elicitation_only);
  REQUIRE(sync1["result"]["resultType"] == "input_required");
  json sync2 = c.stateless_request("tools/call",
                                   {{"name", "optional"},
                                    {"arguments", json::object()},
                                    {"inputResponses", {{"user_name", {{"action", "accept"}, {"content", {{"name", "Bob"}}}}}}},
                                    {"requestState", sync1["result"]["requestState"]}},
                                   elicitation_only);
  CHECK(sync2["result"]["resultType"] == "complete");
  CHECK(sync2["result"]["content"][0]["text"] == "Hello, Bob (sync)");
  CHECK(error_code_of(call(c, "required", elicitation_only)) == -32021);
}

TEST_CASE("tasks: several tasks run at once, and more wait for a worker", "[tasks]") {
  constexpr int together = 6;
  mcp::server_options options;
  mcp::task_options options_tasks;
  options_tasks.max_running = together;
  std::atomic<int> arrived{0};
  mcp::server srv({"tasks", "1.0.0"}, options);
  mcp::enable_tasks(srv, options_tasks);
  // Each waits until all have arrived: this finishes only if they run at the same time.
  srv.tool("meet", "Waits for the others",
           [&](mcp::context& ctx) -> std::string {
             ++arrived;
             while (arrived < together)
               if (ctx.cancelled()) return "cancelled";
               else std::this_thread::sleep_for(std::chrono::milliseconds(1));
             return "met";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  std::vector<std::string> ids;
  for (int i = 0; i < together; ++i) ids.push_back(started_task(c, "meet"));
  for (const auto& id : ids) CHECK(wait_for(c, id, "completed")["result"]["content"][0]["text"] == "met");
  CHECK(task_workers(srv) <= together);

  // With two workers, eight tasks all finish, through the queue.
  mcp::server_options narrow;
  mcp::task_options narrow_tasks;
  narrow_tasks.max_running = 2;
  mcp::server small({"tasks", "1.0.0"}, narrow);
  mcp::enable_tasks(small, narrow_tasks);
  small.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  mcp::testing::client s(small);
  ids.clear();
  for (int i = 0; i < 8; ++i) ids.push_back(started_task(s, "quick"));
  for (const auto& id : ids) CHECK(wait_for(s, id, "completed")["status"] == "completed");
  CHECK(task_workers(small) <= 2);
}

TEST_CASE("tasks: beyond max_running + max_queued a new task is refused, and the others are unharmed", "[tasks]") {
  mcp::server_options options;
  mcp::task_options options_tasks;
  options_tasks.max_running = 1;
  options_tasks.max_queued = 1;
  gate g;
  mcp::server srv({"tasks", "1.0.0"}, options);
  mcp::enable_tasks(srv, options_tasks);
  srv.tool("work", "Works until released", [&](mcp::context& ctx) -> std::string { return g.wait(ctx) ? "done" : "no"; },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string first = started_task(c, "work");
  const std::string second = started_task(c, "work");
  json refused = call(c, "work", tasks_caps);
  CHECK(error_code_of(refused) == -32603);
  CHECK(refused["error"]["message"].get<std::string>().find("busy") != std::string::npos);
  CHECK(get(c, second)["status"] == "working");  // queued: working, as far as the client knows
  g.release();
  CHECK(wait_for(c, first, "completed")["status"] == "completed");
  CHECK(wait_for(c, second, "completed")["status"] == "completed");
  CHECK(eventually([&] { return tasks_running(srv) == 0; }));
  CHECK(wait_for(c, started_task(c, "work"), "completed")["status"] == "completed");
}

TEST_CASE("tasks: destroying the server stops its tasks: running ones see cancelled(), the store says failed",
          "[tasks]") {
  auto store = std::make_shared<mcp::memory_task_store>();
  std::atomic<bool> saw_cancel{false};
  std::string running_id, queued_id;
  {
    mcp::server_options options;
    mcp::task_options options_tasks;
    options_tasks.store = store;
    options_tasks.max_running = 1;
    gate g;
    mcp::server srv({"tasks", "1.0.0"}, options);
    mcp::enable_tasks(srv, options_tasks);
    srv.tool("work", "Works until released",
             [&](mcp::context& ctx) -> std::string {
               if (!g.wait(ctx)) saw_cancel = true;
               return "done";
             },
             task_tool(mcp::task_mode::optional));
    mcp::testing::client c(srv);
    running_id = started_task(c, "work");
    REQUIRE(eventually([&] { return g.waiting > 0; }));
    queued_id = started_task(c, "work");
  }  // ~server joins the worker
  CHECK(saw_cancel);
  for (const auto& id : {running_id, queued_id}) {
    auto task = store->get(id);
    REQUIRE(task);
    CHECK(task->status == mcp::task_status::failed);
    CHECK(task->error["code"] == -32603);
    CHECK(task->error["message"].get<std::string>().find("stopped") != std::string::npos);
  }
}

TEST_CASE("tasks: the memory store forgets a task at createdAt + ttlMs, by its own clock", "[tasks]") {
  auto now = std::make_shared<std::atomic<std::int64_t>>(1000000);
  auto store = std::make_shared<mcp::memory_task_store>(10000, [now] { return now->load(); });
  mcp::task_record seed;
  seed.id = "t1";
  seed.ttl_ms = 500;
  mcp::task_record stored = store->create(seed);
  CHECK(stored.created_at == 1000000);
  CHECK(stored.last_updated_at == 1000000);
  seed.id = "forever";
  seed.ttl_ms.reset();
  store->create(seed);

  *now = 1000499;
  REQUIRE(store->get("t1"));
  mcp::task_update message;
  message.status_message = "half way";
  CHECK(store->update("t1", message) == mcp::update_outcome::applied);
  CHECK(store->get("t1")->last_updated_at == 1000499);
  *now = 1000500;
  CHECK_FALSE(store->get("t1"));
  CHECK(store->update("t1", message) == mcp::update_outcome::unknown);
  CHECK(store->get("forever"));  // no ttl: kept
  seed.id = "t2";
  seed.ttl_ms = 10;
  store->create(seed);
  *now += 10;
  CHECK(store->remove_expired() == 1);
  CHECK(store->size() == 1);

  // Through the server: ttlMs as configured, and -32602 once it has passed.
  mcp::server_options options;
  mcp::task_options options_tasks;
  options_tasks.store = store;
  options_tasks.ttl = std::chrono::milliseconds(2000);
  mcp::server srv({"tasks", "1.0.0"}, options);
  mcp::enable_tasks(srv, options_tasks);
  srv.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  json created = call(c, "quick", tasks_caps)["result"];
  CHECK(created["ttlMs"] == 2000);
  CHECK(created["createdAt"] == mcp::detail::iso8601(now->load()));
  const std::string id = created["taskId"];
  CHECK(wait_for(c, id, "completed")["status"] == "completed");
  *now += 1999;
  CHECK(get(c, id)["status"] == "completed");
  *now += 1;
  CHECK(error_code_of(task_request(c, "tasks/get", {{"taskId", id}})) == -32602);
  CHECK(error_code_of(task_request(c, "tasks/cancel", {{"taskId", id}})) == -32602);
}

TEST_CASE("tasks: ttl zero means unlimited: ttlMs null", "[tasks]") {
  mcp::server_options options;
  mcp::task_options options_tasks;
  options_tasks.ttl = std::chrono::milliseconds(0);
  options_tasks.poll_interval = std::chrono::milliseconds(0);
  mcp::server srv({"tasks", "1.0.0"}, options);
  mcp::enable_tasks(srv, options_tasks);
  srv.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  json created = call(c, "quick", tasks_caps)["result"];
  REQUIRE(created.contains("ttlMs"));
  CHECK(created["ttlMs"].is_null());
  CHECK_FALSE(created.contains("pollIntervalMs"));
}

TEST_CASE("tasks: a full memory store makes room from ended tasks, and refuses when all are live", "[tasks]") {
  mcp::memory_task_store store(2);
  mcp::task_record r;
  r.id = "a";
  store.create(r);
  r.id = "b";
  store.create(r);
  r.id = "c";
  try {
    store.create(r);
    FAIL("accepted");
  } catch (const mcp::error& e) {
    CHECK(e.code() == mcp::error_code::task_refused);
    CHECK(std::string(e.what()).find("not ended") != std::string::npos);
  }
  mcp::task_update done;
  done.status = mcp::task_status::completed;
  store.update("a", done);
  store.create(r);
  CHECK_FALSE(store.get("a"));
  CHECK(store.get("c"));
  try {
    store.create(r);
    FAIL("accepted a duplicate id");
  } catch (const mcp::error& e) {
    CHECK(std::string(e.what()).find("already exists") != std::string::npos);
  }
}

TEST_CASE("tasks: task_record::apply: the transitions, and nothing leaves an end", "[tasks]") {
  mcp::task_record r;
  r.id = "x";
  mcp::task_update ask;
  ask.ask = {{"k1", {{"method", "elicitation/create"}}}, {"k2", {{"method", "roots/list"}}}};
  CHECK(r.apply(ask, 5) == mcp::update_outcome::applied);
  CHECK(r.status == mcp::task_status::input_required);
  CHECK(r.last_updated_at == 5);
  mcp::task_update answers;
  answers.answers = {{"k1", {{"action", "accept"}}}, {"nope", 1}};
  r.apply(answers, 6);
  CHECK(r.status == mcp::task_status::input_required);
  CHECK(r.input_requests.size() == 1);
  CHECK(r.input_responses == json{{"k1", {{"action", "accept"}}}});
  mcp::task_update working;
  working.status = mcp::task_status::working;
  r.apply(working, 7);
  CHECK(r.status == mcp::task_status::input_required);  // a question is still open
  answers.answers = {{"k2", {{"roots", json::array()}}}};
  r.apply(answers, 8);
  CHECK(r.status == mcp::task_status::working);
  mcp::task_update taken;
  taken.forget = {"k1", "k2"};
  r.apply(taken, 9);
  CHECK(r.input_responses.empty());

  mcp::task_update done;
  done.status = mcp::task_status::completed;
  done.result = {{"content", json::array()}};
  CHECK(r.apply(done, 10) == mcp::update_outcome::applied);
  mcp::task_update cancel;
  cancel.cancel = true;
  CHECK(r.apply(cancel, 11) == mcp::update_outcome::terminal);
  CHECK(r.status == mcp::task_status::completed);
  CHECK_FALSE(r.cancel_requested);
  CHECK(r.last_updated_at == 10);

  // Records and updates survive JSON, as a shared store keeps them.
  r.ttl_ms = 1000;
  r.status_message = "all good";
  mcp::task_record back = mcp::task_record::from_json(json::parse(r.to_json().dump()));
  CHECK(back.to_json() == r.to_json());
  done.poll_interval_ms = 100;
  done.ttl_ms = std::optional<std::int64_t>();
  CHECK(mcp::task_update::from_json(json::parse(done.to_json().dump())).to_json() == done.to_json());
  auto refused = [](const json& j, const std::string& why) {
    INFO(j.dump());
    try {
      mcp::task_record::from_json(j);
      FAIL("accepted");
    } catch (const mcp::error& e) {
      CHECK(e.code() == mcp::error_code::task_refused);
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused(json::array(), "must be a JSON object");
  refused({{"status", "working"}}, "\"id\" is missing");
  refused({{"id", "x"}, {"status", "done"}}, "\"status\" must be working");
  refused({{"id", "x"}, {"status", "working"}, {"ttlMs", "1h"}}, "\"ttlMs\" must be an integer");
  refused({{"id", "x"}, {"status", "working"}, {"inputRequests", 3}}, "\"inputRequests\" must be an object");
}

TEST_CASE("tasks: ISO 8601 times in UTC", "[tasks]") {
  using mcp::detail::iso8601;
  CHECK(iso8601(0) == "1970-01-01T00:00:00.000Z");
  CHECK(iso8601(951782400000) == "2000-02-29T00:00:00.000Z");
  CHECK(iso8601(1787616000123) == "2026-08-25T00:00:00.123Z");
  CHECK(iso8601(-1) == "1969-12-31T23:59:59.999Z");
}

TEST_CASE("tasks: Mcp-Name must be the taskId on tasks/get, tasks/update and tasks/cancel", "[tasks]") {
  auto headers = [](std::map<std::string, std::string> h) {
    return [h = std::move(h)](std::string_view name) -> std::optional<std::string> {
      auto it = h.find(std::string(name));
      if (it == h.end()) return std::nullopt;
      return it->second;
    };
  };
  const json params = {{"taskId", "abc"}};
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    INFO(method);
    CHECK_FALSE(mcp::detail::check_standard_headers(headers({{"mcp-method", method}, {"mcp-name", "abc"}}), method, params, {}));
    auto wrong = mcp::detail::check_standard_headers(headers({{"mcp-method", method}, {"mcp-name", "abd"}}), method, params, {});
    REQUIRE(wrong);
    CHECK(wrong->find("params.taskId") != std::string::npos);
    CHECK(mcp::detail::check_standard_headers(headers({{"mcp-method", method}}), method, params, {}));
  }
  // tasks/result names no task on the wire: only the method is checked, and dispatch answers -32601.
  CHECK_FALSE(mcp::detail::check_standard_headers(headers({{"mcp-method", "tasks/result"}}), "tasks/result", params, {}));
}

TEST_CASE("tasks: a task an authenticated caller created is theirs alone; to others it does not exist", "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  auto who = [](const char* subject) {
    auto id = std::make_shared<mcp::identity>();
    id->subject = subject;
    return std::shared_ptr<const mcp::identity>(id);
  };
  mcp::testing::client c(srv);
  c.set_caller(who("ann"));
  const std::string id = started_task(c, "quick");
  CHECK(wait_for(c, id, "completed")["status"] == "completed");
  for (auto caller : {who("bob"), std::shared_ptr<const mcp::identity>()}) {
    c.set_caller(caller);
    for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"})
      CHECK(error_code_of(task_request(c, method, {{"taskId", id}, {"inputResponses", json::object()}})) == -32602);
  }
  c.set_caller(who("ann"));
  CHECK(get(c, id)["status"] == "completed");
  // Created by nobody (no authentication): anyone who knows the id reaches it.
  c.set_caller(nullptr);
  const std::string open = started_task(c, "quick");
  c.set_caller(who("bob"));
  CHECK(wait_for(c, open, "completed")["status"] == "completed");
}

TEST_CASE("tasks: hostile task requests get a specific error, never an echo of megabytes", "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("quick", "Quick", []() -> std::string { return "ok"; }, task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  json huge = task_request(c, "tasks/get", {{"taskId", std::string(1 << 20, 'x')}});
  CHECK(error_code_of(huge) == -32602);
  CHECK(huge["error"]["message"].get<std::string>().size() < 300);
  for (const json& bad : {json(nullptr), json::array(), json(1.5), json::object()}) {
    CHECK(error_code_of(task_request(c, "tasks/get", {{"taskId", bad}})) == -32602);
    CHECK(error_code_of(task_request(c, "tasks/cancel", {{"taskId", bad}})) == -32602);
  }
  const std::string id = started_task(c, "quick");
  // Answers of every shape to a task that asked nothing: ignored, acknowledged.
  json many = json::object();
  for (int i = 0; i < 1000; ++i) many["k" + std::to_string(i)] = json::array({i});
  CHECK(task_request(c, "tasks/update", {{"taskId", id}, {"inputResponses", many}})["result"]["resultType"] == "complete");
  CHECK(wait_for(c, id, "completed")["status"] == "completed");
  // The client's capabilities must hold an object of extensions for the declaration to count.
  CHECK(error_code_of(task_request(c, "tasks/get", {{"taskId", id}}, {{"extensions", "tasks"}})) == -32021);
  CHECK(error_code_of(task_request(c, "tasks/get", {{"taskId", id}}, {{"extensions", json::array()}})) == -32021);
}

TEST_CASE("tasks: ctx.progress() in a task sets its statusMessage", "[tasks]") {
  gate g;
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("steps", "Reports progress",
           [&](mcp::context& ctx) -> std::string {
             ctx.progress(1, 4);
             ctx.progress(2, 4, "Half way");
             g.wait(ctx);
             ctx.progress(3);
             return "done";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "steps");
  CHECK(eventually([&] { return get(c, id).value("statusMessage", "") == "Half way"; }));
  g.release();
  json done = wait_for(c, id, "completed");
  CHECK(done["statusMessage"] == "3");
  CHECK(c.messages().size() == 0);  // nothing was sent outside the responses
}

TEST_CASE("tasks: notifications/tasks go to a listen stream that asked for the task, and only then", "[tasks][listen]") {
  using namespace std::chrono_literals;
  gate g;
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("work", "Works until released", [&](mcp::context& ctx) -> std::string { return g.wait(ctx) ? "done" : "no"; },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "work");
  auto listen = [&](const char* listen_id, const json& caps, json notifications) {
    c.send(mcp::jsonrpc::request(listen_id, "subscriptions/listen",
                                 {{"notifications", std::move(notifications)},
                                  {"_meta",
                                   {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                    {"io.modelcontextprotocol/clientCapabilities", caps}}}}));
  };
  auto answer_to = [&](const char* listen_id) {
    return c.messages().take([&](const json& m) { return !m.contains("method") && m.value("id", json()) == listen_id; }, 2s);
  };
  auto ack_of = [&](const char* listen_id) {
    return c.messages().take(
        [&](const json& m) {
          return m.value("method", "") == "notifications/subscriptions/acknowledged" &&
                 m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id;
        },
        2s);
  };

  listen("L0", json::object(), {{"taskIds", {id}}});
  auto refused = answer_to("L0");
  REQUIRE(refused);
  CHECK((*refused)["error"]["code"] == -32021);
  listen("L1", tasks_caps, {{"taskIds", "all"}});
  refused = answer_to("L1");
  REQUIRE(refused);
  CHECK((*refused)["error"]["code"] == -32602);

  listen("L2", tasks_caps, {{"taskIds", {id, "nonexistent", 5}}});
  auto ack = ack_of("L2");
  REQUIRE(ack);
  CHECK((*ack)["params"]["notifications"]["taskIds"] == json{id});  // what exists, and is the caller's
  listen("L3", tasks_caps, {{"toolsListChanged", true}});
  REQUIRE(ack_of("L3"));

  g.release();
  auto completed = c.messages().take(
      [](const json& m) { return m.value("method", "") == "notifications/tasks" && m["params"]["status"] == "completed"; },
      10s);
  REQUIRE(completed);
  const json& p = (*completed)["params"];
  CHECK(p["taskId"] == id);
  CHECK(p["result"]["content"][0]["text"] == "done");
  CHECK(p["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L2");
  // Nothing for the stream that did not ask about tasks.
  CHECK_FALSE(c.messages().take(
      [](const json& m) {
        return m.value("method", "") == "notifications/tasks" && m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L3";
      },
      0s));

  // A server without tasks ignores the filter.
  mcp::server plain({"plain", "1.0.0"});
  plain.tool("t", "T", []() -> std::string { return "x"; });
  mcp::testing::client p2(plain);
  p2.send(mcp::jsonrpc::request("L9", "subscriptions/listen",
                                {{"notifications", {{"taskIds", {"x"}}}},
                                 {"_meta",
                                  {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                   {"io.modelcontextprotocol/clientCapabilities", json::object()}}}}));
  auto plain_ack = p2.messages().take([](const json& m) { return m.value("method", "") == "notifications/subscriptions/acknowledged"; }, 2s);
  REQUIRE(plain_ack);
  CHECK_FALSE((*plain_ack)["params"]["notifications"].contains("taskIds"));
}

namespace {
MCP_STRUCT_DEF(task_form, (std::string, name, "Your name"), (bool, sure, "Sure?"));
}  // namespace

TEST_CASE("tasks: a typed elicitation in a task: the form is plain JSON in inputRequests, the answer decodes", "[tasks]") {
  mcp::server srv({"tasks", "1.0.0"});
  mcp::enable_tasks(srv);
  srv.tool("typed", "Asks a typed form",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.elicit<task_form>("Who are you?");
             return answer.accepted() && answer.content->sure ? answer.content->name : "declined";
           },
           task_tool(mcp::task_mode::optional));
  mcp::testing::client c(srv);
  const std::string id = started_task(c, "typed", tasks_and_elicitation);
  json parked = wait_for(c, id, "input_required");
  REQUIRE(parked["status"] == "input_required");
  const std::string key = parked["inputRequests"].begin().key();
  const json& schema = parked["inputRequests"][key]["params"]["requestedSchema"];
  CHECK(schema["type"] == "object");
  CHECK(schema["properties"]["name"]["type"] == "string");
  CHECK(schema["properties"]["sure"]["type"] == "boolean");
  task_request(c, "tasks/update",
               {{"taskId", id}, {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"name", "Ann"}, {"sure", true}}}}}}}});
  CHECK(wait_for(c, id, "completed")["result"]["content"][0]["text"] == "Ann");
}

}  // namespace test_tasks
