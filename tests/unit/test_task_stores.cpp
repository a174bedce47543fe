// The file task store (stores/file_task_store.hpp): what it keeps across a reopen (and a server's
// restart), what it does with tasks whose handler was lost, files that are not tasks, expiry,
// room, and ids that could name another file. mcp::replace_file underneath.
#include "catch.hpp"

#include <mcp/ext/tasks.hpp>
#include <mcp/stores/file_task_store.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
namespace fs = std::filesystem;

namespace test_task_stores {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

fs::path fresh_folder(const std::string& name) {
  static const std::string run = mcp::detail::new_task_id().substr(0, 8);  // apart from other runs of the tests
  fs::path dir = fs::temp_directory_path() / ("mcp-task-stores-" + run + "-" + name);
  fs::remove_all(dir);
  return dir;
}

mcp::task_record new_task() {
  mcp::task_record t;
  t.id = mcp::detail::new_task_id();
  t.ttl_ms = 60000;
  return t;
}

mcp::task_update finished(json result) {
  mcp::task_update u;
  u.status = mcp::task_status::completed;
  u.result = std::move(result);
  return u;
}

const json tasks_caps = {{"extensions", {{mcp::tasks_extension, json::object()}}}};

}  // namespace

TEST_CASE("file task store: what it keeps is there after a reopen, byte for byte", "[tasks]") {
  const fs::path dir = fresh_folder("reopen");
  std::string done_id, asking_id;
  const json result = {{"content", {{{"type", "text"}, {"text", "42 notes, \xC3\xA9t\xC3\xA9"}}}}, {"structuredContent", {{"n", 42}}}};
  {
    mcp::file_task_store store(dir);
    done_id = store.create(new_task()).id;
    CHECK(store.update(done_id, finished(result)) == mcp::update_outcome::applied);
    asking_id = store.create(new_task()).id;
    mcp::task_update ask;
    ask.ask = {{"q1", {{"method", "elicitation/create"}, {"params", {{"message", "sure?"}}}}}};
    CHECK(store.update(asking_id, ask) == mcp::update_outcome::applied);
    CHECK(store.get(asking_id)->status == mcp::task_status::input_required);
    CHECK(fs::exists(dir / (done_id + ".json")));
  }
  mcp::file_task_store reopened(dir);
  CHECK(reopened.unreadable().empty());
  CHECK(reopened.size() == 2);
  auto done = reopened.get(done_id);
  REQUIRE(done);
  CHECK(done->status == mcp::task_status::completed);
  CHECK(done->result == result);
  CHECK(done->detailed()["result"] == result);
  CHECK(reopened.update(done_id, finished(json::object())) == mcp::update_outcome::terminal);
  // Its handler ran in the process that stopped: failed, saying so, and on disk as failed.
  auto lost = reopened.get(asking_id);
  REQUIRE(lost);
  CHECK(lost->status == mcp::task_status::failed);
  CHECK(lost->error["code"] == -32603);
  CHECK(lost->error["message"].get<std::string>().find("stopped while this task was running") != std::string::npos);
  CHECK(lost->input_requests.empty());
  mcp::file_task_store third(dir);
  CHECK(third.get(asking_id)->status == mcp::task_status::failed);
  fs::remove_all(dir);
}

TEST_CASE("file task store: files that are not tasks are reported and left alone", "[tasks]") {
  const fs::path dir = fresh_folder("junk");
  fs::create_directories(dir);
  std::ofstream(dir / "torn.json") << "{\"id\": \"torn\", \"status\": ";
  std::ofstream(dir / "other.json") << R"({"id": "someone-else", "status": "completed"})";
  std::ofstream(dir / "bad-status.json") << R"({"id": "bad-status", "status": "sleeping"})";
  std::ofstream(dir / "deep.json") << std::string(500, '[') + std::string(500, ']');
  std::ofstream(dir / "abc.json.tmp") << "half a write";
  mcp::file_task_store store(dir);
  REQUIRE(store.unreadable().size() == 4);
  std::string all;
  for (const auto& u : store.unreadable()) all += u + "\n";
  CHECK(all.find("torn.json: ") != std::string::npos);
  CHECK(all.find("holds the task 'someone-else'") != std::string::npos);
  CHECK(all.find("\"status\" must be working") != std::string::npos);
  CHECK(store.size() == 0);
  CHECK(fs::exists(dir / "torn.json"));  // never deleted: someone may want it
  CHECK(fs::exists(dir / "abc.json.tmp"));
  fs::remove_all(dir);
}

TEST_CASE("file task store: expiry removes the file; a full store drops the oldest ended task, never a live one",
          "[tasks]") {
  const fs::path dir = fresh_folder("room");
  std::int64_t now = 1'000'000;
  mcp::file_task_store store(dir, 2, [&] { return now; });
  const std::string a = store.create(new_task()).id;
  now += 10;
  const std::string b = store.create(new_task()).id;
  CHECK_THROWS_WITH(store.create(new_task()), Catch::Matchers::Contains("tasks that have not ended, its limit"));
  store.update(a, finished(json::object()));
  const std::string c = store.create(new_task()).id;  // a made room
  CHECK_FALSE(store.get(a));
  CHECK_FALSE(fs::exists(dir / (a + ".json")));
  CHECK(store.get(b));
  now += 60000;  // past createdAt + ttlMs of b and c
  CHECK_FALSE(store.get(b));
  CHECK_FALSE(fs::exists(dir / (b + ".json")));
  CHECK(store.remove_expired() == 1);
  CHECK_FALSE(fs::exists(dir / (c + ".json")));
  CHECK(store.size() == 0);
  fs::remove_all(dir);
}

TEST_CASE("file task store: an id that could name another file is refused", "[tasks]") {
  const fs::path dir = fresh_folder("ids");
  // A folder whose parent is missing is refused rather than made with every folder above it.
  CHECK_THROWS_WITH(mcp::file_task_store(dir / "no" / "such"), Catch::Matchers::Contains("cannot make the task folder"));
  CHECK_FALSE(fs::exists(dir));
  mcp::file_task_store store(dir);
  for (const std::string& id : std::vector<std::string>{"", "../escape", "a/b", "a\\b", "C:x", std::string(129, 'a'), std::string("nul\0x", 5)}) {
    mcp::task_record t;
    t.id = id;
    CHECK_THROWS_WITH(store.create(t), Catch::Matchers::Contains("1 to 128 letters, digits"));
  }
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST_CASE("file task store: a server restarted on the same folder still answers tasks/get with the result",
          "[tasks]") {
  const fs::path dir = fresh_folder("restart");
  auto serve = [&](mcp::server& srv) {
    mcp::tool_options o;
    o.task = mcp::task_mode::required;
    srv.tool("count", "Counts.", [](mcp::context&) { return std::string("counted 7"); }, o);
  };
  std::string id;
  {
    mcp::server srv({"tasks", "1.0.0"});
    mcp::enable_tasks(srv, {std::make_shared<mcp::file_task_store>(dir)});
    serve(srv);
    mcp::testing::client c(srv);
    json created = c.stateless_request("tools/call", {{"name", "count"}, {"arguments", json::object()}}, tasks_caps);
    REQUIRE(created["result"]["resultType"] == "task");
    id = created["result"]["taskId"];
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (c.stateless_request("tasks/get", {{"taskId", id}}, tasks_caps)["result"]["status"] != "completed" &&
           std::chrono::steady_clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  mcp::server again({"tasks", "1.0.0"});
  mcp::enable_tasks(again, {std::make_shared<mcp::file_task_store>(dir)});
  serve(again);
  mcp::testing::client c(again);
  json task = c.stateless_request("tasks/get", {{"taskId", id}}, tasks_caps)["result"];
  CHECK(task["status"] == "completed");
  CHECK(task["result"]["content"][0]["text"] == "counted 7");
  CHECK(c.stateless_request("tasks/cancel", {{"taskId", id}}, tasks_caps)["result"]["resultType"] == "complete");
  CHECK(c.stateless_request("tasks/get", {{"taskId", id}}, tasks_caps)["result"]["status"] == "completed");
  fs::remove_all(dir);
}

TEST_CASE("replace_file: the new content whole, and a clear error where it cannot write", "[tasks]") {
  const fs::path dir = fresh_folder("replace");
  fs::create_directories(dir);
  const std::string path = (dir / "f.json").string();
  CHECK(mcp::replace_file(path, "one").empty());
  CHECK(mcp::replace_file(path, std::string(100000, 'x')).empty());
  CHECK(mcp::read_file(path) == std::string(100000, 'x'));
  CHECK_FALSE(fs::exists(path + ".tmp"));
  const std::string problem = mcp::replace_file((dir / "no-such-folder" / "f.json").string(), "x");
  CHECK(problem.find("cannot write") != std::string::npos);
  CHECK(mcp::read_file(path) == std::string(100000, 'x'));
  CHECK_FALSE(mcp::read_file((dir / "absent").string()));
  fs::remove_all(dir);
}

}  // namespace test_task_stores
