// Telemetry (ext/telemetry.hpp, ext/tracing.hpp) as OpenTelemetry's semantic conventions for MCP
// describe it: span names and attributes, the caller's trace as parent and the server span as the
// parent of what the server asks the client, and the two histograms on the Prometheus page. In
// memory first (mcp::connection), then over real pipes (stdio) and a real socket on 127.0.0.1.
#include "catch.hpp"
#include "http_client.hpp"
#include "serving.hpp"

#include <mcp/ext/telemetry.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/transport/http.hpp>

#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_telemetry {

namespace tt {
struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First"), (b, "Second"));
struct ms_arg {
  int ms = 0;
};
MCP_STRUCT(ms_arg, (ms, "Milliseconds"));
struct name_arg {
  std::string name;
};
MCP_STRUCT(name_arg, (name, "Name"));
}  // namespace tt

namespace {

constexpr const char* caller_trace = "0af7651916cd43dd8448eb211c80319c";
constexpr const char* caller_span = "b7ad6b7169203331";
const std::string caller_traceparent = std::string("00-") + caller_trace + "-" + caller_span + "-01";

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return o;
}

// Spans as the hooks saw them.
struct recorder {
  std::mutex m;
  std::vector<mcp::span> started, ended;
  mcp::telemetry_options options() {
    return {.spans = {.on_start = [this](const mcp::span& s) { std::lock_guard l(m); started.push_back(s); },
                      .on_end = [this](const mcp::span& s) { std::lock_guard l(m); ended.push_back(s); }}};
  }
  mcp::span last() {
    std::lock_guard l(m);
    REQUIRE(!ended.empty());
    return ended.back();
  }
};

void add_features(mcp::server& srv) {
  srv.tool("add", "Adds", [](const tt::add_args& a) { return a.a + a.b; });
  srv.tool("fails", "Always an isError result", []() -> mcp::result<std::string> { return mcp::tool_error("no"); });
  srv.tool("nap", "Sleeps", [](const tt::ms_arg& a) {
    std::this_thread::sleep_for(std::chrono::milliseconds(a.ms));
    return std::string("rested");
  });
  srv.tool("confirm", "Asks the user", [](mcp::context& ctx) {
    json answer = ctx.elicit("Sure?", {{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}});
    return answer.value("action", std::string("none"));
  });
  srv.prompt("greet", "Greets", [](const tt::name_arg& a) { return "Hi " + a.name; });
  srv.resource({.uri = "test://one", .name = "one", .mime_type = "text/plain"}, [] { return std::string("1"); });
}

// The one series of a histogram whose labels include all of `want`.
const mcp::histogram_series* find_series(const std::vector<mcp::histogram_series>& all,
                                         const std::map<std::string, std::string>& want) {
  const mcp::histogram_series* found = nullptr;
  for (const auto& s : all) {
    bool match = true;
    for (const auto& [k, v] : want) {
      auto it = s.labels.find(k);
      match = match && it != s.labels.end() && it->second == v;
    }
    if (match) {
      REQUIRE(found == nullptr);  // exactly one
      found = &s;
    }
  }
  return found;
}

}  // namespace

TEST_CASE("telemetry: span names and attributes are the conventions' for each kind of request") {
  mcp::server srv({"t", "1"}, quiet());
  recorder rec;
  mcp::telemetry tel(srv, rec.options());
  add_features(srv);
  mcp::testing::client c(srv);
  c.initialize();

  c.request("tools/call", {{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}, {"_meta", {{"traceparent", caller_traceparent}}}});
  mcp::span s = rec.last();
  CHECK(s.name == "tools/call add");
  CHECK(s.kind == "server");
  CHECK(s.trace_id == caller_trace);
  CHECK(s.parent_span_id == caller_span);
  CHECK(s.span_id.size() == 16);
  CHECK(s.span_id != caller_span);
  CHECK(s.ok);
  // Exactly these: nothing missing, nothing of our own. The testing client's ids are numbers.
  const json id = rec.ended.back().attributes["jsonrpc.request.id"];
  REQUIRE(id.is_string());
  CHECK(s.attributes == json{{"mcp.method.name", "tools/call"},
                             {"gen_ai.tool.name", "add"},
                             {"gen_ai.operation.name", "execute_tool"},
                             {"jsonrpc.request.id", id},
                             {"jsonrpc.protocol.version", "2.0"},
                             {"mcp.protocol.version", "2025-11-25"}});
  CHECK(json::parse(id.get<std::string>()).is_number());

  c.send({{"jsonrpc", "2.0"}, {"id", "abc"}, {"method", "ping"}});
  s = rec.last();
  CHECK(s.name == "ping");
  CHECK(s.attributes["jsonrpc.request.id"] == "abc");
  CHECK(s.parent_span_id.empty());
  CHECK(s.trace_id.size() == 32);
  CHECK(s.trace_id != caller_trace);
  CHECK_FALSE(s.attributes.contains("gen_ai.tool.name"));
  CHECK_FALSE(s.attributes.contains("gen_ai.operation.name"));

  c.request("prompts/get", {{"name", "greet"}, {"arguments", {{"name", "Ada"}}}});
  s = rec.last();
  CHECK(s.name == "prompts/get greet");
  CHECK(s.attributes["gen_ai.prompt.name"] == "greet");
  CHECK_FALSE(s.attributes.contains("gen_ai.operation.name"));

  c.request("resources/read", {{"uri", "test://one"}});
  s = rec.last();
  CHECK(s.name == "resources/read");  // the URI is not a low-cardinality target
  CHECK(s.attributes["mcp.resource.uri"] == "test://one");

  c.request("tools/call", {{"name", "fails"}, {"arguments", json::object()}});
  s = rec.last();
  CHECK_FALSE(s.ok);
  CHECK(s.attributes["error.type"] == "tool_error");
  CHECK_FALSE(s.attributes.contains("rpc.response.status_code"));  // the response is a result

  c.request("tools/call", {{"name", "no_such_tool"}, {"arguments", json::object()}});
  s = rec.last();
  CHECK(s.name == "tools/call no_such_tool");
  CHECK_FALSE(s.ok);
  CHECK(s.attributes["error.type"] == "-32602");
  CHECK(s.attributes["rpc.response.status_code"] == "-32602");

  std::lock_guard l(rec.m);
  REQUIRE(rec.started.size() == rec.ended.size());
  for (std::size_t i = 0; i < rec.started.size(); ++i) CHECK(rec.started[i].span_id == rec.ended[i].span_id);
}

TEST_CASE("telemetry: a 2026-07-28 request is traced too, with its own protocol version and no session") {
  mcp::server srv({"t", "1"}, quiet());
  recorder rec;
  mcp::telemetry tel(srv, rec.options());
  add_features(srv);
  mcp::testing::client c(srv);
  json params = {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 2}}}};
  params["_meta"]["traceparent"] = caller_traceparent;
  auto r = c.stateless_request("tools/call", params);
  REQUIRE(r.contains("result"));
  mcp::span s = rec.last();
  CHECK(s.name == "tools/call add");
  CHECK(s.trace_id == caller_trace);
  CHECK(s.parent_span_id == caller_span);
  CHECK(s.attributes["mcp.protocol.version"] == "2026-07-28");
  CHECK_FALSE(s.attributes.contains("mcp.session.id"));
  auto op = tel.operation_duration();
  const auto* series = find_series(op, {{"mcp_method_name", "tools/call"}, {"mcp_protocol_version", "2026-07-28"}});
  REQUIRE(series);
  CHECK(series->count == 1);
}

TEST_CASE("telemetry: operation histogram with bounded labels and the conventions' buckets") {
  mcp::server srv({"t", "1"}, quiet());
  mcp::telemetry tel(srv);  // metrics only, no span hooks
  add_features(srv);
  mcp::testing::client c(srv);
  c.initialize();
  c.call_tool("nap", {{"ms", 250}});
  for (int i = 0; i < 3; ++i) c.request("tools/call", {{"name", "made_up_" + std::to_string(i)}, {"arguments", json::object()}});
  c.call_tool("fails");
  // A method a handler says it does not know (-32601) is folded too: its name is the client's.
  srv.method("vendor/x", {[](mcp::context&, const json&) -> json {
                           throw mcp::protocol_error(mcp::error_code::method_not_found, "Method not found");
                         }});
  CHECK(c.request("vendor/x")["error"]["code"] == -32601);

  auto op = tel.operation_duration();
  const auto* folded = find_series(op, {{"mcp_method_name", "_OTHER"}});
  REQUIRE(folded);
  CHECK(folded->labels.at("error_type") == "-32601");
  CHECK(find_series(op, {{"mcp_method_name", "vendor/x"}}) == nullptr);
  const auto* nap = find_series(op, {{"gen_ai_tool_name", "nap"}});
  REQUIRE(nap);
  CHECK(nap->labels == std::map<std::string, std::string>{{"mcp_method_name", "tools/call"},
                                                          {"gen_ai_operation_name", "execute_tool"},
                                                          {"gen_ai_tool_name", "nap"},
                                                          {"mcp_protocol_version", "2025-11-25"}});
  CHECK(nap->count == 1);
  CHECK(nap->sum >= 0.25);
  REQUIRE(nap->buckets.size() == 15);
  // 0.25 s is above the bound 0.2 (index 4) and at most the rest's: nothing below 0.2.
  std::uint64_t below = 0;
  for (std::size_t i = 0; i <= 4; ++i) below += nap->buckets[i];
  CHECK(below == 0);
  // ... and in seconds, not milliseconds: within le=5 (index 8), far above any wait a 250 ms sleep sees.
  std::uint64_t within_5s = 0;
  for (std::size_t i = 0; i <= 8; ++i) within_5s += nap->buckets[i];
  CHECK(within_5s == 1);
  CHECK(nap->sum < 5);
  // Made-up tool names fold into one series.
  const auto* other = find_series(op, {{"gen_ai_tool_name", "_OTHER"}});
  REQUIRE(other);
  CHECK(other->count == 3);
  CHECK(other->labels.at("error_type") == "-32602");
  const auto* failing = find_series(op, {{"gen_ai_tool_name", "fails"}});
  REQUIRE(failing);
  CHECK(failing->labels.at("error_type") == "tool_error");

  const std::string page = srv.metrics_text();
  CHECK(page.find("# TYPE mcp_server_operation_duration_seconds histogram\n") != std::string::npos);
  CHECK(page.find("# TYPE mcp_server_session_duration_seconds histogram\n") != std::string::npos);
  const std::string labels = "error_type=\"\",";  // never written: an unset label is left out
  CHECK(page.find(labels) == std::string::npos);
  const std::string nap_labels =
      "gen_ai_operation_name=\"execute_tool\",gen_ai_tool_name=\"nap\",mcp_method_name=\"tools/call\","
      "mcp_protocol_version=\"2025-11-25\"";
  CHECK(page.find("mcp_server_operation_duration_seconds_bucket{" + nap_labels + ",le=\"0.2\"} 0\n") != std::string::npos);
  CHECK(page.find("mcp_server_operation_duration_seconds_bucket{" + nap_labels + ",le=\"+Inf\"} 1\n") != std::string::npos);
  CHECK(page.find("mcp_server_operation_duration_seconds_count{" + nap_labels + "} 1\n") != std::string::npos);
  CHECK(page.find("made_up") == std::string::npos);
}

TEST_CASE("telemetry: a server without it has none of it") {
  mcp::server srv({"t", "1"}, quiet());
  add_features(srv);
  mcp::testing::client c(srv);
  c.initialize();
  c.call_tool("add", {{"a", 1}, {"b", 1}});
  CHECK(srv.metrics_text().find("mcp_server_operation_duration") == std::string::npos);
}

namespace {
// A server on one end of two pipes (mcp::serve_stream), the client's ends here.
struct piped {
  int to_server[2];
  int from_server[2];
  std::future<int> exit_code;
  std::string pending;
  explicit piped(mcp::server& srv) {
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
    exit_code = std::async(std::launch::async, [this, &srv] {
      int rc = mcp::serve_stream(srv, to_server[0], from_server[1]);
      close(from_server[1]);
      return rc;
    });
  }
  ~piped() {
    close_input();
    if (exit_code.valid()) exit_code.wait();
    close(to_server[0]);
    close(from_server[0]);
  }
  void close_input() {
    if (to_server[1] >= 0) close(to_server[1]);
    to_server[1] = -1;
  }
  void send(const json& j) {
    const std::string line = j.dump() + "\n";
    REQUIRE(::write(to_server[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  }
  json read(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (auto nl = pending.find('\n'); nl != std::string::npos) {
        json j = json::parse(pending.substr(0, nl));
        pending.erase(0, nl + 1);
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
}  // namespace

TEST_CASE("telemetry over stdio: network.transport pipe, and the elicitation the call sends carries its trace") {
  mcp::server srv({"t", "1"}, quiet());
  recorder rec;
  mcp::telemetry tel(srv, rec.options());
  add_features(srv);
  {
    piped p(srv);
    p.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", {{"elicitation", json::object()}}},
                        {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
    REQUIRE(p.read()["id"] == 1);
    p.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    p.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
            {"params", {{"name", "confirm"}, {"arguments", json::object()},
                        {"_meta", {{"traceparent", caller_traceparent}, {"tracestate", "vendor=1"}}}}}});
    json ask = p.read();
    REQUIRE(ask["method"] == "elicitation/create");
    const json meta = ask["params"]["_meta"];
    REQUIRE(meta.is_object());
    REQUIRE(meta["traceparent"].is_string());
    const std::string tp = meta["traceparent"];
    CHECK(meta["tracestate"] == "vendor=1");
    p.send({{"jsonrpc", "2.0"}, {"id", ask["id"]}, {"result", {{"action", "accept"}, {"content", {{"ok", true}}}}}});
    json answer = p.read();
    CHECK(answer["id"] == 2);
    CHECK(answer["result"]["content"][0]["text"] == "accept");

    mcp::span s = rec.last();
    CHECK(s.name == "tools/call confirm");
    CHECK(s.trace_id == caller_trace);
    CHECK(s.parent_span_id == caller_span);
    // The elicitation is a child of the server span: same trace, the span's id as its parent.
    CHECK(tp == "00-" + s.trace_id + "-" + s.span_id + "-01");
    CHECK(s.attributes["network.transport"] == "pipe");
    CHECK_FALSE(s.attributes.contains("network.protocol.name"));
    CHECK_FALSE(s.attributes.contains("mcp.session.id"));  // stdio has no session id
    p.close_input();
    REQUIRE(p.exit_code.get() == 0);
  }
  // End of input ended the session: one session duration, for a pipe.
  auto sessions = tel.session_duration();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].count == 1);
  CHECK(sessions[0].labels == std::map<std::string, std::string>{{"mcp_protocol_version", "2025-11-25"},
                                                                {"network_transport", "pipe"}});
}

TEST_CASE("telemetry: without a caller's traceparent, what the server asks starts from its own span") {
  mcp::server srv({"t", "1"}, quiet());
  recorder rec;
  mcp::telemetry tel(srv, rec.options());
  add_features(srv);
  piped p(srv);
  p.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", {{"elicitation", json::object()}}},
                      {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
  REQUIRE(p.read()["id"] == 1);
  p.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {{"name", "confirm"}, {"arguments", json::object()}}}});
  json ask = p.read();
  REQUIRE(ask["method"] == "elicitation/create");
  const std::string tp = ask["params"]["_meta"]["traceparent"];
  CHECK_FALSE(ask["params"]["_meta"].contains("tracestate"));
  p.send({{"jsonrpc", "2.0"}, {"id", ask["id"]}, {"result", {{"action", "decline"}}}});
  CHECK(p.read()["id"] == 2);
  mcp::span s = rec.last();
  CHECK(s.parent_span_id.empty());
  CHECK(tp == "00-" + s.trace_id + "-" + s.span_id + "-01");
}

TEST_CASE("telemetry: an elicitation without telemetry carries no trace") {
  mcp::server srv({"t", "1"}, quiet());
  add_features(srv);
  piped p(srv);
  p.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", {{"elicitation", json::object()}}},
                      {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
  REQUIRE(p.read()["id"] == 1);
  p.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
          {"params", {{"name", "confirm"}, {"arguments", json::object()}, {"_meta", {{"traceparent", caller_traceparent}}}}}});
  json ask = p.read();
  REQUIRE(ask["method"] == "elicitation/create");
  CHECK_FALSE(ask["params"].contains("_meta"));
  p.send({{"jsonrpc", "2.0"}, {"id", ask["id"]}, {"result", {{"action", "decline"}}}});
  CHECK(p.read()["id"] == 2);
}

TEST_CASE("telemetry over HTTP: tcp, the session id, /metrics with both histograms after a DELETE") {
  mcp::server srv({"t", "1"}, quiet());
  recorder rec;
  mcp::telemetry tel(srv, rec.options());
  add_features(srv);
  mcp::http::options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.metrics = true;
  test::serving serving(srv, o);
  test::http_connection conn(serving.port());
  const std::vector<test::header> post = {{"Accept", "application/json, text/event-stream"},
                                          {"Content-Type", "application/json"}};
  json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
  conn.send(test::http_request("POST", "/mcp", init.dump(), post));
  auto r = conn.read(5s);
  REQUIRE(r.status == 200);
  REQUIRE(r.header("Mcp-Session-Id"));
  const std::string sid = *r.header("Mcp-Session-Id");
  auto with_session = post;
  with_session.push_back({"Mcp-Session-Id", sid});
  with_session.push_back({"MCP-Protocol-Version", "2025-11-25"});
  conn.send(test::http_request("POST", "/mcp", json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump(), with_session));
  REQUIRE(conn.read(5s).status == 202);
  json call = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
               {"params", {{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}, {"_meta", {{"traceparent", caller_traceparent}}}}}};
  conn.send(test::http_request("POST", "/mcp", call.dump(), with_session));
  REQUIRE(conn.read(5s).status == 200);
  mcp::span s = rec.last();
  CHECK(s.attributes["network.transport"] == "tcp");
  CHECK(s.attributes["network.protocol.name"] == "http");
  CHECK(s.attributes["mcp.session.id"] == sid);
  CHECK(s.attributes["jsonrpc.request.id"] == "7");
  CHECK(s.trace_id == caller_trace);

  conn.send(test::http_request("DELETE", "/mcp", "", with_session));
  REQUIRE(conn.read(5s).status / 100 == 2);
  conn.send(test::http_request("GET", "/metrics", "", {}));
  auto page = conn.read(5s);
  REQUIRE(page.status == 200);
  const std::string add_labels =
      "gen_ai_operation_name=\"execute_tool\",gen_ai_tool_name=\"add\",mcp_method_name=\"tools/call\","
      "mcp_protocol_version=\"2025-11-25\",network_transport=\"tcp\"";
  CHECK(page.body.find("mcp_server_operation_duration_seconds_count{" + add_labels + "} 1\n") != std::string::npos);
  CHECK(page.body.find("mcp_server_session_duration_seconds_count{mcp_protocol_version=\"2025-11-25\","
                       "network_transport=\"tcp\"} 1\n") != std::string::npos);
  CHECK(page.body.find("mcp_http_connections_total") != std::string::npos);  // beside the transport's
}

}  // namespace test_telemetry
