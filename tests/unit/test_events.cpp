// The events extension (ext/events.hpp): event types declared like tools, emit from any thread with
// the payload checked, events/list, the capability where clients look for it, scopes and callers,
// 2026-07-28 only; poll and push with cursors, replay, truncation and maxAgeMs/maxEvents, in memory
// and over real sockets. Webhooks are in test_events_webhook.cpp.
#include "catch.hpp"
#include "http_client.hpp"
#include "serving.hpp"

#include <mcp/ext/events.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/transport/http.hpp>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
using namespace std::chrono_literals;

namespace test_events {

MCP_STRUCT_DEF(note_filter, (std::optional<std::string>, title, "Only changes of the note with this title"));
MCP_STRUCT_DEF(note_change, (std::string, title, "The note's title", mcp::min_length(1)),
               (std::string, change, "created, updated or deleted"));
MCP_STRUCT_DEF(tick, (int, n, "The tick's number", mcp::minimum(0)));

namespace {

const json modern_meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                          {"io.modelcontextprotocol/clientCapabilities", json::object()},
                          {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};

bool title_matches(const note_filter& f, const note_change& c) { return !f.title || *f.title == c.title; }

int code_of(const json& response) { return response.at("error").at("code").get<int>(); }

}  // namespace

TEST_CASE("events: declared like tools, listed with the structs' schemas, a page at a time", "[events]") {
  mcp::server_options so;
  so.page_size = 2;
  mcp::server srv({"events-test", "1.0.0"}, so);
  mcp::events events(srv);
  events.declare<note_filter, note_change>("note_changed", "A note was created, updated or deleted.", title_matches);
  mcp::event_options push_only;
  push_only.delivery = {mcp::event_delivery::push};
  push_only.replay = false;
  events.declare<void, tick>("tick", "A clock tick.", push_only);
  events.declare<note_filter, note_change>("note_renamed", "", title_matches);

  mcp::testing::client c(srv);
  json first = c.stateless_request("events/list");
  REQUIRE(first.contains("result"));
  const json& page = first["result"];
  REQUIRE(page["events"].size() == 2);
  const json& changed = page["events"][0];
  CHECK(changed["name"] == "note_changed");
  CHECK(changed["description"] == "A note was created, updated or deleted.");
  CHECK(changed["delivery"] == json({"poll", "push"}));
  CHECK(changed["inputSchema"] == mcp::schema_of<note_filter>());
  CHECK(changed["payloadSchema"] == mcp::schema_of<note_change>());
  CHECK(changed["payloadSchema"]["properties"]["title"]["minLength"] == 1);
  const json& ticks = page["events"][1];
  CHECK(ticks["delivery"] == json({"push"}));
  CHECK(ticks["inputSchema"] == json({{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}));
  CHECK(page["resultType"] == "complete");
  REQUIRE(page.contains("nextCursor"));

  json second = c.stateless_request("events/list", {{"cursor", page["nextCursor"]}});
  REQUIRE(second["result"]["events"].size() == 1);
  CHECK(second["result"]["events"][0]["name"] == "note_renamed");
  CHECK_FALSE(second["result"]["events"][0].contains("description"));
  CHECK_FALSE(second["result"].contains("nextCursor"));
  CHECK(code_of(c.stateless_request("events/list", {{"cursor", "not-ours"}})) == -32602);
}

TEST_CASE("events: the capability where clients look, on server/discover only; 2026-07-28 only", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  mcp::testing::client modern(srv);
  json discover = modern.stateless_request("server/discover")["result"];
  CHECK(discover["capabilities"]["events"] == json::object());  // where the AI SDK looks
  CHECK(discover["capabilities"]["extensions"].contains("io.modelcontextprotocol/events"));

  mcp::testing::client legacy(srv);
  json init = legacy.initialize();
  CHECK_FALSE(init["capabilities"].contains("events"));
  for (const char* method : {"events/list", "events/poll", "events/stream", "events/subscribe", "events/unsubscribe"}) {
    json r = legacy.request(method, {{"name", "note_changed"}});
    INFO(method);
    REQUIRE(r.contains("error"));
    CHECK(code_of(r) == -32601);
    CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Matchers::Contains("2026-07-28"));
  }
  // The built-in capabilities stay the server's own.
  CHECK_THROWS_AS(srv.capability("tools", json::object()), mcp::definition_error);
}

TEST_CASE("events: declarations that cannot work are refused with the reason", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  CHECK_THROWS_WITH((events.declare<note_filter, note_change>("note_changed", "Again", title_matches)),
                    Catch::Matchers::Contains("declared already"));
  mcp::event_options poll_without_replay;
  poll_without_replay.replay = false;
  CHECK_THROWS_WITH((events.declare<void, tick>("t1", "", poll_without_replay)), Catch::Matchers::Contains("needs replay"));
  mcp::event_options webhook;
  webhook.delivery = {mcp::event_delivery::webhook};
  CHECK_THROWS_WITH((events.declare<void, tick>("t2", "", webhook)), Catch::Matchers::Contains("outgoing HTTP client"));
  mcp::event_options none;
  none.delivery.clear();
  CHECK_THROWS_WITH((events.declare<void, tick>("t3", "", none)), Catch::Matchers::Contains("no delivery"));
}

TEST_CASE("events: emit checks the payload against its schema, by handle or by name", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  auto changed = events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  mcp::testing::client c(srv);
  json start = c.stateless_request("events/poll", {{"name", "note_changed"}, {"cursor", nullptr}})["result"];
  REQUIRE(start.contains("cursor"));

  CHECK_THROWS_WITH(changed.emit({"", "created"}), Catch::Matchers::Contains("breaks its schema") &&
                                                        Catch::Matchers::Contains("/title"));
  CHECK_THROWS_WITH(events.emit("note_changed", tick{1}), Catch::Matchers::Contains("not of the type"));
  CHECK_THROWS_WITH(events.emit("nothing", note_change{"a", "b"}), Catch::Matchers::Contains("no event type named"));
  CHECK_THROWS_WITH(events.emit("note_changed", json{{"title", "x"}}), Catch::Matchers::Contains("change"));
  const std::string id = changed.emit({"Groceries", "created"});
  const std::string by_name = events.emit("note_changed", json{{"title", "Groceries"}, {"change", "updated"}});
  const std::string upstream = changed.emit({"Groceries", "deleted"}, "upstream-42");
  CHECK(upstream == "upstream-42");

  json polled = c.stateless_request("events/poll", {{"name", "note_changed"}, {"cursor", start["cursor"]}})["result"];
  REQUIRE(polled["events"].size() == 3);  // the refused ones were never raised
  CHECK(polled["events"][0]["eventId"] == id);
  CHECK(polled["events"][0]["name"] == "note_changed");
  CHECK(polled["events"][0]["data"] == json({{"title", "Groceries"}, {"change", "created"}}));
  CHECK(polled["events"][1]["eventId"] == by_name);
  CHECK(polled["events"][2]["eventId"] == "upstream-42");
  const std::string ts = polled["events"][0]["timestamp"];
  CHECK(ts.size() == 24);  // 2026-12-05T08:46:12.345Z
  CHECK(ts[10] == 'T');
  CHECK(ts.back() == 'Z');
  CHECK(events.emitted() == 3);
}

TEST_CASE("events: emit from many threads at once, every occurrence once", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::event_options o;
  o.retention.max_events = 10000;
  mcp::events events(srv);
  auto ticks = events.declare<void, tick>("tick", "Ticks", o);
  mcp::testing::client c(srv);
  json cursor = c.stateless_request("events/poll", {{"name", "tick"}, {"cursor", nullptr}})["result"]["cursor"];
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) ticks.emit({t * 1000 + i});
    });
  for (auto& t : threads) t.join();
  std::set<int> seen;
  std::set<std::string> ids;
  for (int rounds = 0; rounds < 20; ++rounds) {
    json r = c.stateless_request("events/poll", {{"name", "tick"}, {"cursor", cursor}, {"maxEvents", 100}})["result"];
    for (const auto& e : r["events"]) {
      seen.insert(e["data"]["n"].get<int>());
      ids.insert(e["eventId"].get<std::string>());
    }
    cursor = r["cursor"];
    if (!r["hasMore"].get<bool>()) break;
  }
  CHECK(seen.size() == 800);
  CHECK(ids.size() == 800);
}

TEST_CASE("events: scopes hide event types and refuse them, as for tools; the caller is the principal", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  mcp::event_options secret;
  secret.scopes = {"notes:read"};
  events.declare<note_filter, note_change>("note_changed", "Changes", title_matches, secret);
  events.declare<void, tick>("tick", "Ticks");
  mcp::testing::client c(srv);
  c.set_caller(std::make_shared<mcp::identity>(mcp::identity{"ada", {"other"}, json::object()}));
  json listed = c.stateless_request("events/list")["result"]["events"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["name"] == "tick");
  json refused = c.stateless_request("events/poll", {{"name", "note_changed"}, {"cursor", nullptr}});
  CHECK(code_of(refused) == mcp::error_code::insufficient_scope);
  CHECK(refused["error"]["data"]["requiredScopes"] == json({"notes:read"}));
  json unknown = c.stateless_request("events/poll", {{"name", "nope"}, {"cursor", nullptr}});
  CHECK(code_of(unknown) == mcp::events_error::not_found);
  CHECK(unknown["error"]["message"] == "Unknown event type: 'nope'. Event types: tick");  // the hidden one is not named

  c.set_caller(std::make_shared<mcp::identity>(mcp::identity{"ada", {"notes:read"}, json::object()}));
  CHECK(c.stateless_request("events/list")["result"]["events"].size() == 2);
  CHECK(c.stateless_request("events/poll", {{"name", "note_changed"}, {"cursor", nullptr}}).contains("result"));
}

TEST_CASE("events: bad requests get specific errors", "[events]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  mcp::event_options push_only;
  push_only.delivery = {mcp::event_delivery::push};
  events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  events.declare<void, tick>("tick", "Ticks", push_only);
  mcp::testing::client c(srv);
  auto poll = [&](json params) { return c.stateless_request("events/poll", std::move(params)); };
  CHECK(code_of(poll(json::object())) == -32602);
  CHECK(code_of(poll({{"name", 5}})) == -32602);
  json bad_args = poll({{"name", "note_changed"}, {"arguments", {{"title", 5}}}, {"cursor", nullptr}});
  CHECK(code_of(bad_args) == -32602);
  CHECK_THAT(bad_args["error"]["message"].get<std::string>(), Catch::Matchers::Contains("/title"));
  CHECK(code_of(poll({{"name", "note_changed"}, {"arguments", {{"titel", "x"}}}, {"cursor", nullptr}})) == -32602);
  CHECK(code_of(poll({{"name", "note_changed"}, {"arguments", "x"}, {"cursor", nullptr}})) == -32602);
  CHECK(code_of(poll({{"name", "note_changed"}, {"cursor", "forged"}})) == -32602);
  CHECK(code_of(poll({{"name", "note_changed"}, {"cursor", 7}})) == -32602);
  CHECK(code_of(poll({{"name", "note_changed"}, {"cursor", nullptr}, {"maxEvents", -1}})) == -32602);
  CHECK(code_of(poll({{"name", "note_changed"}, {"cursor", nullptr}, {"maxAgeMs", "soon"}})) == -32602);
  json unsupported = poll({{"name", "tick"}, {"cursor", nullptr}});
  CHECK(code_of(unsupported) == mcp::events_error::unsupported);
  CHECK(unsupported["error"]["data"]["delivery"] == "poll");
  // A cursor of one event type is refused by another.
  json tick_cursor = poll({{"name", "note_changed"}, {"cursor", nullptr}})["result"]["cursor"];
  CHECK(code_of(c.stateless_request("events/stream", {{"name", "tick"}, {"cursor", tick_cursor}})) == -32602);
  // No webhook client: events/subscribe refuses the mode.
  json sub = c.stateless_request("events/subscribe", {{"name", "note_changed"},
                                                      {"delivery", {{"mode", "webhook"}, {"url", "https://example.com/x"}, {"secret", "x"}}}});
  CHECK(code_of(sub) == mcp::events_error::unsupported);
}

}  // namespace test_events
