// Out-of-line bodies of json/detail/reader.hpp, included once from its bottom (or compiled into
// the library in compiled mode, where a file that reads typed arguments calls them there instead
// of compiling them, and nlohmann's parser behind json_reader::number, again).
#pragma once

#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL bool json_reader::value(json& out, std::size_t depth) {
  if (p_ == end_) return false;
  switch (*p_) {
    case '{': return object(out, depth + 1);
    case '[': return array(out, depth + 1);
    case '"': {
      if (out.is_string()) {  // read over: the string keeps its storage
        auto& s = out.get_ref<std::string&>();
        s.clear();
        return string(s);
      }
      std::string s;
      if (!string(s)) return false;
      out = std::move(s);
      return true;
    }
    case 't': return literal("true", json(true), out);
    case 'f': return literal("false", json(false), out);
    case 'n': return literal("null", json(nullptr), out);
    default: return number(out);
  }
}

MCP_DECL bool json_reader::literal(std::string_view word, json value, json& out) {
  if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
  p_ += word.size();
  out = std::move(value);
  return true;
}

MCP_DECL bool json_reader::object(json& out, std::size_t depth) {
  if (depth > max_depth_) {
    too_deep_ = true;
    return false;
  }
  ++p_;
  // Read over an object: a member the text names again is read over where it is (its node, key
  // and value's storage kept), and those it does not name are erased at its end.
  const bool over = out.is_object() && !out.empty();
  if (!out.is_object()) out = json(json::value_t::object);
  auto& members = out.get_ref<json::object_t&>();
  const std::size_t mark = named_.size();
  skip_space();
  if (p_ < end_ && *p_ == '}') {
    ++p_;
    members.clear();
    return true;
  }
  for (;;) {
    std::string_view key;
    if (!read_string_view(key, key_scratch_)) return false;
    skip_space();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    skip_space();
    // Members usually come in order or nearly: the end is the hint. A repeated key: the later
    // value is read over the earlier.
    auto slot = over ? find_member(members, key) : members.end();
    if (slot == members.end()) slot = members.emplace_hint(members.end(), key, nullptr);
    if (over) named_.push_back(&*slot);
    if (!value(slot->second, depth)) return false;
    skip_space();
    if (p_ == end_) return false;
    if (*p_ == '}') {
      ++p_;
      if (over) erase_unnamed(members, mark);
      return true;
    }
    if (*p_ != ',') return false;
    ++p_;
    skip_space();
  }
}

MCP_DECL bool json_reader::array(json& out, std::size_t depth) {
  if (depth > max_depth_) {
    too_deep_ = true;
    return false;
  }
  ++p_;
  // Read over an array: its items are read over in turn, and those past the text's count go.
  if (!out.is_array()) out = json::array();
  auto& items = out.get_ref<json::array_t&>();
  std::size_t n = 0;
  skip_space();
  if (p_ < end_ && *p_ == ']') {
    ++p_;
    items.clear();
    return true;
  }
  for (;;) {
    if (n == items.size()) items.emplace_back();
    if (!value(items[n++], depth)) return false;
    skip_space();
    if (p_ == end_) return false;
    if (*p_ == ']') {
      ++p_;
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(n), items.end());
      return true;
    }
    if (*p_ != ',') return false;
    ++p_;
    skip_space();
  }
}

MCP_DECL bool json_reader::number(const number_token& t, json& out) {
  if (!t.end) return false;
  const char* start = p_;
  p_ = t.end;
  if (t.fits && !t.negative) {
    out = t.magnitude;
    return true;
  }
  if (t.fits && t.magnitude <= int64_min_magnitude) {
    out = negative_of(t.magnitude);
    return true;
  }
  // A fraction or exponent, or an integer beyond 64 bits: a double, as nlohmann does.
  double d = 0;
  const auto [end, ec] = std::from_chars(start, p_, d);
  if (ec == std::errc() && end == p_) {
    out = d;
    return true;
  }
  // Out of range: nlohmann refuses an overflow but keeps an underflow as strtod rounds it.
  // Rare enough to let nlohmann decide (on this one number token: nothing nests in it).
  json decided = json::parse(start, p_, nullptr, false);
  if (decided.is_discarded()) return false;
  out = std::move(decided);
  return true;
}

MCP_DECL bool json_reader::string(std::string& out) {
  ++p_;  // the opening quote
  for (;;) {
    const char* run = p_;
    p_ = plain_run_end(p_, end_);
    out.append(run, static_cast<std::size_t>(p_ - run));
    if (p_ == end_) return false;
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      ++p_;
      return true;
    }
    if (c < 0x20) return false;  // control characters must be escaped
    if (c == '\\') {
      if (!escape(out)) return false;
      continue;
    }
    const std::size_t n = utf8_sequence_length(p_, static_cast<std::size_t>(end_ - p_));
    if (n == 0) return false;
    out.append(p_, n);
    p_ += n;
  }
}

MCP_DECL bool json_reader::escape(std::string& out) {
  ++p_;  // the backslash
  if (p_ == end_) return false;
  const char c = *p_++;
  switch (c) {
    case '"': out += '"'; return true;
    case '\\': out += '\\'; return true;
    case '/': out += '/'; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'u': break;
    default: return false;
  }
  std::uint32_t code = 0;
  if (!hex4(code)) return false;
  if (code >= 0xDC00 && code <= 0xDFFF) return false;  // a low surrogate alone
  if (code >= 0xD800 && code <= 0xDBFF) {               // must pair with a low surrogate
    std::uint32_t low = 0;
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
    p_ += 2;
    if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
  }
  append_utf8(out, code);
  return true;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
