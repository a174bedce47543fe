// Where a block of 64 bytes of JSON text has its quotes, backslashes and brackets, one bit per byte:
// json_reader::skip_brackets takes a block whole from these masks instead of byte by byte (a
// tools/call's arguments delimited on stdio's reading thread: an order of 1,000 items, 70 KB, went
// from about 70 to 20 us; tests/bench/results/history.md). SSE2 where the compiler has it (every x86-64
// target), else a loop over the bytes; tests/unit/test_core.cpp holds the two to the same masks.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define MCP_DETAIL_BLOCK_SCAN_SSE2 1
#endif

namespace mcp {
inline namespace v0 {
namespace detail {

struct block_masks {
  std::uint64_t quote = 0, backslash = 0;
  std::uint64_t open = 0;   // '{' and '['
  std::uint64_t close = 0;  // '}' and ']'
};

constexpr std::size_t block_size = 64;

// The masks of the 64 bytes at q, one byte at a time.
inline block_masks block_masks_bytewise(const char* q) {
  block_masks m;
  for (unsigned i = 0; i < block_size; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    switch (q[i]) {
      case '"': m.quote |= bit; break;
      case '\\': m.backslash |= bit; break;
      case '{': case '[': m.open |= bit; break;
      case '}': case ']': m.close |= bit; break;
      default: break;
    }
  }
  return m;
}

// The same, sixteen bytes at a time where SSE2 is there.
inline block_masks block_masks_of(const char* q) {
#ifdef MCP_DETAIL_BLOCK_SCAN_SSE2
  block_masks m;
  // '[' and ']' differ from '{' and '}' only in bit 0x20: with it set, one compare finds both.
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), bit5 = _mm_set1_epi8(0x20),
                open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16 * i));
    const __m128i folded = _mm_or_si128(v, bit5);
    const auto mask = [&](__m128i eq) {
      return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(eq))) << (16 * i);
    };
    m.quote |= mask(_mm_cmpeq_epi8(v, quote));
    m.backslash |= mask(_mm_cmpeq_epi8(v, backslash));
    m.open |= mask(_mm_cmpeq_epi8(folded, open));
    m.close |= mask(_mm_cmpeq_epi8(folded, close));
  }
  return m;
#else
  return block_masks_bytewise(q);
#endif
}

// Bit i set when an odd number of bits 0..i of x are: with x a block's quotes, the bytes from an
// opening quote up to (not with) its closing one.
inline std::uint64_t prefix_xor(std::uint64_t x) {
  for (unsigned shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

inline unsigned popcount64(std::uint64_t x) {
#if defined(__GNUC__)
  return static_cast<unsigned>(__builtin_popcountll(x));
#else
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<unsigned>((x * 0x0101010101010101u) >> 56);
#endif
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
