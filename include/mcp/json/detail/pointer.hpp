// JSON Pointer (RFC 6901), as the SDK writes them in messages: the path of a value in a document.
#pragma once

#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

// Appends "/" and `token` (a member name or an array index), with '~' written "~0" and '/' "~1".
inline void append_pointer_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
