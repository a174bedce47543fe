// Reading JSON text the way the SDK reads messages, for text a server reads itself (a file of tool
// schemas, a store): strict RFC 8259 with UTF-8 checked, where a NUL byte or anything after the
// value is an error rather than ignored, and never nested more than `max_depth` levels of arrays
// and objects, so a broken or hostile file gets a message instead of a crash.
//
//   std::string why;
//   std::optional<mcp::json> doc = mcp::parse_json(text, 128, &why);   // why: "not valid JSON", ...
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {

// The value of `text`, or nullopt with the reason in *error (when given).
inline std::optional<json> parse_json(std::string_view text, std::size_t max_depth = detail::default_max_json_depth,
                                      std::string* error = nullptr) {
  json out;
  switch (detail::read_json(text, out, max_depth)) {
    case detail::read_result::ok: return out;
    case detail::read_result::too_deep:
      if (error) *error = "nested more than " + std::to_string(max_depth) + " levels deep";
      return std::nullopt;
    case detail::read_result::invalid: break;
  }
  if (error) *error = "not valid JSON";
  return std::nullopt;
}

}  // namespace v0
}  // namespace mcp
