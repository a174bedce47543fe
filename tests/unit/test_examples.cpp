// The example servers, built and driven as a client would: over real pipes, one process each.
#include "catch.hpp"
#include "subprocess.hpp"

#include <mcp/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

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

  json read() {
    auto line = proc.read_line(10s);
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
  CHECK(names == std::set<std::string>{"create_note", "update_note", "search_notes", "read_note", "note_stats", "delete_note"});

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
      json r = c.read();
      if (r.contains("result") && !r["result"].value("isError", false))
        acknowledged.insert("Burst " + std::to_string(r["id"].get<int>() - 1000));
    }
    c.proc.signal(SIGKILL);
    c.proc.wait(10s);
  }
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

#endif
