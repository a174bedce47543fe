// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. The same rule
// nlohmann::json applies, so what we accept and what it would accept never differ. And the scan for
// the bytes a JSON string must escape or check, which the reader and the writer share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

// The length of the well-formed sequence at p (of at most `left` bytes, left >= 1), or 0.
inline std::size_t utf8_sequence_length(const char* p, std::size_t left) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(p[i]); };
  const auto in = [](unsigned char c, unsigned char lo, unsigned char hi) { return c >= lo && c <= hi; };
  const unsigned char c = at(0);
  if (c < 0x80) return 1;
  if (in(c, 0xC2, 0xDF)) return left >= 2 && in(at(1), 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    if (left < 3) return 0;
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return in(at(1), lo, hi) && in(at(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    if (left < 4) return 0;
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return in(at(1), lo, hi) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// The index of the first byte of `word` (eight bytes read from memory) that a JSON string cannot hold
// as it is: below 0x20, '"', '\\' or 0x80 and above (the start of a character that is checked); 8
// when there is none. The subtractions set a byte's high bit when it is such a byte, and borrow
// only out of such a byte, so the lowest flagged byte is always the first true one.
inline unsigned first_special_byte(std::uint64_t word) {
  constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  const std::uint64_t flags =
      ((word - ones * 0x20) | ((word ^ (ones * '"')) - ones) | ((word ^ (ones * '\\')) - ones) | word) & highs;
  if (flags == 0) return 8;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return static_cast<unsigned>(__builtin_ctzll(flags)) / 8;
#else
  unsigned i = 0;
  unsigned char bytes[8];
  std::memcpy(bytes, &word, 8);
  while (bytes[i] >= 0x20 && bytes[i] != '"' && bytes[i] != '\\' && bytes[i] < 0x80) ++i;
  return i;
#endif
}

// Whether a JSON string holds the byte as it is (see first_special_byte), looked up: a run's last
// few bytes are tested one at a time, and four compares a byte cost more than the run's words.
struct plain_byte_table {
  bool is[256] = {};
  constexpr plain_byte_table() {
    for (int c = 0x20; c < 0x80; ++c) is[c] = c != '"' && c != '\\';
  }
};
inline constexpr plain_byte_table plain_bytes{};

// The end of the run of bytes from p that a JSON string holds as they are (see first_special_byte):
// the reader's and the writer's scan, eight bytes at a time.
inline const char* plain_run_end(const char* p, const char* end) {
  for (; end - p >= 8; p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    if (const unsigned i = first_special_byte(word); i < 8) return p + i;
  }
  while (p < end && plain_bytes.is[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// Characters (Unicode code points) in `s`, as JSON Schema's minLength/maxLength count them: the
// bytes that do not continue a sequence. A byte of invalid UTF-8 counts as one character.
inline std::size_t count_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

inline bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s.data() + i, s.size() - i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
