// MCP 2026-07-28 beside 2025-11-25 in one server: era detection, the envelope checks and their
// order, resultType and caching hints, multi-round input with a sealed requestState, listen
// streams, and the 2025 projection of non-object structured content. Driven in memory; the HTTP
// statuses are in test_http.cpp's neighbour below, over a real socket.
#include "catch.hpp"
#include "serving.hpp"

#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include "http_client.hpp"

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
using namespace std::chrono_literals;

namespace test_stateless {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

struct greeting {
  std::string text;
};
MCP_STRUCT(greeting, (text, "The greeting"));

void add_fixtures(mcp::server& srv) {
  srv.tool("hello", "Asks the user's name, then greets them", [](mcp::context& ctx) -> greeting {
    auto answer = ctx.ask(mcp::elicitation_input("name", "What is your name?",
                                                 {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}));
    return {"Hello, " + answer["content"].value("name", std::string("?")) + "!"};
  });
  srv.tool("two_rounds", "Asks twice", [](mcp::context& ctx) -> std::string {
    auto first = ctx.ask(mcp::elicitation_input("first", "First?", {{"type", "object"}}));
    auto second = ctx.ask(mcp::roots_input("roots"));
    return first["content"].value("v", std::string()) + "/" + std::to_string(second["roots"].size());
  });
  srv.tool("numbers", "A list, not an object", [] { return std::vector<int>{1, 2, 3}; });
  srv.tool("chatty", "Logs", [](mcp::context& ctx) -> std::string {
    ctx.log(mcp::log_level::warning, "careful");
    return "done";
  });
  srv.tool("raw_list", "Builds its own result with a list and no text", [] {
    mcp::tool_result r;
    r.structured_content = json::array({"x", "y"});
    return r;
  });
  srv.resource({"test://a", "a"}, [] { return std::string("A"); });
  srv.resource({"test://ask", "ask"}, [](mcp::context& ctx) {
    auto answer = ctx.ask(mcp::elicitation_input("ok", "Read it?", {{"type", "object"}}));
    return std::string("read after ") + answer["action"].get<std::string>();
  });
  srv.prompt("p", "A prompt", [] { return std::string("hi"); });
  srv.prompt("asks", "A prompt that samples", [](mcp::context& ctx) {
    auto answer = ctx.create_message({{"messages", json::array()}, {"maxTokens", 10}});
    return answer["content"].value("text", std::string());
  });
}

std::unique_ptr<mcp::server> make_server(mcp::server_options options = {}) {
  auto srv = std::make_unique<mcp::server>(mcp::server_info{"stateless-test", "1.0.0"}, std::move(options));
  add_fixtures(*srv);
  return srv;
}

const json elicitation = {{"elicitation", json::object()}};

int error_code(const json& response) { return response.at("error").at("code").get<int>(); }

test::http_response post_raw(unsigned short port, const std::string& body,
                             const std::vector<std::pair<std::string, std::string>>& headers) {
  std::string raw = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  for (const auto& [name, value] : headers) raw += name + ": " + value + "\r\n";
  raw += "\r\n" + body;
  test::http_connection conn(port);
  conn.send(raw);
  return conn.read();
}

}  // namespace

TEST_CASE("stateless: a version claim in _meta makes a request 2026-07-28, whatever came before", "[stateless]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  mcp::testing::client c(srv);
  json discover = c.stateless_request("server/discover");
  REQUIRE(discover.contains("result"));
  const json& r = discover["result"];
  CHECK(r["resultType"] == "complete");
  CHECK(r["supportedVersions"] == json::array({"2026-07-28"}));
  CHECK(r["capabilities"].contains("tools"));
  CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "stateless-test");
  CHECK(r["ttlMs"] == 0);
  CHECK(r["cacheScope"] == "private");

  SECTION("discover does not pin the connection: initialize still works after it") {
    json init = c.request("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
    REQUIRE(init.contains("result"));
    CHECK(init["result"]["protocolVersion"] == "2025-11-25");
    CHECK_FALSE(init["result"].contains("resultType"));
  }
  SECTION("any other 2026 request pins it: a later initialize is refused with the versions it can have") {
    REQUIRE(c.stateless_request("tools/list").contains("result"));
    json init = c.request("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
    REQUIRE(error_code(init) == -32022);
    CHECK(init["error"]["data"]["supported"] == json::array({"2026-07-28"}));
    CHECK(init["error"]["data"]["requested"] == "2025-11-25");
  }
  SECTION("a 2025 session's results carry no 2026 fields") {
    c.initialize();
    json list = c.result("tools/list");
    CHECK_FALSE(list.contains("resultType"));
    CHECK_FALSE(list.contains("ttlMs"));
    CHECK_FALSE(list.contains("_meta"));
    CHECK(c.result("ping") == json::object());
    // ...and initialize pinned the connection: a claim on it is not looked at (served as 2025).
    json claimed = c.stateless_request("tools/list");
    CHECK_FALSE(claimed["result"].contains("resultType"));
    CHECK(claimed["result"]["tools"].size() == list["tools"].size());
  }
  SECTION("a connection pinned to 2026-07-28 refuses requests without the claim") {
    REQUIRE(c.stateless_request("tools/list").contains("result"));
    for (const char* method : {"tools/list", "ping"}) {
      json bare = c.request(method);
      REQUIRE(error_code(bare) == -32602);
      CHECK_THAT(bare["error"]["message"].get<std::string>(), Catch::Matchers::Contains("params._meta"));
    }
    c.notify("notifications/initialized");  // notifications still need no claim
    CHECK(c.stateless_request("tools/list")["result"]["resultType"] == "complete");
  }
  SECTION("initialize never offers 2026-07-28") {
    json init = c.result("initialize", {{"protocolVersion", "2026-07-28"}, {"capabilities", json::object()}});
    CHECK(init["protocolVersion"] == "2025-11-25");
  }
}

// Each result's _meta names the server (the schema's ResultMetaObject); the whole description is
// server/discover's, said once, not repeated on every call (issue #56: about 160 bytes a call).
TEST_CASE("stateless: results name the server by name and version; server/discover describes it whole", "[stateless]") {
  mcp::server_info info{"described", "2.3.4"};
  info.title = "A Described Server";
  info.description = "A server whose description is long enough to notice on every call.";
  info.website_url = "https://example.com/described";
  info.icons = json::array({{{"src", "https://example.com/icon.png"}, {"mimeType", "image/png"}}});
  mcp::server srv(info);
  add_fixtures(srv);
  mcp::testing::client c(srv);
  const char* key = "io.modelcontextprotocol/serverInfo";
  const json identity = {{"name", "described"}, {"version", "2.3.4"}};

  json discover = c.stateless_request("server/discover")["result"];
  CHECK(discover["_meta"][key] == json({{"name", "described"},
                                         {"version", "2.3.4"},
                                         {"title", "A Described Server"},
                                         {"description", info.description},
                                         {"websiteUrl", "https://example.com/described"},
                                         {"icons", info.icons}}));
  CHECK(c.stateless_request("tools/list")["result"]["_meta"][key] == identity);
  CHECK(c.stateless_request("tools/call", {{"name", "numbers"}})["result"]["_meta"][key] == identity);
  CHECK(c.stateless_request("resources/read", {{"uri", "test://a"}})["result"]["_meta"][key] == identity);
  CHECK(c.stateless_request("prompts/get", {{"name", "p"}})["result"]["_meta"][key] == identity);
  json asked = c.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
  REQUIRE(asked["resultType"] == "input_required");
  CHECK(asked["_meta"][key] == identity);

  json listen = mcp::jsonrpc::request("L1", "subscriptions/listen",
                                      {{"notifications", {{"toolsListChanged", true}}},
                                       {"_meta",
                                        {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                         {"io.modelcontextprotocol/clientCapabilities", json::object()}}}});
  c.send(listen);
  REQUIRE(c.messages().take([](const json& m) { return m.value("method", "") == "notifications/subscriptions/acknowledged"; }, 1s));
  c.connection().finish(std::chrono::milliseconds(0));  // ends the stream with its final result
  auto last = c.messages().take([](const json& m) { return m.contains("result"); }, 1s);
  REQUIRE(last);
  CHECK((*last)["result"]["_meta"][key] == identity);
}

TEST_CASE("stateless: the envelope checks come in the spec's order", "[stateless]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  mcp::testing::client c(srv);
  auto send = [&](json params, const std::string& method = "tools/list") {
    c.send(mcp::jsonrpc::request(7, method, std::move(params)));
    return c.wait_response(7);
  };
  const std::string pv = "io.modelcontextprotocol/protocolVersion", cc = "io.modelcontextprotocol/clientCapabilities";

  // No clientCapabilities (the claim alone is enough to make it 2026): -32602 before anything else,
  // even with an unsupported version and a removed method.
  json r = send({{"_meta", {{pv, "v999"}}}}, "ping");
  CHECK(error_code(r) == -32602);
  CHECK(r["id"] == 7);
  CHECK(error_code(send({{"_meta", {{pv, 2026}, {cc, json::object()}}}})) == -32602);
  CHECK(error_code(send({{"_meta", {{pv, "2026-07-28"}, {cc, json::object()}, {"io.modelcontextprotocol/logLevel", "loud"}}}})) ==
        -32602);
  // Version next, before the method.
  r = send({{"_meta", {{pv, "v999.0.0"}, {cc, json::object()}}}}, "ping");
  REQUIRE(error_code(r) == -32022);
  CHECK(r["error"]["data"]["requested"] == "v999.0.0");
  CHECK(r["error"]["data"]["supported"] == json::array({"2026-07-28"}));
  // Then the method: removed ones and unknown ones alike.
  for (const char* removed : {"ping", "initialize", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "no/such"})
    CHECK(error_code(send({{"_meta", {{pv, "2026-07-28"}, {cc, json::object()}}}}, removed)) == -32601);
  // clientInfo is optional.
  CHECK(send({{"_meta", {{pv, "2026-07-28"}, {cc, json::object()}}}})["result"]["resultType"] == "complete");
}

TEST_CASE("stateless: methods of capabilities the server does not declare are not found", "[stateless]") {
  mcp::server srv({"bare", "1"});
  srv.tool("t", "A tool", [] { return std::string("x"); });
  mcp::testing::client c(srv);
  json caps = c.stateless_request("server/discover")["result"]["capabilities"];
  CHECK_FALSE(caps.contains("prompts"));
  CHECK(error_code(c.stateless_request("prompts/list")) == -32601);
  CHECK(error_code(c.stateless_request("resources/list")) == -32601);
  CHECK(c.stateless_request("tools/list")["result"]["tools"].size() == 1);
}

TEST_CASE("stateless: caching hints per server and per method, never on 2025 or retries", "[stateless]") {
  mcp::server_options options;
  options.cache = {5000, "private"};
  options.cache_by_method["tools/list"] = {60000, "public"};
  auto srv_ptr = make_server(options);
  mcp::server& srv = *srv_ptr;
  mcp::testing::client c(srv);
  json tools = c.stateless_request("tools/list")["result"];
  CHECK(tools["ttlMs"] == 60000);
  CHECK(tools["cacheScope"] == "public");
  json read = c.stateless_request("resources/read", {{"uri", "test://a"}})["result"];
  CHECK(read["ttlMs"] == 5000);
  CHECK(read["cacheScope"] == "private");
  json prompt = c.stateless_request("prompts/get", {{"name", "p"}})["result"];
  CHECK(prompt["resultType"] == "complete");
  CHECK_FALSE(prompt.contains("ttlMs"));  // prompts/get is not cacheable

  // A read that asked the client: the retry's result still carries the hints the schema requires,
  // as "immediately stale, not shared" because it depends on the answers.
  json first = c.stateless_request("resources/read", {{"uri", "test://ask"}}, elicitation)["result"];
  REQUIRE(first["resultType"] == "input_required");
  CHECK_FALSE(first.contains("ttlMs"));
  json answers = {{"ok", {{"action", "accept"}, {"content", json::object()}}}};
  json retried = c.stateless_request("resources/read",
                                     {{"uri", "test://ask"}, {"inputResponses", answers}, {"requestState", first["requestState"]}},
                                     elicitation)["result"];
  CHECK(retried["resultType"] == "complete");
  CHECK(retried["ttlMs"] == 0);
  CHECK(retried["cacheScope"] == "private");
  // Stray retry fields on a method that cannot ask change nothing.
  json stray = c.stateless_request("tools/list", {{"inputResponses", json::object()}})["result"];
  CHECK(stray["ttlMs"] == 60000);
  CHECK(stray["cacheScope"] == "public");
  CHECK_THROWS_AS(mcp::server({"x", "1"}, [] {
                    mcp::server_options o;
                    o.cache.scope = "everyone";
                    return o;
                  }()),
                  mcp::definition_error);
}

TEST_CASE("stateless: one handler asks in both eras", "[stateless][mrtr]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;

  SECTION("2026: input_required, then the retry with the answer completes") {
    mcp::testing::client c(srv);
    json first = c.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
    REQUIRE(first["resultType"] == "input_required");
    CHECK(first["inputRequests"]["name"]["method"] == "elicitation/create");
    CHECK(first["inputRequests"]["name"]["params"]["message"] == "What is your name?");
    REQUIRE(first["requestState"].is_string());
    CHECK_FALSE(first.contains("ttlMs"));
    CHECK(c.messages().size() == 0);  // no request went to the client

    json answers = {{"name", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}};
    json done = c.stateless_request("tools/call",
                                    {{"name", "hello"}, {"inputResponses", answers}, {"requestState", first["requestState"]}},
                                    elicitation)["result"];
    CHECK(done["resultType"] == "complete");
    CHECK(done["structuredContent"]["text"] == "Hello, Ada!");
    CHECK_FALSE(done.contains("ttlMs"));
  }
  SECTION("2026: answers of the wrong shape are asked again, not used") {
    mcp::testing::client c(srv);
    for (json bad : {json{{"name", 12345}}, json(nullptr), json{{"other", {{"action", "accept"}}}}}) {
      json r = c.stateless_request("tools/call", {{"name", "hello"}, {"inputResponses", bad}}, elicitation)["result"];
      CHECK(r["resultType"] == "input_required");
    }
  }
  SECTION("2026: several rounds; earlier answers travel in the sealed state, which changes each round") {
    mcp::testing::client c(srv);
    const json caps = {{"elicitation", json::object()}, {"roots", json::object()}};
    json r1 = c.stateless_request("tools/call", {{"name", "two_rounds"}}, caps)["result"];
    REQUIRE(r1["inputRequests"].contains("first"));
    json r2 = c.stateless_request("tools/call",
                                  {{"name", "two_rounds"},
                                   {"inputResponses", {{"first", {{"action", "accept"}, {"content", {{"v", "x"}}}}}}},
                                   {"requestState", r1["requestState"]}},
                                  caps)["result"];
    REQUIRE(r2["resultType"] == "input_required");
    CHECK(r2["inputRequests"].contains("roots"));
    CHECK_FALSE(r2["inputRequests"].contains("first"));
    CHECK(r2["requestState"] != r1["requestState"]);
    json r3 = c.stateless_request("tools/call",
                                  {{"name", "two_rounds"},
                                   {"inputResponses", {{"roots", {{"roots", json::array({{{"uri", "file:///a"}}})}}}}},
                                   {"requestState", r2["requestState"]}},
                                  caps)["result"];
    CHECK(r3["content"][0]["text"] == "x/1");
  }
  SECTION("2026: a tampered, replayed, expired or foreign requestState is refused with -32602") {
    mcp::testing::client c(srv);
    json first = c.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
    const std::string state = first["requestState"];
    json answers = {{"name", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}};
    auto retry = [&](const std::string& name, const std::string& st) {
      return c.stateless_request("tools/call", {{"name", name}, {"inputResponses", answers}, {"requestState", st}}, elicitation);
    };
    json tampered = retry("hello", state + "-TAMPERED");
    REQUIRE(error_code(tampered) == -32602);
    CHECK(tampered["error"]["message"] == "requestState integrity check failed");
    CHECK(error_code(retry("two_rounds", state)) == -32602);  // bound to the tool it was issued for
    CHECK(retry("hello", state)["result"]["resultType"] == "complete");
    json replay = retry("hello", state);
    REQUIRE(error_code(replay) == -32602);
    CHECK(replay["error"]["message"] == "requestState was already used");

    mcp::server_options expiring;
    expiring.request_state_ttl = std::chrono::seconds(-1);
    auto short_lived = make_server(expiring);
    mcp::testing::client c2(*short_lived);
    json r = c2.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
    json expired = c2.stateless_request(
        "tools/call", {{"name", "hello"}, {"inputResponses", answers}, {"requestState", r["requestState"]}}, elicitation);
    REQUIRE(error_code(expired) == -32602);
    CHECK(expired["error"]["message"] == "requestState expired");

    // Another process with its own key does not accept it; one with the same key does.
    mcp::server_options keyed;
    keyed.request_state_key = "shared secret";
    auto a = make_server(keyed), b = make_server(keyed);
    mcp::testing::client ca(*a), cb(*b), cother(srv);
    json ra = ca.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
    json params = {{"name", "hello"}, {"inputResponses", answers}, {"requestState", ra["requestState"]}};
    CHECK(error_code(cother.stateless_request("tools/call", params, elicitation)) == -32602);
    CHECK(cb.stateless_request("tools/call", params, elicitation)["result"]["resultType"] == "complete");
  }
  SECTION("2026: without the capability the tool says so instead of asking") {
    mcp::testing::client c(srv);
    json r = c.stateless_request("tools/call", {{"name", "hello"}})["result"];
    CHECK(r["isError"] == true);
    CHECK(r["content"][0]["text"].get<std::string>().find("elicitation") != std::string::npos);
  }
  SECTION("2025: the same handler sends elicitation/create and waits for the answer") {
    mcp::detail::thread_pool pool(2);
    mcp::testing::client c(srv, [&pool](std::function<void()> job) { pool.post(std::move(job)); });
    c.initialize("2025-11-25", elicitation);
    json id = c.start_request("tools/call", {{"name", "hello"}});
    auto asked = c.messages().take([](const json& m) { return m.value("method", "") == "elicitation/create"; }, 5s);
    REQUIRE(asked);
    c.send({{"jsonrpc", "2.0"}, {"id", (*asked)["id"]}, {"result", {{"action", "accept"}, {"content", {{"name", "Bo"}}}}}});
    json done = c.wait_response(id);
    CHECK(done["result"]["structuredContent"]["text"] == "Hello, Bo!");
    CHECK_FALSE(done["result"].contains("resultType"));
  }
}

TEST_CASE("stateless: a handler that swallows what ctx.ask() throws gets an error, not its result, and a log line",
          "[stateless][mrtr]") {
  std::vector<std::string> diagnostics;
  mcp::server_options options;
  options.log_sink = [&](std::string_view s) { diagnostics.emplace_back(s); };
  mcp::server srv({"swallow-test", "1.0"}, options);
  // The hazard: a catch (...) around ask() that does not rethrow.
  srv.tool("swallows", "Asks, but catches everything", [](mcp::context& ctx) -> std::string {
    try {
      ctx.elicit("Sure?", {{"type", "object"}});
      return "asked";
    } catch (...) {
      return "fell back";
    }
  });
  // The same, rethrowing: the round ends as it should.
  srv.tool("rethrows", "Asks; catches everything and rethrows", [](mcp::context& ctx) -> std::string {
    try {
      auto answer = ctx.elicit("Sure?", {{"type", "object"}});
      return "answer: " + answer["action"].get<std::string>();
    } catch (...) {
      throw;
    }
  });
  srv.prompt("swallows", "A prompt that swallows", [](mcp::context& ctx) -> std::string {
    try {
      ctx.create_message({{"messages", json::array()}, {"maxTokens", 10}});
    } catch (...) {
    }
    return "prompt text";
  });
  mcp::testing::client c(srv);
  const json caps = {{"elicitation", json::object()}, {"sampling", json::object()}};

  json swallowed = c.stateless_request("tools/call", {{"name", "swallows"}}, caps);
  REQUIRE(swallowed.contains("error"));
  CHECK(error_code(swallowed) == mcp::error_code::internal_error);
  CHECK(swallowed.dump().find("fell back") == std::string::npos);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].find("'tools/call' handler returned normally after ctx.ask() had ended the round") !=
        std::string::npos);
  CHECK(diagnostics[0].find("catch (...)") != std::string::npos);

  json prompt = c.stateless_request("prompts/get", {{"name", "swallows"}}, caps);
  CHECK(error_code(prompt) == mcp::error_code::internal_error);
  CHECK(diagnostics.size() == 2);

  json first = c.stateless_request("tools/call", {{"name", "rethrows"}}, caps)["result"];
  REQUIRE(first["resultType"] == "input_required");
  json done = c.stateless_request("tools/call",
                                  {{"name", "rethrows"},
                                   {"inputResponses", {{"elicitation-1", {{"action", "decline"}}}}},
                                   {"requestState", first["requestState"]}},
                                  caps)["result"];
  CHECK(done["content"][0]["text"] == "answer: decline");
  CHECK(diagnostics.size() == 2);

  // A 2025-era session waits for the answer instead: nothing is thrown, nothing to swallow.
  mcp::detail::thread_pool pool(2);
  mcp::testing::client old(srv, [&pool](std::function<void()> job) { pool.post(std::move(job)); });
  old.initialize("2025-11-25", caps);
  json id = old.start_request("tools/call", {{"name", "swallows"}});
  auto asked = old.messages().take([](const json& m) { return m.value("method", "") == "elicitation/create"; }, 5s);
  REQUIRE(asked);
  old.send({{"jsonrpc", "2.0"}, {"id", (*asked)["id"]}, {"result", {{"action", "accept"}}}});
  CHECK(old.wait_response(id)["result"]["content"][0]["text"] == "asked");
  CHECK(diagnostics.size() == 2);
}

TEST_CASE("stateless: structured content of any type, projected to {result} for 2025", "[stateless]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  mcp::testing::client modern(srv), legacy(srv);
  legacy.initialize();

  json tool26, tool25;
  const json list26 = modern.stateless_request("tools/list"), list25 = legacy.result("tools/list");
  for (const auto& t : list26["result"]["tools"])
    if (t["name"] == "numbers") tool26 = t;
  for (const auto& t : list25["tools"])
    if (t["name"] == "numbers") tool25 = t;
  CHECK(tool26["outputSchema"]["type"] == "array");
  CHECK(tool25["outputSchema"]["type"] == "object");
  CHECK(tool25["outputSchema"]["required"] == json::array({"result"}));
  CHECK(tool25["outputSchema"]["properties"]["result"] == tool26["outputSchema"]);

  json r26 = modern.stateless_request("tools/call", {{"name", "numbers"}})["result"];
  CHECK(r26["structuredContent"] == json::array({1, 2, 3}));
  json r25 = legacy.call_tool("numbers");
  CHECK(r25["structuredContent"] == json{{"result", {1, 2, 3}}});
  CHECK(r25["content"][0]["text"] == r26["content"][0]["text"]);  // both get the text block

  // A handler's own tool_result with non-object structured content gets its text block too (SEP-2106).
  json raw26 = modern.stateless_request("tools/call", {{"name", "raw_list"}})["result"];
  CHECK(raw26["structuredContent"] == json::array({"x", "y"}));
  REQUIRE(raw26["content"].size() == 1);
  CHECK(raw26["content"][0] == json{{"type", "text"}, {"text", R"(["x","y"])"}});
  json raw25 = legacy.call_tool("raw_list");
  CHECK(raw25["structuredContent"] == json{{"result", {"x", "y"}}});
  CHECK(raw25["content"] == raw26["content"]);

  json ref = mcp::detail::legacy_output_schema(json
      {{"$schema", "https://json-schema.org/draft/2020-12/schema"}, {"type", "array"}, {"items", {{"$ref", "#/$defs/n"}}},
       {"$defs", {{"n", {{"type", "number"}}}}}});
  CHECK(ref["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  CHECK(ref["properties"]["result"]["items"]["$ref"] == "#/properties/result/$defs/n");
  CHECK_FALSE(ref["properties"]["result"].contains("$schema"));
}

TEST_CASE("stateless: logs only when the request names a level; errors by era", "[stateless]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  mcp::testing::client c(srv);
  c.stateless_request("tools/call", {{"name", "chatty"}});
  CHECK(c.messages().size() == 0);
  c.stateless_request("tools/call", {{"name", "chatty"}}, json::object(), "error");
  CHECK(c.messages().size() == 0);  // warning is below error
  c.stateless_request("tools/call", {{"name", "chatty"}}, json::object(), "info");
  auto log = c.messages().take([](const json& m) { return m.value("method", "") == "notifications/message"; }, 1s);
  REQUIRE(log);
  CHECK((*log)["params"]["level"] == "warning");

  json missing = c.stateless_request("resources/read", {{"uri", "test://none"}});
  CHECK(error_code(missing) == -32602);
  CHECK(missing["error"]["data"]["uri"] == "test://none");
  mcp::testing::client legacy(srv);
  legacy.initialize();
  CHECK(error_code(legacy.request("resources/read", {{"uri", "test://none"}})) == -32002);

  // A prompt that must sample, for a client without sampling: -32021 naming it, in both eras.
  json refused = c.stateless_request("prompts/get", {{"name", "asks"}});
  REQUIRE(error_code(refused) == -32021);
  CHECK(refused["error"]["data"]["requiredCapabilities"] == json{{"sampling", json::object()}});
  CHECK(error_code(legacy.request("prompts/get", {{"name", "asks"}})) == -32021);
}

TEST_CASE("stateless: a retry refused for its id does not use up its requestState", "[stateless][mrtr]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  srv.tool("hold", "Waits until released", [released] {
    released.wait();
    return std::string("held");
  });
  mcp::detail::thread_pool pool(2);
  mcp::testing::client c(srv, [&pool](std::function<void()> job) { pool.post(std::move(job)); });
  auto envelope = [](json params) {
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", elicitation}};
    return params;
  };
  json first = c.stateless_request("tools/call", {{"name", "hello"}}, elicitation)["result"];
  REQUIRE(first["requestState"].is_string());
  const json retry = envelope({{"name", "hello"},
                               {"inputResponses", {{"name", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}}},
                               {"requestState", first["requestState"]}});

  c.send(mcp::jsonrpc::request("busy", "tools/call", envelope({{"name", "hold"}})));
  c.send(mcp::jsonrpc::request("busy", "tools/call", retry));  // same id while "hold" runs
  json refused = c.wait_response("busy");
  REQUIRE(error_code(refused) == -32600);
  release.set_value();
  CHECK(c.wait_response("busy")["result"]["content"][0]["text"] == "held");

  c.send(mcp::jsonrpc::request("again", "tools/call", retry));
  CHECK(c.wait_response("again")["result"]["structuredContent"]["text"] == "Hello, Ada!");
}

TEST_CASE("stateless: subscriptions/listen acknowledges first, tags and filters, ends on cancel", "[stateless][listen]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  mcp::testing::client c(srv);
  json listen = mcp::jsonrpc::request("L1", "subscriptions/listen",
                                      {{"notifications", {{"toolsListChanged", true}, {"resourceSubscriptions", {"test://a"}}}},
                                       {"_meta",
                                        {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                         {"io.modelcontextprotocol/clientCapabilities", json::object()}}}});
  c.send(listen);
  auto ack = c.messages().take([](const json&) { return true; }, 1s);
  REQUIRE(ack);
  CHECK((*ack)["method"] == "notifications/subscriptions/acknowledged");
  CHECK((*ack)["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L1");
  CHECK((*ack)["params"]["notifications"] == json{{"toolsListChanged", true}, {"resourceSubscriptions", {"test://a"}}});
  CHECK(mcp::detail::server_access::listeners_open(srv) == 1);

  srv.notify_all("notifications/prompts/list_changed");  // not asked for
  srv.tool("later", "Added later", [] { return std::string("x"); });
  srv.resource_updated("test://a");
  auto all = c.messages().drain();
  REQUIRE(all.size() == 2);
  CHECK(all[0]["method"] == "notifications/tools/list_changed");
  CHECK(all[1]["method"] == "notifications/resources/updated");
  for (const auto& m : all) CHECK(m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L1");

  c.notify("notifications/cancelled", {{"requestId", "L1"}});
  CHECK(mcp::detail::server_access::listeners_open(srv) == 0);
  srv.notify_all("notifications/tools/list_changed");
  CHECK(c.messages().size() == 0);
  CHECK(c.connection().requests_in_flight() == 0);

  // The server ends a connection's streams (stdio: at end of input) with the final result.
  c.send(listen);
  REQUIRE(c.messages().take([](const json& m) { return m.value("method", "") == "notifications/subscriptions/acknowledged"; }, 1s));
  c.connection().finish(std::chrono::milliseconds(0));  // as stdio does at end of input
  auto last = c.messages().take([](const json&) { return true; }, 1s);
  REQUIRE(last);
  CHECK((*last)["id"] == "L1");
  CHECK((*last)["result"]["resultType"] == "complete");
  CHECK((*last)["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L1");
  CHECK(mcp::detail::server_access::listeners_open(srv) == 0);
  CHECK(c.connection().requests_in_flight() == 0);

  // A connection that goes away (its transport drops the session) takes its listeners along.
  {
    mcp::testing::client gone(srv);
    gone.send(listen);
    CHECK(mcp::detail::server_access::listeners_open(srv) == 1);
  }
  CHECK(mcp::detail::server_access::listeners_open(srv) == 0);
}

namespace order_test {
MCP_STRUCT_DEF(search_args,
  (std::string, query, "What to search for"),
  (int, limit, "How many results", mcp::default_value(10)));
}  // namespace order_test

// A 2026-07-28 result is a tree (the tree sink): its structured content and the listed schemas
// still reach the wire in declaration order, in a JSON reply and on an SSE stream.
TEST_CASE("stateless over HTTP: properties in declaration order, JSON and SSE replies", "[stateless][http]") {
  mcp::server srv({"http-order", "1.0.0"});
  srv.tool("search", "Echoes", [](const order_test::search_args& in, mcp::context& ctx) -> order_test::search_args {
    if (in.limit == 2) ctx.progress(1, 2);  // something before the result: the reply becomes a stream
    return in;
  });
  mcp::http::options opts;
  opts.port = 0;
  test::serving server_socket(srv, opts);
  const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", json::object()},
                     {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};
  auto post = [&](const std::string& method, json params) {
    std::vector<std::pair<std::string, std::string>> headers{{"MCP-Protocol-Version", "2026-07-28"},
                                                             {"Mcp-Method", method},
                                                             {"Content-Type", "application/json"},
                                                             {"Accept", "application/json, text/event-stream"}};
    if (method == "tools/call") headers.push_back({"Mcp-Name", "search"});
    return post_raw(server_socket.port(), mcp::jsonrpc::request(5, method, std::move(params)).dump(), headers);
  };

  auto list = post("tools/list", {{"_meta", meta}});
  REQUIRE(list.status == 200);
  INFO(list.body);
  CHECK(list.body.find(R"("inputSchema":{"type":"object","properties":{"query":{"type":"string","description":)"
                       R"("What to search for"},"limit":)") != std::string::npos);
  CHECK(list.body.find(R"("required":["query"])") != std::string::npos);

  auto call = post("tools/call", {{"name", "search"}, {"arguments", {{"query", "x"}}}, {"_meta", meta}});
  REQUIRE(call.status == 200);
  INFO(call.body);
  CHECK(call.body.find(R"("structuredContent":{"query":"x","limit":10})") != std::string::npos);

  json with_token = meta;
  with_token["progressToken"] = "p";
  auto streamed = post("tools/call", {{"name", "search"}, {"arguments", {{"query", "y"}, {"limit", 2}}}, {"_meta", with_token}});
  REQUIRE(streamed.status == 200);
  INFO(streamed.body);
  const auto events = streamed.events();
  REQUIRE(events.size() >= 2);
  CHECK(events.back().data.find(R"("structuredContent":{"query":"y","limit":2})") != std::string::npos);
  CHECK(events.back().data.find(R"("text":"{\"query\":\"y\",\"limit\":2}")") != std::string::npos);
}

TEST_CASE("stateless over HTTP: statuses of the envelope, header and capability errors", "[stateless][http]") {
  mcp::server srv({"http-stateless", "1.0.0"});
  add_fixtures(srv);
  srv.tool("needs_sampling", "Refuses without sampling", [](mcp::context& ctx) -> std::string {
    ctx.require_client_capability("sampling");
    return "ok";
  });
  mcp::http::options opts;
  opts.port = 0;
  test::serving server_socket(srv, opts);

  const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  auto post = [&](const std::string& method, json params, std::vector<std::pair<std::string, std::string>> headers) {
    json body = mcp::jsonrpc::request(5, method, std::move(params));
    headers.push_back({"Content-Type", "application/json"});
    headers.push_back({"Accept", "application/json, text/event-stream"});
    return post_raw(server_socket.port(), body.dump(), headers);
  };
  const std::pair<std::string, std::string> v26{"MCP-Protocol-Version", "2026-07-28"};

  auto r = post("tools/list", {{"_meta", meta}}, {v26, {"Mcp-Method", "tools/list"}});
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body)["result"]["resultType"] == "complete");

  r = post("tools/list", json::object(), {v26, {"Mcp-Method", "tools/list"}});  // no _meta, modern header
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"]["code"] == -32602);
  CHECK(json::parse(r.body)["id"] == 5);

  r = post("tools/list", {{"_meta", meta}}, {{"Mcp-Method", "tools/list"}});  // header missing
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"]["code"] == -32020);

  json v999 = meta;
  v999["io.modelcontextprotocol/protocolVersion"] = "v999.0.0";
  r = post("tools/list", {{"_meta", v999}}, {v26, {"Mcp-Method", "tools/list"}});  // mismatch before version
  CHECK(json::parse(r.body)["error"]["code"] == -32020);
  r = post("tools/list", {{"_meta", v999}}, {{"MCP-Protocol-Version", "v999.0.0"}, {"Mcp-Method", "tools/list"}});
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"]["code"] == -32022);

  r = post("tools/list", {{"_meta", meta}}, {v26, {"Mcp-Method", "TOOLS/LIST"}});
  CHECK(r.status == 400);
  CHECK(json::parse(r.body)["error"]["code"] == -32020);

  r = post("ping", {{"_meta", meta}}, {v26, {"Mcp-Method", "ping"}});
  CHECK(r.status == 404);
  CHECK(json::parse(r.body)["error"]["code"] == -32601);

  r = post("tools/call", {{"name", "needs_sampling"}, {"_meta", meta}},
           {v26, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "needs_sampling"}});
  CHECK(r.status == 400);
  json refused = json::parse(r.body);
  CHECK(refused["error"]["code"] == -32021);
  CHECK(refused["error"]["data"]["requiredCapabilities"] == json{{"sampling", json::object()}});

  r = post("resources/read", {{"uri", "test://none"}, {"_meta", meta}},
           {v26, {"Mcp-Method", "resources/read"}, {"Mcp-Name", "test://none"}});
  CHECK(r.status == 200);  // a handler's -32602 stays in-band
  CHECK(json::parse(r.body)["error"]["code"] == -32602);

  // A 2025 client on the same endpoint is unaffected: no session id, no claim -> the session rules.
  r = post("tools/list", json::object(), {{"MCP-Protocol-Version", "2025-11-25"}});
  CHECK(r.status == 400);
  CHECK(r.body.find("Mcp-Session-Id") != std::string::npos);
}

namespace {

// An outbound whose send() blocks while held, as a write to a client that does not read does.
class held_outbound final : public mcp::outbound {
 public:
  void send(const json& message) override {
    std::unique_lock lock(mutex_);
    ++entered_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !held_; });
    sent_.push_back(message);
  }
  void hold() {
    std::lock_guard lock(mutex_);
    held_ = true;
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      held_ = false;
    }
    changed_.notify_all();
  }
  // Waits until a send() has begun (and, while held, is blocked).
  bool wait_entered(int count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 5s, [&] { return entered_ >= count; });
  }
  std::vector<json> sent() {
    std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;
  int entered_ = 0;
  std::vector<json> sent_;
};

// Runs `work` on its own thread; true when it finished within five seconds.
bool gets_through(std::function<void()> work) {
  auto done = std::async(std::launch::async, std::move(work));
  return done.wait_for(5s) == std::future_status::ready;
}

}  // namespace

TEST_CASE("no lock is held while sending: a client that does not read holds up only the thread sending to it",
          "[stateless][listen]") {
  auto srv_ptr = make_server();
  mcp::server& srv = *srv_ptr;
  json listen = mcp::jsonrpc::request("L1", "subscriptions/listen",
                                      {{"notifications", {{"toolsListChanged", true}}},
                                       {"_meta",
                                        {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                         {"io.modelcontextprotocol/clientCapabilities", json::object()}}}});
  // A 2026-07-28 listen stream and a 2025-era session, both to clients that stop reading.
  auto stuck_stream = std::make_shared<held_outbound>();
  mcp::connection streaming(srv, stuck_stream);
  streaming.receive(mcp::detail::to_json_text(listen));
  REQUIRE(stuck_stream->sent().size() == 1);  // the acknowledgement
  auto stuck_session = std::make_shared<held_outbound>();
  mcp::connection legacy(srv, stuck_session);
  legacy.receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
  legacy.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  REQUIRE(stuck_session->sent().size() == 1);  // the initialize result

  stuck_stream->hold();
  stuck_session->hold();
  // Registering a tool notifies everyone: this thread stays in the first send that blocks.
  auto notifier = std::async(std::launch::async, [&] { srv.tool("later", "x", [] { return std::string("x"); }); });
  REQUIRE(stuck_session->wait_entered(2));  // 2025-era sessions come first

  // Meanwhile another client connects, initializes, lists, calls, listens and cancels: each step
  // takes the locks the notifier took before it began to send.
  bool fine = gets_through([&] {
    mcp::testing::client other(srv);
    other.initialize();
    CHECK_FALSE(other.call_tool("numbers").value("isError", false));
    CHECK(other.result("tools/list")["tools"].size() >= 5);
    mcp::testing::client listener(srv);
    listener.send(listen);
    CHECK(listener.messages().take([](const json& m) { return m.value("method", "") == "notifications/subscriptions/acknowledged"; }, 1s));
    listener.notify("notifications/cancelled", {{"requestId", "L1"}});
  });
  CHECK(fine);
  // And a second notifier reaches the streams that do read while the first one is still stuck.
  mcp::testing::client reader(srv);
  reader.send(listen);
  REQUIRE(reader.messages().take([](const json& m) { return m.value("method", "") == "notifications/subscriptions/acknowledged"; }, 1s));
  stuck_session->release();  // 2025-era sessions are sent to directly by each notifier: let this one go
  REQUIRE(stuck_stream->wait_entered(2));  // the first notifier is now stuck on the listen stream
  fine = gets_through([&] { srv.notify_all("notifications/tools/list_changed"); });
  CHECK(fine);
  CHECK(reader.messages().take([](const json& m) { return m.value("method", "") == "notifications/tools/list_changed"; }, 1s));

  stuck_stream->release();
  CHECK(notifier.wait_for(5s) == std::future_status::ready);
  streaming.close();
}

}  // namespace test_stateless
