// Raw messages through the whole core: each input line goes to connection::receive on a fresh,
// initialized in-memory connection to a server with typed tools, a runtime-schema tool, resources,
// a resource template, prompts and completions. Oracles: nothing escapes receive; every message
// the server sends is a well-formed JSON-RPC message that serialises as strict UTF-8; the text of
// a handler's exception never reaches the client; and the result builder's two sinks agree: a
// connection whose outbound takes results as text (the text sink) and one whose outbound takes
// trees receive the same bytes; and so does a connection given messages read with the server's
// decoder (a tools/call's arguments read by the tool's typed reader with the message, as stdio
// reads a call it runs itself), and one given messages whose arguments are checked when the call
// runs (as stdio reads a call it may share with its pool).
#include "fuzz_types.hpp"
#include "text_recorder.hpp"

#include <mcp/core/connection.hpp>
#include <mcp/tools/features.hpp>
#include <mcp/core/server.hpp>
#include <mcp/tools/tool.hpp>
#include <mcp/testing.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fzcore {

// Put in every exception a handler throws; must never appear in what the client receives.
constexpr const char* secret = "SECRET-/etc/mcp/internal";

struct summary {
  std::string title;
  int count = 0;
  std::size_t points = 0;
};
MCP_STRUCT(summary, (title, "Title"), (count, "Count"), (points, "Points on the path"));

struct echo_args {
  std::string text;
  std::optional<int> repeat;
};
MCP_STRUCT(echo_args, (text, "Text", mcp::max_length(1000)), (repeat, "Times", mcp::minimum(1), mcp::maximum(5)));

struct doc_vars {
  std::string id;
};
MCP_STRUCT(doc_vars, (id, "Document id"));

struct greet_args {
  std::string name;
  std::optional<std::string> style;
};
MCP_STRUCT(greet_args, (name, "Who to greet"), (style, "formal or casual"));

mcp::json json_schema() {
  return mcp::json::parse(R"({
    "type": "object",
    "properties": {
      "when": {"type": "string", "format": "date-time"},
      "code": {"type": "string", "pattern": "^[A-Z]{2,4}$"},
      "n": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]},
      "node": {"$ref": "#/definitions/node"}
    },
    "definitions": {"node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/node"}}}},
    "additionalProperties": false
  })");
}

mcp::server& the_server() {
  static mcp::server* srv = [] {
    mcp::server_options options;
    options.validate_output = true;
    options.log_sink = [](std::string_view) {};  // diagnostics are not output
    auto* s = new mcp::server({"fuzz", "1.0"}, options);
    s->tool("make", "Builds a summary", [](const fz::rich& in, mcp::context& ctx) {
      ctx.progress(1, 2, "half way");
      ctx.log(mcp::log_level::info, in.title);
      return summary{in.title, in.count, in.path.size()};
    });
    s->tool("echo", "Echoes text", [](const echo_args& in) -> mcp::result<std::string> {
      if (in.text == "fail") return mcp::tool_error("asked to fail");
      std::string out;
      for (int i = 0; i < in.repeat.value_or(1); ++i) out += in.text;
      return out;
    });
    s->tool("boom", "Always throws", [](const echo_args&) -> std::string { throw std::runtime_error(secret); });
    s->tool("raw", "Runtime schema",
            mcp::runtime_schema{json_schema(), nullptr},
            [](const mcp::json& args) { return args.dump(-1, ' ', false, mcp::json::error_handler_t::replace); });
    s->resource({"test://static", "static"}, [] { return std::string("hello"); });
    s->resource({"test://broken", "broken"}, []() -> std::string { throw std::runtime_error(secret); });
    s->resource_template({"test://doc/{id}", "doc"}, [](const doc_vars& v) { return mcp::json{{"id", v.id}}; });
    s->resource_template({"test://raw/{a}/x{b}", "raw"}, [](const std::map<std::string, std::string>& v) {
      if (v.at("a") == "boom") throw std::runtime_error(secret);
      return v.at("a") + v.at("b");
    });
    s->prompt("greet", "Greets", [](const greet_args& a) { return "Hello " + a.name + a.style.value_or(""); });
    s->prompt("bad", "Throws", []() -> std::string { throw std::runtime_error(secret); });
    s->complete_prompt_argument("greet", "style", [](const std::string& v, const std::map<std::string, std::string>&) {
      return std::vector<std::string>{v + "-formal", v + "-casual"};
    });
    s->complete_template_variable("test://doc/{id}", "id", [](const std::string& v, const std::map<std::string, std::string>&) {
      if (v == "boom") throw std::runtime_error(secret);
      return std::vector<std::string>(150, v);
    });
    return s;
  }();
  return *srv;
}


[[noreturn]] void bad(const char* why, const mcp::json& m) {
  std::fprintf(stderr, "%s: %s\n", why, m.dump(-1, ' ', false, mcp::json::error_handler_t::replace).c_str());
  std::abort();
}

void check_message(const mcp::json& m, bool check_leak) {
  std::string text;
  try {
    text = m.dump();  // strict: throws on invalid UTF-8
  } catch (const mcp::json::exception&) {
    bad("the server sent invalid UTF-8", m);
  }
  if (check_leak && text.find("SECRET") != std::string::npos) bad("a handler's exception text reached the client", m);
  if (!m.is_object() || m.value("jsonrpc", "") != "2.0") bad("not a JSON-RPC 2.0 object", m);
  if (m.contains("method")) {
    if (!m["method"].is_string()) bad("method is not a string", m);
    return;
  }
  if (m.contains("result") == m.contains("error")) bad("a response needs exactly one of result and error", m);
  if (m.contains("id") && !mcp::jsonrpc::is_valid_id(m["id"])) bad("bad id", m);
  if (m.contains("result") && !m["result"].is_object()) bad("result is not an object", m);
  if (m.contains("error")) {
    const auto& e = m["error"];
    if (!e.is_object() || !e["code"].is_number_integer() || !e["message"].is_string()) bad("malformed error", m);
  }
}


void initialize(mcp::connection& conn, text_recorder& out) {
  conn.receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
               R"("capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}})");
  conn.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  out.lines.clear();
}

}  // namespace fzcore

using namespace fzcore;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcp::server& srv = the_server();
  mcp::testing::client c(srv);
  c.initialize();
  c.messages().drain();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // A client may of course send the marker itself and get it echoed (e.g. in "Method not found").
  const bool check_leak = input.find("SECRET") == std::string_view::npos;
  auto as_text = std::make_shared<text_recorder>(true), as_tree = std::make_shared<text_recorder>(false);
  auto read_first = std::make_shared<text_recorder>(true), read_later = std::make_shared<text_recorder>(true);
  mcp::connection by_text(srv, as_text), by_tree(srv, as_tree), decoded(srv, read_first), deferred(srv, read_later);
  initialize(by_text, *as_text);
  initialize(by_tree, *as_tree);
  initialize(decoded, *read_first);
  initialize(deferred, *read_later);
  const auto* decoder = mcp::detail::server_access::arguments_reader(srv);
  while (!input.empty()) {
    auto nl = input.find('\n');
    const std::string_view line = input.substr(0, nl);
    c.send_text(line);
    by_text.receive(line);
    by_tree.receive(mcp::detail::message_access::read_checked(line, srv.options().max_json_depth));  // as a whole read
    decoded.receive(mcp::detail::message_access::read_one_pass(line, srv.options().max_json_depth, decoder));
    deferred.receive(mcp::message::read(line, srv.options().max_json_depth));
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
  }
  for (const auto& m : c.messages().drain()) check_message(m, check_leak);
  if (as_text->lines != as_tree->lines) {
    std::fprintf(stderr, "the text sink answered differently from the tree sink\n");
    for (const auto& l : as_text->lines) std::fprintf(stderr, "text: %s\n", l.c_str());
    for (const auto& l : as_tree->lines) std::fprintf(stderr, "tree: %s\n", l.c_str());
    std::abort();
  }
  if (as_text->lines != read_first->lines) {
    std::fprintf(stderr, "arguments read with the message were answered differently\n");
    for (const auto& l : as_text->lines) std::fprintf(stderr, "at the call: %s\n", l.c_str());
    for (const auto& l : read_first->lines) std::fprintf(stderr, "with the message: %s\n", l.c_str());
    std::abort();
  }
  if (as_text->lines != read_later->lines) {
    std::fprintf(stderr, "arguments checked when the call runs were answered differently\n");
    for (const auto& l : as_text->lines) std::fprintf(stderr, "with the message: %s\n", l.c_str());
    for (const auto& l : read_later->lines) std::fprintf(stderr, "when run: %s\n", l.c_str());
    std::abort();
  }
  return 0;
}
