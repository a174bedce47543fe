// What a tool call returns: content blocks (MCP 2025-11-25 ContentBlock), the full CallToolResult,
// and tool_error, the failure a model is meant to read and act on.
#pragma once

#include <mcp/error.hpp>
#include <mcp/json/detail/base64.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// Hints for the client about a block: who it is for ("user", "assistant"), how important it is
// (0 to 1) and when the underlying data last changed (ISO 8601).
struct content_annotations {
  std::vector<std::string> audience;
  std::optional<double> priority;
  std::optional<std::string> last_modified;
};

namespace detail {
// A text block that takes its string over rather than copying it.
// Members are placed in key order at the end of the object: every tool result has such a block.
inline json text_block(std::string s) {
  json block(json::value_t::object);
  auto& members = block.get_ref<json::object_t&>();
  members.emplace_hint(members.end(), "text", std::move(s));
  members.emplace_hint(members.end(), "type", "text");
  return block;
}
}  // namespace detail

inline json text(std::string_view s) { return detail::text_block(std::string(s)); }

inline json image(std::string_view bytes, std::string_view mime_type) {
  return json{{"type", "image"}, {"data", detail::base64_encode(bytes)}, {"mimeType", std::string(mime_type)}};
}

inline json audio(std::string_view bytes, std::string_view mime_type) {
  return json{{"type", "audio"}, {"data", detail::base64_encode(bytes)}, {"mimeType", std::string(mime_type)}};
}

inline json resource_link(std::string_view uri, std::string_view name, std::string_view mime_type = {},
                          std::string_view description = {}) {
  json block{{"type", "resource_link"}, {"uri", std::string(uri)}, {"name", std::string(name)}};
  if (!mime_type.empty()) block["mimeType"] = std::string(mime_type);
  if (!description.empty()) block["description"] = std::string(description);
  return block;
}

inline json embedded_text(std::string_view uri, std::string_view text, std::string_view mime_type = {}) {
  json resource{{"uri", std::string(uri)}, {"text", std::string(text)}};
  if (!mime_type.empty()) resource["mimeType"] = std::string(mime_type);
  return json{{"type", "resource"}, {"resource", std::move(resource)}};
}

inline json embedded_blob(std::string_view uri, std::string_view bytes, std::string_view mime_type = {}) {
  json resource{{"uri", std::string(uri)}, {"blob", detail::base64_encode(bytes)}};
  if (!mime_type.empty()) resource["mimeType"] = std::string(mime_type);
  return json{{"type", "resource"}, {"resource", std::move(resource)}};
}

// Throws mcp::error (error_code::invalid_argument) for values the schema forbids (an audience other
// than "user" or "assistant", a priority outside [0, 1]): those are bugs in the server, better
// caught early.
inline json with_annotations(json block, const content_annotations& a) {
  json out = json::object();
  if (!a.audience.empty()) {
    for (const auto& role : a.audience)
      if (role != "user" && role != "assistant")
        throw error(error_code::invalid_argument,
                    "mcp::with_annotations: audience must be \"user\" or \"assistant\", got \"" + role + "\"");
    out["audience"] = a.audience;
  }
  if (a.priority) {
    if (!(*a.priority >= 0.0 && *a.priority <= 1.0))
      throw error(error_code::invalid_argument, "mcp::with_annotations: priority must be between 0 and 1");
    out["priority"] = *a.priority;
  }
  if (a.last_modified) out["lastModified"] = *a.last_modified;
  if (!out.empty()) block["annotations"] = std::move(out);
  return block;
}

// A CallToolResult, for handlers that want full control over what the client receives.
struct tool_result {
  std::vector<json> content;
  std::optional<json> structured_content;
  bool is_error = false;
  json meta;  // null = absent

  json to_json() const& { return tool_result(*this).to_json(); }
  // Moves the blocks out: results are built once per call and then sent.
  json to_json() && {
    json out(json::value_t::object);
    auto& members = out.get_ref<json::object_t&>();  // filled in key order
    if (!meta.is_null()) members.emplace_hint(members.end(), "_meta", std::move(meta));
    members.emplace_hint(members.end(), "content", json::array_t(std::make_move_iterator(content.begin()),
                                                                 std::make_move_iterator(content.end())));
    if (is_error) members.emplace_hint(members.end(), "isError", true);
    if (structured_content) members.emplace_hint(members.end(), "structuredContent", std::move(*structured_content));
    return out;
  }
};

namespace detail {
// Never true: what tool_error's conversion asserts, so that clang's message names the mistake.
template <class T>
inline constexpr bool tool_error_returned_as = false;
}  // namespace detail

// A failure worth telling the model about: becomes {"content":[{"type":"text","text":message}],
// "isError":true}. Write the message for the model: what failed, why, what to do instead.
struct tool_error : error {
  explicit tool_error(const std::string& message) : error(error_code::tool_failed, message) {}

  // Never compiles: `return mcp::tool_error(...)` from a handler declared `-> std::string` (or
  // `-> tool_result`, `-> an MCP_STRUCT`) lands here, so that the first error names the fix rather
  // than "could not convert 'mcp::tool_error' to 'std::string'".
  template <class T, std::enable_if_t<std::is_same_v<T, std::string> || std::is_same_v<T, tool_result> ||
                                          is_reflected_v<T>,
                                      int> = 0>
  operator T() const {
    if constexpr (std::is_same_v<T, std::string>)
      static_assert(detail::tool_error_returned_as<T>,
                    "mcp: a tool_error is not a std::string: a tool handler that may return one declares its return "
                    "type mcp::result<std::string> (<mcp/tools/result.hpp>): [](...) -> mcp::result<std::string> "
                    "{ ... }. A handler of another kind (prompt, resource) throws it");
    else
      static_assert(detail::tool_error_returned_as<T>,
                    "mcp: a tool_error is not the handler's value: a tool handler that may return one declares its "
                    "return type mcp::result<T> (<mcp/tools/result.hpp>), T being what it returns otherwise: "
                    "[](...) -> mcp::result<my_output> { ... }. A handler of another kind (prompt, resource) throws it");
    throw *this;
  }

 protected:
  tool_error(int code, const std::string& message) : error(code, message) {}
};

}  // namespace v0
}  // namespace mcp
