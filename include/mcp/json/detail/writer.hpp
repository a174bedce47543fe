// Writes an mcp::json as compact JSON text, for every message the server sends. The bytes are
// exactly those of json::dump(-1, ' ', false, json::error_handler_t::replace), written faster:
// runs of plain characters are appended whole, where nlohmann's serializer steps through a UTF-8
// decoder byte by byte. A string holding invalid UTF-8 (rare: our own strings are valid) is
// handed to nlohmann, so its replacement characters come out the same. The unit tests and
// tests/fuzz/fuzz_json_reader.cpp compare the two.
//
// One addition to nlohmann's form: a tree may hold JSON text the server wrote itself (a
// raw_json node), which the writer copies as it is. That is how an object keeps the order
// of its members, which a json object cannot (it sorts them): a typed tool's structuredContent
// and a derived schema's properties travel in declaration order on every road to the wire.
#pragma once

#include <mcp/config.hpp>
#include <mcp/json/detail/block_scan.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/text_out.hpp>
#include <mcp/json/detail/utf8.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace mcp {
inline namespace v0 {
namespace detail {

using namespace std::string_view_literals;  // literals appended without strlen

// Every writer below takes a text_out (text_out.hpp); the std::string overloads open one for a
// single value.

template <class Int>
void write_json_integer(Int i, text_out& out) {
  constexpr std::size_t longest = 20;  // an int64's minimum, or a uint64's maximum
  char* d = out.room(longest);
  out.commit(std::to_chars(d, d + longest, i).ptr);
}
template <class Int>
void write_json_integer(Int i, std::string& out) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, i).ptr;
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

// The shortest decimal of a positive double with at most `max_places` decimal places (249.75,
// 0.1), found without std::to_chars, which took about 800 instructions a double (list at
// N = 10,000: 15% of the server's). For the fewest places j whose nearest j-place decimal m / 10^j
// reads back as x, that decimal is the shortest and, of that length, the nearest: no shorter one
// was found at fewer places. m is exact: while x * 10^j < 2^50, the product's rounding error and
// x's distance from any decimal that reads back as x are each under 1/8, so rounding it gives that
// decimal's m; and m / 10^j, two exact doubles divided, rounds as a reader rounds the decimal.
// x rounded to a whole number, ties to even, as nearbyint rounds it in the default rounding mode,
// for 0 <= x < 2^52: x + 2^52 has no bits left for a fraction, so the sum is rounded. Baseline
// x86-64 has no instruction for nearbyint, and the call into libm cost more than the rest of a
// step. (Under -ffast-math the compiler may fold the two operations away: there, nearbyint.)
inline double round_below_2_52(double x) {
#if defined(__FAST_MATH__)
  return std::nearbyint(x);
#else
  constexpr double two_52 = 4503599627370496.0;
  return (x + two_52) - two_52;
#endif
}

inline bool short_decimal(double x, std::uint64_t& m, int& places) {
  constexpr int max_places = 6;
  constexpr double limit = 1125899906842624.0;  // 2^50
  if (!(x < limit) || round_below_2_52(x) == x) return false;  // a whole number: no places to find
  double scale = 1;
  for (int j = 1; j <= max_places; ++j) {
    scale *= 10;
    const double scaled = x * scale;
    if (!(scaled < limit)) return false;
    const double nearest = round_below_2_52(scaled);
    if (nearest != 0 && nearest / scale == x) {
      m = static_cast<std::uint64_t>(nearest);
      places = j;
      return true;
    }
  }
  return false;
}

// nlohmann writes a double with Grisu2, whose digits are those of the shortest decimal in a
// slightly narrowed rounding interval, the one nearest the value among those of that length.
// std::to_chars gives the shortest in the whole interval, nearest the value: the same digits
// unless that decimal sits within Grisu2's narrowing (a few 2^-64 of the value) of the interval's
// edge, or is nearly as far from the value as the next decimal of its length. Both are ruled out
// here, with a margin of 1/32 of a half interval, in exact 128-bit arithmetic. The rest returns
// false and goes to dump(): doubles outside 2^-12 .. 10^15, and about 3 in 100 of those inside
// (measured on doubles uniform in 0 .. 10^6). Worth it because dump() costs a
// serializer each time (an allocation, a shared_ptr, localeconv()): a list of 100 records with one
// fractional double each was served 20% faster. tests/unit/test_core.cpp compares the two on
// hundreds of thousands of doubles, the rounding edges' neighbours included.
bool write_double_as_grisu2(double x, text_out& out);

inline bool write_double_as_grisu2(double x, std::string& out) {
  text_out t(out);
  return write_double_as_grisu2(x, t);
}

void write_json_double(double x, text_out& out);
inline void write_json_double(double x, std::string& out) {
  text_out t(out);
  write_json_double(x, t);
}


// A string as a JSON string literal. A string with nothing to escape (most names, ids, emails) is
// copied as it is, between quotes. Otherwise room is kept at least as large as the rest of the
// input and the closing quote: a run of plain characters (found eight bytes at a time) is one
// memcpy, and only an escape, which writes more than it reads, may have to make more room.
void write_json_string(std::string_view s, text_out& out);
inline void write_json_string(std::string_view s, std::string& out) {
  text_out t(out);
  write_json_string(s, t);
}

// A compact JSON text this library wrote (write_json, write_encoded: valid UTF-8, no byte below 0x20)
// as a JSON string literal: write_json_string's bytes for such a text, with only '"' and '\\' to
// escape. A text block that repeats the structured content has a quote every few bytes, where
// write_json_string's runs are short; this takes a block at a time whatever it holds: it stores
// the block, then for each escape in it a backslash and the block's rest once more, one place on.
// Sixteen bytes at a time where SSE2 is there (every x86-64 target), else eight (the roads below;
// tests/unit/test_core.cpp holds each to write_json_string's bytes). The rest of a block is stored
// whole, so the buffer has 16 bytes of slack past what is kept.
namespace escape_blocks {

enum class road { widest, words, bytes };  // widest: SSE2 where there, else words

// Each takes whole blocks of [p, end) to d, escaped, while at least a block and what it may read
// past it are left, and moves p and d past what it took.
inline void words(const char*& p, const char* end, char*& d) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  constexpr std::uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
  const auto zero_bytes = [](std::uint64_t w) { return ~(((w & low7) + low7) | w | low7); };  // 0x80 where 0, exact
  for (; end - p >= 8; p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    std::uint64_t escaped = zero_bytes(word ^ (ones * '"')) | zero_bytes(word ^ (ones * '\\'));
    std::memcpy(d, &word, 8);
    while (escaped != 0) {  // lowest escape first; d moves one place on for each
      const unsigned shift = static_cast<unsigned>(__builtin_ctzll(escaped)) - 7;  // 8 x the byte's index
      escaped &= escaped - 1;
      d[shift / 8] = '\\';
      ++d;
      const std::uint64_t rest = word >> shift;
      std::memcpy(d + shift / 8, &rest, 8);
    }
    d += 8;
  }
#else
  (void)p, (void)end, (void)d;
#endif
}

inline void sixteens(const char*& p, const char* end, char*& d) {
#ifdef MCP_DETAIL_BLOCK_SCAN_SSE2
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  // A block's rest is read again from where an escape is: 16 bytes past the block must be there.
  for (; end - p >= 32; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    unsigned escaped = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), v);
    while (escaped != 0) {  // lowest escape first; d moves one place on for each
      const unsigned i = static_cast<unsigned>(__builtin_ctz(escaped));
      escaped &= escaped - 1;
      d[i] = '\\';
      ++d;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    }
    d += 16;
  }
#else
  (void)p, (void)end, (void)d;
#endif
}

}  // namespace escape_blocks

void write_compact_json_as_string(std::string_view text, text_out& out,
                                  escape_blocks::road road = escape_blocks::road::widest);
inline void write_compact_json_as_string(std::string_view text, std::string& out,
                                         escape_blocks::road road = escape_blocks::road::widest) {
  text_out t(out);
  write_compact_json_as_string(text, t, road);
}

// --- raw JSON text ---------------------------------------------------------------------
// A binary value of this subtype holds JSON text. Received text never makes a binary value (the
// readers have no syntax for one), so every such node is the server's own, written by
// write_encoded or from an ordered schema: valid, compact JSON text of one value.
inline constexpr std::uint8_t raw_json_subtype = 0x4A;  // 'J'

inline json raw_json(std::string_view text) {
  return json::binary(json::binary_t::container_type(text.begin(), text.end()), raw_json_subtype);
}

inline bool is_raw_json(const json& v) {
  return v.is_binary() && v.get_binary().has_subtype() && v.get_binary().subtype() == raw_json_subtype;
}

inline std::string_view raw_json_text(const json& v) {
  const auto& bytes = v.get_binary();
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Replaces every raw JSON node of `v` by the value its text holds: the plain tree that code
// outside the SDK's writer gets (outbound::send_result's default, a user's transport).
void expand_raw_json(json& v);

class json_writer {
 public:
  explicit json_writer(text_out& out) : out_(out) {}
  explicit json_writer(std::string& out) : own_(std::in_place, out), out_(*own_) {}
  // A prefix mode, for messages that show a value: stops once `out` holds more than `stop_after`
  // bytes, so the first stop_after + 1 bytes are those of the whole text. Every level writes a
  // bracket before going in, so it never recurses deeper than stop_after levels, whatever the value.
  json_writer(std::string& out, std::size_t stop_after) : own_(std::in_place, out), out_(*own_), stop_after_(stop_after) {}

  void value(const json& v);

 private:
  static constexpr std::size_t unlimited = static_cast<std::size_t>(-1);

  // In the prefix mode only as much of a long string as can show, cut after a whole character.
  void string(std::string_view s);

  std::optional<text_out> own_;  // when given a string
  text_out& out_;
  std::size_t stop_after_ = unlimited;
};

// Appends the compact JSON text of `v` to `out`.
inline void write_json(const json& v, text_out& out) { json_writer(out).value(v); }
inline void write_json(const json& v, std::string& out) {
  // A message's id, say, is appended as it is: a cursor pays for itself over longer texts.
  switch (v.type()) {
    case json::value_t::null: out += "null"sv; return;
    case json::value_t::boolean: out += v.get<bool>() ? "true"sv : "false"sv; return;
    case json::value_t::number_integer: return write_json_integer(v.get<std::int64_t>(), out);
    case json::value_t::number_unsigned: return write_json_integer(v.get<std::uint64_t>(), out);
    default: json_writer(out).value(v);
  }
}

// Appends what write_json(jsonrpc::response(id, result), out) would, without building that message
// (keys in the order a json object keeps them: sorted).
inline void write_response(const json& id, const json& result, std::string& out) {
  out += "{\"id\":"sv;
  write_json(id, out);
  out += ",\"jsonrpc\":\"2.0\",\"result\":"sv;
  write_json(result, out);
  out += '}';
}

// The same around a result already written as JSON text.
inline void write_response_text(const json& id, std::string_view result, std::string& out) {
  out += "{\"id\":"sv;
  write_json(id, out);
  out += ",\"jsonrpc\":\"2.0\",\"result\":"sv;
  out += result;
  out += '}';
}

// The per-thread buffers that answers are written into keep their capacity from one answer to the
// next, up to this; one grown beyond it is let go, so that a rare huge answer leaves no huge buffer
// with its thread. At 1 MiB, lists of 10,000 records (about 2 MB of text) grew their buffers anew
// on every call: 4 MiB served them 7% faster, at a lower peak memory (tests/bench/results/history.md).
inline constexpr std::size_t kept_buffer_limit = std::size_t{4} << 20;

inline void let_go_if_huge(std::string& buffer) {
  if (buffer.capacity() > kept_buffer_limit) std::string().swap(buffer);
}

// A string that hands its capacity on to the next one on this thread: text written for every
// request costs no allocation once the buffer has grown. Nesting is safe: an inner one starts
// without the capacity and the outer one keeps its own.
class reused_string {
 public:
  reused_string() { value.swap(spare()); }
  ~reused_string() {
    if (value.capacity() > kept_buffer_limit) return;  // let go with `value`
    value.clear();
    spare().swap(value);
  }
  reused_string(const reused_string&) = delete;
  reused_string& operator=(const reused_string&) = delete;

  std::string value;

 private:
  static std::string& spare() {
    thread_local std::string kept;
    return kept;
  }
};

// The compact JSON text of `v`, as json::dump(-1, ' ', false, error_handler_t::replace) gives it.
inline std::string to_json_text(const json& v) {
  std::string out;
  write_json(v, out);
  return out;
}

// A value as a message shows it: compact JSON, cut to about `limit` bytes on a character boundary
// with "..." after the cut. Never throws, even on bad UTF-8, and costs about `limit` bytes of
// writing and levels of recursion however large or deep the value (a received one may be both).
std::string render(const json& value, std::size_t limit = 60);

// The JSON type of a value as JSON Schema names it ("number" for integers too).
inline const char* json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "number";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return "binary";
  }
}

// "number 5", "string \"ab\"", "array [1,2]", "null": how a received value reads in a message (the
// SDK's one way: validation problems, decode errors, the coercion log).
std::string describe_value(const json& value);

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/json/impl/writer.ipp>
#endif
