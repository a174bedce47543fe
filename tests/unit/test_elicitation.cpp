// Requests to the client, typed: ctx.elicit<T>() (the form's schema from an MCP_STRUCT, the answer
// decoded into T), URL-mode elicitation (ctx.elicit_url, server::complete_elicitation and the
// -32042 url_elicitation_required error), and the sampling.tools check; in memory for both eras,
// then over real pipes (stdio) and real sockets (Streamable HTTP on 127.0.0.1).
#include "catch.hpp"
#include "serving.hpp"
#include "official_schema.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/testing.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#ifndef _WIN32  // the transport tests' harness is POSIX (pipes, BSD sockets); the Windows build runs the rest
#include "http_client.hpp"

#include <mcp/transport/http.hpp>

#include <poll.h>
#include <unistd.h>
#endif

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

// T's form as plain values, as a client that parses the request sees it.
template <class T>
json form_of() {
  json form = mcp::detail::form_schema_of<T>();
  mcp::detail::expand_raw_json(form);
  return form;
}

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

namespace test_elicitation {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

using elicit_test::order;
using elicit_test::form_of;

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
  srv->tool("two_questions", "Asks two typed questions in one round", [](mcp::context& ctx) -> std::string {
    auto answers = ctx.ask({mcp::elicitation_input<elicit_test::confirm>("sure", "Sure?"),
                            mcp::elicitation_input<order>("order", "What would you like?")});
    auto sure = mcp::elicit_result<elicit_test::confirm>::from(answers["sure"], "Sure?");
    auto what = mcp::elicit_result<order>::from(answers["order"], "What would you like?");
    return std::string(sure.accepted() && sure.content->ok ? "sure" : "unsure") + ", " +
           (what.accepted() ? what.content->name : std::string("no order"));
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
  // Kept as the text of the form in declaration order, which the SDK's writer sends as it is.
  const std::string text(mcp::detail::raw_json_text(mcp::detail::form_schema_of<order>()));
  std::size_t at = 0;
  for (const char* field : {"name", "email", "guests", "budget", "delivery", "portion", "favourite", "sizes", "toppings", "note"}) {
    INFO(field << " in " << text);
    const std::size_t found = text.find("\"" + std::string(field) + "\":{", at);
    REQUIRE(found != std::string::npos);
    at = found;
  }
  const json s = form_of<order>();
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
    CHECK(q["params"]["requestedSchema"] == form_of<order>());
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
  CHECK(asked["params"]["requestedSchema"] == form_of<order>());
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

TEST_CASE("elicitation_input<T>: several typed questions in one round, read with elicit_result<T>::from",
          "[elicitation]") {
  auto srv = make_server();
  mcp::testing::client c(*srv);
  json first = c.stateless_request("tools/call", {{"name", "two_questions"}}, form_caps)["result"];
  REQUIRE(first["resultType"] == "input_required");
  CHECK(first["inputRequests"]["sure"]["params"]["requestedSchema"] ==
        form_of<elicit_test::confirm>());
  CHECK(first["inputRequests"]["order"]["params"]["requestedSchema"] == form_of<order>());
  json done = c.stateless_request("tools/call",
                                  {{"name", "two_questions"},
                                   {"inputResponses",
                                    {{"sure", {{"action", "accept"}, {"content", {{"ok", true}}}}},
                                     {"order", {{"action", "accept"}, {"content", good_content}}}}},
                                   {"requestState", first["requestState"]}},
                                  form_caps)["result"];
  CHECK(text_of(done) == "sure, Ada");
  // The same handler in a 2025-11-25 session: two requests to the client, in order.
  session_2025 s(*srv, form_caps);
  json id = s.c.start_request("tools/call", {{"name", "two_questions"}});
  json q1 = s.question();
  CHECK(q1["params"]["message"] == "Sure?");
  s.answer(q1, {{"action", "accept"}, {"content", {{"ok", false}}}});
  json q2 = s.question();
  s.answer(q2, {{"action", "cancel"}});
  CHECK(text_of(s.c.wait_response(id)["result"]) == "unsure, no order");
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

// ---- Over real transports ----
#ifndef _WIN32

namespace {

// mcp::serve_stream on a pair of pipes, as a client process would see it.
struct piped {
  int to_server[2];
  int from_server[2];
  std::future<int> exit_code;
  std::string pending;

  explicit piped(mcp::server& srv) {
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
    exit_code = std::async(std::launch::async, [this, &srv] {
      int rc = mcp::serve_stream(srv, to_server[0], from_server[1], {});
      close(from_server[1]);
      return rc;
    });
  }
  ~piped() {
    close(to_server[1]);
    if (exit_code.valid()) exit_code.wait();
    close(to_server[0]);
    close(from_server[0]);
  }
  void write(const json& message) {
    const std::string bytes = message.dump() + "\n";
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(to_server[1], bytes.data() + done, bytes.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
  }
  json read(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (auto nl = pending.find('\n'); nl != std::string::npos) {
        json j = json::parse(pending.substr(0, nl), nullptr, false);
        pending.erase(0, nl + 1);
        REQUIRE_FALSE(j.is_discarded());
        return j;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{from_server[0], POLLIN, 0};
      REQUIRE(left.count() > 0);
      REQUIRE(poll(&p, 1, static_cast<int>(left.count())) > 0);
      char chunk[4096];
      ssize_t n = ::read(from_server[0], chunk, sizeof chunk);
      REQUIRE(n > 0);
      pending.append(chunk, static_cast<std::size_t>(n));
    }
  }
};

json rpc(long long id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}
json answer_to(const json& question, json result) {
  return {{"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", std::move(result)}};
}
json modern(json params, json caps) {
  params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", std::move(caps)},
                     {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};
  return params;
}

}  // namespace

TEST_CASE("elicitation over stdio pipes: typed form and URL mode (2025-11-25), typed form (2026-07-28)",
          "[elicitation][stdio]") {
  auto srv = make_server();
  {
    piped p(*srv);
    p.write(rpc(1, "initialize",
                {{"protocolVersion", "2025-11-25"},
                 {"capabilities", both_caps},
                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
    CHECK(p.read()["id"] == 1);
    p.write({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});

    p.write(rpc(2, "tools/call", {{"name", "order"}}));
    json q = p.read();
    REQUIRE(q["method"] == "elicitation/create");
    CHECK(q["params"]["requestedSchema"] == form_of<order>());
    p.write(answer_to(q, {{"action", "accept"}, {"content", good_content}}));
    json r = p.read();
    CHECK(r["id"] == 2);
    CHECK(text_of(r["result"]) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");

    p.write(rpc(3, "tools/call", {{"name", "login"}}));
    q = p.read();
    REQUIRE(q["params"]["mode"] == "url");
    CHECK(q["params"]["elicitationId"] == "login-1");
    p.write(answer_to(q, {{"action", "accept"}}));
    CHECK(text_of(p.read()["result"]) == "login: accept");
    CHECK(srv->complete_elicitation("login-1"));
    json done = p.read();
    CHECK(done == json({{"jsonrpc", "2.0"},
                        {"method", "notifications/elicitation/complete"},
                        {"params", {{"elicitationId", "login-1"}}}}));
  }
  {
    piped p(*srv);  // a 2026-07-28 connection: no initialize, the answers come with the retry
    p.write(rpc(1, "tools/call", modern({{"name", "order"}}, form_caps)));
    json first = p.read()["result"];
    REQUIRE(first["resultType"] == "input_required");
    CHECK(first["inputRequests"]["elicitation-1"]["params"]["requestedSchema"] == form_of<order>());
    p.write(rpc(2, "tools/call",
                modern({{"name", "order"},
                        {"inputResponses", {{"elicitation-1", {{"action", "accept"}, {"content", good_content}}}}},
                        {"requestState", first["requestState"]}},
                       form_caps)));
    json done = p.read()["result"];
    CHECK(done["resultType"] == "complete");
    CHECK(text_of(done) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");
  }
}

TEST_CASE("elicitation over Streamable HTTP on 127.0.0.1: typed form and URL mode, both eras", "[elicitation][http]") {
  auto srv = make_server();
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  test::serving listener(*srv, o);

  const std::vector<test::header> base = {{"Accept", "application/json, text/event-stream"},
                                          {"Content-Type", "application/json"}};
  std::string session;
  auto headers = [&](const std::string& version) {
    auto h = base;
    if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
    h.push_back({"MCP-Protocol-Version", version});
    return h;
  };
  auto messages = [](const test::http_response& r) {
    std::vector<json> out;
    for (const auto& e : r.events())
      if (!e.data.empty()) out.push_back(json::parse(e.data));
    return out;
  };
  auto body = [](const test::http_response& r) {
    json j = json::parse(r.body, nullptr, false);
    INFO(r.body);
    REQUIRE_FALSE(j.is_discarded());
    return j;
  };

  // 2025-11-25: a session; each question rides the call's SSE stream, each answer is a POST of its own.
  test::http_connection conn(listener.port());
  conn.send(test::http_request("POST", "/mcp",
                               rpc(1, "initialize",
                                   {{"protocolVersion", "2025-11-25"},
                                    {"capabilities", both_caps},
                                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
                                   .dump(),
                               base));
  auto init = conn.read(5s);
  REQUIRE(init.status == 200);
  REQUIRE(init.header("Mcp-Session-Id"));
  session = *init.header("Mcp-Session-Id");
  conn.send(test::http_request("POST", "/mcp", json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(),
                               headers("2025-11-25")));
  REQUIRE(conn.read(5s).status == 202);

  auto ask_and_answer = [&](long long id, const std::string& tool, const json& result) {
    conn.send(test::http_request("POST", "/mcp", rpc(id, "tools/call", {{"name", tool}}).dump(), headers("2025-11-25")));
    auto partial = conn.read_events(2);  // priming, then the question
    REQUIRE(partial.status == 200);
    auto asked = messages(partial);
    REQUIRE(asked.size() == 1);
    REQUIRE(asked[0]["method"] == "elicitation/create");
    test::http_connection other(listener.port());
    other.send(test::http_request("POST", "/mcp", answer_to(asked[0], result).dump(), headers("2025-11-25")));
    CHECK(other.read(5s).status == 202);
    auto rest = conn.read(5s);
    REQUIRE(rest.complete);
    auto all = messages(rest);
    REQUIRE(all.size() == 2);
    CHECK(all[1]["id"] == id);
    return std::make_pair(asked[0], all[1]);
  };

  auto [form_q, form_r] = ask_and_answer(2, "order", {{"action", "accept"}, {"content", good_content}});
  CHECK(form_q["params"]["requestedSchema"] == form_of<order>());
  CHECK(text_of(form_r["result"]) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");

  auto [url_q, url_r] = ask_and_answer(3, "login", {{"action", "accept"}});
  CHECK(url_q["params"]["url"] == "https://auth.example.com/login?s=1");
  CHECK(url_q["params"]["elicitationId"] == "login-1");
  CHECK(text_of(url_r["result"]) == "login: accept");

  // The completion goes out on the session's GET stream.
  test::http_connection get(listener.port());
  get.send(test::http_request("GET", "/mcp", "",
                              {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session},
                               {"MCP-Protocol-Version", "2025-11-25"}}));
  REQUIRE(get.read_events(1).status == 200);  // priming
  CHECK(srv->complete_elicitation("login-1"));
  auto got = messages(get.read_events(2));
  REQUIRE(got.size() == 1);
  CHECK(got[0]["method"] == "notifications/elicitation/complete");
  CHECK(got[0]["params"]["elicitationId"] == "login-1");

  // -32042 as a JSON-RPC error.
  conn.send(test::http_request("POST", "/mcp", rpc(4, "tools/call", {{"name", "pay"}}).dump(), headers("2025-11-25")));
  json pay = body(conn.read(5s));
  CHECK(pay["error"]["code"] == -32042);
  CHECK(pay["error"]["data"]["elicitations"][0]["elicitationId"] == "pay-7");

  // 2026-07-28: no session; the question comes back as input_required, the answer with the retry.
  session.clear();
  auto modern_post = [&](long long id, json params) {
    auto h = headers("2026-07-28");
    h.push_back({"Mcp-Method", "tools/call"});
    h.push_back({"Mcp-Name", params["name"].get<std::string>()});
    test::http_connection c(listener.port());
    c.send(test::http_request("POST", "/mcp", rpc(id, "tools/call", std::move(params)).dump(), h));
    auto r = c.read(5s);
    REQUIRE(r.status == 200);
    auto all = r.events().empty() ? std::vector<json>{body(r)} : messages(r);
    REQUIRE_FALSE(all.empty());
    return all.back()["result"];
  };
  json first = modern_post(5, modern({{"name", "order"}}, both_caps));
  REQUIRE(first["resultType"] == "input_required");
  CHECK(first["inputRequests"]["elicitation-1"]["params"]["requestedSchema"] == form_of<order>());
  json done = modern_post(6, modern({{"name", "order"},
                                     {"inputResponses", {{"elicitation-1", {{"action", "accept"}, {"content", good_content}}}}},
                                     {"requestState", first["requestState"]}},
                                    both_caps));
  CHECK(done["resultType"] == "complete");
  CHECK(text_of(done) == "Ada <ada@example.com> x3 large [\"cheese\",\"olives\"] (no note)");
  json url_round = modern_post(7, modern({{"name", "login"}}, both_caps));
  REQUIRE(url_round["resultType"] == "input_required");
  CHECK(url_round["inputRequests"]["elicitation-1"]["params"]["mode"] == "url");
  CHECK_FALSE(url_round["inputRequests"]["elicitation-1"]["params"].contains("elicitationId"));
}

#endif  // _WIN32

TEST_CASE("official schema: elicitation requests, the -32042 error, the completion, the 2026 round", "[.official-schema]") {
  auto srv = make_server();
  session_2025 s(*srv, both_caps);
  json id = s.c.start_request("tools/call", {{"name", "order"}});
  json form = s.question();
  CHECK_OFFICIAL(form, "ElicitRequest");
  CHECK_OFFICIAL(form["params"], "ElicitRequestFormParams");
  // Each field of the derived form is one of the spec's primitive schemas (none nested).
  for (const auto& [name, prop] : form["params"]["requestedSchema"]["properties"].items())
    CHECK_OFFICIAL(prop, "PrimitiveSchemaDefinition");
  for (const char* single : {"portion", "favourite"})
    CHECK_OFFICIAL(form["params"]["requestedSchema"]["properties"][single], "SingleSelectEnumSchema");
  for (const char* multi : {"sizes", "toppings"})
    CHECK_OFFICIAL(form["params"]["requestedSchema"]["properties"][multi], "MultiSelectEnumSchema");
  CHECK_OFFICIAL(form["params"]["requestedSchema"]["properties"]["favourite"], "TitledSingleSelectEnumSchema");
  CHECK_OFFICIAL(form["params"]["requestedSchema"]["properties"]["toppings"], "TitledMultiSelectEnumSchema");
  s.answer(form, {{"action", "decline"}});
  s.c.wait_response(id);

  id = s.c.start_request("tools/call", {{"name", "login"}});
  json url = s.question();
  CHECK_OFFICIAL(url, "ElicitRequest");
  CHECK_OFFICIAL(url["params"], "ElicitRequestURLParams");
  s.answer(url, {{"action", "accept"}});
  s.c.wait_response(id);
  REQUIRE(srv->complete_elicitation("login-1"));
  auto done = s.c.messages().take([](const json& m) { return m.contains("method"); }, 5s);
  REQUIRE(done);
  CHECK_OFFICIAL(*done, "ElicitationCompleteNotification");

  CHECK_OFFICIAL(s.c.request("tools/call", {{"name", "pay"}}), "URLElicitationRequiredError");

  auto* modern_schema = test::official_schema::revision("2026-07-28");
  REQUIRE(modern_schema);
  mcp::testing::client c(*srv);
  for (const char* tool : {"order", "login", "pay"}) {
    json round = c.stateless_request("tools/call", {{"name", tool}}, both_caps)["result"];
    INFO(tool << " " << round.dump());
    CHECK(modern_schema->check(round, "InputRequiredResult").empty());
    for (const auto& [key, request] : round["inputRequests"].items())
      CHECK(modern_schema->check(request["params"], "ElicitRequestParams").empty());
  }
}

}  // namespace test_elicitation
