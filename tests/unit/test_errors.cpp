// One exception base: every exception the SDK throws is an mcp::error with a stable code (and still
// a std::runtime_error). Each case makes the SDK throw for real, then reads the code.
#include "catch.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <functional>
#include <string>

using mcp::json;

namespace test_errors {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// The code of the mcp::error `f` throws; 0 when it throws nothing, -1 for anything else.
int code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mcp::error& e) {
    return e.code();
  } catch (...) {
    return -1;
  }
  return 0;
}

struct one_field {
  int n = 0;
};
MCP_STRUCT(one_field, (n, "A number"));

enum class shade { dark, light };
MCP_ENUM(shade, (dark, "dark"), (light, "light"));

mcp::server make_server() { return mcp::server({"errors-test", "1.0"}); }

}  // namespace

TEST_CASE("errors: each kind of failure has its code", "[errors]") {
  namespace ec = mcp::error_code;
  auto noop = [] { return std::string("x"); };

  SECTION("registrations the server refuses: invalid_definition") {
    auto srv = make_server();
    srv.tool("taken", "x", noop);
    CHECK(code_of([&] { srv.tool("bad name", "x", noop); }) == ec::invalid_definition);
    CHECK(code_of([&] { srv.tool("taken", "x", noop); }) == ec::invalid_definition);
    CHECK(code_of([] { mcp::server({"", "1"}); }) == ec::invalid_definition);
    CHECK(code_of([&] { srv.resource_template({"x://{a", "t"}, [](const std::map<std::string, std::string>&) {
                          return std::string();
                        }); }) == ec::invalid_definition);
    CHECK(code_of([&] { srv.prompt("", "x", noop); }) == ec::invalid_definition);
    CHECK_THROWS_AS(srv.tool("taken", "x", noop), mcp::definition_error);
  }
  SECTION("schemas and decoding: invalid_schema, decode_failed") {
    auto srv = make_server();
    CHECK(code_of([&] { srv.tool("s", "x", mcp::runtime_schema{{{"type", "array"}}}, [](const json&) {
                          return std::string();
                        }); }) == ec::invalid_schema);
    CHECK(code_of([] { mcp::decode<one_field>(json{{"n", "five"}}); }) == ec::decode_failed);
  }
  SECTION("bad values given to SDK functions: invalid_argument, invalid_cursor, not_found") {
    mcp::content_annotations bad;
    bad.priority = 2.0;
    CHECK(code_of([&] { mcp::with_annotations(mcp::text("x"), bad); }) == ec::invalid_argument);
    CHECK(code_of([] { mcp::encode(static_cast<shade>(7)); }) == ec::invalid_argument);
    CHECK(code_of([] { mcp::paginate(10, 3, std::string("not-a-cursor")); }) == ec::invalid_cursor);
    auto srv = make_server();
    CHECK(code_of([&] { srv.metrics("nope"); }) == ec::not_found);
  }
  SECTION("what handlers throw and catch: protocol_error keeps its JSON-RPC code; tool_error, request_timeout") {
    CHECK(code_of([] { throw mcp::protocol_error(ec::invalid_params, "no"); }) == -32602);
    CHECK(code_of([] { throw mcp::tool_error("no"); }) == ec::tool_failed);
    CHECK(code_of([] { throw mcp::request_timeout("late"); }) == ec::request_timeout);
  }
  SECTION("every one is still a std::runtime_error") {
    try {
      mcp::paginate(10, 3, std::string("not-a-cursor"));
      FAIL("no throw");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()).find("invalid cursor") == 0);
    }
  }
}

TEST_CASE("errors: ask() for a capability the client lacks is a tool_error with code -32021", "[errors]") {
  auto srv = make_server();
  int code = 0;
  srv.tool("asks", "Asks", [&](mcp::context& ctx) -> std::string {
    try {
      ctx.elicit("Sure?", {{"type", "object"}});
    } catch (const mcp::tool_error& e) {
      code = e.code();
      throw;
    }
    return "asked";
  });
  mcp::testing::client c(srv);
  c.initialize("2025-11-25", json::object());  // no elicitation capability
  json r = c.call_tool("asks", json::object());
  CHECK(r["isError"] == true);
  CHECK(code == mcp::error_code::missing_required_client_capability);
}

}  // namespace test_errors
