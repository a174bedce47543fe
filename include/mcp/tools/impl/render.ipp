// Out-of-line bodies of tools/render.hpp, included once from its bottom (or compiled into the library in
// compiled mode, so that a file registering a typed tool calls them there rather than compiling
// them again).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL std::string valid_utf8(const std::string& s) {
  json text;
  read_json(json(s).dump(-1, ' ', false, json::error_handler_t::replace), text, 0);  // one string: no levels
  return text.get<std::string>();
}

MCP_DECL std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (;;) {
    std::size_t nl = s.find('\n', start);
    std::string line = s.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (nl == std::string::npos) return lines;
    start = nl + 1;
  }
}

MCP_DECL std::size_t longest_backtick_run(std::string_view s) {
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

MCP_DECL std::string fenced(const std::string& body) {
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  return fence + "\n" + body + "\n" + fence;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
