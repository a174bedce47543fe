// Out-of-line bodies of json/detail/writer.hpp, included once from its bottom (or compiled into
// the library in compiled mode, where a file that encodes a typed result calls them there instead
// of compiling them, and nlohmann's serializer behind them, again).
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

using namespace std::string_view_literals;

MCP_DECL bool write_double_as_grisu2(double x, text_out& out) {
  // 128-bit integers (GCC, Clang) and std::to_chars for doubles (not in every libc++): elsewhere
  // every double goes to dump().
#if defined(__SIZEOF_INT128__) && defined(__cpp_lib_to_chars)
  using u128 = unsigned __int128;
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const int s = 1075 - biased;  // |x| = M * 2^-s
  if (biased == 0 || s < 1 || s > 64) return false;
  const std::uint64_t M = fraction | (std::uint64_t{1} << 52);
  char digits[32];
  int k = 0, j = 0;  // the shortest decimal is d / 10^j, its k digits in `digits`
  std::uint64_t d = 0;
  if (short_decimal(std::fabs(x), d, j)) {
    k = static_cast<int>(std::to_chars(digits, digits + sizeof digits, d).ptr - digits);
  } else {
    char sci[32];  // d.ddde-XX
    const auto r = std::to_chars(sci, sci + sizeof sci, std::fabs(x), std::chars_format::scientific);
    if (r.ec != std::errc()) return false;
    const char* p = sci;
    for (; p < r.ptr && *p != 'e'; ++p)
      if (*p != '.') d = d * 10 + static_cast<std::uint64_t>(digits[k++] = *p) - '0';
    if (p == r.ptr) return false;
    int e10 = 0;
    const bool negative_exponent = *++p == '-';
    for (++p; p < r.ptr; ++p) e10 = e10 * 10 + (*p - '0');
    if (negative_exponent) e10 = -e10;
    j = (k - 1) - e10;
  }
  if (j < 1 || j > 19) return false;
  std::uint64_t ten_j = 1;
  for (int i = 0; i < j; ++i) ten_j *= 10;
  // d / 10^j - M / 2^s, over the common denominator 10^j * 2^s.
  const u128 a = static_cast<u128>(d) << s, b = static_cast<u128>(M) * ten_j;
  const u128 distance = a > b ? a - b : b - a;
  // Half the interval is 10^j / 2 in those units; half the spacing of j-place decimals is 2^s / 2.
  const u128 unit = std::min<u128>(ten_j, u128{1} << s);
  // A power of two (0.5, 0.25) has a narrower interval below it than above, which the margin does
  // not allow for: it is written here only when the shortest decimal is the value itself, as
  // Grisu2's is then too (nothing as short lies in its interval, and of that length the value is
  // nearest itself).
  if (fraction == 0 ? distance != 0 : distance >= (unit >> 1) - (unit >> 6)) return false;
  // In nlohmann's fixed notation, which it uses while the point is -4 < n <= 15 places from the
  // digits' left ("12.25", "0.0025"); its exponent form (a double of 10^15 or more with a fraction)
  // is left to dump().
  const int n = k - j;
  if (n > 15 || n <= -4) return false;
  char* w = out.room(static_cast<std::size_t>(k) + 6);  // sign, "0.", up to three zeros, the digits
  if (std::signbit(x)) *w++ = '-';
  if (n > 0) {
    std::memcpy(w, digits, static_cast<std::size_t>(n));
    w += n;
    *w++ = '.';
    std::memcpy(w, digits + n, static_cast<std::size_t>(k - n));
    w += k - n;
  } else {
    *w++ = '0';
    *w++ = '.';
    for (int z = 0; z < -n; ++z) *w++ = '0';
    std::memcpy(w, digits, static_cast<std::size_t>(k));
    w += k;
  }
  out.commit(w);
  return true;
#else
  (void)x;
  (void)out;
  return false;
#endif
}

MCP_DECL void write_json_double(double x, text_out& out) {
  if (!std::isfinite(x)) {
    out.put("null"sv);
    return;
  }
  // Whole numbers of up to 15 digits come out as the integer and ".0", as nlohmann writes them,
  // without digit generation (tool results are often such numbers); zero keeps its sign.
  if (x == 0) {
    out.put(std::signbit(x) ? "-0.0"sv : "0.0"sv);
    return;
  }
  if (std::fabs(x) < 1e15 && static_cast<double>(static_cast<std::int64_t>(x)) == x) {
    write_json_integer(static_cast<std::int64_t>(x), out);
    out.put(".0"sv);
    return;
  }
  if (write_double_as_grisu2(x, out)) return;
  // The rest in nlohmann's form through its public API only (#26: no calls into another library's
  // detail namespace): its Grisu2 text is not always the shortest (std::to_chars's shortest text
  // differs from it for about 1 double in 700), so dump() itself writes what it would write.
  out.put(json(x).dump());
}

MCP_DECL void write_json_string(std::string_view s, text_out& out) {
  const char* const end = s.data() + s.size();
  const char* const first_special = plain_run_end(s.data(), end);
  char* d = out.room(s.size() + 2);
  *d++ = '"';
  if (first_special == end) {
    text_out::copy(d, s.data(), s.size());
    d += s.size();
    *d++ = '"';
    out.commit(d);
    return;
  }
  const std::size_t start = out.size();  // where the quote was written
  const char* p = s.data();
  while (p < end) {
    const char* run = p;
    p = run == s.data() ? first_special : plain_run_end(p, end);  // the first run is known
    std::memcpy(d, run, static_cast<std::size_t>(p - run));
    d += p - run;
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(p, static_cast<std::size_t>(end - p));
      if (n == 0) {  // invalid UTF-8 (rare: our own strings are valid): nlohmann decides what replaces it
        out.truncate(start);
        out.put(json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace));
        return;
      }
      std::memcpy(d, p, n);
      d += n;
      p += n;
      continue;
    }
    ++p;
    out.commit(d);
    d = out.room(static_cast<std::size_t>(end - p) + 7);  // the rest, this escape (up to 6) and the quote
    *d++ = '\\';
    switch (c) {
      case '"': *d++ = '"'; break;
      case '\\': *d++ = '\\'; break;
      case '\b': *d++ = 'b'; break;
      case '\f': *d++ = 'f'; break;
      case '\n': *d++ = 'n'; break;
      case '\r': *d++ = 'r'; break;
      case '\t': *d++ = 't'; break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const char escaped[5] = {'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
        std::memcpy(d, escaped, sizeof escaped);
        d += sizeof escaped;
      }
    }
  }
  *d++ = '"';
  out.commit(d);
}

MCP_DECL void write_compact_json_as_string(std::string_view text, text_out& out,
                                           escape_blocks::road road) {
  assert(std::none_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }));
  char* d = out.room(2 * text.size() + 2 + 16);  // every byte escaped, the quotes and the slack
  const char* p = text.data();
  const char* const end = p + text.size();
  *d++ = '"';
  if (road == escape_blocks::road::widest) escape_blocks::sixteens(p, end, d);
  if (road != escape_blocks::road::bytes) escape_blocks::words(p, end, d);
  for (; p < end; ++p) {
    *d = '\\';
    d += *p == '"' || *p == '\\';
    *d++ = *p;
  }
  *d++ = '"';
  out.commit(d);
}

MCP_DECL void expand_raw_json(json& v) {
  if (v.is_object()) {
    for (auto& item : v.get_ref<json::object_t&>()) expand_raw_json(item.second);
  } else if (v.is_array()) {
    for (auto& item : v.get_ref<json::array_t&>()) expand_raw_json(item);
  } else if (is_raw_json(v)) {
    json value;
    // Our own text, of a value the server built: no depth to fear, yet the reader wants a bound.
    if (read_json(raw_json_text(v), value, static_cast<std::size_t>(-1)) != read_result::ok)
      throw std::logic_error("mcp: raw JSON text that does not parse");
    v = std::move(value);
  }
}

MCP_DECL void json_writer::value(const json& v) {
  if (out_.size() > stop_after_) return;
  switch (v.type()) {
    case json::value_t::null: out_.put("null"sv); return;
    case json::value_t::boolean: out_.put(v.get<bool>() ? "true"sv : "false"sv); return;
    case json::value_t::number_integer: write_json_integer(v.get<std::int64_t>(), out_); return;
    case json::value_t::number_unsigned: write_json_integer(v.get<std::uint64_t>(), out_); return;
    case json::value_t::number_float: write_json_double(v.get<double>(), out_); return;
    case json::value_t::string: string(v.get_ref<const std::string&>()); return;
    case json::value_t::array: {
      out_.put('[');
      bool first = true;
      for (const auto& item : v.get_ref<const json::array_t&>()) {
        if (out_.size() > stop_after_) return;
        if (!first) out_.put(',');
        first = false;
        value(item);
      }
      out_.put(']');
      return;
    }
    case json::value_t::object: {
      out_.put('{');
      bool first = true;
      for (const auto& [key, item] : v.get_ref<const json::object_t&>()) {
        if (out_.size() > stop_after_) return;
        if (!first) out_.put(',');
        first = false;
        string(key);
        out_.put(':');
        value(item);
      }
      out_.put('}');
      return;
    }
    case json::value_t::binary:
      if (is_raw_json(v)) {
        out_.put(raw_json_text(v));
        return;
      }
      out_.put(v.dump(-1, ' ', false, json::error_handler_t::replace));
      return;
    default:  // other binary and discarded values never travel in MCP messages; nlohmann knows their form
      out_.put(v.dump(-1, ' ', false, json::error_handler_t::replace));
      return;
  }
}

MCP_DECL void json_writer::string(std::string_view s) {
  if (stop_after_ != unlimited) {
    std::size_t cut = stop_after_ - out_.size() + 1;  // value() checked out_.size() <= stop_after_
    if (cut < s.size()) {
      while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
      s = s.substr(0, cut);
    }
  }
  write_json_string(s, out_);
}

MCP_DECL std::string render(const json& value, std::size_t limit) {
  std::string text;
  json_writer(text, limit).value(value);
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  text += value.is_string() ? "...\"" : "...";
  return text;
}

MCP_DECL std::string describe_value(const json& value) {
  if (value.is_null()) return "null";
  return std::string(json_type_name(value)) + " " + render(value);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
