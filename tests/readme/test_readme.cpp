// The README's code blocks, compiled where the README shows them (at namespace scope, or inside a
// function that has `srv` and `nb`), then run: what the README says they do is checked here.
// tests/readme/snippets.cmake takes them out of README.md at configure time; a compiler error in
// one names the README's line. Part of the unit test executable (mcp_tests, and mcp_tests_cxx20
// for the C++20 spelling).
#include "catch.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/ext/tasks.hpp>
#include <mcp/transport/http.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "snippets/includes.inc"  // every #include of the README's blocks, here at global scope

using mcp::json;

namespace readme {

// --- the tutorial: four blocks, one program (its main is readme::main, compiled, never called:
// the readme_without_cmake ctest builds and runs the same blocks as a program of their own) -----
#include "snippets/tutorial_arguments.inc"
#include "snippets/tutorial_create_note.inc"
#include "snippets/tutorial_search.inc"
#include "snippets/tutorial_main.inc"

// --- the tour (README.md), then the short forms in examples/README.md ------------------------------
#include "snippets/tour_resources_prompts.inc"
#include "snippets/tour_testing.inc"  // a TEST_CASE of its own
#include "snippets/tour_elicit.inc"

#include "snippets/tour_context.inc"

void add_submit_finding(mcp::server& srv) {
#include "snippets/tour_runtime_schema.inc"
}

// A stand-in for a real verifier (tests/unit/test_http_auth.cpp and the jwt_example ctest verify
// over a socket): "Bearer ann" is ann, with the scope notes:write.
std::optional<mcp::identity> verify_token(std::optional<std::string_view> authorization) {
  if (authorization != std::optional<std::string_view>("Bearer ann")) return std::nullopt;
  mcp::identity ann;
  ann.subject = "ann";
  ann.scopes = {"notes:write"};
  return ann;
}

void add_seams(mcp::server& srv, mcp::http::options& http_options) {
#include "snippets/tour_middleware.inc"
}

void add_note_count_app(mcp::server& srv, notebook& nb, const std::string& html) {
#include "snippets/tour_apps.inc"
}

void add_export_task(mcp::server& srv, notebook& nb) {
#include "snippets/tour_tasks.inc"
}

std::pair<mcp::tool_options, mcp::tool_options> markdown_and_count() {
#include "snippets/tour_markdown.inc"
  return {markdown, count};
}

// Compiled only: it serves until SIGINT (the HTTP tests run the same calls on a free port).
[[maybe_unused]] int serve_http(mcp::server& srv) {
#include "snippets/tour_http.inc"
}

// Compiled only: it listens (tests/unit/test_http_embed.cpp runs the same calls).
[[maybe_unused]] void embedding(mcp::server& srv, asio::io_context& io) {
#include "snippets/embedding.inc"
  (void)answer;
}

#if __cplusplus >= 202002L
std::pair<mcp::server_info, mcp::tool_options> spelling_cxx20() {
#include "snippets/spelling_cxx20.inc"
  return {srv.info(), read_only};
}
#endif

// "int limit = 0; stays required".
struct zero_default {
  int limit = 0;
};
MCP_STRUCT(zero_default, (limit, "Notes per page"));

// A block as written in the README; `path` is relative to the folder of the snippets/ folder.
std::string snippet_text(const std::string& path) {
  std::ifstream in(std::string(MCP_README_SNIPPET_DIR) + "/" + path, std::ios::binary);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string text_of(const json& result) { return result.at("content").at(0).at("text").get<std::string>(); }

struct tutorial_server {
  mcp::server srv{{"notes", "1.0.0"}};
  notebook nb;
  tutorial_server() {
    add_create_note(srv, nb);
    add_search_notes(srv, nb);
  }
};

}  // namespace readme

using namespace readme;

TEST_CASE("README tutorial: the required rule as the README states it", "[readme]") {
  const json& schema = mcp::schema_of<create_note_args>();
  CHECK(schema["required"] == json({"title", "body"}));
  CHECK(schema["properties"]["vis"]["default"] == "team");
  CHECK(schema["properties"]["vis"]["enum"] == json({"private", "team"}));
  CHECK(schema["properties"]["title"]["minLength"] == 3);
  CHECK(schema["additionalProperties"] == false);
  CHECK(mcp::schema_of<zero_default>()["required"] == json({"limit"}));
  CHECK(mcp::schema_of<search_args>()["required"] == json({"query"}));  // int limit = 5: optional
}

TEST_CASE("README tutorial: create_note answers the refusal the README shows", "[readme]") {
  tutorial_server t;
  mcp::testing::client client(t.srv);
  client.initialize();
  json refused = client.call_tool("create_note", {{"title", "ab"}, {"body", "x"}, {"vis", "public"}});
  CHECK(refused["isError"] == true);
  CHECK(text_of(refused) == snippet_text("snippets/tutorial_refusal.txt"));
  CHECK(t.nb.notes.empty());

  json made = client.call_tool("create_note", {{"title", "Groceries"}, {"body", "milk"}});
  CHECK_FALSE(made.contains("isError"));
  CHECK(text_of(made) == "Created note 'Groceries'.");
  json again = client.call_tool("create_note", {{"title", "Groceries"}, {"body", "eggs"}});
  CHECK(again["isError"] == true);
  CHECK(text_of(again).find("already exists") != std::string::npos);
}

TEST_CASE("README tutorial: search_notes has an output schema, annotations, pages and cut text", "[readme]") {
  tutorial_server t;
  for (int i = 0; i < 7; ++i) t.nb.notes["note " + std::to_string(i)] = "milk " + std::string(i == 0 ? 300 : 10, 'x');
  t.nb.notes["other"] = "bread";
  mcp::testing::client client(t.srv);
  client.initialize();

  json tools = client.result("tools/list")["tools"];
  json search;
  for (const auto& tool : tools)
    if (tool["name"] == "search_notes") search = tool;
  REQUIRE(search.is_object());
  CHECK(search["annotations"]["readOnlyHint"] == true);
  CHECK(search["outputSchema"]["properties"].contains("next_cursor"));
  CHECK(search["inputSchema"]["properties"]["limit"]["default"] == 5);

  json first = client.call_tool("search_notes", {{"query", "milk"}});
  REQUIRE_FALSE(first.contains("isError"));
  const json& page = first["structuredContent"];
  REQUIRE(page["notes"].size() == 5);
  CHECK(page["notes"][0].get<std::string>().find("[truncated: showed 200 of") != std::string::npos);
  REQUIRE(page["next_cursor"].is_string());
  CHECK(json::parse(text_of(first)) == page);  // the text block is the compact JSON

  json second = client.call_tool("search_notes", {{"query", "milk"}, {"cursor", page["next_cursor"]}});
  CHECK(second["structuredContent"]["notes"].size() == 2);
  CHECK_FALSE(second["structuredContent"].contains("next_cursor"));

  json replayed = client.call_tool("search_notes", {{"query", "bread"}, {"cursor", page["next_cursor"]}});
  CHECK(replayed["isError"] == true);
  CHECK(text_of(replayed).find("belongs to another query") != std::string::npos);
}

TEST_CASE("README tour: resources and prompts", "[readme]") {
  tutorial_server t;
  add_resources_and_prompts(t.srv, t.nb);
  t.nb.notes["Groceries"] = "milk";
  mcp::testing::client client(t.srv);
  client.initialize();

  json read = client.result("resources/read", {{"uri", "notes://Groceries"}});
  CHECK(read["contents"][0]["text"] == "milk");
  json missing = client.request("resources/read", {{"uri", "notes://Nothing"}});
  CHECK(missing["error"]["code"] == mcp::error_code::resource_not_found);

  json prompt = client.result("prompts/get", {{"name", "review_note"}, {"arguments", {{"title", "Groceries"}}}});
  CHECK(prompt["messages"][0]["role"] == "user");
  CHECK(prompt["messages"][0]["content"]["text"].get<std::string>().find("'Groceries'") != std::string::npos);
}

TEST_CASE("README tour: the context asks, reports progress and logs", "[readme]") {
  mcp::server srv({"notes", "1.0.0"});
  notebook nb;
  nb.notes = {{"a", "1"}, {"b", "2"}};
  add_clear_notes(srv, nb);
  // The handler waits for the client's answer, so it runs on a thread of its own.
  std::vector<std::thread> threads;
  mcp::testing::client client(srv, [&threads](std::function<void()> work) { threads.emplace_back(std::move(work)); });
  client.initialize("2025-11-25", {{"elicitation", json::object()}});

  json id = client.start_request("tools/call", {{"name", "clear_notes"}, {"_meta", {{"progressToken", "p"}}}});
  auto asked = client.messages().take([](const json& m) { return m.value("method", "") == "elicitation/create"; },
                                      std::chrono::seconds(10));
  REQUIRE(asked);
  CHECK((*asked)["params"]["message"] == "Delete every note?");
  // The form derived from `confirm`: one boolean, required.
  const json& form = (*asked)["params"]["requestedSchema"];
  CHECK(form["properties"]["sure"]["type"] == "boolean");
  CHECK(form["required"] == json::array({"sure"}));
  client.send({{"jsonrpc", "2.0"}, {"id", (*asked)["id"]}, {"result", {{"action", "accept"}, {"content", {{"sure", true}}}}}});
  json reply = client.wait_response(id);
  for (auto& th : threads) th.join();
  CHECK(text_of(reply["result"]) == "Deleted every note.");
  CHECK(nb.notes.empty());
  bool progressed = false, logged = false;
  for (const auto& m : client.messages().drain()) {
    progressed = progressed || (m["method"] == "notifications/progress" && m["params"]["progressToken"] == "p");
    logged = logged || (m["method"] == "notifications/message" && m["params"]["data"] == "every note deleted");
  }
  CHECK(progressed);
  CHECK(logged);
}

TEST_CASE("README tour: middleware, an extension, identity and scopes", "[readme]") {
  mcp::server srv({"notes", "1.0.0"});
  notebook nb;
  nb.notes = {{"a", "1"}};
  add_clear_notes(srv, nb);
  mcp::http::options http_options;
  add_seams(srv, http_options);
  mcp::testing::client plain(srv);
  json init = plain.initialize();
  CHECK(init["capabilities"]["extensions"].contains("com.example/admin"));
  json refused = plain.call_tool("clear_notes");
  CHECK(refused["isError"] == true);
  CHECK(text_of(refused) == "clear_notes is for admin clients only.");
  CHECK(nb.notes.size() == 1);

  // The authorize hook: who calls, or a refusal; whoami is for callers with notes:write.
  const auto ann = http_options.authorize(mcp::http::auth_request{"POST", "/mcp", std::string_view("Bearer ann")});
  REQUIRE(ann.allowed);
  REQUIRE(ann.caller);
  CHECK_FALSE(http_options.authorize(mcp::http::auth_request{"POST", "/mcp", std::nullopt}).allowed);
  mcp::testing::client as_ann(srv);
  as_ann.set_caller(ann.caller);
  as_ann.initialize();
  CHECK(text_of(as_ann.call_tool("whoami")) == "ann");
  mcp::identity bob;
  bob.subject = "bob";
  mcp::testing::client as_bob(srv);
  as_bob.set_caller(std::make_shared<const mcp::identity>(bob));
  as_bob.initialize();
  bool listed = false;
  const json tools = as_bob.result("tools/list")["tools"];  // a copy: the result is a temporary
  for (const auto& tool : tools) listed = listed || tool["name"] == "whoami";
  CHECK_FALSE(listed);
}

TEST_CASE("README tour: an MCP App and the tool it shows", "[readme]") {
  mcp::server srv({"notes", "1.0.0"});
  notebook nb;
  nb.notes = {{"a", "1"}, {"b", "2"}};
  add_note_count_app(srv, nb, "<p id=n></p>");
  mcp::testing::client c(srv);
  json init = c.initialize();
  CHECK(init["capabilities"]["extensions"][mcp::apps_extension]["mimeTypes"] == json{mcp::app_mime_type});
  CHECK(c.result("tools/list")["tools"][0]["_meta"] == json{{"ui", {{"resourceUri", "ui://notes/count.html"}}}});
  json page = c.result("resources/read", {{"uri", "ui://notes/count.html"}})["contents"][0];
  CHECK(page["mimeType"] == "text/html;profile=mcp-app");
  CHECK(page["text"] == "<p id=n></p>");
  CHECK(c.call_tool("note_count")["structuredContent"]["result"] == 2);
}

TEST_CASE("README tour: a task-capable tool is a task for a client that declares tasks", "[readme]") {
  mcp::server srv({"notes", "1.0.0"});
  notebook nb;
  nb.notes = {{"a", "1"}, {"b", "2"}};
  add_export_task(srv, nb);
  mcp::testing::client c(srv);
  const json declares = {{"extensions", {{mcp::tasks_extension, json::object()}}}};
  const json call = {{"name", "export_notes"}, {"arguments", json::object()}};
  json plain = c.stateless_request("tools/call", call, json::object())["result"];
  CHECK(text_of(plain) == "# a\n\n1\n\n# b\n\n2\n\n");
  json task = c.stateless_request("tools/call", call, declares)["result"];
  REQUIRE(task["resultType"] == "task");
  json got;
  for (int i = 0; i < 2000; ++i) {  // at most about 10 s
    got = c.stateless_request("tasks/get", {{"taskId", task["taskId"]}}, declares)["result"];
    if (got["status"] != "working") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(got["status"] == "completed");
  CHECK(text_of(got["result"]) == text_of(plain));
}

TEST_CASE("README tour: a runtime-schema tool validates like a typed one", "[readme]") {
  mcp::server srv({"notes", "1.0.0"});
  add_submit_finding(srv);
  mcp::testing::client client(srv);
  client.initialize();
  json refused = client.call_tool("submit_finding", json::object());
  CHECK(refused["isError"] == true);
  CHECK(text_of(refused).find("finding") != std::string::npos);
  CHECK(text_of(client.call_tool("submit_finding", {{"finding", "a leak"}})) == "Recorded: a leak");
}

TEST_CASE("README tour: Markdown text and a render function", "[readme]") {
  auto [markdown, count] = markdown_and_count();
  mcp::server srv({"notes", "1.0.0"});
  auto page = [] { return search_page{{"Groceries: milk"}, std::nullopt}; };
  srv.tool("as_markdown", "The page as Markdown.", page, markdown);
  srv.tool("as_count", "The page as a count.", page, count);
  mcp::testing::client client(srv);
  client.initialize();
  std::string md = text_of(client.call_tool("as_markdown"));
  CHECK(md.rfind("```", 0) == 0);
  CHECK(md.find("Next cursor: N/A") != std::string::npos);
  CHECK(text_of(client.call_tool("as_count")) == "1 notes");
}

TEST_CASE("README tour: a typed question to the user (examples/README.md)", "[readme]") {
  mcp::server srv({"booking", "1.0.0"});
  srv.tool("book_table", "Book a table.", [](mcp::context& ctx) { return book_table(ctx); });
  mcp::testing::client client(srv);
  const json caps = {{"elicitation", json::object()}};
  json round = client.stateless_request("tools/call", {{"name", "book_table"}}, caps)["result"];
  REQUIRE(round["resultType"] == "input_required");
  const json& form = round["inputRequests"]["elicitation-1"]["params"]["requestedSchema"];
  CHECK(form["required"] == json({"name", "date"}));
  CHECK(form["properties"]["guests"]["default"] == 2);
  CHECK(form["properties"]["date"]["format"] == "date");
  json done = client.stateless_request(
      "tools/call",
      {{"name", "book_table"},
       {"inputResponses",
        {{"elicitation-1", {{"action", "accept"}, {"content", {{"name", "Ada"}, {"date", "2026-12-24"}, {"guests", 4}}}}}}},
       {"requestState", round["requestState"]}},
      caps)["result"];
  CHECK(text_of(done) == "Booked for 4 on 2026-12-24.");
}

#if __cplusplus >= 202002L
TEST_CASE("README: the C++20 spelling means the same as the C++17 one", "[readme]") {
  auto [info, read_only] = spelling_cxx20();
  CHECK(info.name == "notes");
  CHECK(info.version == "1.0.0");
  CHECK(read_only.hints.read_only == true);
  CHECK(read_only.hints.open_world == false);
  CHECK_FALSE(read_only.hints.destructive.has_value());
}
#endif
