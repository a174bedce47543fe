// Reads the message a client sends most: a tools/call request of the usual shape,
//   {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{...}}}
// (members in any order), without building a tree for the envelope: only the arguments become a
// json. Anything else is declined (nullopt), and then read whole by the general path: other
// methods, notifications, members the envelope or params do not usually have (_meta, which
// carries progress tokens and 2026-07-28 claims), repeated members, escapes in member names or in
// the envelope's words, a byte-order mark. The text is read completely, so a call it returns is
// valid JSON that the general path would read the same.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/jsonrpc.hpp>

#include <cstddef>
#include <optional>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

struct tool_call {
  json id;
  std::string_view name;  // points into the text read
  json arguments;         // null when absent or null
};

namespace tool_call_reader {

enum member : unsigned { jsonrpc = 1, id = 2, method = 4, params = 8, all = 15 };

inline bool read_params(json_reader& in, tool_call& call) {
  using namespace std::string_view_literals;
  if (!in.consume('{')) return false;
  bool has_name = false, has_arguments = false;
  std::string_view key;
  do {
    if (!in.read_plain_string(key) || !in.consume(':')) return false;
    if (key == "name"sv && !has_name) {
      if (!in.read_plain_string(call.name)) return false;  // tool names are plain ASCII
      has_name = true;
    } else if (key == "arguments"sv && !has_arguments) {
      // Two levels are open around the arguments: the message and its params.
      if (!in.read_value(call.arguments, 2)) return false;
      if (!call.arguments.is_null() && !call.arguments.is_object()) return false;
      has_arguments = true;
    } else {
      return false;
    }
  } while (in.consume(','));
  return in.consume('}') && has_name;
}

}  // namespace tool_call_reader

inline std::optional<tool_call> read_tool_call(std::string_view text, std::size_t max_depth) {
  using namespace tool_call_reader;
  using namespace std::string_view_literals;
  if (max_depth < 3) return std::nullopt;  // the arguments object is three levels deep
  json_reader in(text, max_depth);
  tool_call call;
  unsigned seen = 0;
  std::string_view key, word;
  if (!in.consume('{')) return std::nullopt;
  do {
    if (!in.read_plain_string(key) || !in.consume(':')) return std::nullopt;
    member m;
    if (key == "jsonrpc"sv) {
      m = jsonrpc;
      if (!in.read_plain_string(word) || word != "2.0"sv) return std::nullopt;
    } else if (key == "id"sv) {
      m = id;
      if (!in.read_value(call.id, 1) || !jsonrpc::is_valid_id(call.id)) return std::nullopt;
    } else if (key == "method"sv) {
      m = method;
      if (!in.read_plain_string(word) || word != "tools/call"sv) return std::nullopt;
    } else if (key == "params"sv) {
      m = params;
      if (!read_params(in, call)) return std::nullopt;
    } else {
      return std::nullopt;
    }
    if (seen & m) return std::nullopt;
    seen |= m;
  } while (in.consume(','));
  if (!in.consume('}') || !in.at_end() || seen != all) return std::nullopt;
  return call;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
