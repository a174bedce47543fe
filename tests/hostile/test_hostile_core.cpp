// Hostile input in process, for the SDK fixes the fuzzers and the hostile suite led to.
#include "catch.hpp"

#include <mcp/ext/tasks.hpp>
#include <mcp/tools/tool.hpp>
#include <mcp/testing.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

using mcp::json;

namespace hostile_core {

struct wide {
  float level = 0;
};
MCP_STRUCT(wide, (level, "Level"));

json initialize_request() {
  return mcp::jsonrpc::request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
}

}  // namespace hostile_core

TEST_CASE("hostile core: a NUL byte makes the text invalid JSON, wherever it is", "[hostile]") {
  mcp::server srv({"nul", "1.0"});
  mcp::testing::client c(srv);
  c.initialize();
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  for (const std::string& text : {ping + std::string(1, '\0'), ping + std::string("\0garbage{{", 10),
                                  std::string(1, '\0') + ping, std::string(1, '\0')}) {
    c.send_text(text);
    auto got = c.messages().drain();
    REQUIRE(got.size() == 1);
    CHECK(got[0]["error"]["code"] == mcp::error_code::parse_error);
  }
  // An escaped NUL inside a string is fine.
  c.send_text(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"a\u0000b"}})");
  auto got = c.messages().drain();
  REQUIRE(got.size() == 1);
  CHECK(got[0]["id"] == 2);
  CHECK(got[0].contains("result"));
}

TEST_CASE("hostile core: a number the type cannot hold is an argument error", "[hostile]") {
  std::string logged;
  mcp::server_options options;
  options.log_sink = [&](std::string_view text) { logged += text; };
  mcp::server srv({"float", "1.0"}, options);
  srv.tool("set_level", "Sets the level", [](const hostile_core::wide& in) { return std::to_string(in.level); });
  mcp::testing::client c(srv);
  c.initialize();
  json r = c.call_tool("set_level", {{"level", 1e39}});
  CHECK(r["isError"] == true);
  const std::string text = r["content"][0]["text"];
  CHECK(text.find("/level") != std::string::npos);
  CHECK(text.find("must be at most") != std::string::npos);  // the schema carries float's range
  CHECK(text.find("internal error") == std::string::npos);
  CHECK(logged.empty());  // not a server fault
  CHECK_FALSE(c.call_tool("set_level", {{"level", 2.5}}).value("isError", false));
}

TEST_CASE("hostile core: ended sessions do not pile up in a server that never notifies", "[hostile]") {
  mcp::server srv({"sessions", "1.0"});
  auto sink = std::make_shared<mcp::function_outbound>([](const json&) {});
  for (int i = 0; i < 50; ++i) {
    mcp::connection conn(srv, sink);
    conn.receive(mcp::detail::to_json_text(hostile_core::initialize_request()));
    REQUIRE(conn.protocol_version() == "2025-11-25");
  }
  // The server keeps a weak reference to each initialized session (for notify_all), and a weak
  // reference keeps the session's memory (made with make_shared): ended ones are dropped at the
  // next initialize, so at most the last one is left.
  CHECK(mcp::detail::server_access::sessions_held(srv) <= 1);
}

TEST_CASE("hostile core: tasks a client abandons, parked for input or flooding in, neither pile up nor hold up the end",
          "[hostile]") {
  const json caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}, {"elicitation", json::object()}};
  auto store = std::make_shared<mcp::memory_task_store>(64);
  std::vector<std::string> ids;
  {
    mcp::task_options options;
    options.store = store;
    options.max_running = 4;
    options.max_queued = 4;
    mcp::server srv({"tasks", "1.0"});
    mcp::enable_tasks(srv, options);
    mcp::tool_options as_task;
    as_task.task = mcp::task_mode::required;
    srv.tool("ask", "Asks and waits for an hour",
             [](mcp::context& ctx) -> std::string {
               ctx.ask(mcp::elicitation_input("q", "?", json{{"type", "object"}}), std::chrono::hours(1));
               return "answered";
             },
             as_task);
    mcp::testing::client c(srv);
    int refused = 0;
    for (int i = 0; i < 40; ++i) {
      json r = c.stateless_request("tools/call", {{"name", "ask"}, {"arguments", json::object()}}, caps);
      if (r.contains("error")) {
        CHECK(r["error"]["code"] == -32603);
        ++refused;
      } else {
        ids.push_back(r["result"]["taskId"]);
      }
    }
    CHECK(ids.size() == 8);  // four waiting for input, four queued behind them
    CHECK(refused == 32);
    auto tasks = std::dynamic_pointer_cast<mcp::detail::task_service>(mcp::detail::server_access::seam(srv));
    REQUIRE(tasks);
    CHECK(tasks->threads() <= 4);
    // Answers for keys never asked, of every shape, change nothing and cost nothing.
    for (const auto& id : ids)
      c.stateless_request("tasks/update", {{"taskId", id}, {"inputResponses", {{"x", nullptr}, {"q-9", 1}}}}, caps);
  }  // the server ends: its waits end at once, not in an hour
  for (const auto& id : ids) {
    auto task = store->get(id);
    REQUIRE(task);
    CHECK(task->status == mcp::task_status::failed);
  }
}
