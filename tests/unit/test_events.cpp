// The events extension (ext/events.hpp): event types declared like tools, emit from any thread with
// the payload checked, events/list, the capability where clients look for it, scopes and callers,
// 2026-07-28 only; poll and push with cursors, replay, truncation and maxAgeMs/maxEvents, in memory
// and over real sockets. Webhook delivery (events/subscribe) has no test yet: a later step of issue 58.
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


// ---- the seam events/stream stands on: a request kept open (core/request_stream.hpp) ----

TEST_CASE("keep_open: a method's request stays open, notifies from another thread, ends with one result", "[events][keep_open]") {
  mcp::server srv({"keep-open", "1.0.0"});
  std::shared_ptr<mcp::request_stream> held;
  std::mutex m;
  srv.method("demo/hold", {[&](mcp::context& ctx, const json& params) -> json {
                             auto s = ctx.keep_open();
                             CHECK(ctx.keep_open() == s);  // the same stream again
                             if (params.value("fail", false)) throw mcp::protocol_error(-32099, "failed after keeping it");
                             s->on_server_end([] { return json{{"why", "server end"}}; });
                             std::lock_guard lock(m);
                             held = s;
                             return json{{"never", "sent"}};
                           },
                           true});
  mcp::testing::client c(srv);
  json id = c.start_request("demo/hold", {{"_meta", modern_meta}});
  REQUIRE(c.messages().size() == 0);  // no reply when the handler returned
  CHECK(c.connection().requests_in_flight() == 1);
  std::thread([&] {
    std::lock_guard lock(m);
    held->notify("notifications/demo", {{"n", 1}});
    held->notify("notifications/demo", {{"n", 2}});
  }).join();
  auto all = c.messages().drain();
  REQUIRE(all.size() == 2);
  CHECK(all[1]["params"]["n"] == 2);
  held->finish({{"done", true}});
  json result = c.wait_response(id);
  CHECK(result["result"]["done"] == true);
  CHECK(result["result"]["resultType"] == "complete");  // a 2026-07-28 result, as the era wants
  CHECK(result["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "keep-open");
  CHECK_FALSE(held->open());
  CHECK_FALSE(held->notify("notifications/demo", {{"n", 3}}));
  held->finish({{"twice", true}});
  CHECK(c.messages().size() == 0);
  CHECK(c.connection().requests_in_flight() == 0);

  // Cancelled: no result, ever.
  id = c.start_request("demo/hold", {{"_meta", modern_meta}});
  c.notify("notifications/cancelled", {{"requestId", id}});
  CHECK_FALSE(held->open());
  held->finish();
  CHECK(c.messages().size() == 0);

  // The handler throws after keeping it: the error goes out, the stream is over.
  json failing = c.request("demo/hold", {{"fail", true}, {"_meta", modern_meta}});
  CHECK(failing["error"]["code"] == -32099);

  // End of input (stdio) ends it with the result on_server_end makes.
  id = c.start_request("demo/hold", {{"_meta", modern_meta}});
  c.connection().finish(std::chrono::milliseconds(0));
  json ended = c.wait_response(id, 1s);
  CHECK(ended["result"]["why"] == "server end");
  CHECK(c.connection().requests_in_flight() == 0);
}

// ---- poll ----

TEST_CASE("events/poll: from now, a cursor in and out, filters, maxEvents and hasMore", "[events][poll]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  auto changed = events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  mcp::testing::client c(srv);
  auto poll = [&](json params) {
    params["name"] = "note_changed";
    json r = c.stateless_request("events/poll", std::move(params));
    REQUIRE(r.contains("result"));
    return r["result"];
  };
  changed.emit({"Before", "created"});  // before the subscription: never seen
  json now = poll({{"cursor", nullptr}});
  CHECK(now["events"] == json::array());
  CHECK(now["truncated"] == false);
  CHECK(now["hasMore"] == false);
  CHECK(now["nextPollMs"] == 2000);
  for (int i = 0; i < 5; ++i) changed.emit({i % 2 ? "B" : "A", "updated " + std::to_string(i)});

  json page = poll({{"cursor", now["cursor"]}, {"maxEvents", 2}});
  REQUIRE(page["events"].size() == 2);
  CHECK(page["events"][0]["data"]["change"] == "updated 0");
  CHECK(page["hasMore"] == true);
  CHECK(page["nextPollMs"] == 0);  // more is waiting: no need to wait
  CHECK(page["cursor"] == page["events"][1]["cursor"]);  // the cursor after the last one delivered
  json rest = poll({{"cursor", page["cursor"]}});
  REQUIRE(rest["events"].size() == 3);
  CHECK(rest["events"][0]["data"]["change"] == "updated 2");
  CHECK(rest["hasMore"] == false);
  // The same cursor again gives the same events: the server keeps no state per poller.
  CHECK(poll({{"cursor", page["cursor"]}})["events"] == rest["events"]);
  // An event's own cursor resumes after it.
  CHECK(poll({{"cursor", rest["events"][1]["cursor"]}})["events"].size() == 1);

  json only_b = poll({{"cursor", now["cursor"]}, {"arguments", {{"title", "B"}}}});
  REQUIRE(only_b["events"].size() == 2);
  for (const auto& e : only_b["events"]) CHECK(e["data"]["title"] == "B");
  CHECK(only_b["cursor"] == rest["cursor"]);  // past the ones that did not match too
  // maxEvents is capped by the server's bound, and 0 returns none.
  CHECK(poll({{"cursor", now["cursor"]}, {"maxEvents", 0}})["events"].size() == 0);
}

TEST_CASE("events/poll: retention truncates, maxAgeMs skips the old ones, a cursor of another store reads as truncated", "[events][poll]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events events(srv);
  mcp::event_options small;
  small.retention.max_events = 3;
  auto changed = events.declare<note_filter, note_change>("note_changed", "Changes", title_matches, small);
  mcp::testing::client c(srv);
  auto poll = [&](json params) {
    params["name"] = "note_changed";
    return c.stateless_request("events/poll", std::move(params))["result"];
  };
  json start = poll({{"cursor", nullptr}});
  for (int i = 0; i < 5; ++i) changed.emit({"A", std::to_string(i)});
  json late = poll({{"cursor", start["cursor"]}});
  CHECK(late["truncated"] == true);  // 0 and 1 are gone
  REQUIRE(late["events"].size() == 3);
  CHECK(late["events"][0]["data"]["change"] == "2");
  CHECK(poll({{"cursor", late["cursor"]}})["truncated"] == false);

  json mark = poll({{"cursor", nullptr}});
  changed.emit({"A", "old"});
  std::this_thread::sleep_for(150ms);
  changed.emit({"A", "new"});
  json recent = poll({{"cursor", mark["cursor"]}, {"maxAgeMs", 100}});
  REQUIRE(recent["events"].size() == 1);
  CHECK(recent["events"][0]["data"]["change"] == "new");
  CHECK(recent["truncated"] == true);
  CHECK(poll({{"cursor", mark["cursor"]}, {"maxAgeMs", 60000}})["events"].size() == 2);

  // A cursor from another server (another store: its log is not this one) is well-formed but unknown.
  mcp::server other({"other", "1.0.0"});
  mcp::events other_events(other);
  auto other_changed = other_events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  other_changed.emit({"Z", "z"});
  mcp::testing::client oc(other);
  json foreign = oc.stateless_request("events/poll", {{"name", "note_changed"}, {"cursor", nullptr}})["result"]["cursor"];
  json read = poll({{"cursor", foreign}});
  CHECK(read["truncated"] == true);
  CHECK(read["events"].size() == 3);  // from the oldest kept
}

// ---- push ----

TEST_CASE("events/stream: active first, events as they happen, heartbeats with the cursor, cancel ends it", "[events][push]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::events_options eo;
  eo.heartbeat = 100ms;
  mcp::events events(srv, eo);
  auto changed = events.declare<note_filter, note_change>("note_changed", "Changes", title_matches);
  mcp::testing::client c(srv);
  const char* sid = "io.modelcontextprotocol/subscriptionId";
  auto next = [&](const char* method) {
    auto m = c.messages().take([&](const json& j) { return j.value("method", "") == method; }, 2s);
    REQUIRE(m);
    return *m;
  };
  json params{{"name", "note_changed"}, {"arguments", {{"title", "A"}}}, {"_meta", modern_meta}};
  c.send(mcp::jsonrpc::request("S1", "events/stream", params));
  json active = next("notifications/events/active");
  CHECK(active["params"]["_meta"][sid] == "S1");
  CHECK(active["params"]["truncated"] == false);
  CHECK(active["params"]["cursor"].is_string());
  CHECK(events.streams_open() == 1);

  changed.emit({"B", "not for this stream"});
  changed.emit({"A", "created"});
  json ev = next("notifications/events/event");
  CHECK(ev["params"]["data"] == json({{"title", "A"}, {"change", "created"}}));
  CHECK(ev["params"]["name"] == "note_changed");
  CHECK(ev["params"]["eventId"].is_string());
  CHECK(ev["params"]["_meta"][sid] == "S1");
  json beat = next("notifications/events/heartbeat");
  CHECK(beat["params"]["cursor"] == ev["params"]["cursor"]);  // past B, which did not match, the cursor
  CHECK(beat["params"]["_meta"][sid] == "S1");                // stays at the last one sent... or later
  CHECK(c.messages().take([](const json& j) { return j.value("method", "") == "notifications/events/event"; }, 200ms) ==
        std::nullopt);  // B never came

  c.notify("notifications/cancelled", {{"requestId", "S1"}});
  changed.emit({"A", "after cancel"});
  std::this_thread::sleep_for(300ms);
  auto rest = c.messages().drain();
  for (const auto& m : rest) CHECK(m.value("method", "") != "notifications/events/event");
  for (const auto& m : rest) CHECK_FALSE(m.contains("result"));  // a cancelled request gets no result
  CHECK(events.streams_open() == 0);
  CHECK(c.connection().requests_in_flight() == 0);

  // From a cursor: what followed it first, in order; the server's end gives the final result.
  c.send(mcp::jsonrpc::request("S2", "events/stream",
                               {{"name", "note_changed"}, {"cursor", ev["params"]["cursor"]}, {"_meta", modern_meta}}));
  CHECK(next("notifications/events/active")["params"]["cursor"] == ev["params"]["cursor"]);
  json replayed = next("notifications/events/event");
  CHECK(replayed["params"]["data"]["change"] == "after cancel");
  c.connection().finish(std::chrono::milliseconds(0));
  json final_result = c.wait_response("S2", 2s);
  CHECK(final_result["result"]["resultType"] == "complete");
  CHECK(events.streams_open() == 0);
}

TEST_CASE("events/stream: a bound on open streams, and streams end when the events object goes", "[events][push]") {
  mcp::server srv({"events-test", "1.0.0"});
  mcp::testing::client c(srv);
  {
    mcp::events_options eo;
    eo.max_streams = 2;
    mcp::events events(srv, eo);
    events.declare<void, tick>("tick", "Ticks");
    json p{{"name", "tick"}, {"_meta", modern_meta}};
    c.send(mcp::jsonrpc::request("a", "events/stream", p));
    c.send(mcp::jsonrpc::request("b", "events/stream", p));
    json third = c.request("events/stream", p);
    CHECK(third["error"]["code"] == mcp::events_error::resource_exhausted);
    CHECK(third["error"]["data"]["max"] == 2);
  }
  // ~events ended both with their final result.
  CHECK(c.wait_response("a", 1s)["result"]["resultType"] == "complete");
  CHECK(c.wait_response("b", 1s)["result"]["resultType"] == "complete");
  CHECK(c.connection().requests_in_flight() == 0);
  json gone = c.stateless_request("events/list");
  CHECK(gone["error"]["code"] == -32601);
}

// ---- over real sockets ----

namespace {
std::string post_bytes(const std::string& method, const json& id, json params) {
  params["_meta"] = modern_meta;
  const std::string body = mcp::jsonrpc::request(id, method, std::move(params)).dump();
  return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " +
         method + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}
json http_call(unsigned short port, const std::string& method, json params) {
  test::http_connection conn(port);
  conn.send(post_bytes(method, 1, std::move(params)));
  auto r = conn.read(5s);
  REQUIRE(r.status == 200);
  return json::parse(r.body);
}
std::vector<json> notifications(const test::http_response& r) {
  std::vector<json> out;
  for (const auto& e : r.events())
    if (!e.data.empty()) out.push_back(json::parse(e.data));
  return out;
}
bool wait_for(const std::function<bool()>& cond, std::chrono::milliseconds timeout = 3s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}
}  // namespace

TEST_CASE("events over HTTP: poll with a cursor; push resumed after a disconnect, and a gap", "[events][http]") {
  mcp::server srv({"events-http", "1.0.0"});
  mcp::events_options eo;
  eo.heartbeat = 200ms;
  mcp::events events(srv, eo);
  mcp::event_options keep;
  keep.retention.max_events = 5;
  auto changed = events.declare<note_filter, note_change>("note_changed", "Changes", title_matches, keep);
  mcp::http::options opts;
  opts.port = 0;
  test::serving serving(srv, opts);
  const unsigned short port = serving.port();

  // Poll: a cursor from now, then the events since it.
  json discover = http_call(port, "server/discover", json::object());
  CHECK(discover["result"]["capabilities"]["events"] == json::object());
  json start = http_call(port, "events/poll", {{"name", "note_changed"}, {"cursor", nullptr}})["result"];
  changed.emit({"A", "one"});
  json polled = http_call(port, "events/poll", {{"name", "note_changed"}, {"cursor", start["cursor"]}})["result"];
  REQUIRE(polled["events"].size() == 1);
  CHECK(polled["events"][0]["data"]["change"] == "one");

  // Push: a stream over SSE.
  std::string resume;
  {
    test::http_connection conn(port);
    conn.send(post_bytes("events/stream", "s1", {{"name", "note_changed"}, {"cursor", polled["cursor"]}}));
    auto head = conn.read_events(1, 3s);
    REQUIRE(head.status == 200);
    CHECK(head.header("Content-Type").value_or("").find("text/event-stream") != std::string::npos);
    changed.emit({"A", "two"});
    changed.emit({"A", "three"});
    auto r = conn.read_events(3, 3s);
    auto got = notifications(r);
    REQUIRE(got.size() >= 3);
    CHECK(got[0]["method"] == "notifications/events/active");
    CHECK(got[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "s1");
    CHECK(got[1]["params"]["data"]["change"] == "two");
    CHECK(got[2]["params"]["data"]["change"] == "three");
    resume = got[1]["params"]["cursor"];  // the client saw "three" go by but kept the cursor of "two"
    conn.reset();  // the client goes away mid-stream
  }
  REQUIRE(wait_for([&] { return events.streams_open() == 0; }));  // its stream ended with its connection
  changed.emit({"A", "four"});  // while nobody listens

  {  // Back with the cursor: three (again: at least once) and four, in order; then live events.
    test::http_connection conn(port);
    conn.send(post_bytes("events/stream", "s2", {{"name", "note_changed"}, {"cursor", resume}}));
    auto got = notifications(conn.read_events(3, 3s));
    REQUIRE(got.size() >= 3);
    CHECK(got[0]["params"]["truncated"] == false);
    CHECK(got[1]["params"]["data"]["change"] == "three");
    CHECK(got[2]["params"]["data"]["change"] == "four");
    resume = got[2]["params"]["cursor"];
    // A heartbeat carries the cursor while nothing happens.
    auto beat = notifications(conn.read_events(4, 3s));
    REQUIRE(beat.size() >= 4);
    CHECK(beat[3]["method"] == "notifications/events/heartbeat");
    CHECK(beat[3]["params"]["cursor"] == resume);
    conn.reset();
  }
  REQUIRE(wait_for([&] { return events.streams_open() == 0; }));
  for (int i = 5; i < 12; ++i) changed.emit({"A", std::to_string(i)});  // more than the log keeps (5)

  {  // The gap: truncated, and the five the log still holds.
    test::http_connection conn(port);
    conn.send(post_bytes("events/stream", "s3", {{"name", "note_changed"}, {"cursor", resume}}));
    auto got = notifications(conn.read_events(6, 3s));
    REQUIRE(got.size() >= 6);
    CHECK(got[0]["params"]["truncated"] == true);
    CHECK(got[1]["params"]["data"]["change"] == "7");
    CHECK(got[5]["params"]["data"]["change"] == "11");
  }
  // Poll sees the same gap.
  json gap = http_call(port, "events/poll", {{"name", "note_changed"}, {"cursor", polled["cursor"]}})["result"];
  CHECK(gap["truncated"] == true);
  CHECK(gap["events"].size() == 5);
}

TEST_CASE("events over HTTP: a graceful stop ends open streams with their final result", "[events][http]") {
  mcp::server srv({"events-http", "1.0.0"});
  mcp::events events(srv);
  events.declare<void, tick>("tick", "Ticks");
  mcp::http::options opts;
  opts.port = 0;
  test::serving serving(srv, opts);
  test::http_connection conn(serving.port());
  conn.send(post_bytes("events/stream", 9, {{"name", "tick"}}));
  REQUIRE(notifications(conn.read_events(1, 3s)).size() == 1);
  serving.listener().shutdown(std::chrono::seconds(5));
  auto r = conn.read(3s);
  auto got = notifications(r);
  REQUIRE(got.size() >= 2);
  CHECK(got.back()["id"] == 9);
  CHECK(got.back()["result"]["resultType"] == "complete");
  CHECK(serving.returns_within(5s));
}

// The server ending a stream while its client still reads: the reply's end lets go of the
// connection, whose close ends the same stream again; that must not wait on itself.
TEST_CASE("events over HTTP: terminate, and the events object going, end connected streams", "[events][http]") {
  mcp::server srv({"events-http", "1.0.0"});
  mcp::http::options opts;
  opts.port = 0;
  test::serving serving(srv, opts);
  test::http_connection first(serving.port()), second(serving.port());
  {
    mcp::events events(srv);
    auto ticks = events.declare<void, tick>("tick", "Ticks");
    first.send(post_bytes("events/stream", "t1", {{"name", "tick"}}));
    REQUIRE(notifications(first.read_events(1, 3s)).size() == 1);
    CHECK(ticks.terminate_all(-32000, "the ticks stop") == 1);
    auto got = notifications(first.read(3s));
    REQUIRE(got.size() >= 3);
    CHECK(got[1]["method"] == "notifications/events/terminated");
    CHECK(got[1]["params"]["error"]["message"] == "the ticks stop");
    CHECK(got.back()["id"] == "t1");
    CHECK(got.back()["result"]["resultType"] == "complete");

    second.send(post_bytes("events/stream", "t2", {{"name", "tick"}}));
    REQUIRE(notifications(second.read_events(1, 3s)).size() == 1);
  }  // ~events: the second stream ends with its final result
  auto got = notifications(second.read(3s));
  REQUIRE_FALSE(got.empty());
  CHECK(got.back()["id"] == "t2");
  CHECK(got.back()["result"]["resultType"] == "complete");
}

}  // namespace test_events
