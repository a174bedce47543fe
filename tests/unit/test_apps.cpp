// MCP Apps (io.modelcontextprotocol/ui): the checks made when an app or a linked tool is
// registered, what a client of either era sees, and client_supports_apps.
#include "catch.hpp"

#include <mcp/ext/apps.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <string>

using mcp::json;

namespace test_apps {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

MCP_STRUCT_DEF(app_args, (std::string, title, "A title"));
MCP_STRUCT_DEF(app_stats, (int, words, "Words"));

const std::string page = "<!doctype html><title>Stats</title><p id=out></p>";

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const mcp::definition_error& e) {
    return e.what();
  }
  return "accepted";
}

void serve_stats_app(mcp::server& srv) {
  mcp::app_resource app;
  app.uri = "ui://notes/stats.html";
  app.name = "Note statistics";
  app.csp = mcp::app_csp{{"https://api.example.com"}, {"https://cdn.example.com"}, {}, {}};
  app.permissions.clipboard_write = true;
  app.prefers_border = true;
  mcp::serve_app(srv, app, page);
}

auto stats_handler = [](const app_args& in, mcp::context& ctx) {
  // The result is the same for every host; the text is meaningful on its own.
  (void)ctx.client_supports_apps();
  return app_stats{static_cast<int>(in.title.size())};
};

const json ui_client = {{"extensions", {{mcp::apps_extension, {{"mimeTypes", {mcp::app_mime_type}}}}}}};

}  // namespace

TEST_CASE("apps: an app and a tool linked to it are checked when registered") {
  mcp::server srv({"apps", "1.0.0"});
  auto app = [](std::string uri, std::string mime = {}) {
    mcp::app_resource a;
    a.uri = std::move(uri);
    a.name = "x";
    a.mime_type = std::move(mime);
    return a;
  };
  CHECK(refusal([&] { mcp::serve_app(srv, app("https://example.com/x.html"), page); }).find("must start with ui://") !=
        std::string::npos);
  CHECK(refusal([&] { mcp::serve_app(srv, app("ui://"), page); }).find("must start with ui://") != std::string::npos);
  CHECK(refusal([&] { mcp::serve_app(srv, app("ui://a/b.html", "text/html"), page); })
            .find("its MIME type is text/html;profile=mcp-app") != std::string::npos);
  CHECK(refusal([&] { mcp::serve_app(srv, app("ui://a/b.html", mcp::app_mime_type), page); }) == "accepted");

  auto link = [&](std::string name, std::string uri) {
    mcp::tool_options o;
    o.app = mcp::app_link{std::move(uri)};
    return refusal([&] { srv.tool(name, "d", stats_handler, o); });
  };
  CHECK(link("t1", "ui://a/missing.html").find("which is not registered: register it first") != std::string::npos);
  CHECK(link("t2", "https://a/b.html").find("which is not a ui:// URI") != std::string::npos);
  CHECK(link("t3", "ui://a/b.html") == "accepted");
  // The same checks hold for a link written by hand in meta, either spelling.
  mcp::tool_options by_hand;
  by_hand.meta = {{"ui/resourceUri", "ui://nope"}};
  CHECK(refusal([&] { srv.tool("t4", "d", stats_handler, by_hand); }).find("not registered") != std::string::npos);
  by_hand.meta = {{"ui", {{"resourceUri", 7}}}};
  CHECK(refusal([&] { srv.tool("t5", "d", stats_handler, by_hand); }).find("must be a string") != std::string::npos);
  by_hand.meta = {{"ui", {{"resourceUri", "ui://a/b.html"}}}, {"ui/resourceUri", "ui://c"}};
  CHECK(refusal([&] { srv.tool("t6", "d", stats_handler, by_hand); }).find("name different apps") != std::string::npos);
  by_hand.app = mcp::app_link{"ui://a/b.html"};
  by_hand.meta = {{"ui", json::object()}};
  CHECK(refusal([&] { srv.tool("t7", "d", stats_handler, by_hand); }).find("give the app link once") != std::string::npos);
  mcp::tool_options hidden;
  hidden.app = mcp::app_link{"ui://a/b.html", false, false};
  CHECK(refusal([&] { srv.tool("t8", "d", stats_handler, hidden); }).find("neither the model nor the app") !=
        std::string::npos);
  CHECK(srv.tool_names() == std::vector<std::string>{"t3"});
}

TEST_CASE("apps: both eras see the extension, the linked tool and the app's page with its _meta.ui") {
  mcp::server srv({"apps", "1.0.0"});
  serve_stats_app(srv);
  mcp::tool_options linked;
  linked.app = mcp::app_link{"ui://notes/stats.html", true, true, true};
  srv.tool("note_stats", "Stats of a note", stats_handler, linked);
  mcp::tool_options app_only;
  app_only.app = mcp::app_link{"ui://notes/stats.html", false, true};
  srv.tool("refresh", "Refresh the view", stats_handler, app_only);

  const json ui_meta = {{"csp", {{"connectDomains", {"https://api.example.com"}}, {"resourceDomains", {"https://cdn.example.com"}}}},
                        {"permissions", {{"clipboardWrite", json::object()}}},
                        {"prefersBorder", true}};
  auto check_views = [&](const std::function<json(const std::string&, json)>& ask) {
    json tools = ask("tools/list", json::object())["tools"];
    REQUIRE(tools.size() == 2);
    CHECK(tools[0]["_meta"] == json{{"ui", {{"resourceUri", "ui://notes/stats.html"}}}, {"ui/resourceUri", "ui://notes/stats.html"}});
    CHECK(tools[1]["_meta"] == json{{"ui", {{"resourceUri", "ui://notes/stats.html"}, {"visibility", {"app"}}}}});
    json listed = ask("resources/list", json::object())["resources"];
    REQUIRE(listed.size() == 1);
    CHECK(listed[0]["uri"] == "ui://notes/stats.html");
    CHECK(listed[0]["mimeType"] == mcp::app_mime_type);
    CHECK(listed[0]["_meta"]["ui"] == ui_meta);
    json read = ask("resources/read", {{"uri", "ui://notes/stats.html"}})["contents"];
    REQUIRE(read.size() == 1);
    CHECK(read[0]["text"] == page);
    CHECK(read[0]["mimeType"] == mcp::app_mime_type);
    CHECK(read[0]["_meta"]["ui"] == ui_meta);
    json call = ask("tools/call", {{"name", "note_stats"}, {"arguments", {{"title", "abcd"}}}});
    CHECK(call["content"][0]["type"] == "text");
    CHECK(call["structuredContent"]["words"] == 4);
  };

  mcp::testing::client legacy(srv);
  json init = legacy.initialize("2025-11-25", ui_client);
  CHECK(init["capabilities"]["extensions"][mcp::apps_extension] == json{{"mimeTypes", {mcp::app_mime_type}}});
  check_views([&](const std::string& method, json params) { return legacy.result(method, std::move(params)); });

  mcp::testing::client stateless(srv);
  json discover = stateless.stateless_request("server/discover", json::object(), ui_client)["result"];
  CHECK(discover["capabilities"]["extensions"][mcp::apps_extension] == json{{"mimeTypes", {mcp::app_mime_type}}});
  check_views([&](const std::string& method, json params) {
    json response = stateless.stateless_request(method, std::move(params), ui_client);
    REQUIRE(response.contains("result"));
    return response["result"];
  });
}

TEST_CASE("apps: an app sent as a blob, and an app removed like any resource") {
  mcp::server srv({"apps", "1.0.0"});
  mcp::app_resource app;
  app.uri = "ui://x/page";
  app.name = "page";
  app.as_blob = true;
  mcp::serve_app(srv, app, "<p>hi</p>");
  mcp::testing::client c(srv);
  c.initialize();
  json read = c.result("resources/read", {{"uri", "ui://x/page"}})["contents"][0];
  CHECK(read["blob"] == "PHA+aGk8L3A+");
  CHECK(read["mimeType"] == mcp::app_mime_type);
  CHECK_FALSE(read.contains("_meta"));  // nothing to say: no csp, permissions, domain or border
  CHECK(srv.remove_resource("ui://x/page"));
  mcp::tool_options o;
  o.app = mcp::app_link{"ui://x/page"};
  CHECK(refusal([&] { srv.tool("t", "d", stats_handler, o); }).find("not registered") != std::string::npos);
}

TEST_CASE("apps: client_supports_apps asks the client of each request, in both eras") {
  mcp::server srv({"apps", "1.0.0"});
  serve_stats_app(srv);
  srv.tool("supports", "d", [](mcp::context& ctx) { return ctx.client_supports_apps() ? std::string("yes") : std::string("no"); });
  auto answer = [](const json& result) { return result["content"][0]["text"].get<std::string>(); };

  mcp::testing::client with(srv);
  with.initialize("2025-11-25", ui_client);
  CHECK(answer(with.call_tool("supports")) == "yes");
  mcp::testing::client without(srv);
  without.initialize("2025-11-25");
  CHECK(answer(without.call_tool("supports")) == "no");
  mcp::testing::client other_type(srv);
  other_type.initialize("2025-11-25", {{"extensions", {{mcp::apps_extension, {{"mimeTypes", {"text/html"}}}}}}});
  CHECK(answer(other_type.call_tool("supports")) == "no");

  mcp::testing::client stateless(srv);
  auto call = [&](const json& caps) {
    return answer(stateless.stateless_request("tools/call", {{"name", "supports"}, {"arguments", json::object()}}, caps)["result"]);
  };
  CHECK(call(ui_client) == "yes");
  CHECK(call(json::object()) == "no");
  CHECK(call({{"extensions", {{mcp::apps_extension, json::object()}}}}) == "no");
}

}  // namespace test_apps
