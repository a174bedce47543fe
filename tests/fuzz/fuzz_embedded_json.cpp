// JSON text inside string arguments, through the real server pipeline: a tools/call whose argument
// is a string where the schema expects an array or an object, so lossless coercion reads the JSON
// in it. Tools: a typed one (std::vector<int>, a struct, an optional vector of structs, an
// optional int) and a runtime-schema one (an unconstrained array, an object two levels down, a
// oneOf of array and object). The input is a target byte and then the string's bytes, in a small
// language that makes deep texts cheap to reach (deep nesting crashed the server once). Its
// operators are bytes that never occur in UTF-8 (nor are mutators' favourites, like 0xFF):
//   0xF5 c n   the byte c, n + 1 times
//   0xF6 n     the text so far inside depth(n) levels of [ ]: n + 1 for n up to 0xEA, else
//              2^(n - 0xEB), up to 1,048,576 (deep texts are slow to fuzz: they take rarer bytes)
//   0xF7 n     the text so far inside depth(n) levels of {"a": }
// Target byte: bits 0-2 the argument (see place()), bit 3 adds _meta and has the result built as a
// tree instead of written as text (the result builder's other sink), bit 4 uses the tool variant with coercion off, bit 5 adds a null optional field.
// Oracles, beyond no crash, leak or UB:
//  - the call gets a result (isError or not), never a protocol error, and a ping afterwards is
//    answered: the server is still serving;
//  - what a handler receives is never nested deeper than the server's limit allows arguments;
//  - a string read as JSON was read whole: the handler's value agrees with the string's own
//    value, read by nlohmann and only if the string holds no raw NUL byte (JSON text never has
//    one), up to lossless coercion (see agrees()); nothing is cut short;
//  - an unconstrained array argument given as a string holding an array that fits the limit is
//    read (no over-eager refusal), and one that does not fit is refused with a message saying so;
//  - under coercion off nothing is read: a string stays a string, so the call is refused.
#include "../nested_args.hpp"
#include "text_recorder.hpp"

#include <mcp/validation/coercion.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/detail/utf8.hpp>
#include <mcp/core/connection.hpp>
#include <mcp/core/server.hpp>
#include <mcp/tools/tool.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fzembed {

using nested::nums_args;
using nested::point;

// What the last handler to run received.
struct seen {
  bool ran = false;
  mcp::json args;
};
seen last;

mcp::json doc_schema() {
  return mcp::json::parse(R"({
    "type": "object",
    "properties": {
      "list": {"type": "array"},
      "outer": {"type": "object", "properties": {"inner": {"type": "object"}}},
      "either": {"oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "object"}]},
      "note": {"type": "string"}
    },
    "additionalProperties": false
  })");
}

mcp::server& the_server() {
  static mcp::server* srv = [] {
    mcp::server_options options;
    options.log_sink = [](std::string_view) {};
    auto* s = new mcp::server({"fuzz-embedded", "1.0"}, options);
    mcp::tool_options strict;
    strict.coerce = mcp::coercion::off;
    auto typed = [](const nums_args& in) {
      last.ran = true;
      last.args = mcp::encode(in);
      return std::string("ok");
    };
    s->tool("nums", "Numbers", typed);
    s->tool("nums_strict", "Numbers, no coercion", typed, strict);
    auto runtime = [](const mcp::json& args) {
      last.ran = true;
      last.args = args;
      return std::string("ok");
    };
    s->tool("doc", "A document", mcp::runtime_schema{doc_schema(), nullptr}, runtime);
    s->tool("doc_strict", "A document, no coercion", mcp::runtime_schema{doc_schema(), nullptr}, runtime, strict);
    return s;
  }();
  return *srv;
}

[[noreturn]] void bad(const char* why, const std::string& detail) {
  std::fprintf(stderr, "%s\n%s\n", why, detail.substr(0, 2000).c_str());
  std::abort();
}


std::size_t depth_of(std::uint8_t n) { return n < 0xEB ? std::size_t{n} + 1 : std::size_t{1} << (n - 0xEB); }

// The text is kept within about 2 MiB: room for a million levels of [ ] (the depth that crashed),
// while an input of many long runs stays quick.
constexpr std::size_t max_text = (std::size_t{2} << 20) + 4096;

std::string expand(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size() && out.size() < max_text; ++i) {
    const auto b = static_cast<std::uint8_t>(in[i]);
    const std::size_t room = max_text - out.size();
    if (b == 0xF5 && i + 2 < in.size()) {
      out.append(std::min(std::size_t(static_cast<std::uint8_t>(in[i + 2])) + 1, room), in[i + 1]);
      i += 2;
    } else if ((b == 0xF6 || b == 0xF7) && i + 1 < in.size()) {
      const std::string_view level = b == 0xF6 ? "[" : "{\"a\":";
      const std::size_t n = std::min(depth_of(static_cast<std::uint8_t>(in[++i])), room / (level.size() + 1));
      std::string open;
      open.reserve(n * level.size() + out.size() + n);
      for (std::size_t k = 0; k < n; ++k) open += level;
      out = open + out + std::string(n, b == 0xF6 ? ']' : '}');
    } else {
      out += in[i];
    }
  }
  return out;
}

std::string valid_utf8(const std::string& raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size();) {
    const std::size_t n = mcp::detail::utf8_sequence_length(raw.data() + i, raw.size() - i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(raw, i, n);
      i += n;
    }
  }
  return out;
}

enum class where { values, at, path, list, inner, either };

// The arguments with the string put where the target says; `field` is then the pointer to it.
mcp::json place(where w, const std::string& s, bool null_optional, std::string& field) {
  mcp::json args = mcp::json::object();
  switch (w) {
    case where::values: args["values"] = s, field = "/values"; break;
    case where::at: args["values"] = {1}, args["at"] = s, field = "/at"; break;
    case where::path: args["values"] = {1}, args["path"] = s, field = "/path"; break;
    case where::list: args["list"] = s, field = "/list"; break;
    case where::inner: args["outer"] = {{"inner", s}}, field = "/outer/inner"; break;
    case where::either: args["either"] = s, field = "/either"; break;
  }
  if (null_optional) {
    if (w <= where::path)
      args["limit"] = nullptr;
    else
      args["note"] = nullptr;
  }
  return args;
}

bool has_raw_nul(const std::string& s) { return s.find('\0') != std::string::npos; }

// The value of `s` as nlohmann reads it, for text with no raw NUL byte (nlohmann would stop there).
std::optional<mcp::json> nlohmann_value(const std::string& s) {
  if (has_raw_nul(s)) return std::nullopt;
  mcp::json v = mcp::json::parse(s, nullptr, false);
  if (v.is_discarded()) return std::nullopt;
  return v;
}

// Does `got` say what `sent` said, up to lossless coercion? Equal; or `sent` a string and `got`
// the number or boolean it spells, or agreeing with the JSON text it holds (read by nlohmann, so
// independently of the SDK's reader, and only without a raw NUL byte); or 5.0 read as 5; or `got`
// the one-element array wrapping it; or arrays of the same length and objects with the same
// members that agree (a member may be left out where `sent` had null). Any reading cut short,
// such as a string's JSON read up to a NUL, fails this.
bool agrees(const mcp::json& got, const mcp::json& sent, int depth = 0) {
  if (depth > 300) return false;
  if (got == sent) return true;
  if (sent.is_string()) {
    const std::string& text = sent.get_ref<const std::string&>();
    if ((got.is_number() || got.is_boolean()) && got.dump() == text) return true;
    if (got.is_structured()) {
      if (auto value = nlohmann_value(text); value && agrees(got, *value, depth + 1)) return true;
    }
  }
  if (sent.is_number_float() && got.is_number_integer() && got.get<double>() == sent.get<double>()) return true;
  if (got.is_array() && got.size() == 1 && !sent.is_array() && agrees(got[0], sent, depth + 1)) return true;
  if (got.is_array() && sent.is_array() && got.size() == sent.size()) {
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!agrees(got[i], sent[i], depth + 1)) return false;
    return true;
  }
  if (got.is_object() && sent.is_object()) {
    for (auto it = got.begin(); it != got.end(); ++it)
      if (!sent.contains(it.key()) || !agrees(*it, sent[it.key()], depth + 1)) return false;
    for (auto it = sent.begin(); it != sent.end(); ++it)
      if (!got.contains(it.key()) && !it->is_null()) return false;
    return true;
  }
  return false;
}

}  // namespace fzembed

using namespace fzembed;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  mcp::server& srv = the_server();
  const std::uint8_t mode = data[0];
  const auto w = static_cast<where>((mode & 7) % 6);
  const bool general = mode & 8, strict = mode & 16, null_optional = mode & 32;
  const std::string raw = expand(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  // Invalid UTF-8 cannot travel in JSON: each bad byte becomes U+FFFD (here, where it is cheap,
  // rather than by the writer's slow path for such strings).
  const std::string s = valid_utf8(raw);
  std::string field;
  const bool typed = w <= where::path;
  mcp::json params = {{"name", std::string(typed ? "nums" : "doc") + (strict ? "_strict" : "")},
                      {"arguments", place(w, s, null_optional, field)}};
  if (general) params["_meta"] = {{"progressToken", 7}};

  auto out = std::make_shared<text_recorder>(!general);
  mcp::connection conn(srv, out);
  conn.receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
               R"("capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}})");
  conn.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  out->lines.clear();
  last = seen{};
  conn.receive(mcp::detail::to_json_text(mcp::jsonrpc::request(1, "tools/call", std::move(params))));
  conn.receive(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");

  // Replies: progress notifications may come first; then the call's result, then the pong.
  std::optional<mcp::json> result, pong;
  for (const auto& line : out->lines) {
    mcp::json m;
    if (mcp::detail::read_json(line, m, srv.options().max_json_depth) != mcp::detail::read_result::ok)
      bad("the server wrote something that is not JSON", line);
    if (m.contains("method")) continue;
    if (m.value("id", mcp::json()) == 1) result = m;
    if (m.value("id", mcp::json()) == 2) pong = m;
  }
  if (!result || !result->contains("result")) bad("the call got no result", out->lines.empty() ? "" : out->lines[0]);
  if (!pong || !pong->contains("result")) bad("the server did not answer a ping after the call", "");
  const mcp::json& r = (*result)["result"];
  const bool is_error = r.value("isError", false);
  if (is_error == last.ran) bad("the handler ran for a refused call, or a call was refused after it ran", r.dump());

  const std::size_t limit = mcp::detail::argument_depth_limit(srv.options().max_json_depth);
  if (last.ran) {
    if (mcp::detail::nested_deeper_than(last.args, limit)) bad("a handler received arguments nested too deeply", "");
    const mcp::json::json_pointer at(field);
    const mcp::json* got = last.args.contains(at) ? &last.args[at] : nullptr;
    if (!got) bad("the argument disappeared", last.args.dump());
    if (strict && !got->is_string()) bad("coercion off, yet the string was read", got->dump());
    if (!agrees(*got, mcp::json(s))) bad("the handler's value is not what the string held", s);
  }
  if (w == where::list && !strict) {
    // The array in the string sits one level down in the arguments. A byte-order mark in front is
    // skipped by read_json and by the server alike (corpus: list_bom_then_deep).
    mcp::json expected;
    const auto read = mcp::detail::read_json(s, expected, limit, 1);
    if (read == mcp::detail::read_result::ok && expected.is_array()) {
      if (!last.ran || last.args["list"] != expected) bad("a readable array argument was not read", s);
    } else if (read == mcp::detail::read_result::too_deep) {
      if (last.ran) bad("a string nested too deeply was read", "");
      const std::string text = r["content"][0].value("text", "");
      if (text.find("nested more than") == std::string::npos)
        bad("a too-deep string was refused without saying why", text);
    }
  }
  return 0;
}
