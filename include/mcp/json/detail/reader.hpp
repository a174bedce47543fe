// Reads one JSON text into an mcp::json, for messages from clients. It accepts exactly the texts
// nlohmann::json::parse accepts (RFC 8259, UTF-8 checked per RFC 3629, a leading byte-order mark
// skipped) and builds the same values (non-negative integers as number_unsigned, negative ones as
// number_integer, the rest as number_float; a repeated key keeps its last value), several times
// faster: it reads straight from the text, where nlohmann's lexer copies each character into a
// token buffer first. It also stops at a nesting depth, before any deep recursion happens.
// tests/fuzz/fuzz_json_reader.cpp checks it against nlohmann on arbitrary bytes.
//
// It is the SDK's only reader of text it did not write itself: messages, JSON held in string
// arguments (coercion), requestState, header values. One difference from nlohmann::json::parse is
// deliberate: nlohmann's lexer takes a NUL byte for the end of the input (a habit from C strings),
// so "[1]\0anything" reads as [1] with the rest dropped; here a NUL outside a string is invalid.
// nested_deeper_than() applies the same depth limit to a value built some other way, before a
// walk recurses into it.
//
// It reads over what the json it reads into holds (strings, arrays' items and objects' members
// of the same name read into where they are), so that a tree kept between reads of texts of one
// shape is not freed and allocated again node by node; the value read is the same either way
// (tests/unit/test_core.cpp and fuzz_json_reader read texts both ways).
#pragma once

#include <mcp/config.hpp>
#include <mcp/json/detail/block_scan.hpp>
#include <mcp/json/detail/utf8.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

enum class read_result { ok, invalid, too_deep };

// The negative int64 of `magnitude` (at most 2^63; 0 gives 0), written so that 2^63 gives the
// minimum without negating a value that does not fit.
constexpr std::int64_t negative_of(std::uint64_t magnitude) {
  return magnitude == 0 ? 0 : -static_cast<std::int64_t>(magnitude - 1) - 1;
}

// server_options::max_json_depth's default, and the limit of the helpers used without a server.
constexpr std::size_t default_max_json_depth = 128;

// Whether `value` has more than `levels` levels of arrays and objects (a scalar has none, [] one).
// Recurses at most `levels` deep, so it is safe on a value of any depth.
inline bool nested_deeper_than(const json& value, std::size_t levels) {
  if (!value.is_structured()) return false;
  if (levels == 0) return true;
  // Over the containers themselves: json's own iterator costs a switch on the type per step.
  if (value.is_object()) {
    for (const auto& member : value.get_ref<const json::object_t&>())
      if (member.second.is_structured() && nested_deeper_than(member.second, levels - 1)) return true;
  } else {
    for (const auto& item : value.get_ref<const json::array_t&>())
      if (item.is_structured() && nested_deeper_than(item, levels - 1)) return true;
  }
  return false;
}

class json_reader {
 public:
  json_reader(std::string_view text, std::size_t max_depth)
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth) {}

  // The whole text as one value. `open`: the levels already open around it (a string argument
  // holding JSON sits inside the message), so that the total stays within max_depth.
  read_result read(json& out, std::size_t open = 0) {
    skip_bom();
    skip_space();
    if (!value(out, open)) return too_deep_ ? read_result::too_deep : read_result::invalid;
    skip_space();
    return p_ == end_ ? read_result::ok : read_result::invalid;
  }

  // Piece by piece, for the reader of a message's envelope (core/message.hpp). Each skips the
  // white space before what it reads; `depth` counts the levels already open around a value.
  void skip_bom() {
    if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
  }
  // Whether the next character (after white space) is `c`, without taking it.
  bool peek(char c) {
    skip_space();
    return p_ < end_ && *p_ == c;
  }
  MCP_ALWAYS_INLINE bool consume(char c) {
    if (p_ < end_ && *p_ == c) {  // compact JSON, the usual case: no white space to skip
      ++p_;
      return true;
    }
    return consume_after_space(c);
  }
  // Takes the '{' of an object that is the `level`th level open, unless that is beyond max_depth.
  bool enter_object(std::size_t level) {
    if (level > max_depth_) {
      too_deep_ = true;
      return false;
    }
    return consume('{');
  }
  // A string as a view: of the text when it holds no escape and no byte beyond ASCII (the usual
  // member name), else of `scratch`, which then holds it decoded.
  bool read_string_view(std::string_view& out, std::string& scratch) {
    skip_space();
    if (p_ == end_ || *p_ != '"') return false;
    const char* start = p_ + 1;
    if (const char* q = plain_run_end(start, end_); q < end_ && *q == '"') {
      out = std::string_view(start, static_cast<std::size_t>(q - start));
      p_ = q + 1;
      return true;
    }
    scratch.clear();
    if (!string(scratch)) return false;
    out = scratch;
    return true;
  }
  // Takes the string `name` when the text spells it next as it is ('"' name '"'), which is exact
  // for a name plain_run_end covers whole: a reader that knows the key it expects tries it first.
  bool consume_plain(std::string_view name) {
    skip_space();
    const std::size_t n = name.size();
    if (static_cast<std::size_t>(end_ - p_) < n + 2 || p_[0] != '"' || p_[n + 1] != '"' ||
        std::memcmp(p_ + 1, name.data(), n) != 0)
      return false;
    p_ += n + 2;
    return true;
  }
  // The same for a name of at most eight bytes, compared as one word: `word` and `mask` hold its
  // bytes and 0xFF for each, as memcpy lays them out (typed_reader.hpp's text_plan). A call to
  // memcmp for three or four bytes cost more than the compare (the typed reader tries one name per
  // member).
  bool consume_plain(std::string_view name, std::uint64_t word, std::uint64_t mask) {
    skip_space();
    const std::size_t n = name.size();
    if (n > 8 || end_ - p_ < 10) return consume_plain(name);
    std::uint64_t text;
    std::memcpy(&text, p_ + 1, 8);
    if (p_[0] != '"' || ((text ^ word) & mask) != 0 || p_[n + 1] != '"') return false;
    p_ += n + 2;
    return true;
  }
  bool read_value(json& out, std::size_t depth) {
    skip_space();
    return value(out, depth);
  }
  bool at_end() {
    skip_space();
    return p_ == end_;
  }
  // Checks one value as read_value() would, building nothing: for a value kept as text and read
  // later (a tools/call's arguments, read by the tool's own type: validation/detail/typed_reader.hpp).
  bool skip_value(std::size_t depth) {
    skip_space();
    if (p_ < end_ && (*p_ == '{' || *p_ == '[')) {
      const char close = *p_ == '{' ? '}' : ']';
      if (depth + 1 > max_depth_) {
        too_deep_ = true;
        return false;
      }
      ++p_;
      if (consume(close)) return true;
      do {
        if (close == '}') {
          skip_space();
          if (p_ == end_ || *p_ != '"' || !skip_string() || !consume(':')) return false;
        }
        if (!skip_value(depth + 1)) return false;
      } while (consume(','));
      return consume(close);
    }
    if (p_ < end_ && *p_ == '"') return skip_string();
    json scalar;  // a number to convert or a literal: no allocation
    if (p_ < end_ && (*p_ == '-' || is_digit(*p_))) {
      const number_token t = scan_number();
      if (t.fits) {  // every integer below 2^64 reads (as an integer, or beyond int64 as a double)
        p_ = t.end;
        return true;
      }
      return number(t, scalar);
    }
    return value(scalar, depth);
  }
  // Finds where the array or object at the reader ends by its brackets and strings alone, checking
  // nothing else: for a value whose full check is left to the thread that reads it later (a
  // tools/call's arguments on stdio's shared road, core/message.hpp). Where skip_value accepts the
  // value, this accepts it and ends where skip_value ends; false when the brackets do not close,
  // or open deeper than max_depth (the caller then runs skip_value for its exact answer). Where it
  // accepts what skip_value refuses, skip_value refuses it as invalid, never as too deep: up to
  // skip_value's first error both see the same strings and brackets (fuzz_json_reader). Blocks
  // of 64 bytes are taken whole where they can be; it answers as a loop over the bytes does, on
  // every text (tests/unit/test_core.cpp).
  bool skip_brackets(std::size_t depth) {
    skip_space();
    if (p_ == end_ || (*p_ != '{' && *p_ != '[')) return false;
    std::size_t level = 0;
    bool in_string = false;  // q is inside a string's contents
    for (const char* q = p_; q < end_;) {
      // A block without backslashes is taken whole, from its masks, where its brackets can neither
      // close the value nor pass the depth limit: its quotes alone then say which of its brackets
      // are outside strings.
      if (level > 0 && static_cast<std::size_t>(end_ - q) >= block_size) {
        const block_masks m = block_masks_of(q);
        if (!m.backslash) {
          const std::uint64_t inside = prefix_xor(m.quote) ^ (in_string ? ~std::uint64_t{0} : 0);
          const unsigned opens = popcount64(m.open & ~inside), closes = popcount64(m.close & ~inside);
          if (level > closes && depth + level + opens <= max_depth_) {
            level = level + opens - closes;
            in_string = inside >> 63;
            q += block_size;
            continue;
          }
        }
      }
      // Else byte by byte, to the end of the block or of the string that crosses it.
      for (const char* stop = q + std::min(block_size, static_cast<std::size_t>(end_ - q)); q < stop;) {
        if (in_string) {
          q = string_end(q);
          if (!q) return false;
          in_string = false;
          continue;
        }
        const char c = *q++;
        if (c == '"') {
          in_string = true;
        } else if (c == '{' || c == '[') {
          if (depth + ++level > max_depth_) return false;
        } else if ((c == '}' || c == ']') && --level == 0) {
          p_ = q;
          return true;
        }
      }
    }
    return false;
  }
  // One value that is not an array or object (false for those, and for what is not JSON).
  bool read_scalar(json& out) {
    skip_space();
    if (p_ == end_ || *p_ == '{' || *p_ == '[') return false;
    return value(out, 0);
  }
  // An integer that read_value() would read as one (below 2^64, not below -2^63), by its sign and
  // magnitude, without making a json (-0 is 0, as there); else false, and the reader stays where it was.
  bool read_integer(bool& negative, std::uint64_t& magnitude) {
    skip_space();
    if (p_ == end_ || !(*p_ == '-' || is_digit(*p_))) return false;
    const number_token t = scan_number();
    if (!t.fits || (t.negative && t.magnitude > int64_min_magnitude)) return false;
    p_ = t.end;
    negative = t.negative && t.magnitude != 0;
    magnitude = t.magnitude;
    return true;
  }
  // A string into `out` (replacing what it held, keeping its capacity).
  bool read_string(std::string& out) {
    skip_space();
    if (p_ == end_ || *p_ != '"') return false;
    out.clear();
    return string(out);
  }
  std::size_t max_depth() const { return max_depth_; }
  // The next character after white space, or '\0' at the end.
  char next() {
    skip_space();
    return p_ < end_ ? *p_ : '\0';
  }
  // Where the reader is in the text.
  const char* position() const { return p_; }
  // The text from there to the end, and a step past `n` bytes of it that another reader took.
  std::string_view remaining() const { return std::string_view(p_, static_cast<std::size_t>(end_ - p_)); }
  void skip(std::size_t n) { p_ += n; }
  // After a failed read: whether it failed for nesting deeper than max_depth (else: not JSON).
  bool too_deep() const { return too_deep_; }

 private:
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  static constexpr std::uint64_t int64_min_magnitude = std::uint64_t{1} << 63;

  // One number token at the reader, scanned once against JSON's grammar
  // (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), an integer's magnitude taken on the way.
  struct number_token {
    const char* end = nullptr;    // past the token; null when the text there is not a number
    bool negative = false;
    bool fits = false;            // an integer (no fraction, no exponent) below 2^64
    std::uint64_t magnitude = 0;  // when it fits
  };
  number_token scan_number() const {
    number_token t;
    const char* q = p_;
    t.negative = q < end_ && *q == '-';
    if (t.negative) ++q;
    if (q == end_ || !is_digit(*q)) return t;
    const char* digits = q;
    std::uint64_t m = 0;
    if (*q == '0')
      ++q;
    else
      for (; q < end_ && is_digit(*q); ++q) m = m * 10 + static_cast<std::uint64_t>(*q - '0');  // wraps past 19 digits
    bool integer = true;
    if (q < end_ && *q == '.') {
      ++q;
      if (q == end_ || !is_digit(*q)) return t;
      while (q < end_ && is_digit(*q)) ++q;
      integer = false;
    }
    if (q < end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q < end_ && (*q == '+' || *q == '-')) ++q;
      if (q == end_ || !is_digit(*q)) return t;
      while (q < end_ && is_digit(*q)) ++q;
      integer = false;
    }
    t.end = q;
    if (!integer) return t;
    const auto count = q - digits;
    if (count == 20) {  // 2^64 has 20 digits: those at most 18446744073709551615 fit
      constexpr std::string_view most = "18446744073709551615";
      t.fits = std::string_view(digits, 20) <= most;
    } else {
      t.fits = count < 20;
    }
    if (t.fits) t.magnitude = m;
    return t;
  }

  // Out of line, so that consume() stays small where it is called once per token.
  bool consume_after_space(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool value(json& out, std::size_t depth);

  bool literal(std::string_view word, json value, json& out);

  bool object(json& out, std::size_t depth);

  // members.find(key), by a scan where the object is small (as most are): the map's own search
  // compares the bytes at every step, the scan only where the lengths are equal.
  static json::object_t::iterator find_member(json::object_t& members, std::string_view key) {
    if (members.size() > 8) return members.find(key);
    for (auto it = members.begin(); it != members.end(); ++it)
      if (std::string_view(it->first) == key) return it;
    return members.end();
  }

  // After an object read over: erases the members not in named_[mark..] (each member read, a
  // repeated one as often as the text names it), and drops those entries.
  void erase_unnamed(json::object_t& members, std::size_t mark) {
    const auto first = named_.begin() + static_cast<std::ptrdiff_t>(mark);
    std::sort(first, named_.end());
    const auto named_end = std::unique(first, named_.end());
    if (static_cast<std::size_t>(named_end - first) != members.size()) {
      for (auto it = members.begin(); it != members.end();)
        it = std::binary_search(first, named_end, static_cast<const void*>(&*it)) ? std::next(it) : members.erase(it);
    }
    named_.resize(mark);
  }

  bool array(json& out, std::size_t depth);

  bool number(json& out) { return number(scan_number(), out); }

  // The number token `t` scanned at the reader, converted as nlohmann does.
  bool number(const number_token& t, json& out);

  // Past the closing quote of the string whose contents start at q, by its quotes and backslashes
  // alone (eight bytes at a time); null when it does not close.
  const char* string_end(const char* q) const {
    constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    for (;;) {
      for (; end_ - q >= 8; q += 8) {
        std::uint64_t word;
        std::memcpy(&word, q, 8);
        const std::uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
        // Whether any of the eight is '"' or '\\': a zero byte in the word xor-ed with either.
        if (((quote - ones) & ~quote & highs) | ((backslash - ones) & ~backslash & highs)) break;
      }
      while (q < end_ && *q != '"' && *q != '\\') ++q;
      if (q == end_) return nullptr;
      if (*q == '"') return q + 1;
      if (end_ - q < 2) return nullptr;
      q += 2;  // an escape: the byte after the backslash is not a quote that ends the string
    }
  }

  bool skip_string() {
    // The usual string: ASCII without escapes, scanned in place; anything else is read and dropped.
    if (const char* q = plain_run_end(p_ + 1, end_); q < end_ && *q == '"') {
      p_ = q + 1;
      return true;
    }
    scratch_.clear();
    return string(scratch_);
  }

  bool string(std::string& out);

  bool escape(std::string& out);

  bool hex4(std::uint32_t& code) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = *p_++;
      std::uint32_t v;
      if (h >= '0' && h <= '9') v = static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') v = static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v = static_cast<std::uint32_t>(h - 'A' + 10);
      else return false;
      code = code * 16 + v;
    }
    return true;
  }

  static void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  const char* p_;
  const char* end_;
  std::size_t max_depth_;
  bool too_deep_ = false;
  std::string scratch_;      // skip_string's
  std::string key_scratch_;  // object's, for a member name with an escape or a byte beyond ASCII
  std::vector<const void*> named_;  // the members of the objects being read over, named so far
};

// One JSON text into `out`; `out` is unspecified unless the result is ok. `open` levels already
// enclose it (see json_reader::read). `out` may hold an earlier value: the text's value replaces it
// and reuses its storage (a kept tree read over again allocates only where it grows).
inline read_result read_json(std::string_view text, json& out, std::size_t max_depth, std::size_t open = 0) {
  return json_reader(text, max_depth).read(out, open);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/json/impl/reader.ipp>
#endif
