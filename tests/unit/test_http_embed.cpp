// Embedding the Streamable HTTP transport: the endpoint mounted as a handler without the SDK's
// listener (answers read from a blocking_writer), the listener on the caller's io_context, and a
// Unix domain socket.
#include "catch.hpp"
#include "http_client.hpp"

#include <mcp/core/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/http_handler.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

using mcp::json;
using namespace std::chrono_literals;

namespace {

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return o;
}

void add_tools(mcp::server& srv) {
  mcp::tool_definition chatty;
  chatty.name = "chatty";
  chatty.description = "Reports progress, then answers";
  chatty.input_schema = {{"type", "object"}};
  chatty.invoke = [](const json&, mcp::context& ctx) -> json {
    ctx.progress(1, 2, "half");
    return {{"content", json::array({{{"type", "text"}, {"text", "done talking"}}})}};
  };
  srv.add_tool(chatty);
  mcp::tool_definition nap;
  nap.name = "nap";
  nap.description = "Sleeps a while";
  nap.input_schema = {{"type", "object"}};
  nap.invoke = [](const json& args, mcp::context&) -> json {
    std::this_thread::sleep_for(std::chrono::milliseconds(args.value("ms", 100)));
    return {{"content", json::array({{{"type", "text"}, {"text", "rested"}}})}};
  };
  srv.add_tool(nap);
}

json rpc(long long id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

const json init_params = {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "test"}, {"version", "1"}}}};

mcp::http::request make_request(const std::string& method, const json& body, const std::string& session = "") {
  mcp::http::request r;
  r.method = method;
  r.target = "/mcp";
  r.headers.add("Host", "127.0.0.1:1");
  r.headers.add("Accept", "application/json, text/event-stream");
  r.headers.add("Content-Type", "application/json");
  r.headers.add("MCP-Protocol-Version", "2025-11-25");
  if (!session.empty()) r.headers.add("Mcp-Session-Id", session);
  if (!body.is_null()) r.body = body.dump();
  return r;
}

// The whole body of a blocking_writer's answer (a stream is read to its end).
std::string read_all(mcp::http::blocking_writer& w) {
  std::string out = w.wait_head().body;
  if (!w.streaming()) return out;
  for (int i = 0; i < 500; ++i)
    if (w.pull(out, 10ms) == mcp::http::blocking_writer::pulled::ended) return out;
  FAIL("the stream did not end");
  return out;
}

}  // namespace

TEST_CASE("http handler: mounted without a listener - sessions, JSON and SSE answers, 404 after DELETE, Origin") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  mcp::http::handler endpoint(srv, {});

  auto init = endpoint.handle_blocking(make_request("POST", rpc(1, "initialize", init_params)));
  REQUIRE(init->wait_head().status == 200);
  REQUIRE_FALSE(init->streaming());
  const auto id = init->wait_head().headers.get("Mcp-Session-Id");
  REQUIRE(id);
  const std::string session(*id);
  CHECK(json::parse(init->wait_head().body)["result"]["serverInfo"]["name"] == "embed-test");
  CHECK(endpoint.sessions_open() == 1);

  auto note = endpoint.handle_blocking(
      make_request("POST", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session));
  CHECK(note->wait_head().status == 202);

  // A progress notification makes the answer a stream: the progress event, then the result.
  auto call = endpoint.handle_blocking(
      make_request("POST", rpc(2, "tools/call", {{"name", "chatty"}, {"arguments", json::object()}, {"_meta", {{"progressToken", "p"}}}}), session));
  REQUIRE(call->streaming());
  CHECK(call->wait_head().headers.get("Content-Type") == std::optional<std::string_view>("text/event-stream"));
  const auto events = test::parse_sse(read_all(*call));
  std::vector<json> messages;
  for (const auto& e : events)
    if (!e.data.empty()) messages.push_back(json::parse(e.data));
  REQUIRE(messages.size() == 2);
  CHECK(messages[0]["method"] == "notifications/progress");
  CHECK(messages[1]["result"]["content"][0]["text"] == "done talking");

  auto hostile = make_request("POST", rpc(3, "ping"), session);
  hostile.headers.add("Origin", "https://evil.example");
  CHECK(endpoint.handle_blocking(hostile)->wait_head().status == 403);

  auto del = endpoint.handle_blocking(make_request("DELETE", nullptr, session));
  CHECK(del->wait_head().status == 204);
  CHECK(endpoint.handle_blocking(make_request("POST", rpc(4, "ping"), session))->wait_head().status == 404);
  CHECK(endpoint.handle_blocking(make_request("POST", rpc(5, "ping")))->wait_head().status == 400);  // no session
  auto elsewhere = make_request("GET", nullptr);
  elsewhere.target = "/other";
  CHECK(endpoint.handle_blocking(elsewhere)->wait_head().status == 404);
}

TEST_CASE("http handler: a client that leaves a stream is let go; the session's GET stream can be taken again") {
  mcp::server srv{mcp::server_info{"embed-test", "1.0.0"}, quiet()};
  add_tools(srv);
  mcp::http::handler endpoint(srv, {});
  auto init = endpoint.handle_blocking(make_request("POST", rpc(1, "initialize", init_params)));
  const std::string session(*init->wait_head().headers.get("Mcp-Session-Id"));

  auto get = endpoint.handle_blocking(make_request("GET", nullptr, session));
  REQUIRE(get->streaming());
  CHECK(endpoint.handle_blocking(make_request("GET", nullptr, session))->wait_head().status == 409);
  get->client_gone();
  std::string ignored;
  CHECK(get->pull(ignored, 1ms) == mcp::http::blocking_writer::pulled::ended);
  auto again = endpoint.handle_blocking(make_request("GET", nullptr, session));
  CHECK(again->streaming());
  endpoint.close();  // ends the open stream
  std::string rest;
  for (int i = 0; i < 100 && again->pull(rest, 10ms) != mcp::http::blocking_writer::pulled::ended; ++i) {
  }
  CHECK(again->pull(rest, 1ms) == mcp::http::blocking_writer::pulled::ended);
}
