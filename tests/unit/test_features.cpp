// Resources, resource templates, subscriptions, prompts and completion through the core.
#include "catch.hpp"
#include "official_schema.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

using mcp::json;

namespace test_features {  // a namespace per file: CMake's unity build compiles several test files as one

namespace ft {
struct doc_vars {
  std::string id;
};
MCP_STRUCT(doc_vars, (id, "Document id"));

struct greet_args {
  std::string name;
  std::optional<std::string> style;
};
MCP_STRUCT(greet_args, (name, "Who to greet"), (style, "formal or casual"));
}  // namespace ft

namespace {
mcp::server make_server(std::size_t page_size = 100) {
  mcp::server_info info;
  info.name = "features-test";
  info.version = "1.0";
  mcp::server_options options;
  options.page_size = page_size;
  return mcp::server(info, options);
}
int code_of(const json& r) { return r.at("error").at("code").get<int>(); }

// What the tests below register, shared with the official-schema check at the end.
void add_sample_resources(mcp::server& srv) {
  srv.resource({.uri = "test://static-text", .name = "static-text", .title = "Static Text", .mime_type = "text/plain"},
               [] { return std::string("hello"); });
  srv.resource({.uri = "test://bin", .name = "bin", .mime_type = "image/png"}, [] { return mcp::blob{"\x89PNG"}; });
  srv.resource_template({.uri_template = "test://doc/{id}", .name = "doc", .mime_type = "application/json"},
                        [](const ft::doc_vars& v) { return json{{"id", v.id}}; });
  srv.resource_template({.uri_template = "test://raw/{path}", .name = "raw"},
                        [](const std::map<std::string, std::string>& v, mcp::context&) { return "raw " + v.at("path"); });
}
void add_sample_prompts(mcp::server& srv) {
  srv.prompt("greet", "Greets someone", [](const ft::greet_args& a) {
    return mcp::prompt_result{"A greeting", {mcp::user("Hello " + a.name + (a.style ? " (" + *a.style + ")" : "")),
                                             mcp::assistant(mcp::embedded_text("test://x", "embedded", "text/plain"))}};
  }, {.title = "Greeter"});
  srv.prompt("image", "Shows an image", [] {
    return std::vector<mcp::prompt_message>{mcp::user(mcp::image("\x89PNG", "image/png")), mcp::user("Describe it.")};
  });
}
void add_sample_completions(mcp::server& srv) {
  srv.prompt("greet", "Greets someone", [](const ft::greet_args& a) { return "Hi " + a.name; });
  srv.resource_template({.uri_template = "test://doc/{id}", .name = "doc"},
                        [](const ft::doc_vars& v) { return v.id; });
  srv.complete_prompt_argument("greet", "style", [](const std::string& value, const std::map<std::string, std::string>& ctx) {
    std::vector<std::string> out;
    for (std::string s : {"formal", "friendly", "casual"})
      if (s.rfind(value, 0) == 0) out.push_back(s + (ctx.count("name") ? "-" + ctx.at("name") : ""));
    return out;
  });
  srv.complete_template_variable("test://doc/{id}", "id", [](const std::string&, const auto&) {
    std::vector<std::string> ids;
    for (int i = 0; i < 150; ++i) ids.push_back(std::to_string(i));
    return ids;
  });
}
}  // namespace

TEST_CASE("uri templates: level-1 matching, decoding and refusals") {
  mcp::detail::uri_template t("test://template/{id}/data");
  CHECK(t.variables() == std::vector<std::string>{"id"});
  auto m = t.match("test://template/123/data");
  REQUIRE(m);
  CHECK((*m)["id"] == "123");
  CHECK_FALSE(t.match("test://template/1/2/data"));  // a variable never spans '/'
  CHECK_FALSE(t.match("test://template//data"));     // nor is it empty
  CHECK_FALSE(t.match("test://template/123/data/x"));
  CHECK((*mcp::detail::uri_template("file:///{name}").match("file:///a%20b"))["name"] == "a b");
  CHECK_FALSE(mcp::detail::uri_template("file:///{name}").match("file:///bad%2"));
  auto two = mcp::detail::uri_template("db://{table}.{row}").match("db://users.42");
  REQUIRE(two);
  CHECK((*two)["table"] == "users");
  CHECK((*two)["row"] == "42");
  CHECK_THROWS_WITH(mcp::detail::uri_template("x://{+path}"),
                    "Invalid URI template 'x://{+path}': '{+path}' uses an operator; only level-1 variables like {name} are supported");
  CHECK_THROWS(mcp::detail::uri_template("x://{a"));
  CHECK_THROWS(mcp::detail::uri_template("x://a}"));
  CHECK_THROWS(mcp::detail::uri_template("x://{a}{b}"));
  CHECK_THROWS(mcp::detail::uri_template("x://{}"));
  // Hostile input stays fast: many variables against a long URI of one character.
  mcp::detail::uri_template many("{a}x{b}x{c}x{d}x{e}y");
  CHECK_FALSE(many.match(std::string(2000, 'x')));
  CHECK_FALSE(many.match(std::string(5000, 'x')));  // over the length cap
}

TEST_CASE("uri templates: a value never decodes to a path step out of its place") {
  // The rule is in detail/uri_template.hpp and the README: no '/', '\' or control byte, not ".",
  // "..", written plainly or percent-encoded; a URI that would need one does not match.
  const mcp::detail::uri_template file("file:///data/{name}");
  const auto name_of = [&](const std::string& uri) -> std::optional<std::string> {
    auto m = file.match(uri);
    if (!m) return std::nullopt;
    return m->at("name");
  };
  const char* refused[] = {"file:///data/..%2F..%2Fetc%2Fpasswd", "file:///data/a%2Fb", "file:///data/a%2fb",
                           "file:///data/%2F", "file:///data/..%5C..%5Cwindows", "file:///data/a%5cb",
                           "file:///data/a\\b", "file:///data/..", "file:///data/.", "file:///data/%2E%2E",
                           "file:///data/%2e", "file:///data/.%2E", "file:///data/a%00b", "file:///data/a%00",
                           "file:///data/%0A", "file:///data/a%0D%0Ab", "file:///data/%1F", "file:///data/%7F",
                           "file:///data/a\tb", "file:///data/%", "file:///data/a%2", "file:///data/a%zz"};
  for (const char* uri : refused) {
    INFO(uri);
    CHECK_FALSE(file.match(uri));
  }
  CHECK_FALSE(file.match(std::string("file:///data/a") + '\0' + "b"));
  // What still comes through, decoded.
  CHECK(name_of("file:///data/...") == "...");
  CHECK(name_of("file:///data/..a") == "..a");
  CHECK(name_of("file:///data/.hidden") == ".hidden");
  CHECK(name_of("file:///data/a%2E%2E") == "a..");
  CHECK(name_of("file:///data/a%20b%3F%23%25") == "a b?#%");
  CHECK(name_of("file:///data/caf%C3%A9") == "caf\xC3\xA9");
  CHECK(name_of("file:///data/%FF") == "\xFF");  // not UTF-8, and delivered as sent
  CHECK(name_of("file:///data/%20") == " ");

  // With two variables the search finds the split where both values are allowed...
  const mcp::detail::uri_template pair("x://{a}.{b}");
  const auto split = pair.match("x://..x.y");
  REQUIRE(split);
  CHECK(split->at("a") == "..x");
  CHECK(split->at("b") == "y");
  const auto dots = pair.match("x://a...");  // a="a", b=".." is refused; a="a.", b="." too; a="a..", b="" empty
  CHECK_FALSE(dots);
  const auto later = pair.match("x://a.%2F.b");  // no split keeps '/' out of both values
  CHECK_FALSE(later);
  const auto ok = pair.match("x://a.b%2Eb");
  REQUIRE(ok);
  CHECK(ok->at("a") == "a");
  CHECK(ok->at("b") == "b.b");
}

TEST_CASE("resources: list, read text and blob, templates, not found") {
  auto srv = make_server();
  add_sample_resources(srv);
  mcp::testing::client c(srv);
  json caps = c.initialize()["capabilities"];
  CHECK(caps["resources"] == json{{"subscribe", true}, {"listChanged", true}});
  CHECK(caps.contains("completions"));

  json list = c.result("resources/list");
  CHECK(list["resources"][0] == json{{"uri", "test://static-text"}, {"name", "static-text"}, {"title", "Static Text"}, {"mimeType", "text/plain"}});
  CHECK(list["resources"].size() == 2);
  json templates = c.result("resources/templates/list");
  CHECK(templates["resourceTemplates"][0]["uriTemplate"] == "test://doc/{id}");

  json text = c.result("resources/read", {{"uri", "test://static-text"}});
  CHECK(text == json{{"contents", {{{"uri", "test://static-text"}, {"mimeType", "text/plain"}, {"text", "hello"}}}}});
  json bin = c.result("resources/read", {{"uri", "test://bin"}});
  CHECK(bin["contents"][0]["blob"] == mcp::detail::base64_encode("\x89PNG"));
  json doc = c.result("resources/read", {{"uri", "test://doc/123"}});
  CHECK(doc["contents"][0]["uri"] == "test://doc/123");
  CHECK(json::parse(doc["contents"][0]["text"].get<std::string>()) == json{{"id", "123"}});
  CHECK(c.result("resources/read", {{"uri", "test://raw/a%20b"}})["contents"][0]["text"] == "raw a b");
  // A variable never decodes to a path step out of place: the handler is not called, and the
  // answer is the same "not found" as for a URI that matches nothing.
  for (const char* uri : {"test://raw/..%2F..%2Fetc%2Fpasswd", "test://raw/a%2Fb", "test://raw/..", "test://raw/%2E%2E",
                          "test://raw/a%00b", "test://raw/%5C"}) {
    INFO(uri);
    json refused = c.request("resources/read", {{"uri", uri}});
    CHECK(code_of(refused) == -32002);
    CHECK(refused["error"]["data"] == json{{"uri", uri}});
  }

  json missing = c.request("resources/read", {{"uri", "test://nope"}});
  CHECK(code_of(missing) == -32002);
  CHECK(missing["error"]["data"] == json{{"uri", "test://nope"}});
  CHECK(code_of(c.request("resources/read", json::object())) == -32602);
}

TEST_CASE("resources: subscribe, updated notifications, unsubscribe, list_changed") {
  auto srv = make_server();
  srv.resource({.uri = "test://watched", .name = "watched"}, [] { return std::string("v1"); });
  mcp::testing::client c(srv), other(srv);
  c.initialize();
  other.initialize();
  CHECK(c.result("resources/subscribe", {{"uri", "test://watched"}}) == json::object());
  srv.resource_updated("test://watched");
  auto got = c.messages().drain();
  REQUIRE(got.size() == 1);
  CHECK(got[0] == json{{"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}, {"params", {{"uri", "test://watched"}}}});
  CHECK(other.messages().size() == 0);
  CHECK(c.result("resources/unsubscribe", {{"uri", "test://watched"}}) == json::object());
  srv.resource_updated("test://watched");
  CHECK(c.messages().size() == 0);
  srv.resource({.uri = "test://new", .name = "new"}, [] { return std::string("n"); });
  CHECK(c.messages().drain().at(0)["method"] == "notifications/resources/list_changed");
  CHECK(srv.remove_resource("test://new"));
  CHECK(c.messages().drain().at(0)["method"] == "notifications/resources/list_changed");
}

TEST_CASE("each list pages with cursors that walk every item once") {
  auto srv = make_server(3);
  for (int i = 0; i < 7; ++i) {
    srv.resource({.uri = "test://r" + std::to_string(i), .name = "r" + std::to_string(i)}, [] { return std::string(); });
    srv.resource_template({.uri_template = "test://t" + std::to_string(i) + "/{x}", .name = "t"},
                          [](const std::map<std::string, std::string>&) { return std::string(); });
    srv.prompt("p" + std::to_string(i), "A prompt", [] { return std::string("hi"); });
  }
  mcp::testing::client c(srv);
  c.initialize();
  for (auto [method, key] : std::vector<std::pair<std::string, std::string>>{
           {"resources/list", "resources"}, {"resources/templates/list", "resourceTemplates"}, {"prompts/list", "prompts"}}) {
    std::size_t seen = 0;
    int pages = 0;
    json params = json::object();
    for (; pages < 10; ++pages) {
      json page = c.result(method, params);
      seen += page[key].size();
      if (!page.contains("nextCursor")) break;
      params = {{"cursor", page["nextCursor"]}};
    }
    CHECK(seen == 7);
    CHECK(pages == 2);
    CHECK(code_of(c.request(method, {{"cursor", "nope"}})) == -32602);
  }
}

TEST_CASE("prompts: arguments from the struct, required checked, rich messages") {
  auto srv = make_server();
  add_sample_prompts(srv);
  mcp::testing::client c(srv);
  json caps = c.initialize()["capabilities"];
  CHECK(caps["prompts"] == json{{"listChanged", true}});
  json list = c.result("prompts/list");
  CHECK(list["prompts"][0] == json{{"name", "greet"},
                                   {"title", "Greeter"},
                                   {"description", "Greets someone"},
                                   {"arguments",
                                    {{{"name", "name"}, {"description", "Who to greet"}, {"required", true}},
                                     {{"name", "style"}, {"description", "formal or casual"}, {"required", false}}}}});
  json got = c.result("prompts/get", {{"name", "greet"}, {"arguments", {{"name", "Ada"}, {"style", "formal"}}}});
  CHECK(got["description"] == "A greeting");
  CHECK(got["messages"][0] == json{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Hello Ada (formal)"}}}});
  CHECK(got["messages"][1]["content"]["type"] == "resource");
  json image = c.result("prompts/get", {{"name", "image"}});
  CHECK(image["messages"][0]["content"]["type"] == "image");

  json missing = c.request("prompts/get", {{"name", "greet"}, {"arguments", json::object()}});
  CHECK(code_of(missing) == -32602);
  CHECK(missing["error"]["message"].get<std::string>().find("name") != std::string::npos);
  CHECK(code_of(c.request("prompts/get", {{"name", "nope"}})) == -32602);
  CHECK(code_of(c.request("prompts/get", {{"name", "greet"}, {"arguments", {{"name", 5}}}})) == -32602);
}

TEST_CASE("completion: prompt arguments and template variables, at most 100 values") {
  auto srv = make_server();
  add_sample_completions(srv);
  mcp::testing::client c(srv);
  c.initialize();
  json r = c.result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "greet"}}},
                                            {"argument", {{"name", "style"}, {"value", "f"}}},
                                            {"context", {{"arguments", {{"name", "Ada"}}}}}});
  CHECK(r == json{{"completion", {{"values", {"formal-Ada", "friendly-Ada"}}, {"total", 2}, {"hasMore", false}}}});
  json many = c.result("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "test://doc/{id}"}}},
                                               {"argument", {{"name", "id"}, {"value", ""}}}});
  CHECK(many["completion"]["values"].size() == 100);
  CHECK(many["completion"]["total"] == 150);
  CHECK(many["completion"]["hasMore"] == true);
  json none = c.result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "greet"}}},
                                               {"argument", {{"name", "name"}, {"value", "x"}}}});
  CHECK(none["completion"]["values"].empty());
  CHECK(code_of(c.request("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "nope"}}},
                                                  {"argument", {{"name", "a"}, {"value", ""}}}})) == -32602);
}

TEST_CASE("client capabilities gate sampling, elicitation and roots") {
  auto srv = make_server();
  srv.tool("ask", "Asks the user.", [](mcp::context& ctx) {
    json answer = ctx.elicit("Name?", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}});
    return "action=" + answer.value("action", std::string());
  });
  mcp::testing::client c(srv);
  c.initialize();  // no elicitation capability
  json r = c.call_tool("ask");
  CHECK(r["isError"] == true);
  CHECK(r["content"][0]["text"] ==
        "This needs the client to support elicitation (elicitation/create), and the connected client did not declare "
        "that capability.");
}

TEST_CASE("official schema: resources, templates, prompts and completion replies", "[.official-schema]") {
  {
    auto srv = make_server();
    add_sample_resources(srv);
    mcp::testing::client c(srv);
    c.initialize();
    CHECK_OFFICIAL(c.result("resources/list"), "ListResourcesResult");
    CHECK_OFFICIAL(c.result("resources/templates/list"), "ListResourceTemplatesResult");
    for (const char* uri : {"test://static-text", "test://bin", "test://doc/123", "test://raw/a%20b"})
      CHECK_OFFICIAL(c.result("resources/read", {{"uri", uri}}), "ReadResourceResult");
  }
  {
    auto srv = make_server();
    add_sample_prompts(srv);
    mcp::testing::client c(srv);
    c.initialize();
    CHECK_OFFICIAL(c.result("prompts/list"), "ListPromptsResult");
    CHECK_OFFICIAL(c.result("prompts/get", {{"name", "greet"}, {"arguments", {{"name", "Ada"}, {"style", "formal"}}}}),
                   "GetPromptResult");
    CHECK_OFFICIAL(c.result("prompts/get", {{"name", "image"}}), "GetPromptResult");
  }
  {
    auto srv = make_server();
    add_sample_completions(srv);
    mcp::testing::client c(srv);
    c.initialize();
    CHECK_OFFICIAL(c.result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "greet"}}},
                                                    {"argument", {{"name", "style"}, {"value", "f"}}},
                                                    {"context", {{"arguments", {{"name", "Ada"}}}}}}),
                   "CompleteResult");
    CHECK_OFFICIAL(c.result("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "test://doc/{id}"}}},
                                                    {"argument", {{"name", "id"}, {"value", ""}}}}),
                   "CompleteResult");
  }
}

}  // namespace test_features
