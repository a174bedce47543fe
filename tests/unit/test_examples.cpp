// The example servers, built and driven as a client would: over real pipes, one process each.
#include "catch.hpp"
#include "subprocess.hpp"

#include <mcp/json/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_examples {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

std::string scratch_dir(const std::string& name) {
  std::string dir = std::string(MCP_TEST_BINARY_DIR) + "/scratch-" + name + "-" + std::to_string(getpid());
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return dir;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A client of one server process.
struct stdio_client {
  test::subprocess proc;
  long long next_id = 1;

  explicit stdio_client(std::vector<std::string> argv) : proc(std::move(argv)) {}

  json read(std::chrono::seconds timeout = 10s) {
    auto line = proc.read_line(timeout);
    REQUIRE(line);
    json j = json::parse(*line, nullptr, false);
    INFO(*line);
    REQUIRE_FALSE(j.is_discarded());
    return j;
  }
  json request(const std::string& method, json params = json::object()) {
    long long id = next_id++;
    proc.write_line(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump());
    json r = read();
    REQUIRE(r["id"] == id);
    return r;
  }
  json initialize() {
    json r = request("initialize", {{"protocolVersion", "2025-11-25"},
                                    {"capabilities", json::object()},
                                    {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
    proc.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    return r;
  }
  json call(const std::string& tool, json args) {
    json r = request("tools/call", {{"name", tool}, {"arguments", std::move(args)}});
    INFO(r.dump());
    REQUIRE(r.contains("result"));
    return r["result"];
  }
};

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

}  // namespace

#ifdef MCP_NOTES_BINARY

TEST_CASE("notes over real pipes: the JSON-RPC basics and a clean exit at end of input") {
  std::string dir = scratch_dir("basics");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  json init = c.initialize();
  CHECK(init["result"]["protocolVersion"] == "2025-11-25");
  CHECK(init["result"]["serverInfo"]["name"] == "notes");
  CHECK(init["result"]["capabilities"]["tools"] == json{{"listChanged", true}});
  CHECK(c.request("ping")["result"] == json::object());

  json tools = c.request("tools/list")["result"]["tools"];
  std::set<std::string> names;
  for (auto& t : tools) {
    names.insert(t["name"].get<std::string>());
    CHECK_FALSE(t["description"].get<std::string>().empty());
    CHECK(t["inputSchema"]["type"] == "object");
  }
  CHECK(names == std::set<std::string>{"create_note", "update_note", "search_notes", "read_note", "note_stats",
                                      "export_notes", "delete_note"});

  c.proc.write_line("{not json");
  json parse_error = c.read();
  CHECK(parse_error["error"]["code"] == -32700);
  c.proc.write_line(R"([{"jsonrpc":"2.0","id":90,"method":"ping"},{"jsonrpc":"2.0","id":91,"method":"ping"}])");
  json batch = c.read();
  CHECK(batch["error"]["code"] == -32600);
  CHECK_FALSE(batch.contains("id"));
  json unknown = c.request("no/such/method");
  CHECK(unknown["error"]["code"] == -32601);
  CHECK(c.request("ping")["result"] == json::object());  // still serving

  c.proc.close_stdin();
  CHECK(c.proc.wait(10s) == 0);
  CHECK_FALSE(c.proc.read_line(100ms));  // nothing else on stdout
}

#ifdef F_GETPIPE_SZ
TEST_CASE("notes over real pipes: serve_stdio widens both pipes to 1 MiB") {
  // A reply of a few hundred kilobytes then goes into the pipe at once, and the next call starts
  // while the client reads it. Linux lets a process go to pipe-max-size (1 MiB by default); root
  // may go beyond, and elsewhere the pipe keeps its 64 KiB.
  long long limit = 0;
  std::ifstream("/proc/sys/fs/pipe-max-size") >> limit;
  const int expected = geteuid() == 0 || limit >= (1 << 20) ? 1 << 20 : 65536;
  std::string dir = scratch_dir("pipes");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  c.initialize();  // it answers: it set its pipes up before reading
  CHECK(fcntl(c.proc.stdin_pipe(), F_GETPIPE_SZ) == expected);
  CHECK(fcntl(c.proc.stdout_pipe(), F_GETPIPE_SZ) == expected);
  c.proc.close_stdin();
  CHECK(c.proc.wait(10s) == 0);
}
#endif

TEST_CASE("notes: every tool and every error path") {
  std::string dir = scratch_dir("tools");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  c.initialize();

  json created = c.call("create_note", {{"title", "Groceries"}, {"body", "# Shop\nmilk eggs\n## Later\nbread"}});
  CHECK_FALSE(created.value("isError", false));
  CHECK(text_of(created) == "Created note 'Groceries' (team).");
  json dup = c.call("create_note", {{"title", "Groceries"}, {"body", "x"}});
  CHECK(dup["isError"] == true);
  CHECK(text_of(dup) == "A note titled 'Groceries' already exists. Use update_note to change it, or pick another title.");

  json short_title = c.call("create_note", {{"title", "ab"}, {"body", "x"}, {"visibility", "public"}});
  CHECK(short_title["isError"] == true);
  std::string why = text_of(short_title);
  CHECK(why.find("/title") != std::string::npos);
  CHECK(why.find("/visibility") != std::string::npos);
  CHECK(why.find("private") != std::string::npos);

  json priv = c.call("create_note", {{"title", "Diary"}, {"body", "private words here"}, {"visibility", "private"}});
  CHECK(text_of(priv) == "Created note 'Diary' (private).");

  json stats = c.call("note_stats", {{"title", "Groceries"}});
  CHECK(stats["structuredContent"]["word_count"] == 7);
  CHECK(stats["structuredContent"]["headings"] == json::array({"Shop", "Later"}));
  CHECK(stats["structuredContent"]["title"] == "Groceries");
  CHECK(json::parse(text_of(stats)) == stats["structuredContent"]);
  CHECK(c.call("note_stats", {{"title", "Nope"}})["isError"] == true);

  json updated = c.call("update_note", {{"title", "Groceries"}, {"body", "apples"}});
  CHECK(text_of(updated) == "Updated note 'Groceries'.");
  json missing = c.call("update_note", {{"title", "Nope"}, {"body", "x"}});
  CHECK(missing["isError"] == true);
  CHECK(text_of(missing).find("use search_notes") != std::string::npos);

  json read = c.call("read_note", {{"title", "Groceries"}});
  CHECK(read["structuredContent"]["body"] == "apples");

  json found = c.call("search_notes", {{"query", "WORDS"}});
  REQUIRE(found["structuredContent"]["notes"].size() == 1);
  CHECK(found["structuredContent"]["notes"][0]["title"] == "Diary");
  CHECK(found["structuredContent"]["total_matches"] == 1);
  CHECK_FALSE(found["structuredContent"].contains("next_cursor"));
  CHECK(c.call("search_notes", {{"query", "zebra"}})["structuredContent"]["total_matches"] == 0);
  CHECK(c.call("search_notes", {{"query", "x"}, {"limit", 51}})["isError"] == true);
  CHECK(c.call("search_notes", {{"query", "x"}, {"cursor", "bogus"}})["isError"] == true);

  json deleted = c.call("delete_note", {{"title", "Diary"}});
  CHECK(text_of(deleted) == "Deleted note 'Diary'.");
  CHECK(c.call("delete_note", {{"title", "Diary"}})["isError"] == true);
}

// The README's tour shows a prompt and a resource template on the notes server; the flagship has
// both, so a client's prompt and template paths can be tried on it (issue #56).
TEST_CASE("notes: the review_note prompt and the notes://{title} resource template") {
  std::string dir = scratch_dir("prompts");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  json init = c.initialize();
  CHECK(init["result"]["capabilities"].contains("prompts"));
  CHECK(init["result"]["capabilities"].contains("resources"));
  c.call("create_note", {{"title", "Trip plan"}, {"body", "# Day 1\nwalk 100% of the way"}});

  json prompts = c.request("prompts/list")["result"]["prompts"];
  REQUIRE(prompts.size() == 1);
  CHECK(prompts[0]["name"] == "review_note");
  CHECK(prompts[0]["arguments"] == json::array({{{"name", "title"}, {"description", "Title of the note to review"},
                                                 {"required", true}}}));
  json got = c.request("prompts/get", {{"name", "review_note"}, {"arguments", {{"title", "Trip plan"}}}})["result"];
  REQUIRE(got["messages"].size() == 1);
  CHECK(got["messages"][0]["role"] == "user");
  CHECK(got["messages"][0]["content"]["text"] == "Read the note 'Trip plan' and suggest clearer wording.");
  CHECK(c.request("prompts/get", {{"name", "review_note"}, {"arguments", json::object()}})["error"]["code"] == -32602);

  json templates = c.request("resources/templates/list")["result"]["resourceTemplates"];
  REQUIRE(templates.size() == 1);
  CHECK(templates[0]["uriTemplate"] == "notes://{title}");
  CHECK(templates[0]["name"] == "note");
  CHECK(templates[0]["mimeType"] == "text/markdown");
  // The title percent-encoded (the space), as a client expands the template.
  json read = c.request("resources/read", {{"uri", "notes://Trip%20plan"}})["result"];
  REQUIRE(read["contents"].size() == 1);
  CHECK(read["contents"][0]["uri"] == "notes://Trip%20plan");
  CHECK(read["contents"][0]["mimeType"] == "text/markdown");
  CHECK(read["contents"][0]["text"] == "# Day 1\nwalk 100% of the way");
  json unknown = c.request("resources/read", {{"uri", "notes://Nowhere"}});
  CHECK(unknown["error"]["code"] == -32002);
  CHECK(unknown["error"]["message"].get<std::string>().find("No note is titled 'Nowhere'") != std::string::npos);
  CHECK(c.request("resources/read", {{"uri", "notes://a/b"}})["error"]["code"] == -32002);  // no such URI

  c.proc.close_stdin();
  CHECK(c.proc.wait(10s) == 0);
}

TEST_CASE("notes: long bodies are cut with a marker, and pagination walks every match exactly once") {
  std::string dir = scratch_dir("pages");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  c.initialize();
  for (int i = 0; i < 23; ++i)
    c.call("create_note", {{"title", "Note " + std::to_string(100 + i)}, {"body", "common " + std::string(i == 0 ? 2000 : 10, 'z')}});
  std::multiset<std::string> seen;
  json args{{"query", "common"}, {"limit", 5}};
  int pages = 0;
  bool saw_marker = false;
  for (; pages < 20; ++pages) {
    json page = c.call("search_notes", args)["structuredContent"];
    CHECK(page["total_matches"] == 23);
    for (auto& n : page["notes"]) {
      seen.insert(n["title"].get<std::string>());
      std::string excerpt = n["excerpt"];
      if (excerpt.find("read_note") != std::string::npos) saw_marker = true;
      CHECK(excerpt.size() < 500);
    }
    if (!page.contains("next_cursor")) break;
    args["cursor"] = page["next_cursor"];
  }
  CHECK(pages == 4);
  CHECK(seen.size() == 23);
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 23);
  CHECK(saw_marker);
}

TEST_CASE("notes: notes persist across a restart") {
  std::string dir = scratch_dir("persist");
  {
    stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
    c.initialize();
    c.call("create_note", {{"title", "Kept"}, {"body", "still here"}});
    c.proc.close_stdin();
    CHECK(c.proc.wait(10s) == 0);
  }
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  c.initialize();
  CHECK(c.call("read_note", {{"title", "Kept"}})["structuredContent"]["body"] == "still here");
}

TEST_CASE("notes: a kill -9 during a burst of writes leaves a readable store with every acknowledged note") {
  std::string dir = scratch_dir("kill");
  std::string store = dir + "/notes.json";
  std::set<std::string> acknowledged;
  std::vector<std::string> other_replies;  // shown when the count is off
  {
    stdio_client c({MCP_NOTES_BINARY, "--store", store});
    c.initialize();
    // Pipeline many writes, read acknowledgements as they come, and kill mid-burst.
    std::string burst;
    for (int i = 0; i < 400; ++i)
      burst += json{{"jsonrpc", "2.0"}, {"id", 1000 + i}, {"method", "tools/call"},
                    {"params", {{"name", "create_note"}, {"arguments", {{"title", "Burst " + std::to_string(i)}, {"body", std::string(200, 'b')}}}}}}
                   .dump() + "\n";
    c.proc.write(burst);
    for (int i = 0; i < 60; ++i) {
      // Each acknowledgement follows an fsync, which a machine busy writing elsewhere can hold for
      // seconds (seen in CI under ASan): this test is about durability, not speed.
      json r = c.read(60s);
      if (r.contains("result") && !r["result"].value("isError", false))
        acknowledged.insert("Burst " + std::to_string(r["id"].get<int>() - 1000));
      else if (other_replies.size() < 5)
        other_replies.push_back(r.dump());
    }
    c.proc.signal(SIGKILL);
    c.proc.wait(10s);
  }
  for (const auto& r : other_replies) UNSCOPED_INFO(r);
  REQUIRE(acknowledged.size() == 60);
  json doc = json::parse(read_file(store), nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  std::set<std::string> stored;
  for (auto& n : doc["notes"]) stored.insert(n["title"].get<std::string>());
  for (auto& t : acknowledged) CHECK(stored.count(t) == 1);
  // And the server starts on it again.
  stdio_client c({MCP_NOTES_BINARY, "--store", store});
  c.initialize();
  CHECK_FALSE(c.call("read_note", {{"title", *acknowledged.begin()}}).value("isError", false));
}

TEST_CASE("notes: an export run as a task keeps its result through a kill -9 and a restart") {
  std::string dir = scratch_dir("task-restart");
  std::string store = dir + "/notes.json";
  const json caps = {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
  // A 2026-07-28 request over stdio: its _meta says the era and what the client can do.
  auto modern = [&](stdio_client& c, const std::string& method, json params) {
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientInfo", {{"name", "test"}, {"version", "1"}}},
                       {"io.modelcontextprotocol/clientCapabilities", caps}};
    json r = c.request(method, std::move(params));
    INFO(r.dump());
    REQUIRE(r.contains("result"));
    return r["result"];
  };
  std::string id;
  json finished = json::object();
  {
    stdio_client c({MCP_NOTES_BINARY, "--store", store});
    for (std::string title : {"Alpha", "Beta"})
      modern(c, "tools/call", {{"name", "create_note"}, {"arguments", {{"title", title + " note"}, {"body", "about " + title}}}});
    json created = modern(c, "tools/call", {{"name", "export_notes"}, {"arguments", json::object()}});
    REQUIRE(created["resultType"] == "task");
    id = created["taskId"];
    for (int i = 0; i < 500 && finished.value("status", "") != "completed"; ++i) {
      finished = modern(c, "tasks/get", {{"taskId", id}});
      if (finished["status"] != "completed") std::this_thread::sleep_for(20ms);
    }
    REQUIRE(finished["status"] == "completed");
    CHECK(finished["result"]["structuredContent"]["notes"] == 2);
    c.proc.signal(SIGKILL);
    c.proc.wait(10s);
  }
  stdio_client again({MCP_NOTES_BINARY, "--store", store});
  json after = modern(again, "tasks/get", {{"taskId", id}});
  CHECK(after["status"] == "completed");
  CHECK(after["result"] == finished["result"]);
  CHECK(after["result"]["structuredContent"]["markdown"] == "# Alpha note\n\nabout Alpha\n\n# Beta note\n\nabout Beta\n\n");
  // A client without the extension gets the same export as a plain answer, never a task.
  stdio_client legacy({MCP_NOTES_BINARY, "--store", store});
  legacy.initialize();
  json plain = legacy.call("export_notes", {{"query", "beta"}});
  CHECK(plain["structuredContent"]["notes"] == 1);
  CHECK_FALSE(plain.contains("taskId"));
}

TEST_CASE("notes: a corrupt store is reported on every call and left untouched") {
  std::string dir = scratch_dir("corrupt");
  std::string store = dir + "/notes.json";
  const std::string garbage = "{\"notes\": [ {\"title\": \"half";
  {
    std::ofstream out(store, std::ios::binary);
    out << garbage;
  }
  stdio_client c({MCP_NOTES_BINARY, "--store", store});
  c.initialize();
  for (auto [tool, args] : std::vector<std::pair<std::string, json>>{
           {"create_note", {{"title", "New one"}, {"body", "x"}}},
           {"search_notes", {{"query", "x"}}},
           {"delete_note", {{"title", "x"}}}}) {
    json r = c.call(tool, args);
    CHECK(r["isError"] == true);
    std::string text = text_of(r);
    CHECK(text.find(store) != std::string::npos);
    CHECK(text.find("not valid JSON") != std::string::npos);
  }
  CHECK(read_file(store) == garbage);
}

TEST_CASE("notes: --help and bad arguments") {
  {
    test::subprocess help({MCP_NOTES_BINARY, "--help"});
    auto first = help.read_line(5s);
    REQUIRE(first);
    CHECK(first->rfind("Usage: notes", 0) == 0);
    CHECK(help.wait(5s) == 0);
  }
  test::subprocess bad({MCP_NOTES_BINARY, "--frobnicate"});
  CHECK(bad.wait(5s) == 2);
  CHECK_FALSE(bad.read_line(100ms));  // errors go to stderr, never stdout
  CHECK(bad.stderr_text().find("unknown argument '--frobnicate'") != std::string::npos);
}

// note_changed (ext/events.hpp) over stdio: listed, polled from a cursor, pushed on a stream with a
// title filter while tools/call requests go on the same pipe, and the stream's final result at end
// of input.
TEST_CASE("notes: note_changed on create, update and delete, by poll and by push over stdio", "[events]") {
  std::string dir = scratch_dir("events");
  stdio_client c({MCP_NOTES_BINARY, "--store", dir + "/notes.json"});
  const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientInfo", {{"name", "test"}, {"version", "1"}}},
                     {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  std::vector<json> pushed;  // notifications read while waiting for a response
  auto send = [&](const json& id, const std::string& method, json params) {
    params["_meta"] = meta;
    c.proc.write_line(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump());
  };
  auto response = [&](const json& id) {
    for (int i = 0; i < 100; ++i) {
      json m = c.read();
      if (m.contains("id") && m["id"] == id && !m.contains("method")) return m;
      pushed.push_back(std::move(m));
    }
    FAIL("no response to " << id.dump());
    return json();
  };
  auto call = [&](const json& id, const std::string& method, json params) {
    send(id, method, std::move(params));
    json r = response(id);
    INFO(r.dump());
    REQUIRE(r.contains("result"));
    return r["result"];
  };
  auto tool = [&](const json& id, const std::string& name, json args) {
    CHECK_FALSE(call(id, "tools/call", {{"name", name}, {"arguments", std::move(args)}}).value("isError", false));
  };

  json listed = call("l", "events/list", json::object());
  REQUIRE(listed["events"].size() == 1);
  CHECK(listed["events"][0]["name"] == "note_changed");
  CHECK(listed["events"][0]["inputSchema"]["properties"].contains("title"));
  CHECK(listed["events"][0]["payloadSchema"]["properties"]["change"]["pattern"] == "^(created|updated|deleted)$");

  json from = call("p0", "events/poll", {{"name", "note_changed"}, {"cursor", nullptr}})["cursor"];
  send("s", "events/stream", {{"name", "note_changed"}, {"arguments", {{"title", "Groceries"}}}});
  tool(1, "create_note", {{"title", "Groceries"}, {"body", "milk"}});
  tool(2, "create_note", {{"title", "Other note"}, {"body", "x"}});
  tool(3, "update_note", {{"title", "Groceries"}, {"body", "milk, eggs"}});
  CHECK(call(4, "tools/call", {{"name", "update_note"}, {"arguments", {{"title", "Nowhere"}, {"body", "x"}}}})["isError"] == true);
  tool(5, "delete_note", {{"title", "Groceries"}});

  json polled = call("p1", "events/poll", {{"name", "note_changed"}, {"cursor", from}});
  std::vector<std::pair<std::string, std::string>> seen;
  for (const auto& e : polled["events"]) seen.emplace_back(e["data"]["title"], e["data"]["change"]);
  CHECK(seen == std::vector<std::pair<std::string, std::string>>{
                    {"Groceries", "created"}, {"Other note", "created"}, {"Groceries", "updated"}, {"Groceries", "deleted"}});
  CHECK(polled["truncated"] == false);
  // The same cursor with the title filter: only that note's changes.
  json one = call("p2", "events/poll", {{"name", "note_changed"}, {"cursor", from}, {"arguments", {{"title", "Other note"}}}});
  REQUIRE(one["events"].size() == 1);
  CHECK(one["events"][0]["data"] == json({{"title", "Other note"}, {"change", "created"}}));

  // The stream: active, then Groceries' three changes (never Other note), in order, each with the
  // stream's request id in _meta.
  for (int i = 0; i < 100; ++i) {
    std::size_t events = 0;
    for (const auto& m : pushed) events += m.value("method", "") == "notifications/events/event";
    if (events >= 3) break;
    pushed.push_back(c.read());
  }
  std::vector<std::string> changes;
  for (const auto& m : pushed) {
    if (m.value("method", "") != "notifications/events/event") continue;
    CHECK(m["params"]["data"]["title"] == "Groceries");
    CHECK(m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "s");
    changes.push_back(m["params"]["data"]["change"]);
  }
  CHECK(changes == std::vector<std::string>{"created", "updated", "deleted"});
  REQUIRE_FALSE(pushed.empty());
  CHECK(pushed.front()["method"] == "notifications/events/active");

  // End of input ends the stream with its final result, then the process exits.
  c.proc.close_stdin();
  json final_result = response("s");
  CHECK(final_result["result"]["resultType"] == "complete");
  CHECK(c.proc.wait(10s) == 0);
}

#endif

#ifdef MCP_USERS_BINARY

TEST_CASE("users: Markdown text blocks, N/A, lists, backticks, and every tool") {
  stdio_client c({MCP_USERS_BINARY});
  c.initialize();
  json ada = c.call("get_user", {{"id", 1}});
  CHECK(ada["structuredContent"]["name"] == "Ada Lovelace");
  std::string text = text_of(ada);
  CHECK(text.rfind("```", 0) == 0);
  CHECK(text.find("Name: Ada Lovelace") != std::string::npos);

  json alan = c.call("get_user", {{"id", 2}});
  CHECK(text_of(alan).find("Phone: N/A") != std::string::npos);
  CHECK_FALSE(alan["structuredContent"].contains("phone"));

  json edsger = c.call("get_user", {{"id", 4}});
  std::string fenced = text_of(edsger);
  CHECK(fenced.rfind("````", 0) == 0);  // longer than the ``` inside the notes
  CHECK(fenced.find("```no goto```") != std::string::npos);

  json admins = c.call("search_users", {{"query", ""}, {"access", "admin"}});
  CHECK(admins["structuredContent"]["users"].size() == 2);
  CHECK(text_of(admins).rfind("Found 2 users:", 0) == 0);
  CHECK(text_of(c.call("search_users", {{"query", "edsger"}})).rfind("Found 1 user:\n\n````\nId: 4\nName: Edsger", 0) == 0);
  json nobody = c.call("search_users", {{"query", "zzz"}});
  CHECK(nobody["structuredContent"]["users"].empty());
  CHECK(text_of(nobody).find("```") == std::string::npos);
  CHECK_FALSE(text_of(nobody).empty());

  json created = c.call("create_user", {{"name", "Ken Thompson"}, {"email", "ken@example.org"}});
  CHECK(created["structuredContent"]["id"] == 7);
  CHECK(created["structuredContent"]["access"] == "member");
  json dup = c.call("create_user", {{"name", "Ken again"}, {"email", "KEN@example.org"}});
  CHECK(dup["isError"] == true);
  CHECK(text_of(dup).find("update_user") != std::string::npos);
  json bad_email = c.call("create_user", {{"name", "X"}, {"email", "not-an-email"}});
  CHECK(bad_email["isError"] == true);
  CHECK(text_of(bad_email).find("/email") != std::string::npos);

  json updated = c.call("update_user", {{"id", 7}, {"phone", "+1 555"}});
  CHECK(updated["structuredContent"]["phone"] == "+1 555");
  CHECK(updated["structuredContent"]["name"] == "Ken Thompson");
  CHECK(c.call("update_user", {{"id", 99}})["isError"] == true);
  CHECK(text_of(c.call("delete_user", {{"id", 7}})) == "Deleted user 7 (Ken Thompson).");
  CHECK(c.call("delete_user", {{"id", 7}})["isError"] == true);
  CHECK(c.call("get_user", {{"id", 0}})["isError"] == true);
}

#endif

#ifdef MCP_SUBMIT_RESULT_BINARY

TEST_CASE("submit_result: schemas from a file, precise errors, accepted results appended") {
  std::string dir = scratch_dir("submit");
  std::string out = dir + "/results.jsonl";
  stdio_client c({MCP_SUBMIT_RESULT_BINARY, "--tools", std::string(MCP_EXAMPLES_DIR) + "/submit_result/tools.json", "--out", out});
  c.initialize();
  json tools = c.request("tools/list")["result"]["tools"];
  REQUIRE(tools.size() == 1);
  CHECK(tools[0]["name"] == "submit_result");

  json missing = c.call("submit_result", {{"summary", std::string(60, 's')}});
  CHECK(missing["isError"] == true);
  std::string why = text_of(missing);
  CHECK(why.find("findings") != std::string::npos);
  CHECK(why.find("parse") == std::string::npos);

  json bad = c.call("submit_result", {{"summary", "too short"}, {"findings", {{{"title", "Leak"}, {"confidence", "sure"}}}}});
  CHECK(bad["isError"] == true);
  CHECK(text_of(bad).find("/summary") != std::string::npos);
  CHECK(text_of(bad).find("/findings/0/confidence") != std::string::npos);
  CHECK(read_file(out).empty());

  json good_args = {{"summary", std::string(60, 's')}, {"findings", {{{"title", "Leak"}, {"confidence", "high"}}}}};
  json ok = c.call("submit_result", good_args);
  CHECK_FALSE(ok.value("isError", false));
  c.call("submit_result", good_args);
  std::istringstream lines(read_file(out));
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    CHECK(json::parse(line) == json{{"tool", "submit_result"}, {"arguments", good_args}});
  CHECK(count == 2);
}

TEST_CASE("submit_result: a bad schema stops start-up with a precise message") {
  std::string dir = scratch_dir("submit-bad");
  auto try_tools = [&](const json& tools) {
    {
      std::ofstream f(dir + "/tools.json");
      f << tools.dump();
    }
    test::subprocess p({MCP_SUBMIT_RESULT_BINARY, "--tools", dir + "/tools.json"});
    auto code = p.wait(10s);
    CHECK_FALSE(p.read_line(100ms));
    return std::make_pair(code, p.stderr_text());
  };
  auto [code1, err1] = try_tools({{"tools", {{{"name", "t"}, {"description", "d"}, {"inputSchema", {{"type", "array"}}}}}}});
  CHECK(code1 == 2);
  CHECK(err1.find("/tools/0") != std::string::npos);
  CHECK(err1.find("object") != std::string::npos);
  auto [code2, err2] = try_tools({{"tools", {{{"name", "t"}, {"description", "d"},
                                              {"inputSchema", {{"type", "object"}, {"properties", {{"a", {{"type", "strin"}}}}}}}}}}});
  CHECK(code2 == 2);
  CHECK(err2.find("strin") != std::string::npos);
  auto [code3, err3] = try_tools({{"tools", {{{"name", "bad name"}, {"description", "d"}, {"inputSchema", {{"type", "object"}}}}}}});
  CHECK(code3 == 2);
  CHECK(err3.find("bad name") != std::string::npos);
}

#endif

}  // namespace test_examples
