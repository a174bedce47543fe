// The experimental tasks of 2025-11-25 (task-augmented tools/call, tasks/get, tasks/result,
// tasks/list, tasks/cancel, the tasks capability, execution.taskSupport), served by the same
// handlers and store as the 2026-07-28 extension (test_tasks.cpp). Waits poll with a generous
// limit; nothing asserts how fast anything is.
#include "catch.hpp"

#include <mcp/ext/tasks.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>

using mcp::json;

namespace test_tasks_legacy {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

MCP_STRUCT_DEF(count_args, (int, upto, "Count to this", mcp::minimum(0)));
MCP_STRUCT_DEF(counted, (int, total, "The sum"));

// A server with a tool of each mode; `hold` keeps the optional one running until it is cleared.
struct served {
  std::atomic<bool> hold{false};
  std::atomic<bool> saw_cancel{false};
  std::atomic<int> started{0};  // handler runs begun
  mcp::server srv{{"tasks-legacy", "1.0.0"}};
  served() {
    mcp::enable_tasks(srv);
    mcp::tool_options optional;
    optional.task = mcp::task_mode::optional;
    srv.tool("sum", "Sums 1..upto.", [this](const count_args& in, mcp::context& ctx) -> mcp::result<counted> {
      ++started;
      while (hold && !ctx.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (ctx.cancelled()) saw_cancel = true;
      if (in.upto == 13) return mcp::tool_error("13 is unlucky; pick another number.");
      if (in.upto == 99) throw mcp::protocol_error(-32099, "the abacus broke", json{{"bead", 7}});
      return counted{in.upto * (in.upto + 1) / 2};
    }, optional);
    mcp::tool_options required;
    required.task = mcp::task_mode::required;
    srv.tool("report", "Only as a task.", [](mcp::context&) { return std::string("the report"); }, required);
    srv.tool("ask", "Asks the user; only as a task.", [](mcp::context& ctx) {
      (void)ctx.elicit("Sure?", {{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}});
      return std::string("asked");
    }, required);
    srv.tool("plain", "Never a task.", [](mcp::context&) { return std::string("plain"); });
  }
};

json call_as_task(mcp::testing::client& c, const std::string& tool, json arguments = json::object()) {
  return c.request("tools/call", {{"name", tool}, {"arguments", std::move(arguments)}, {"task", {{"ttl", 60000}}}});
}

json wait_ended(mcp::testing::client& c, const std::string& id) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  json task;
  do {
    task = c.result("tasks/get", {{"taskId", id}});
    const std::string s = task["status"];
    if (s == "completed" || s == "failed" || s == "cancelled") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } while (std::chrono::steady_clock::now() < limit);
  return task;
}

}  // namespace

TEST_CASE("tasks 2025-11-25: the capability and each tool's execution.taskSupport; none of it in 2026-07-28",
          "[tasks]") {
  served s;
  mcp::testing::client c(s.srv);
  json init = c.initialize();
  CHECK(init["capabilities"]["tasks"] ==
        json{{"list", json::object()}, {"cancel", json::object()}, {"requests", {{"tools", {{"call", json::object()}}}}}});
  std::map<std::string, json> tools;
  const json listed = c.result("tools/list");  // a copy: a loop over a temporary's member would dangle
  for (const auto& t : listed["tools"]) tools[t["name"].get<std::string>()] = t;
  CHECK(tools["sum"]["execution"] == json{{"taskSupport", "optional"}});
  CHECK(tools["report"]["execution"] == json{{"taskSupport", "required"}});
  CHECK_FALSE(tools["plain"].contains("execution"));

  mcp::testing::client modern(s.srv);
  json discover = modern.stateless_request("server/discover")["result"];
  CHECK_FALSE(discover["capabilities"].contains("tasks"));
  CHECK(discover["capabilities"]["extensions"].contains(mcp::tasks_extension));
  const json modern_tools = modern.stateless_request("tools/list")["result"]["tools"];
  for (const auto& t : modern_tools) CHECK_FALSE(t.contains("execution"));

  mcp::server none({"no-tasks", "1.0.0"});
  none.tool("plain", "Never a task.", [](mcp::context&) { return std::string("plain"); });
  mcp::testing::client n(none);
  CHECK_FALSE(n.initialize()["capabilities"].contains("tasks"));
  // A server that offers no tasks ignores params.task, as the spec asks.
  CHECK(call_as_task(n, "plain")["result"]["content"][0]["text"] == "plain");
}

TEST_CASE("tasks 2025-11-25: a task-augmented call, tasks/get, tasks/result with the related-task _meta, tasks/list",
          "[tasks]") {
  served s;
  mcp::testing::client c(s.srv);
  c.initialize();
  json created = call_as_task(c, "sum", {{"upto", 4}});
  INFO(created.dump());
  REQUIRE(created.contains("result"));
  const json& task = created["result"]["task"];
  CHECK_FALSE(created["result"].contains("resultType"));  // a 2026-07-28 word
  const std::string id = task["taskId"];
  CHECK(id.size() == 32);
  CHECK(task["ttl"].is_number_integer());
  CHECK(task["pollInterval"].is_number_integer());
  CHECK_FALSE(task.contains("ttlMs"));
  CHECK(task["status"] == "working");

  json result = c.result("tasks/result", {{"taskId", id}});  // waits for the end
  CHECK(result["structuredContent"] == json{{"total", 10}});
  CHECK(result["content"][0]["text"] == R"({"total":10})");
  CHECK(result["_meta"]["io.modelcontextprotocol/related-task"] == json{{"taskId", id}});
  CHECK_FALSE(result.contains("resultType"));
  json got = c.result("tasks/get", {{"taskId", id}});
  CHECK(got["status"] == "completed");
  CHECK_FALSE(got.contains("result"));  // a 2025 Task says only how it stands

  // The same tool without params.task answers at once; a tool error ends the task as completed.
  CHECK(c.call_tool("sum", {{"upto", 3}})["structuredContent"]["total"] == 6);
  const std::string unlucky = call_as_task(c, "sum", {{"upto", 13}})["result"]["task"]["taskId"];
  json tool_error = c.result("tasks/result", {{"taskId", unlucky}});
  CHECK(tool_error["isError"] == true);
  CHECK(wait_ended(c, unlucky)["status"] == "completed");
  // A protocol error ends it as failed, and tasks/result answers with that error.
  const std::string broken = call_as_task(c, "sum", {{"upto", 99}})["result"]["task"]["taskId"];
  json failed = c.request("tasks/result", {{"taskId", broken}});
  CHECK(failed["error"]["code"] == -32099);
  CHECK(failed["error"]["message"] == "the abacus broke");
  CHECK(failed["error"]["data"] == json{{"bead", 7}});
  CHECK(wait_ended(c, broken)["status"] == "failed");

  const json all = c.result("tasks/list");
  std::set<std::string> ids;
  for (const auto& t : all["tasks"]) ids.insert(t["taskId"].get<std::string>());
  CHECK(ids == std::set<std::string>{id, unlucky, broken});

  // Tasks are the session's: another session sees none of them.
  mcp::testing::client other(s.srv);
  other.initialize();
  CHECK(other.result("tasks/list")["tasks"].empty());
  CHECK(other.request("tasks/get", {{"taskId", id}})["error"]["code"] == -32602);
  CHECK(other.request("tasks/result", {{"taskId", id}})["error"]["code"] == -32602);
}

TEST_CASE("tasks 2025-11-25: the rules of each mode, cancel, and what that era cannot do", "[tasks]") {
  served s;
  mcp::testing::client c(s.srv);
  c.initialize("2025-11-25", {{"elicitation", json::object()}});
  json refused = c.request("tools/call", {{"name", "report"}, {"arguments", json::object()}});
  CHECK(refused["error"]["code"] == -32601);
  CHECK(refused["error"]["message"].get<std::string>().find("call it with params.task") != std::string::npos);
  CHECK(call_as_task(c, "plain")["error"]["code"] == -32601);  // forbidden, on a server that offers tasks
  json report = call_as_task(c, "report");
  CHECK(c.result("tasks/result", {{"taskId", report["result"]["task"]["taskId"]}})["content"][0]["text"] == "the report");

  s.hold = true;
  const int before = s.started;
  const std::string id = call_as_task(c, "sum", {{"upto", 5}})["result"]["task"]["taskId"];
  // Cancel once the handler runs (a task cancelled while queued never runs it: nothing to see).
  const auto begun = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (s.started == before && std::chrono::steady_clock::now() < begun) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(s.started > before);
  json cancelled = c.result("tasks/cancel", {{"taskId", id}});
  CHECK(cancelled["status"] == "cancelled");
  CHECK(cancelled["taskId"] == id);
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!s.saw_cancel && std::chrono::steady_clock::now() < limit) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  CHECK(s.saw_cancel);
  s.hold = false;
  CHECK(c.result("tasks/get", {{"taskId", id}})["status"] == "cancelled");
  json again = c.request("tasks/cancel", {{"taskId", id}});
  CHECK(again["error"]["code"] == -32602);  // 2025-11-25: a terminal task cannot be cancelled
  CHECK(again["error"]["message"].get<std::string>().find("already ended (cancelled)") != std::string::npos);
  json no_result = c.request("tasks/result", {{"taskId", id}});
  CHECK(no_result["error"]["message"].get<std::string>().find("cancelled") != std::string::npos);

  // No tasks/update in this era, and a task cannot ask: it fails, saying why.
  CHECK(c.request("tasks/update", {{"taskId", id}, {"inputResponses", json::object()}})["error"]["code"] == -32601);
  const std::string asking = call_as_task(c, "ask")["result"]["task"]["taskId"];
  json failed = c.request("tasks/result", {{"taskId", asking}});
  CHECK(failed["error"]["message"].get<std::string>().find("cannot ask the client for input") != std::string::npos);
  CHECK(c.request("tasks/get", {{"taskId", "nope"}})["error"]["code"] == -32602);
  CHECK(c.request("tasks/get", json::object())["error"]["code"] == -32602);

  // 2026-07-28 has neither tasks/result nor tasks/list.
  mcp::testing::client modern(s.srv);
  const json caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}};
  CHECK(modern.stateless_request("tasks/result", {{"taskId", id}}, caps)["error"]["code"] == -32601);
  CHECK(modern.stateless_request("tasks/list", json::object(), caps)["error"]["code"] == -32601);
}

}  // namespace test_tasks_legacy
