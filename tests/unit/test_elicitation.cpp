// Requests to the client, typed: ctx.elicit<T>() (the form's schema from an MCP_STRUCT, the answer
// decoded into T), URL-mode elicitation (ctx.elicit_url, server::complete_elicitation and the
// -32042 url_elicitation_required error), and the sampling.tools check; in memory for both eras,
// then over real pipes (stdio) and real sockets (Streamable HTTP on 127.0.0.1).
#include "catch.hpp"
#include "http_client.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/testing.hpp>
#include <mcp/transport/http.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace elicit_test {

enum class size { small, large };
MCP_ENUM(size, (small, "small"), (large, "large"));

enum class topping { cheese, olives, basil };
MCP_ENUM(topping, (cheese, "cheese", "Extra cheese"), (olives, "olives", "Black olives"), (basil, "basil", "Fresh basil"));

struct order {
  std::string name;
  std::string email;
  int guests = 2;
  double budget = 0;
  bool delivery = true;
  size portion = size::small;
  topping favourite = topping::cheese;
  std::vector<size> sizes;
  std::set<topping> toppings;
  std::optional<std::string> note;
};
MCP_STRUCT(order,
           (name, "Your name", mcp::min_length(1), mcp::max_length(40)),
           (email, "Where to send the receipt", mcp::format("email")),
           (guests, "How many people", mcp::minimum(1), mcp::maximum(8), mcp::default_value(2)),
           (budget, "Budget in euros", mcp::default_value(95.5)),
           (delivery, "Deliver it", mcp::default_value(true)),
           (portion, "Portion size", mcp::default_value(size::small)),
           (favourite, "Favourite topping"),
           (sizes, "Sizes to choose from", mcp::min_items(1)),
           (toppings, "Toppings", mcp::max_items(2)),
           (note, "Anything else"));

struct confirm {
  bool ok = false;
};
MCP_STRUCT(confirm, (ok, "Go ahead?"));

// A type of the user's own, mapped through mcp::json_type: a form can carry it only if its schema
// is a primitive one, which is known at run time.
struct point {
  double x = 0, y = 0;
};

}  // namespace elicit_test

template <>
struct mcp::json_type<elicit_test::point> {
  static json schema() { return {{"type", "object"}}; }
  static json encode(const elicit_test::point& p) { return {{"x", p.x}, {"y", p.y}}; }
  static elicit_test::point decode(const json& j) { return {j.at("x").get<double>(), j.at("y").get<double>()}; }
};

namespace elicit_test {
struct where {
  point at;
};
MCP_STRUCT(where, (at, "Where"));
}  // namespace elicit_test

namespace {

using elicit_test::order;

const json good_content = {{"name", "Ada"},    {"email", "ada@example.com"}, {"guests", 3},
                           {"budget", 88},     {"delivery", false},          {"portion", "large"},
                           {"favourite", "basil"}, {"sizes", {"small", "large"}}, {"toppings", {"cheese", "olives"}}};

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

// The server every test serves: typed and URL-mode elicitation, the -32042 error, sampling with tools.
std::unique_ptr<mcp::server> make_server() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  auto srv = std::make_unique<mcp::server>(mcp::server_info{"elicit-test", "1.0"}, o);
  srv->tool("order", "Asks for an order by form", [](mcp::context& ctx) -> std::string {
    auto answer = ctx.elicit<order>("What would you like?");
    if (!answer.accepted()) return std::string("no order: ") + mcp::to_string(answer.action);
    const order& o = *answer.content;
    std::string text = o.name + " <" + o.email + "> x" + std::to_string(o.guests) + " " +
                       mcp::encode(o.portion).get<std::string>() + " " + mcp::encode(o.toppings).dump();
    if (!o.note) text += " (no note)";
    return text;
  });
  srv->tool("where", "Asks for a point", [](mcp::context& ctx) -> std::string {
    auto answer = ctx.elicit<elicit_test::where>("Where?");
    return answer.accepted() ? "got it" : "no";
  });
  srv->tool("login", "Sends the user to a login page", [](mcp::context& ctx) -> std::string {
    auto action = ctx.elicit_url("Sign in to continue", "https://auth.example.com/login?s=1", "login-1");
    return std::string("login: ") + mcp::to_string(action);
  });
  srv->tool("pay", "Needs a payment first", [](mcp::context&) -> std::string {
    throw mcp::url_elicitation_required({{"Pay to continue", "https://pay.example.com/p/7", "pay-7"}});
  });
  srv->tool("sample_with_tools", "Samples with tools", [](mcp::context& ctx) -> std::string {
    json answer = ctx.create_message({{"messages", json::array()},
                                      {"maxTokens", 10},
                                      {"tools", json::array({{{"name", "t"}, {"inputSchema", {{"type", "object"}}}}})}});
    return "sampled: " + answer["content"]["text"].get<std::string>();
  });
  srv->prompt("login_prompt", "A prompt that needs a URL elicitation", [](mcp::context& ctx) -> std::string {
    ctx.elicit_url("Sign in", "https://auth.example.com/", "login-p");
    return "signed in";
  });
  return srv;
}

const json form_caps = {{"elicitation", json::object()}};
const json url_caps = {{"elicitation", {{"url", json::object()}}}};
const json both_caps = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}}};

// A 2025-11-25 session whose requests run on a pool, so that a handler can wait for the answer.
struct session_2025 {
  mcp::detail::thread_pool pool{2};
  mcp::testing::client c;
  session_2025(mcp::server& srv, json caps)
      : c(srv, [this](std::function<void()> job) { pool.post(std::move(job)); }) {
    c.initialize("2025-11-25", std::move(caps));
  }
  json question() {
    auto asked = c.messages().take([](const json& m) { return m.value("method", "") == "elicitation/create"; }, 5s);
    REQUIRE(asked);
    return *asked;
  }
  void answer(const json& question, json result) {
    c.send({{"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", std::move(result)}});
  }
};

}  // namespace

TEST_CASE("elicit<T>: the requested schema is T's, in the shapes elicitation allows", "[elicitation]") {
  const json& s = mcp::detail::form_schema_of<order>();
  CHECK(s["type"] == "object");
  CHECK_FALSE(s.contains("additionalProperties"));
  CHECK(s["required"] == json({"name", "email", "favourite", "sizes", "toppings"}));  // declaration order
  const json& p = s["properties"];
  CHECK(p["name"] == json({{"type", "string"}, {"description", "Your name"}, {"minLength", 1}, {"maxLength", 40}}));
  CHECK(p["email"]["format"] == "email");
  CHECK(p["guests"]["type"] == "integer");
  CHECK(p["guests"]["minimum"] == 1);
  CHECK(p["guests"]["maximum"] == 8);
  CHECK(p["guests"]["default"] == 2);
  CHECK(p["budget"]["type"] == "number");
  CHECK(p["budget"]["default"] == 95.5);
  CHECK(p["delivery"] == json({{"type", "boolean"}, {"description", "Deliver it"}, {"default", true}}));
  // An enum without value descriptions: untitled single select.
  CHECK(p["portion"] == json({{"type", "string"}, {"description", "Portion size"}, {"enum", {"small", "large"}},
                              {"default", "small"}}));
  // With them: titled single select (oneOf const/title), the field's own description only.
  CHECK(p["favourite"] == json({{"type", "string"},
                                {"description", "Favourite topping"},
                                {"oneOf",
                                 {{{"const", "cheese"}, {"title", "Extra cheese"}},
                                  {{"const", "olives"}, {"title", "Black olives"}},
                                  {{"const", "basil"}, {"title", "Fresh basil"}}}}}));
  // Multi select, untitled and titled.
  CHECK(p["sizes"] == json({{"type", "array"},
                            {"description", "Sizes to choose from"},
                            {"minItems", 1},
                            {"items", {{"type", "string"}, {"enum", {"small", "large"}}}}}));
  CHECK(p["toppings"]["type"] == "array");
  CHECK(p["toppings"]["maxItems"] == 2);
  CHECK(p["toppings"]["items"] == json({{"anyOf",
                                          {{{"const", "cheese"}, {"title", "Extra cheese"}},
                                           {{"const", "olives"}, {"title", "Black olives"}},
                                           {{"const", "basil"}, {"title", "Fresh basil"}}}}}));
  CHECK(p["note"] == json({{"type", "string"}, {"description", "Anything else"}}));
  // Nothing nested: every property is a primitive or an array of choices.
  for (const auto& [name, prop] : p.items()) {
    INFO(name);
    CHECK(prop["type"] != "object");
    if (prop["type"] == "array") CHECK((prop["items"].contains("enum") || prop["items"].contains("anyOf")));
  }
}

TEST_CASE("elicit<T> over a 2025-11-25 session: asks with T's schema, decodes the answer", "[elicitation]") {
  auto srv = make_server();
  session_2025 s(*srv, form_caps);

  SECTION("accept: the content arrives as T") {
    json id = s.c.start_request("tools/call", {{"name", "order"}});
    json q = s.question();
    CHECK(q["params"]["message"] == "What would you like?");
    CHECK(q["params"]["requestedSchema"] == mcp::detail::form_schema_of<order>());
    s.answer(q, {{"action", "accept"}, {"content", good_content}});
    json r = s.c.wait_response(id)["result"];
    CHECK(text_of(r) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");
  }
  SECTION("decline and cancel carry no content") {
    for (const char* action : {"decline", "cancel"}) {
      json id = s.c.start_request("tools/call", {{"name", "order"}});
      s.answer(s.question(), {{"action", action}});
      CHECK(text_of(s.c.wait_response(id)["result"]) == std::string("no order: ") + action);
    }
  }
  SECTION("content that does not fit T is an isError result listing every problem") {
    json id = s.c.start_request("tools/call", {{"name", "order"}});
    json bad = good_content;
    bad["guests"] = 12;
    bad["portion"] = "huge";
    bad.erase("email");
    s.answer(s.question(), {{"action", "accept"}, {"content", bad}});
    json r = s.c.wait_response(id)["result"];
    REQUIRE(r["isError"] == true);
    const std::string text = text_of(r);
    INFO(text);
    CHECK(text.find("does not fit the form") != std::string::npos);
    CHECK(text.find("(3 problems)") != std::string::npos);
    CHECK(text.find("/guests") != std::string::npos);
    CHECK(text.find("/portion") != std::string::npos);
    CHECK(text.find("email") != std::string::npos);
  }
  SECTION("an answer with no valid action is an isError result, not a crash") {
    json id = s.c.start_request("tools/call", {{"name", "order"}});
    s.answer(s.question(), {{"action", "maybe"}});
    json r = s.c.wait_response(id)["result"];
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("no valid action") != std::string::npos);
  }
  SECTION("a field whose mapped type a form cannot carry is refused when first asked") {
    json r = s.c.call_tool("where");
    CHECK(r["isError"] == true);  // the tool failed; the details went to the server's log
    CHECK(s.c.messages().take([](const json& m) { return m.contains("method"); }, 100ms) == std::nullopt);
  }
}

TEST_CASE("elicit<T> in a 2026-07-28 request: an input_required round with T's schema, then T", "[elicitation]") {
  auto srv = make_server();
  mcp::testing::client c(*srv);
  json first = c.stateless_request("tools/call", {{"name", "order"}}, form_caps)["result"];
  REQUIRE(first["resultType"] == "input_required");
  const json& asked = first["inputRequests"]["elicitation-1"];
  CHECK(asked["method"] == "elicitation/create");
  CHECK(asked["params"]["requestedSchema"] == mcp::detail::form_schema_of<order>());
  json done = c.stateless_request("tools/call",
                                  {{"name", "order"},
                                   {"inputResponses", {{"elicitation-1", {{"action", "accept"}, {"content", good_content}}}}},
                                   {"requestState", first["requestState"]}},
                                  form_caps)["result"];
  CHECK(done["resultType"] == "complete");
  CHECK(text_of(done) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");

  json again = c.stateless_request("tools/call", {{"name", "order"}}, form_caps)["result"];  // a state is used once
  json bad = c.stateless_request("tools/call",
                                 {{"name", "order"},
                                  {"inputResponses", {{"elicitation-1", {{"action", "accept"}, {"content", {{"name", 5}}}}}}},
                                  {"requestState", again["requestState"]}},
                                 form_caps);
  INFO(bad.dump());
  REQUIRE(bad.contains("result"));
  bad = bad["result"];
  CHECK(bad["isError"] == true);
  CHECK(text_of(bad).find("does not fit the form") != std::string::npos);

  // A client that offers URL mode only cannot be asked a form.
  json url_only = c.stateless_request("tools/call", {{"name", "order"}}, url_caps)["result"];
  CHECK(url_only["isError"] == true);
  CHECK(text_of(url_only).find("elicitation (elicitation/create)") != std::string::npos);
}

TEST_CASE("elicit_url: URL mode needs elicitation.url; completion reaches the session that asked", "[elicitation]") {
  auto srv = make_server();
  SECTION("2025-11-25: mode url with an elicitationId, then notifications/elicitation/complete") {
    session_2025 s(*srv, url_caps);
    json id = s.c.start_request("tools/call", {{"name", "login"}});
    json q = s.question();
    CHECK(q["params"] == json({{"mode", "url"},
                               {"message", "Sign in to continue"},
                               {"url", "https://auth.example.com/login?s=1"},
                               {"elicitationId", "login-1"}}));
    s.answer(q, {{"action", "accept"}});
    CHECK(text_of(s.c.wait_response(id)["result"]) == "login: accept");
    // From another thread, as a web callback would.
    CHECK(std::async(std::launch::async, [&] { return srv->complete_elicitation("login-1"); }).get());
    auto done = s.c.messages().take(
        [](const json& m) { return m.value("method", "") == "notifications/elicitation/complete"; }, 5s);
    REQUIRE(done);
    CHECK((*done)["params"] == json({{"elicitationId", "login-1"}}));
    CHECK_FALSE(srv->complete_elicitation("login-1"));  // once
    CHECK_FALSE(srv->complete_elicitation("never-asked"));
  }
  SECTION("2025-11-25: a declined URL elicitation is not completed later") {
    session_2025 s(*srv, both_caps);
    json id = s.c.start_request("tools/call", {{"name", "login"}});
    s.answer(s.question(), {{"action", "decline"}});
    CHECK(text_of(s.c.wait_response(id)["result"]) == "login: decline");
    CHECK_FALSE(srv->complete_elicitation("login-1"));
  }
  SECTION("without elicitation.url: an isError result in a tool, -32021 naming it elsewhere") {
    session_2025 s(*srv, form_caps);
    json r = s.c.call_tool("login");
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("elicitation.url") != std::string::npos);
    json prompt = s.c.request("prompts/get", {{"name", "login_prompt"}});
    REQUIRE(prompt.contains("error"));
    CHECK(prompt["error"]["code"] == -32021);
    CHECK(prompt["error"]["data"]["requiredCapabilities"] == json({{"elicitation", {{"url", json::object()}}}}));
    CHECK(s.c.messages().take([](const json& m) { return m.value("method", "") == "elicitation/create"; }, 50ms) ==
          std::nullopt);
  }
  SECTION("2026-07-28: mode url without an elicitationId; the retry's accept ends it") {
    mcp::testing::client c(*srv);
    json first = c.stateless_request("tools/call", {{"name", "login"}}, url_caps)["result"];
    REQUIRE(first["resultType"] == "input_required");
    CHECK(first["inputRequests"]["elicitation-1"]["params"] ==
          json({{"mode", "url"}, {"message", "Sign in to continue"}, {"url", "https://auth.example.com/login?s=1"}}));
    json done = c.stateless_request("tools/call",
                                    {{"name", "login"},
                                     {"inputResponses", {{"elicitation-1", {{"action", "accept"}}}}},
                                     {"requestState", first["requestState"]}},
                                    url_caps)["result"];
    CHECK(text_of(done) == "login: accept");
    json refused = c.stateless_request("tools/call", {{"name", "login"}}, form_caps)["result"];
    CHECK(refused["isError"] == true);
  }
}

TEST_CASE("url_elicitation_required: -32042 for 2025-11-25, an input_required round for 2026-07-28", "[elicitation]") {
  auto srv = make_server();
  {
    session_2025 s(*srv, url_caps);
    json r = s.c.request("tools/call", {{"name", "pay"}});
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["code"] == -32042);
    CHECK(r["error"]["data"] == json({{"elicitations",
                                       {{{"mode", "url"},
                                         {"message", "Pay to continue"},
                                         {"url", "https://pay.example.com/p/7"},
                                         {"elicitationId", "pay-7"}}}}}));
    CHECK(srv->complete_elicitation("pay-7"));
    auto done = s.c.messages().take(
        [](const json& m) { return m.value("method", "") == "notifications/elicitation/complete"; }, 5s);
    REQUIRE(done);
    CHECK((*done)["params"]["elicitationId"] == "pay-7");
  }
  mcp::testing::client c(*srv);
  json round = c.stateless_request("tools/call", {{"name", "pay"}}, url_caps)["result"];
  REQUIRE(round["resultType"] == "input_required");
  CHECK(round["inputRequests"]["pay-7"] ==
        json({{"method", "elicitation/create"},
              {"params", {{"mode", "url"}, {"message", "Pay to continue"}, {"url", "https://pay.example.com/p/7"}}}}));
  json refused = c.stateless_request("tools/call", {{"name", "pay"}}, form_caps);
  REQUIRE(refused.contains("error"));
  CHECK(refused["error"]["code"] == -32021);
  CHECK(refused["error"]["data"]["requiredCapabilities"] == json({{"elicitation", {{"url", json::object()}}}}));
}

TEST_CASE("sampling with tools needs sampling.tools", "[elicitation][sampling]") {
  auto srv = make_server();
  {
    session_2025 s(*srv, {{"sampling", json::object()}});
    json r = s.c.call_tool("sample_with_tools");
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("sampling.tools") != std::string::npos);
    CHECK(s.c.messages().take([](const json& m) { return m.value("method", "") == "sampling/createMessage"; }, 50ms) ==
          std::nullopt);
  }
  {
    session_2025 s(*srv, {{"sampling", {{"tools", json::object()}}}});
    json id = s.c.start_request("tools/call", {{"name", "sample_with_tools"}});
    auto asked = s.c.messages().take([](const json& m) { return m.value("method", "") == "sampling/createMessage"; }, 5s);
    REQUIRE(asked);
    CHECK((*asked)["params"]["tools"][0]["name"] == "t");
    s.c.send({{"jsonrpc", "2.0"},
              {"id", (*asked)["id"]},
              {"result", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}, {"model", "m"}}}});
    CHECK(text_of(s.c.wait_response(id)["result"]) == "sampled: hi");
  }
  mcp::testing::client c(*srv);
  CHECK(c.stateless_request("tools/call", {{"name", "sample_with_tools"}}, {{"sampling", json::object()}})["result"]
            ["isError"] == true);
  CHECK(c.stateless_request("tools/call", {{"name", "sample_with_tools"}},
                            {{"sampling", {{"tools", json::object()}}}})["result"]["resultType"] == "input_required");
}
