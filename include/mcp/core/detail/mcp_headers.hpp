// SEP-2243 (MCP 2026-07-28 Streamable HTTP): the client mirrors the method, the target name and
// x-mcp-header arguments into HTTP headers so intermediaries can route without reading the body.
// A server that reads the body must reject any disagreement, or an intermediary could be steered by
// a header the server then ignores. The caller answers a reason from here with HTTP 400 and -32020.
#pragma once

#include <mcp/json/detail/base64.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/detail/utf8.hpp>
#include <mcp/json/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// RFC 9110 token: what an x-mcp-header name must be, since it becomes part of a header name.
inline bool is_http_token(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    const auto c = std::uint8_t(ch);
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(ch) == std::string_view::npos) return false;
  }
  return true;
}

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

// A literal must be visible ASCII, SP or HTAB: the spec has clients send anything else (non-ASCII,
// control characters) through the base64 form, so raw bytes outside that set are invalid here.
inline std::optional<std::string> decode_header_value(std::string_view raw) {
  while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\t')) raw.remove_prefix(1);
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.remove_suffix(1);
  constexpr std::string_view prefix = "=?base64?";
  constexpr std::string_view suffix = "?=";
  if (raw.size() >= prefix.size() + suffix.size() && raw.substr(0, prefix.size()) == prefix &&
      raw.substr(raw.size() - suffix.size()) == suffix) {
    auto decoded = base64_decode(raw.substr(prefix.size(), raw.size() - prefix.size() - suffix.size()));
    if (!decoded || !is_valid_utf8(*decoded)) return std::nullopt;
    return decoded;
  }
  for (char ch : raw) {
    const auto c = std::uint8_t(ch);
    if ((c < 0x20 && c != '\t') || c >= 0x7F) return std::nullopt;
  }
  return std::string(raw);
}

struct header_param {
  std::string header;             // as annotated, e.g. "Region" for Mcp-Param-Region
  std::vector<std::string> path;  // property names from the root of the tool's arguments
};

namespace headers_impl {

inline bool is_header_type(const json& schema) {
  const auto type = schema.find("type");
  return type != schema.end() && type->is_string() &&
         (*type == "string" || *type == "integer" || *type == "boolean");
}

// Calls visit(path, schema, annotation) for each property carrying "x-mcp-header", following only
// "properties" (the spec excludes anything reached through items, anyOf, $ref and the like).
template <class Visit>
void walk_annotations(const json& schema, std::vector<std::string>& path, Visit& visit) {
  if (!schema.is_object()) return;
  const auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object()) return;
  for (const auto& [name, sub] : props->items()) {
    if (!sub.is_object()) continue;
    path.push_back(name);
    const auto annotation = sub.find("x-mcp-header");
    if (annotation != sub.end()) visit(path, sub, *annotation);
    walk_annotations(sub, path, visit);
    path.pop_back();
  }
}

}  // namespace headers_impl

// The usable annotations of a tool's input schema. Malformed ones (not a token, not a primitive
// type, a repeated name) are skipped; check_header_annotations reports them.
inline std::vector<header_param> header_params(const json& input_schema) {
  std::vector<header_param> out;
  std::vector<std::string> path;
  auto visit = [&](const std::vector<std::string>& at, const json& schema, const json& annotation) {
    if (!annotation.is_string() || !is_http_token(annotation.get_ref<const std::string&>())) return;
    if (!headers_impl::is_header_type(schema)) return;
    const std::string lower = ascii_lower(annotation.get_ref<const std::string&>());
    for (const auto& p : out)
      if (ascii_lower(p.header) == lower) return;
    out.push_back({annotation.get<std::string>(), at});
  };
  headers_impl::walk_annotations(input_schema, path, visit);
  return out;
}

// For tool registration: a client drops a tool whose annotations are invalid, so say why up front.
// nullopt when every x-mcp-header annotation is usable.
inline std::optional<std::string> check_header_annotations(const json& input_schema) {
  std::optional<std::string> problem;
  std::vector<std::string> seen;
  std::vector<std::string> path;
  auto visit = [&](const std::vector<std::string>& at, const json& schema, const json& annotation) {
    if (problem) return;
    std::string where;
    for (const auto& p : at) where += (where.empty() ? "" : ".") + p;
    if (!annotation.is_string() || !is_http_token(annotation.get_ref<const std::string&>())) {
      problem = "x-mcp-header on property '" + where + "' must be a non-empty HTTP token";
      return;
    }
    if (!headers_impl::is_header_type(schema)) {
      problem = "x-mcp-header on property '" + where + "' needs type string, integer or boolean";
      return;
    }
    const std::string lower = ascii_lower(annotation.get_ref<const std::string&>());
    for (const auto& s : seen)
      if (s == lower) {
        problem = "x-mcp-header '" + annotation.get<std::string>() + "' is used more than once";
        return;
      }
    seen.push_back(lower);
  };
  headers_impl::walk_annotations(input_schema, path, visit);
  return problem;
}

namespace headers_impl {

using header_lookup = std::function<std::optional<std::string>(std::string_view)>;

// Integers compare by value, so "42", "42.0" and "4.2e1" all match 42; the text must be a JSON number.
inline bool number_matches(const std::string& text, const json& body) {
  json parsed;
  if (read_json(text, parsed, 0) != read_result::ok || !parsed.is_number()) return false;  // a number has no levels
  if (parsed.is_number_integer() && body.is_number_integer()) {
    if (parsed.is_number_unsigned() != body.is_number_unsigned()) {
      // Only equal if both are non-negative and fit the same range.
      const json& u = parsed.is_number_unsigned() ? parsed : body;
      const json& s = parsed.is_number_unsigned() ? body : parsed;
      const auto sv = s.get<std::int64_t>();
      return sv >= 0 && std::uint64_t(sv) == u.get<std::uint64_t>();
    }
    return parsed == body;
  }
  const double a = parsed.get<double>();
  const double b = body.get<double>();
  return std::isfinite(a) && a == b;
}

inline bool value_matches(const std::string& text, const json& body) {
  if (body.is_string()) return text == body.get_ref<const std::string&>();
  if (body.is_boolean()) return text == (body.get<bool>() ? "true" : "false");
  if (body.is_number()) return number_matches(text, body);
  return false;
}

// For a message: an object or array there (a body the schema does not allow) is shown cut short.
inline std::string body_text(const json& v) { return v.is_string() ? v.get<std::string>() : render(v, 200); }

inline const json* find_path(const json& root, const std::vector<std::string>& path) {
  const json* at = &root;
  for (const auto& key : path) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

// Required header that must equal `expected`; nullopt when it does.
inline std::optional<std::string> check_required(const header_lookup& header, const std::string& display_name,
                                                 const std::string& what, const json& expected) {
  const auto raw = header(ascii_lower(display_name));
  if (!raw) return "Missing required " + display_name + " header (the body has " + what + ")";
  const auto value = decode_header_value(*raw);
  if (!value) return display_name + " header has an invalid value";
  if (!value_matches(*value, expected))
    return display_name + " header '" + *value + "' does not match the body's " + what + " '" +
           body_text(expected) + "'";
  return std::nullopt;
}

}  // namespace headers_impl

// nullopt when the standard headers agree with a request's method and params, else the reason for
// a -32020 error. `header` gets a lower-case name and returns the raw value. A required Mcp-Name
// whose body field is missing is not checked here: the params check rejects that request anyway.
// `name` and `arguments`, when given, are params' members of those names kept outside `params`
// (detail::request_params).
inline std::optional<std::string> check_standard_headers(
    const std::function<std::optional<std::string>(std::string_view)>& header, std::string_view method,
    const json& params, const std::vector<header_param>& tool_params, const json* name = nullptr,
    const json* arguments = nullptr) {
  const json method_value = std::string(method);
  if (auto problem = headers_impl::check_required(header, "Mcp-Method", "method", method_value)) return problem;

  const json empty = json::object();
  const json& body = params.is_object() ? params : empty;

  const char* name_field = nullptr;
  if (method == "tools/call" || method == "prompts/get") name_field = "name";
  if (method == "resources/read") name_field = "uri";
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") name_field = "taskId";  // SEP-2663
  auto member = [&](const char* key) -> const json* {
    const auto it = body.find(key);
    return it != body.end() ? &*it : nullptr;
  };
  if (name_field) {
    const json* value = name && std::string_view(name_field) == "name" ? name : member(name_field);
    if (value && value->is_string())
      if (auto problem = headers_impl::check_required(header, "Mcp-Name", std::string("params.") + name_field, *value))
        return problem;
  }

  if (method != "tools/call") return std::nullopt;
  const json* args = arguments ? arguments : member("arguments");
  for (const auto& p : tool_params) {
    const std::string display_name = "Mcp-Param-" + p.header;
    const json* value = args ? headers_impl::find_path(*args, p.path) : nullptr;
    std::string where = "arguments";
    for (const auto& key : p.path) where += "." + key;
    if (value && !value->is_null()) {
      if (auto problem = headers_impl::check_required(header, display_name, where, *value)) return problem;
      continue;
    }
    // No body value, so no header is expected. One that is sent anyway claims a value the server
    // will not use, which is the very disagreement these checks exist to catch: reject it.
    if (header(ascii_lower(display_name)))
      return display_name + " header is present but the body has no " + where;
  }
  return std::nullopt;
}

// The same for a whole message. One without a string "method" is left to body validation.
inline std::optional<std::string> check_standard_headers(
    const std::function<std::optional<std::string>(std::string_view)>& header, const json& message,
    const std::vector<header_param>& tool_params) {
  if (!message.is_object()) return std::nullopt;
  const auto method = message.find("method");
  if (method == message.end() || !method->is_string()) return std::nullopt;
  const auto params = message.find("params");
  const json none;  // not an object: no name, no arguments
  return check_standard_headers(header, method->get_ref<const std::string&>(), params != message.end() ? *params : none,
                                tool_params);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
