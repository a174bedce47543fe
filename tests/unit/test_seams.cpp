// The seams a product uses: middleware, _meta and trace context, tracing spans, extensions and the
// hooks (client notifications, subscriptions, listed template resources, server-wide logging).
// First through the core's own entry point (mcp::connection, in memory), then over real pipes and
// a real socket with the middleware example, in both protocol eras.
#include "catch.hpp"
#include "http_client.hpp"
#include "subprocess.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_seams {  // a namespace per file: CMake's unity build compiles several test files as one

namespace mw {
struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First"), (b, "Second"));
}  // namespace mw

namespace {

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  o.serve_stateless = true;
  return o;
}

// A server with one typed tool, one that fails, one that reads _meta, and one that reads the
// client's extension settings.
struct fixture {
  mcp::server srv{mcp::server_info{"mw", "1"}, quiet()};
  fixture() {
    srv.tool("add", "Adds", [](const mw::add_args& a) { return a.a + a.b; });
    srv.tool("broken", "Throws", []() -> std::string { throw std::runtime_error("disk on fire"); });
    srv.tool("meta", "Echoes _meta", [](mcp::context& ctx) { return ctx.meta().dump(); });
    srv.tool("trace", "The caller's trace id", [](mcp::context& ctx) { return ctx.trace() ? ctx.trace()->trace_id : "none"; });
    srv.tool("ext", "Reads an extension", [](mcp::context& ctx) {
      const json* settings = ctx.client_extension("com.example/x");
      return settings ? settings->dump() : std::string("absent");
    });
  }
};

std::string text_of(const json& response) { return response["result"]["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("middleware: runs in the order added around the handler, and sees how the request went") {
  fixture f;
  std::vector<std::string> trail;
  std::mutex m;
  auto note = [&](std::string s) {
    std::lock_guard lock(m);
    trail.push_back(std::move(s));
  };
  auto outcome_name = [](mcp::outcome o) {
    switch (o) {
      case mcp::outcome::ok: return "ok";
      case mcp::outcome::tool_error: return "tool_error";
      case mcp::outcome::protocol_error: return "protocol_error";
      case mcp::outcome::failed: return "failed";
      default: return "pending";
    }
  };
  f.srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
    note("a>" + std::string(r.method()) + ":" + std::string(r.tool_name()));
    try {
      next();
    } catch (...) {
      note(std::string("a! ") + outcome_name(r.outcome()) + " " + std::to_string(r.error_code()));
      throw;
    }
    note(std::string("<a ") + outcome_name(r.outcome()));
  });
  f.srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
    CHECK(r.outcome() == mcp::outcome::pending);
    note("b>");
    next();
    note("<b");
  });
  mcp::testing::client c(f.srv);
  c.initialize();
  trail.clear();

  CHECK(text_of(c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}})).find('5') != std::string::npos);
  CHECK(trail == std::vector<std::string>{"a>tools/call:add", "b>", "<b", "<a ok"});

  trail.clear();  // the typed pipeline runs inside: a validation failure is the tool's isError result
  auto refused = c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", "two"}, {"b", 3}}}});
  CHECK(refused["result"]["isError"] == true);
  CHECK(trail == std::vector<std::string>{"a>tools/call:add", "b>", "<b", "<a tool_error"});

  trail.clear();
  CHECK(c.request("tools/call", {{"name", "broken"}, {"arguments", json::object()}})["result"]["isError"] == true);
  CHECK(trail.back() == "<a tool_error");

  trail.clear();  // a protocol error passes back through the chain as an exception
  auto unknown = c.request("tools/call", {{"name", "nope"}, {"arguments", json::object()}});
  CHECK(unknown["error"]["code"] == -32602);
  CHECK(trail == std::vector<std::string>{"a>tools/call:nope", "b>", "a! protocol_error -32602"});

  trail.clear();  // every method, not only tools/call
  c.request("tools/list");
  c.request("ping");
  CHECK(trail == std::vector<std::string>{"a>tools/list:", "b>", "<b", "<a ok", "a>ping:", "b>", "<b", "<a ok"});

  trail.clear();  // and 2026-07-28 requests on the same server (a connection of their own)
  mcp::testing::client m2(f.srv);
  auto modern = m2.stateless_request("tools/call", {{"name", "add"}, {"arguments", {{"a", 1}, {"b", 1}}}});
  CHECK(modern["result"]["resultType"] == "complete");
  CHECK(trail == std::vector<std::string>{"a>tools/call:add", "b>", "<b", "<a ok"});
}

TEST_CASE("middleware: answers early with a protocol error or a tool error, and misuse is an internal error") {
  fixture f;
  f.srv.use([](mcp::request_info& r, const std::function<void()>& next) {
    if (r.tool_name() == "add" && r.params()["arguments"].value("a", 0) == 13)
      throw mcp::tool_error("13 is unlucky here; pick another number.");
    if (r.method() == "tools/list" && r.ctx().client().info.value("name", "") == "blocked")
      throw mcp::protocol_error(-32000, "Rate limit: slow down");
    if (r.tool_name() == "meta" && r.ctx().meta().contains("twice")) {
      next();
      next();
      return;
    }
    if (r.tool_name() == "meta" && r.ctx().meta().contains("skip")) return;
    next();
  });
  mcp::testing::client c(f.srv);
  c.initialize();
  auto unlucky = c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", 13}, {"b", 0}}}});
  CHECK(unlucky["result"]["isError"] == true);
  CHECK(text_of(unlucky) == "13 is unlucky here; pick another number.");
  CHECK(c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", 12}, {"b", 0}}}})["result"].value("isError", false) == false);
  // The same early tool error for a 2026-07-28 request (a tree, with its resultType).
  mcp::testing::client m2(f.srv);
  auto modern = m2.stateless_request("tools/call", {{"name", "add"}, {"arguments", {{"a", 13}, {"b", 0}}}});
  CHECK(modern["result"]["isError"] == true);
  CHECK(modern["result"]["resultType"] == "complete");

  mcp::testing::client blocked(f.srv);
  blocked.request("initialize", {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "blocked"}, {"version", "1"}}}});
  blocked.notify("notifications/initialized");
  auto limited = blocked.request("tools/list");
  CHECK(limited["error"]["code"] == -32000);
  CHECK(limited["error"]["message"] == "Rate limit: slow down");

  auto twice = c.request("tools/call", {{"name", "meta"}, {"arguments", json::object()}, {"_meta", {{"twice", true}}}});
  CHECK(twice["error"]["code"] == -32603);
  auto skipped = c.request("tools/call", {{"name", "meta"}, {"arguments", json::object()}, {"_meta", {{"skip", true}}}});
  CHECK(skipped["error"]["code"] == -32603);
  CHECK_THROWS_AS(f.srv.use(nullptr), mcp::definition_error);
}

TEST_CASE("context: the request's _meta and its trace context reach the handler") {
  fixture f;
  mcp::testing::client c(f.srv);
  c.initialize();
  const std::string parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  auto r = c.request("tools/call", {{"name", "meta"}, {"arguments", json::object()},
                                    {"_meta", {{"traceparent", parent}, {"tracestate", "k=v"}, {"progressToken", 7}}}});
  json meta = json::parse(text_of(r));
  CHECK(meta["traceparent"] == parent);
  CHECK(meta["progressToken"] == 7);
  CHECK(json::parse(text_of(c.request("tools/call", {{"name", "meta"}, {"arguments", json::object()}}))) == json::object());

  // The transport's traceparent header counts when _meta has none; _meta wins when both do.
  const std::string header_parent = "00-11111111111111111111111111111111-2222222222222222-00";
  auto from_header = [&](const std::string& params) {
    auto m = mcp::message::read(R"({"jsonrpc":"2.0","id":"h","method":"tools/call","params":)" + params + "}");
    m.set_trace_headers(header_parent, "x=y");
    c.connection().receive(std::move(m));
    return text_of(c.wait_response("h"));
  };
  CHECK(from_header(R"({"name":"trace","arguments":{}})") == "11111111111111111111111111111111");
  CHECK(from_header(R"({"name":"trace","arguments":{},"_meta":{"traceparent":")" + parent + R"("}})") ==
        "0af7651916cd43dd8448eb211c80319c");
  CHECK(text_of(c.request("tools/call", {{"name", "trace"}, {"arguments", json::object()}})) == "none");

  auto t = mcp::trace_context::parse(parent, "k=v");
  REQUIRE(t);
  CHECK(t->trace_id == "0af7651916cd43dd8448eb211c80319c");
  CHECK(t->parent_id == "b7ad6b7169203331");
  CHECK(t->sampled());
  CHECK(t->tracestate == "k=v");
  for (const char* bad : {"", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                          "00-00000000000000000000000000000000-b7ad6b7169203331-01",
                          "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
                          "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
                          "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g"})
    CHECK_FALSE(mcp::trace_context::parse(bad));
}

TEST_CASE("tracing: a span per request, in the caller's trace, with the outcome") {
  fixture f;
  std::mutex m;
  std::vector<mcp::span> started, ended;
  f.srv.use(mcp::tracing({.on_start = [&](const mcp::span& s) { std::lock_guard l(m); started.push_back(s); },
                          .on_end = [&](const mcp::span& s) { std::lock_guard l(m); ended.push_back(s); }}));
  mcp::testing::client c(f.srv);
  c.initialize();
  c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}},
                           {"_meta", {{"traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}});
  c.request("tools/call", {{"name", "broken"}, {"arguments", json::object()}});
  c.request("tools/call", {{"name", "nope"}, {"arguments", json::object()}});
  REQUIRE(started.size() == 3);
  REQUIRE(ended.size() == 3);
  CHECK(ended[0].name == "tools/call add");
  CHECK(ended[0].trace_id == "0af7651916cd43dd8448eb211c80319c");
  CHECK(ended[0].parent_span_id == "b7ad6b7169203331");
  CHECK(ended[0].span_id.size() == 16);
  CHECK(ended[0].span_id == started[0].span_id);
  CHECK(ended[0].ok);
  CHECK(ended[0].attributes["mcp.method.name"] == "tools/call");
  CHECK(ended[0].attributes["gen_ai.tool.name"] == "add");
  CHECK(ended[0].attributes["mcp.protocol.version"] == "2025-11-25");
  CHECK(ended[0].end >= ended[0].start);
  CHECK(ended[1].trace_id.size() == 32);  // a new trace starts here
  CHECK(ended[1].trace_id != ended[0].trace_id);
  CHECK(ended[1].parent_span_id.empty());
  CHECK_FALSE(ended[1].ok);
  CHECK(ended[1].attributes["error.type"] == "tool_error");
  CHECK_FALSE(ended[2].ok);
  CHECK(ended[2].attributes["error.type"] == "-32602");
  CHECK(ended[2].attributes["rpc.response.status_code"] == "-32602");
}

TEST_CASE("extensions: declared in initialize and server/discover, detected in the client in both eras") {
  fixture f;
  f.srv.extension("com.example/x", {{"level", 2}});
  CHECK_THROWS_AS(f.srv.extension("", json::object()), mcp::definition_error);
  CHECK_THROWS_AS(f.srv.extension("com.example/y", json::array()), mcp::definition_error);

  mcp::testing::client old(f.srv);
  auto init = old.request("initialize", {{"protocolVersion", "2025-11-25"},
                                         {"capabilities", {{"extensions", {{"com.example/x", {{"mode", "full"}}}}}}},
                                         {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  CHECK(init["result"]["capabilities"]["extensions"]["com.example/x"] == json{{"level", 2}});
  old.notify("notifications/initialized");
  CHECK(json::parse(text_of(old.request("tools/call", {{"name", "ext"}, {"arguments", json::object()}}))) ==
        json{{"mode", "full"}});

  mcp::testing::client plain(f.srv);
  plain.initialize();
  CHECK(text_of(plain.request("tools/call", {{"name", "ext"}, {"arguments", json::object()}})) == "absent");

  mcp::testing::client modern(f.srv);
  auto discovered = modern.stateless_request("server/discover");
  CHECK(discovered["result"]["capabilities"]["extensions"]["com.example/x"] == json{{"level", 2}});
  auto detected = modern.stateless_request("tools/call", {{"name", "ext"}, {"arguments", json::object()}},
                                           {{"extensions", {{"com.example/x", json::object()}}}});
  CHECK(text_of(detected) == "{}");
  auto undeclared = modern.stateless_request("tools/call", {{"name", "ext"}, {"arguments", json::object()}});
  CHECK(text_of(undeclared) == "absent");
}

TEST_CASE("hooks: client notifications, subscriptions, listed template resources, server-wide logs") {
  fixture f;
  std::vector<std::string> seen;
  std::mutex m;
  f.srv.on_notification("notifications/roots/list_changed", [&](const json&, const mcp::client_state& client) {
    std::lock_guard l(m);
    seen.push_back("roots changed for " + client.info.value("name", std::string("?")));
  });
  f.srv.on_notification("notifications/initialized", [&](const json&, const mcp::client_state&) {
    std::lock_guard l(m);
    seen.push_back("initialized");
  });
  f.srv.on_notification("notifications/custom", [&](const json& params, const mcp::client_state&) {
    std::lock_guard l(m);
    seen.push_back("custom " + params.dump());
  });
  f.srv.on_subscription([&](const std::string& uri, bool on) {
    std::lock_guard l(m);
    seen.push_back((on ? "+" : "-") + uri);
  });
  CHECK_THROWS_AS(f.srv.on_subscription(nullptr), mcp::definition_error);
  f.srv.resource({.uri = "memo://fixed", .name = "fixed"}, [] { return std::string("fixed"); });
  mcp::resource_template_info family{.uri_template = "memo://item/{id}", .name = "items"};
  family.list = [] {
    return std::vector<mcp::resource_info>{{.uri = "memo://item/1", .name = "one"},
                                           {.uri = "memo://item/2", .name = "two"},
                                           {.uri = "other://3", .name = "stray"}};
  };
  f.srv.resource_template(family, [](const std::map<std::string, std::string>& v) { return "item " + v.at("id"); });

  mcp::testing::client c(f.srv);
  c.initialize();
  c.notify("notifications/roots/list_changed");
  c.notify("notifications/custom", {{"k", 1}});
  c.request("resources/subscribe", {{"uri", "memo://item/1"}});
  c.request("resources/unsubscribe", {{"uri", "memo://item/1"}});
  CHECK(seen == std::vector<std::string>{"initialized", "roots changed for mcp-test-client", "custom {\"k\":1}",
                                         "+memo://item/1", "-memo://item/1"});

  std::set<std::string> uris;
  const json listed = c.result("resources/list");
  for (const auto& r : listed["resources"]) uris.insert(r["uri"].get<std::string>());
  CHECK(uris == std::set<std::string>{"memo://fixed", "memo://item/1", "memo://item/2"});

  // Server-wide logs: to initialized sessions at or above their level, not to others.
  mcp::testing::client quiet(f.srv);
  quiet.initialize();
  quiet.request("logging/setLevel", {{"level", "error"}});
  mcp::testing::client fresh(f.srv);  // never initialized
  fresh.request("ping");
  f.srv.log(mcp::log_level::warning, {{"disk", "low"}}, "ops");
  auto got = c.messages().take([](const json& msg) { return msg.value("method", "") == "notifications/message"; }, 2s);
  REQUIRE(got);
  CHECK((*got)["params"] == json{{"level", "warning"}, {"data", {{"disk", "low"}}}, {"logger", "ops"}});
  CHECK_FALSE(quiet.messages().take([](const json& msg) { return msg.value("method", "") == "notifications/message"; }, 100ms));
  CHECK_FALSE(fresh.messages().take([](const json& msg) { return msg.value("method", "") == "notifications/message"; }, 100ms));
  f.srv.log(mcp::log_level::critical, "fire");
  CHECK(quiet.messages().take([](const json& msg) { return msg.value("method", "") == "notifications/message"; }, 2s));
}

TEST_CASE("identity: the caller reaches handlers and middleware; tools with scopes are hidden and refused") {
  fixture f;
  mcp::tool_options admin;
  admin.scopes = {"notes:write", "notes:admin"};
  f.srv.tool("wipe", "Needs two scopes", [](mcp::context& ctx) { return "wiped by " + ctx.caller()->subject; }, admin);
  std::vector<std::string> subjects;
  f.srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
    subjects.push_back(r.ctx().caller() ? r.ctx().caller()->subject : "-");
    next();
  });
  auto names = [](const json& list) {
    std::set<std::string> out;
    for (const auto& t : list["tools"]) out.insert(t["name"].get<std::string>());
    return out;
  };
  auto who = [](std::string subject, std::vector<std::string> scopes) {
    auto id = std::make_shared<mcp::identity>();
    id->subject = std::move(subject);
    id->scopes = std::move(scopes);
    return std::shared_ptr<const mcp::identity>(id);
  };

  mcp::testing::client reader(f.srv);
  reader.set_caller(who("ann", {"notes:write"}));
  reader.initialize();
  CHECK_FALSE(names(reader.result("tools/list")).count("wipe"));
  CHECK(names(reader.result("tools/list")).count("add"));
  auto refused = reader.request("tools/call", {{"name", "wipe"}, {"arguments", json::object()}});
  CHECK(refused["error"]["code"] == mcp::error_code::insufficient_scope);
  CHECK(refused["error"]["data"]["missingScopes"] == json{"notes:admin"});
  CHECK(refused["error"]["data"]["requiredScopes"] == json{"notes:write", "notes:admin"});
  CHECK(refused["error"]["message"].get<std::string>().find("notes:admin") != std::string::npos);

  mcp::testing::client boss(f.srv);
  boss.set_caller(who("bob", {"notes:admin", "notes:write"}));
  boss.initialize();
  CHECK(names(boss.result("tools/list")).count("wipe"));
  CHECK(text_of(boss.request("tools/call", {{"name", "wipe"}, {"arguments", json::object()}})) == "wiped by bob");
  // In a 2026-07-28 request too.
  mcp::testing::client modern(f.srv);
  modern.set_caller(who("cy", {}));
  CHECK(modern.stateless_request("tools/call", {{"name", "wipe"}, {"arguments", json::object()}})["error"]["code"] ==
        mcp::error_code::insufficient_scope);

  // No caller (stdio, HTTP without auth): not checked.
  mcp::testing::client local(f.srv);
  local.initialize();
  CHECK(names(local.result("tools/list")).count("wipe"));
  CHECK(std::find(subjects.begin(), subjects.end(), "ann") != subjects.end());
  CHECK(std::find(subjects.begin(), subjects.end(), "-") != subjects.end());

  // What an authenticating transport asks before it runs a call (HTTP answers 403 with it).
  auto m = mcp::message::read(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wipe","arguments":{}}})");
  mcp::testing::client probe(f.srv);
  CHECK_FALSE(probe.connection().check_access(m));
  m.set_caller(who("ann", {"notes:write"}));
  auto denied = probe.connection().check_access(m);
  REQUIRE(denied);
  CHECK(denied->code() == mcp::error_code::insufficient_scope);
  m.set_caller(who("bob", {"notes:admin", "notes:write"}));
  CHECK_FALSE(probe.connection().check_access(m));
}

TEST_CASE("identity: resources, resource templates and prompts with scopes are hidden and refused like tools") {
  fixture f;
  const std::vector<std::string> plans = {"plans:read"};
  f.srv.resource({.uri = "secret://plan", .name = "plan", .scopes = plans}, [] { return std::string("the plan"); });
  f.srv.resource({.uri = "public://readme", .name = "readme"}, [] { return std::string("hello"); });
  mcp::resource_template_info notes{.uri_template = "secret://notes/{id}", .name = "notes", .scopes = plans};
  notes.list = [] { return std::vector<mcp::resource_info>{{.uri = "secret://notes/1", .name = "note 1"}}; };
  f.srv.resource_template(notes, [](const std::map<std::string, std::string>& v) { return "note " + v.at("id"); });
  mcp::prompt_options confidential;
  confidential.scopes = plans;
  f.srv.prompt("confidential", "Needs plans:read", [] { return std::string("secret prompt"); }, confidential);
  f.srv.prompt("open", "For anyone", [] { return std::string("open prompt"); });

  auto who = [](std::string subject, std::vector<std::string> scopes) {
    auto id = std::make_shared<mcp::identity>();
    id->subject = std::move(subject);
    id->scopes = std::move(scopes);
    return std::shared_ptr<const mcp::identity>(id);
  };
  auto listed = [](const json& result, const char* member, const char* key) {
    std::set<std::string> out;
    for (const auto& item : result[member]) out.insert(item[key].get<std::string>());
    return out;
  };
  auto refused = [](const json& response, const char* what) {
    INFO(response.dump());
    CHECK(response["error"]["code"] == mcp::error_code::insufficient_scope);
    CHECK(response["error"]["data"]["missingScopes"] == json{"plans:read"});
    CHECK(response["error"]["message"].get<std::string>().find(what) != std::string::npos);
  };

  mcp::testing::client ann(f.srv);
  ann.set_caller(who("ann", {"notes:write"}));
  ann.initialize();
  CHECK(listed(ann.result("resources/list"), "resources", "uri") == std::set<std::string>{"public://readme"});
  CHECK(ann.result("resources/templates/list")["resourceTemplates"].empty());
  CHECK(listed(ann.result("prompts/list"), "prompts", "name") == std::set<std::string>{"open"});
  refused(ann.request("resources/read", {{"uri", "secret://plan"}}), "the resource 'secret://plan'");
  refused(ann.request("resources/read", {{"uri", "secret://notes/7"}}), "the resource 'secret://notes/7'");
  refused(ann.request("prompts/get", {{"name", "confidential"}}), "the prompt 'confidential'");
  // Nor completing their arguments, nor hearing of their updates.
  const json complete_prompt = {{"ref", {{"type", "ref/prompt"}, {"name", "confidential"}}},
                                {"argument", {{"name", "topic"}, {"value", "x"}}}};
  const json complete_template = {{"ref", {{"type", "ref/resource"}, {"uri", "secret://notes/{id}"}}},
                                  {"argument", {{"name", "id"}, {"value", "1"}}}};
  refused(ann.request("completion/complete", complete_prompt), "the prompt 'confidential'");
  refused(ann.request("completion/complete", complete_template), "the resource template 'secret://notes/{id}'");
  refused(ann.request("resources/subscribe", {{"uri", "secret://plan"}}), "the resource 'secret://plan'");
  CHECK(ann.result("resources/subscribe", {{"uri", "public://readme"}}).is_object());
  CHECK(ann.result("resources/read", {{"uri", "public://readme"}})["contents"][0]["text"] == "hello");
  CHECK(ann.result("prompts/get", {{"name", "open"}})["messages"].size() == 1);
  // An unknown name's error lists only what the caller may see.
  auto unknown = ann.request("prompts/get", {{"name", "nope"}})["error"]["message"].get<std::string>();
  CHECK(unknown.find("open") != std::string::npos);
  CHECK(unknown.find("confidential") == std::string::npos);

  mcp::testing::client bob(f.srv);
  bob.set_caller(who("bob", {"plans:read"}));
  bob.initialize();
  CHECK(listed(bob.result("resources/list"), "resources", "uri") ==
        std::set<std::string>{"secret://plan", "public://readme", "secret://notes/1"});
  CHECK(listed(bob.result("resources/templates/list"), "resourceTemplates", "uriTemplate") ==
        std::set<std::string>{"secret://notes/{id}"});
  CHECK(listed(bob.result("prompts/list"), "prompts", "name") == std::set<std::string>{"confidential", "open"});
  CHECK(bob.result("resources/read", {{"uri", "secret://notes/7"}})["contents"][0]["text"] == "note 7");
  CHECK(bob.result("prompts/get", {{"name", "confidential"}})["messages"][0]["content"]["text"] == "secret prompt");
  CHECK(bob.result("completion/complete", complete_prompt).contains("completion"));
  CHECK(bob.result("completion/complete", complete_template).contains("completion"));
  CHECK(bob.result("resources/subscribe", {{"uri", "secret://notes/2"}}).is_object());

  // A 2026-07-28 request, and nobody authenticated (not checked).
  mcp::testing::client modern(f.srv);
  modern.set_caller(who("cy", {}));
  refused(modern.stateless_request("resources/read", {{"uri", "secret://plan"}}), "secret://plan");
  refused(modern.stateless_request("prompts/get", {{"name", "confidential"}}), "confidential");
  mcp::testing::client local(f.srv);
  local.initialize();
  CHECK(local.result("resources/read", {{"uri", "secret://plan"}})["contents"][0]["text"] == "the plan");

  // What an authenticating transport asks before it runs the request.
  for (const char* text :
       {R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"secret://notes/3"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"confidential"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"secret://plan"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"confidential"},"argument":{"name":"a","value":""}}})",
        R"({"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"secret://notes/{id}"},"argument":{"name":"id","value":""}}})"}) {
    INFO(text);
    auto m = mcp::message::read(text);
    CHECK_FALSE(local.connection().check_access(m));
    m.set_caller(who("ann", {}));
    auto denied = local.connection().check_access(m);
    REQUIRE(denied);
    CHECK(denied->code() == mcp::error_code::insufficient_scope);
    m.set_caller(who("bob", {"plans:read"}));
    CHECK_FALSE(local.connection().check_access(m));
  }
}

#ifdef MCP_MIDDLEWARE_BINARY

namespace {

std::string scratch(const std::string& name) {
  return std::string(MCP_TEST_BINARY_DIR) + "/scratch-mw-" + name + "-" + std::to_string(getpid()) + ".jsonl";
}

std::vector<json> json_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

json call_params(const std::string& tool, json args, json meta = nullptr) {
  json p{{"name", tool}, {"arguments", std::move(args)}};
  if (!meta.is_null()) p["_meta"] = std::move(meta);
  return p;
}

json modern_meta(json extra = json::object(), json caps = json::object()) {
  extra["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
  extra["io.modelcontextprotocol/clientCapabilities"] = std::move(caps);
  extra["io.modelcontextprotocol/clientInfo"] = {{"name", "modern"}, {"version", "1"}};
  return extra;
}

const char* parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

// What the suite checks of the example's files after each transport ran the same script.
void check_files(const std::string& spans_path, const std::string& audit_path) {
  auto audit = json_lines(audit_path);
  auto spans = json_lines(spans_path);
  REQUIRE(audit.size() == spans.size());
  REQUIRE(audit.size() >= 6);
  int ok = 0, tool_errors = 0, limited = 0, in_parent = 0;
  for (const auto& a : audit) {
    ok += a["outcome"] == "ok";
    tool_errors += a["outcome"] == "tool_error";
    limited += a["error_code"] == -32000;
  }
  for (const auto& s : spans) {
    in_parent += s["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736" && s.value("parentSpanId", "") == "00f067aa0ba902b7";
    CHECK(s["spanId"].get<std::string>().size() == 16);
    CHECK(s["kind"] == 2);
  }
  CHECK(tool_errors == 1);  // the denied tool
  CHECK(limited == 1);      // the fourth tool call of one client in a minute
  CHECK(in_parent == 2);    // the two calls that carried a traceparent, one per era
  CHECK(ok >= 4);
}

}  // namespace

TEST_CASE("middleware example over real pipes: audit, deny list, rate limit, spans, extension, both eras") {
  const auto spans = scratch("stdio-spans"), audit = scratch("stdio-audit");
  std::remove(spans.c_str());
  std::remove(audit.c_str());
  {
    test::subprocess p({MCP_MIDDLEWARE_BINARY, "--spans", spans, "--audit", audit, "--deny", "delete_everything", "--rate", "3"});
    long long id = 0;
    auto ask = [&](const std::string& method, json params) {
      p.write_line(json{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method}, {"params", std::move(params)}}.dump());
      auto line = p.read_line(10s);
      REQUIRE(line);
      json r = json::parse(*line);
      REQUIRE(r["id"] == id);
      return r;
    };
    auto init = ask("initialize", {{"protocolVersion", "2025-11-25"},
                                   {"capabilities", {{"extensions", {{"com.example/shout", json::object()}}}}},
                                   {"clientInfo", {{"name", "piped"}, {"version", "1"}}}});
    CHECK(init["result"]["capabilities"]["extensions"].contains("com.example/shout"));
    p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(text_of(ask("tools/call", call_params("echo", {{"text", "hi"}}, {{"traceparent", parent}}))) == "HI");
    CHECK(text_of(ask("tools/call", call_params("trace_id", json::object(), {{"traceparent", parent}}))) ==
          "4bf92f3577b34da6a3ce929d0e0e4736");
    auto denied = ask("tools/call", call_params("delete_everything", json::object()));
    CHECK(denied["result"]["isError"] == true);
    CHECK(text_of(denied).find("disabled") != std::string::npos);
    // A client notification reaches its hook, which logs to every session.
    p.write_line(R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})");
    auto logged = p.read_line(10s);
    REQUIRE(logged);
    CHECK(json::parse(*logged)["params"]["data"] == "the roots of piped changed");
    CHECK(ask("tools/call", call_params("echo", {{"text", "x"}}))["result"].contains("content"));
    CHECK(ask("tools/call", call_params("echo", {{"text", "y"}}))["error"]["code"] == -32000);  // 4th call of "piped"
    p.close_stdin();
    CHECK(p.wait(10s) == 0);
  }
  {  // 2026-07-28 requests on a pipe of their own (a 2025 session pins its connection): no extension declared
    test::subprocess p({MCP_MIDDLEWARE_BINARY, "--spans", spans, "--audit", audit, "--deny", "delete_everything", "--rate", "3"});
    p.write_line(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                      {"params", call_params("echo", {{"text", "quiet"}}, modern_meta())}}.dump());
    auto line = p.read_line(10s);
    REQUIRE(line);
    CHECK(text_of(json::parse(*line)) == "quiet");
    p.close_stdin();
    CHECK(p.wait(10s) == 0);
  }
  check_files(spans, audit);
  std::remove(spans.c_str());
  std::remove(audit.c_str());
}

TEST_CASE("middleware example over HTTP: the same seams through a session and 2026-07-28 requests") {
  const auto spans = scratch("http-spans"), audit = scratch("http-audit");
  std::remove(spans.c_str());
  std::remove(audit.c_str());
  const unsigned short port = test::free_port();
  {
    test::subprocess p({MCP_MIDDLEWARE_BINARY, "--http", "127.0.0.1:" + std::to_string(port), "--spans", spans, "--audit",
                        audit, "--deny", "delete_everything", "--rate", "3"});
    std::unique_ptr<test::http_connection> conn = test::connect_when_listening(port);
    REQUIRE(conn);
    std::string session;
    long long id = 0;
    auto post = [&](const std::string& method, json params, std::vector<test::header> extra = {}) {
      std::vector<test::header> h = {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}};
      if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
      for (auto& e : extra) h.push_back(std::move(e));
      const json message{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method}, {"params", std::move(params)}};
      conn->send(test::http_request("POST", "/mcp", message.dump(), h));
      auto r = conn->read(5s);
      INFO(r.body);
      REQUIRE(r.status == 200);
      if (auto sid = r.header("Mcp-Session-Id")) session = *sid;
      json body = json::parse(r.body, nullptr, false);
      if (body.is_discarded())  // an SSE stream: its last message is the response
        for (const auto& e : r.events())
          if (!e.data.empty()) body = json::parse(e.data);
      return body;
    };
    auto init = post("initialize", {{"protocolVersion", "2025-11-25"},
                                    {"capabilities", {{"extensions", {{"com.example/shout", json::object()}}}}},
                                    {"clientInfo", {{"name", "http-client"}, {"version", "1"}}}});
    CHECK(init["result"]["capabilities"]["extensions"].contains("com.example/shout"));
    {
      std::vector<test::header> h = {{"Accept", "application/json, text/event-stream"},
                                     {"Content-Type", "application/json"},
                                     {"Mcp-Session-Id", session}};
      conn->send(test::http_request("POST", "/mcp", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", h));
      CHECK(conn->read(5s).status == 202);
    }
    const std::vector<test::header> v = {{"MCP-Protocol-Version", "2025-11-25"}};
    CHECK(text_of(post("tools/call", call_params("echo", {{"text", "hi"}}, {{"traceparent", parent}}), v)) == "HI");
    auto denied = post("tools/call", call_params("delete_everything", json::object()), v);
    CHECK(denied["result"]["isError"] == true);
    CHECK(post("tools/call", call_params("count", {{"to", 2}}), v)["result"].contains("content"));
    // A traceparent header counts when _meta carries none (it is not the suite's parent: not counted in_parent).
    auto with_header = v;
    with_header.push_back({"traceparent", "00-5bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"});
    CHECK(text_of(post("tools/call", call_params("trace_id", json::object()), with_header)) ==
          "5bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(post("tools/call", call_params("echo", {{"text", "y"}}), v)["error"]["code"] == -32000);
    // 2026-07-28: no session, the headers that SEP-2243 asks for.
    session.clear();
    auto modern = post("tools/call", call_params("trace_id", json::object(), modern_meta({{"traceparent", parent}})),
                       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "trace_id"}});
    CHECK(text_of(modern) == "4bf92f3577b34da6a3ce929d0e0e4736");
    p.signal(SIGTERM);
    CHECK(p.wait(10s) == 0);
  }
  check_files(spans, audit);
  std::remove(spans.c_str());
  std::remove(audit.c_str());
}

#endif

}  // namespace test_seams
