// Identity and scopes over a real socket on 127.0.0.1: the auth hook's identity reaches handlers
// and middleware in a 2025-11-25 session, in stateless mode and in 2026-07-28 requests; a caller
// without a scope gets 403 with the RFC 6750 challenge and -32003, and does not see what needs it
// in the lists; 401 with the RFC 9728 challenge when refused; the metadata at both well-known paths.
#include "catch.hpp"
#include "serving.hpp"
#include "http_client.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
using namespace std::chrono_literals;

namespace test_http_auth {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

using test::header;
using test::http_request;

const std::vector<header> post_headers = {{"Accept", "application/json, text/event-stream"},
                                          {"Content-Type", "application/json"}};
const char* metadata_url = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

json rpc(long long id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json body_json(const test::http_response& r) {
  json j = json::parse(r.body, nullptr, false);
  INFO(r.body);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

std::set<std::string> names(const json& list, const char* member, const char* key = "name") {
  std::set<std::string> out;
  for (const auto& t : list["result"][member]) out.insert(t[key].get<std::string>());
  return out;
}

// A server whose tokens are the callers' names: "ann" may read, "bob" may also write, "anon" is
// admitted as nobody in particular; anything else is refused.
struct served {
  mcp::server srv{mcp::server_info{"auth-test", "1"}, quiet()};
  std::unique_ptr<test::serving> listener;
  std::mutex mutex;
  std::vector<std::string> seen_by_middleware;
  std::vector<std::string> refused_in_middleware;  // methods refused for a missing scope, as middleware saw them

  explicit served(bool stateless = false) {
    srv.tool("whoami", "The caller", [](mcp::context& ctx) {
      if (!ctx.caller()) return std::string("nobody");
      std::string out = ctx.caller()->subject;
      for (const auto& s : ctx.caller()->scopes) out += " " + s;
      return out;
    });
    mcp::tool_options writes;
    writes.scopes = {"notes:write"};
    srv.tool("write", "Needs notes:write", [](mcp::context& ctx) { return "written by " + ctx.caller()->subject; },
             writes);
    srv.resource({.uri = "notes://drafts", .name = "drafts", .scopes = writes.scopes}, [] { return std::string("draft 1"); });
    mcp::prompt_options drafting;
    drafting.scopes = writes.scopes;
    srv.prompt("draft", "Needs notes:write", [] { return std::string("write a draft"); }, drafting);
    srv.use([this](mcp::request_info& r, const std::function<void()>& next) {
      {
        std::lock_guard lock(mutex);
        seen_by_middleware.push_back(r.ctx().caller() ? r.ctx().caller()->subject : "-");
      }
      try {
        next();
      } catch (...) {  // next() rethrows what failed, with the outcome recorded
        std::lock_guard lock(mutex);
        if (r.error_code() == mcp::error_code::insufficient_scope) refused_in_middleware.emplace_back(r.method());
        throw;
      }
    });
    mcp::http::options o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.stateless = stateless;
    o.authorize = [](const mcp::http::auth_request& r) {
      auto who = [](std::string subject, std::vector<std::string> scopes) {
        mcp::identity id;
        id.subject = std::move(subject);
        id.scopes = std::move(scopes);
        id.claims = {{"iss", "test"}};
        return mcp::http::auth_result::allow(std::move(id));
      };
      if (r.authorization == std::optional<std::string_view>("Bearer ann")) return who("ann", {"notes:read"});
      if (r.authorization == std::optional<std::string_view>("Bearer bob")) return who("bob", {"notes:read", "notes:write"});
      if (r.authorization == std::optional<std::string_view>("Bearer anon")) return mcp::http::auth_result{};
      return mcp::http::auth_result::refuse();
    };
    mcp::http::protected_resource_metadata meta;
    meta.resource = "https://mcp.example/mcp";
    meta.authorization_servers = {"https://auth.example"};
    meta.scopes_supported = {"notes:read", "notes:write"};
    meta.resource_name = "Notes";
    o.protected_resource_metadata = meta;
    listener = std::make_unique<test::serving>(srv, std::move(o));
  }
  unsigned short port() const { return listener->port(); }

  static mcp::server_options quiet() {
    mcp::server_options o;
    o.log_sink = [](std::string_view) {};
    return o;
  }
};

// One connection posting as whoever `token` names.
struct poster {
  test::http_connection conn;
  std::string session;
  long long id = 0;
  explicit poster(unsigned short port) : conn(port) {}

  test::http_response post(const std::string& token, const json& message, std::vector<header> extra = {}) {
    auto h = post_headers;
    if (!token.empty()) h.push_back({"Authorization", "Bearer " + token});
    if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
    for (auto& e : extra) h.push_back(std::move(e));
    conn.send(http_request("POST", "/mcp", message.dump(), h));
    auto r = conn.read(5s);
    if (auto sid = r.header("Mcp-Session-Id")) session = *sid;
    return r;
  }
  test::http_response request(const std::string& token, const std::string& method, json params = json::object(),
                              std::vector<header> extra = {}) {
    return post(token, rpc(++id, method, std::move(params)), std::move(extra));
  }
  test::http_response call(const std::string& token, const std::string& tool, std::vector<header> extra = {}) {
    return request(token, "tools/call", {{"name", tool}, {"arguments", json::object()}}, std::move(extra));
  }
};

std::string text_of(const test::http_response& r) {
  return body_json(r)["result"]["content"][0]["text"].get<std::string>();
}

// What a 403 for the write tool must carry: the challenge naming the scope, -32003 with the request's id.
void check_insufficient_scope(const test::http_response& r, const poster& by) {
  INFO(r.body);
  CHECK(r.status == 403);
  REQUIRE(r.header("WWW-Authenticate"));
  CHECK(*r.header("WWW-Authenticate") ==
        std::string(R"(Bearer error="insufficient_scope", scope="notes:write", resource_metadata=")") + metadata_url + "\"");
  json body = body_json(r);
  CHECK(body["id"] == by.id);
  CHECK(body["error"]["code"] == mcp::error_code::insufficient_scope);
  CHECK(body["error"]["data"]["missingScopes"] == json{"notes:write"});
}

json modern_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", json::object()},
          {"io.modelcontextprotocol/clientInfo", {{"name", "modern"}, {"version", "1"}}}};
}

}  // namespace

TEST_CASE("http auth: 401 with the metadata's challenge; the metadata at both well-known paths") {
  served s;
  poster c(s.port());
  const json init = rpc(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                          {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  for (const std::string token : {"", "forged"}) {
    auto r = c.post(token, init);
    CHECK(r.status == 401);
    REQUIRE(r.header("WWW-Authenticate"));
    CHECK(*r.header("WWW-Authenticate") == std::string("Bearer resource_metadata=\"") + metadata_url + "\"");
    CHECK(body_json(r)["error"]["code"] == -32000);
  }
  for (const char* path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
    c.conn.send(http_request("GET", path, "", {}));
    auto r = c.conn.read(5s);
    CHECK(r.status == 200);
    json meta = body_json(r);
    CHECK(meta["resource"] == "https://mcp.example/mcp");
    CHECK(meta["authorization_servers"] == json{"https://auth.example"});
    CHECK(meta["scopes_supported"] == json{"notes:read", "notes:write"});
    CHECK(meta["bearer_methods_supported"] == json{"header"});
    CHECK(meta["resource_name"] == "Notes");
  }
  c.conn.send(http_request("GET", "/.well-known/oauth-protected-resource/other", "", {}));
  CHECK(c.conn.read(5s).status == 404);
}

TEST_CASE("http auth: 2025-11-25 sessions; the caller reaches handlers, middleware and scope checks; a session is its opener's") {
  served s;
  poster c(s.port());
  const json init_params = {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                            {"clientInfo", {{"name", "t"}, {"version", "1"}}}};
  auto init = c.request("ann", "initialize", init_params);
  REQUIRE(init.status == 200);
  REQUIRE_FALSE(c.session.empty());
  CHECK(c.post("ann", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status == 202);
  const std::vector<header> v = {{"MCP-Protocol-Version", "2025-11-25"}};

  CHECK(text_of(c.call("ann", "whoami", v)) == "ann notes:read");
  CHECK(names(body_json(c.request("ann", "tools/list", json::object(), v)), "tools") == std::set<std::string>{"whoami"});
  check_insufficient_scope(c.call("ann", "write", v), c);
  CHECK(c.call("", "write", v).status == 401);  // the session is no credential
  // Resources and prompts the same way.
  CHECK(body_json(c.request("ann", "resources/list", json::object(), v))["result"]["resources"].empty());
  CHECK(body_json(c.request("ann", "prompts/list", json::object(), v))["result"]["prompts"].empty());
  check_insufficient_scope(c.request("ann", "resources/read", {{"uri", "notes://drafts"}}, v), c);
  check_insufficient_scope(c.request("ann", "prompts/get", {{"name", "draft"}}, v), c);
  // The session is bound to ann: to anyone else (bob, or a caller admitted as nobody) it does not
  // exist, whatever they POST, GET or DELETE.
  for (const char* other : {"bob", "anon"}) {
    CHECK(c.call(other, "whoami", v).status == 404);
    CHECK(c.post(other, {{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}}, v).status == 404);
    for (const char* method : {"GET", "DELETE"}) {
      c.conn.send(http_request(method, "/mcp", "",
                               {{"Accept", "text/event-stream"}, {"Authorization", std::string("Bearer ") + other},
                                {"Mcp-Session-Id", c.session}, {"MCP-Protocol-Version", "2025-11-25"}}));
      CHECK(c.conn.read(5s).status == 404);
    }
  }

  // Bob in a session of his own.
  poster b(s.port());
  REQUIRE(b.request("bob", "initialize", init_params).status == 200);
  CHECK(names(body_json(b.request("bob", "resources/list", json::object(), v)), "resources", "uri") ==
        std::set<std::string>{"notes://drafts"});
  CHECK(body_json(b.request("bob", "resources/read", {{"uri", "notes://drafts"}}, v))["result"]["contents"][0]["text"] ==
        "draft 1");
  CHECK(b.request("bob", "prompts/get", {{"name", "draft"}}, v).status == 200);
  CHECK(names(body_json(b.request("bob", "tools/list", json::object(), v)), "tools") ==
        std::set<std::string>{"whoami", "write"});
  auto written = b.call("bob", "write", v);
  CHECK(written.status == 200);
  CHECK(text_of(written) == "written by bob");
  // Admitted as nobody: nothing to check, as without auth.
  poster a(s.port());
  REQUIRE(a.request("anon", "initialize", init_params).status == 200);
  CHECK(text_of(a.call("anon", "whoami", v)) == "nobody");
  // Ann ends her session.
  c.conn.send(http_request("DELETE", "/mcp", "", {{"Authorization", "Bearer ann"}, {"Mcp-Session-Id", c.session}}));
  CHECK(c.conn.read(5s).status == 204);
  std::lock_guard lock(s.mutex);
  CHECK(std::count(s.seen_by_middleware.begin(), s.seen_by_middleware.end(), "bob") == 5);
  CHECK(std::count(s.seen_by_middleware.begin(), s.seen_by_middleware.end(), "-") == 1);
  // Middleware saw ann's whoami, three lists and, with their outcome, the three refused requests
  // (an audit log records the attempts that the 403s answered).
  CHECK(std::count(s.seen_by_middleware.begin(), s.seen_by_middleware.end(), "ann") == 7);
  CHECK(s.refused_in_middleware == std::vector<std::string>{"tools/call", "resources/read", "prompts/get"});
}

TEST_CASE("http auth: stateless mode and 2026-07-28 requests carry the caller too") {
  SECTION("stateless mode") {
    served s(true);
    poster c(s.port());
    const std::vector<header> v = {{"MCP-Protocol-Version", "2025-11-25"}};
    CHECK(text_of(c.call("bob", "whoami", v)) == "bob notes:read notes:write");
    check_insufficient_scope(c.call("ann", "write", v), c);
    CHECK(names(body_json(c.request("ann", "tools/list", json::object(), v)), "tools") == std::set<std::string>{"whoami"});
    CHECK(text_of(c.call("bob", "write", v)) == "written by bob");
  }
  SECTION("2026-07-28") {
    served s;
    poster c(s.port());
    auto modern = [&](const std::string& token, const std::string& method, json params, std::vector<header> extra) {
      params["_meta"] = modern_meta();
      extra.push_back({"MCP-Protocol-Version", "2026-07-28"});
      extra.push_back({"Mcp-Method", method});
      return c.request(token, method, std::move(params), std::move(extra));
    };
    auto call = [&](const std::string& token, const std::string& tool) {
      return modern(token, "tools/call", {{"name", tool}, {"arguments", json::object()}}, {{"Mcp-Name", tool}});
    };
    CHECK(call("", "whoami").status == 401);
    CHECK(text_of(call("ann", "whoami")) == "ann notes:read");
    check_insufficient_scope(call("ann", "write"), c);
    CHECK(names(body_json(modern("ann", "tools/list", json::object(), {})), "tools") == std::set<std::string>{"whoami"});
    check_insufficient_scope(modern("ann", "resources/read", {{"uri", "notes://drafts"}}, {{"Mcp-Name", "notes://drafts"}}), c);
    check_insufficient_scope(modern("ann", "prompts/get", {{"name", "draft"}}, {{"Mcp-Name", "draft"}}), c);
    CHECK(modern("bob", "prompts/get", {{"name", "draft"}}, {{"Mcp-Name", "draft"}}).status == 200);
    auto written = call("bob", "write");
    CHECK(written.status == 200);
    CHECK(text_of(written) == "written by bob");
    CHECK(c.session.empty());
  }
}

TEST_CASE("http auth: the Bearer challenge and protected-resource metadata builders") {
  mcp::http::bearer_challenge none;
  CHECK(none.to_string() == "Bearer");
  mcp::http::bearer_challenge c;
  c.resource_metadata = "https://a.example/.well-known/oauth-protected-resource";
  c.scopes = {"a", "b"};
  CHECK(c.to_string() == R"(Bearer scope="a b", resource_metadata="https://a.example/.well-known/oauth-protected-resource")");
  c.error = "invalid_token";
  c.error_description = "say \"hi\"\\\r\nX-Injected: 1";
  CHECK(c.to_string() ==
        R"(Bearer error="invalid_token", scope="a b", resource_metadata="https://a.example/.well-known/oauth-protected-resource", )"
        R"(error_description="say \"hi\"\\  X-Injected: 1")");

  using prm = mcp::http::protected_resource_metadata;
  CHECK(prm::metadata_url("https://mcp.example/mcp") == "https://mcp.example/.well-known/oauth-protected-resource/mcp");
  CHECK(prm::metadata_url("https://mcp.example:8443/a/b?x=1") ==
        "https://mcp.example:8443/.well-known/oauth-protected-resource/a/b");
  CHECK(prm::metadata_url("https://mcp.example/") == "https://mcp.example/.well-known/oauth-protected-resource");
  CHECK(prm::metadata_url("https://mcp.example") == "https://mcp.example/.well-known/oauth-protected-resource");
  CHECK(prm::metadata_url("not a url").empty());

  prm m;
  m.resource = "https://mcp.example/mcp";
  m.authorization_servers = {"https://as.example"};
  m.resource_documentation = "https://mcp.example/docs";
  m.extra = {{"dpop_bound_access_tokens_required", false}};
  json j = m;  // what handler_options::protected_resource_metadata takes
  CHECK(j == json{{"resource", "https://mcp.example/mcp"},
                  {"authorization_servers", {"https://as.example"}},
                  {"bearer_methods_supported", {"header"}},
                  {"resource_documentation", "https://mcp.example/docs"},
                  {"dpop_bound_access_tokens_required", false}});
}

}  // namespace test_http_auth
