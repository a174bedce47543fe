// The YAML frontmatter of a SKILL.md, read as JSON. A skills/list entry must carry it "identical in
// content" to what a YAML parser reads from the file, so this reader takes only the part of YAML
// whose meaning it can give exactly (string scalars, plain or quoted, and one level of nested
// mappings such as `metadata:`) and refuses the rest, naming the line, rather than read it wrong.
#pragma once

#include <mcp/json/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

namespace frontmatter_impl {

inline std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

[[noreturn]] inline void refuse(std::size_t line, const std::string& why) {
  throw std::invalid_argument("frontmatter line " + std::to_string(line) + ": " + why);
}

// A plain scalar YAML would read as something other than a string (a number, a boolean, null) or
// could read differently: the reader asks for quotes instead.
inline bool plain_is_string(const std::string& v) {
  static const char* const words[] = {"true", "false", "True", "False", "TRUE", "FALSE", "yes", "no", "Yes", "No",
                                      "YES", "NO", "on", "off", "On", "Off", "ON", "OFF", "null", "Null", "NULL", "~",
                                      "y", "n", "Y", "N"};
  for (const char* w : words)
    if (v == w) return false;
  const char first = v.front();
  if (std::string_view("[]{}&*!|>'\"%@`#,?:-").find(first) != std::string_view::npos) return false;
  if ((first >= '0' && first <= '9') || first == '+' || first == '.') return false;  // a number, or close to one
  if (v.find(": ") != std::string::npos || v.find(" #") != std::string::npos || v.back() == ':') return false;
  return true;
}

inline std::string scalar(const std::string& raw, std::size_t line) {
  if (raw.empty()) refuse(line, "an empty value (YAML reads it as null); quote it: \"\"");
  if (raw.front() == '"') {
    std::string out;
    std::size_t i = 1;
    for (; i < raw.size() && raw[i] != '"'; ++i) {
      if (raw[i] != '\\') {
        out += raw[i];
        continue;
      }
      if (++i == raw.size()) break;
      switch (raw[i]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        default: refuse(line, std::string("the escape \\") + raw[i] + " is not supported here");
      }
    }
    if (i != raw.size() - 1) refuse(line, "a double-quoted value must end with its closing quote, alone");
    return out;
  }
  if (raw.front() == '\'') {
    std::string out;
    std::size_t i = 1;
    for (; i < raw.size(); ++i) {
      if (raw[i] == '\'') {
        if (i + 1 < raw.size() && raw[i + 1] == '\'') {
          out += '\'';
          ++i;
          continue;
        }
        break;
      }
      out += raw[i];
    }
    if (i != raw.size() - 1) refuse(line, "a single-quoted value must end with its closing quote, alone");
    return out;
  }
  if (!plain_is_string(raw))
    refuse(line, "the value '" + raw + "' would not read as plain text in YAML; put it in double quotes");
  return raw;
}

}  // namespace frontmatter_impl

// The frontmatter of `text` (a SKILL.md): the block between a first line "---" and the next "---".
// Throws std::invalid_argument saying what is missing or which line it cannot read exactly.
inline json parse_skill_frontmatter(std::string_view text) {
  using namespace frontmatter_impl;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(pos, nl - pos));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    pos = nl + 1;
  }
  if (lines.empty() || trim(lines[0]) != "---") throw std::invalid_argument("SKILL.md must begin with a line '---' opening its YAML frontmatter");
  json out = json::object();
  json* nested = nullptr;  // the mapping the indented lines below belong to
  std::size_t nested_indent = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::size_t n = i + 1;  // 1-based line number
    if (trim(line) == "---" && line[0] == '-') {
      for (const auto& [key, value] : out.items())
        if (value.is_object() && value.empty())
          throw std::invalid_argument("frontmatter: the key '" + key + "' has nothing under it (YAML reads that as null)");
      return out;
    }
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const bool indented = line[0] == ' ';
    if (indented) {
      const std::size_t width = line.find_first_not_of(' ');
      if (nested_indent == 0) nested_indent = width;
      if (width != nested_indent) refuse(n, "indent every line of a nested mapping alike");
    } else {
      nested_indent = 0;
    }
    if (line[0] == '\t') refuse(n, "tabs do not indent YAML; use spaces");
    const std::string body = trim(line);
    const auto colon = body.find(':');
    if (colon == std::string::npos || colon == 0) refuse(n, "expected 'key: value'");
    const std::string key = trim(std::string_view(body).substr(0, colon));
    if (!plain_is_string(key) || key.find_first_of("\"'") != std::string::npos) refuse(n, "the key '" + key + "' must be plain text");
    if (colon + 1 < body.size() && body[colon + 1] != ' ') refuse(n, "a ':' in a key; put a space after the key's ':'");
    const std::string raw = trim(std::string_view(body).substr(colon + 1));
    json& into = indented ? (nested ? *nested : (refuse(n, "an indented line belongs under a 'key:' line"), out)) : out;
    if (into.contains(key)) refuse(n, "the key '" + key + "' appears twice");
    if (raw.empty() && !indented) {  // a nested mapping follows
      into[key] = json::object();
      nested = &into[key];
      continue;
    }
    if (!indented) nested = nullptr;
    if (raw.empty()) refuse(n, "only one level of nesting is supported");
    into[key] = scalar(raw, n);
  }
  throw std::invalid_argument("the frontmatter is not closed by a line '---'");
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
