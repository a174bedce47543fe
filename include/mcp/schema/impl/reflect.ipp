// Out-of-line bodies of schema/reflect.hpp, included once from its bottom (or compiled into the library in
// compiled mode, so that a file registering a typed tool calls them there rather than compiling
// them again).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

MCP_DECL decode_error::decode_error(std::string pointer_, std::string reason_)
    : error(error_code::decode_failed, (pointer_.empty() ? std::string("(root)") : pointer_) + ": " + reason_),
      pointer(std::move(pointer_)),
      reason(std::move(reason_)) {}

namespace detail {

MCP_DECL void append_pointer(std::string& out, const json_path* at) {
  if (at == nullptr) return;
  append_pointer(out, at->parent);
  if (at->index != json_path::npos)
    append_pointer_token(out, std::to_string(at->index));
  else
    append_pointer_token(out, at->key);
}

MCP_DECL std::string pointer_of(const json_path* at) {
  std::string out;
  append_pointer(out, at);
  return out;
}

MCP_DECL void fail(const json_path* at, std::string reason) { throw decode_error(pointer_of(at), std::move(reason)); }

}  // namespace detail
}  // namespace v0
}  // namespace mcp
