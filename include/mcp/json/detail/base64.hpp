// Base64 (RFC 4648): the standard alphabet with padding for content blocks, and the URL-safe
// alphabet without padding for cursors that travel inside JSON and URLs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

inline constexpr char base64_standard_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
inline constexpr char base64_url_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

inline std::string base64_encode_with(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t(std::uint8_t(bytes[i])) << 16) |
                            (std::uint32_t(std::uint8_t(bytes[i + 1])) << 8) | std::uint8_t(bytes[i + 2]);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    out += alphabet[n & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  std::uint32_t n = std::uint32_t(std::uint8_t(bytes[i])) << 16;
  if (rest == 2) n |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
  out += alphabet[(n >> 18) & 63];
  out += alphabet[(n >> 12) & 63];
  if (rest == 2) out += alphabet[(n >> 6) & 63];
  if (pad) out.append(rest == 1 ? 2 : 1, '=');
  return out;
}

inline int base64_digit(char c, const char* alphabet) {
  for (int i = 0; i < 64; ++i)
    if (alphabet[i] == c) return i;
  return -1;
}

// Strict: no whitespace, no stray '=', and the unused low bits of the last digit must be zero,
// so every byte string has exactly one accepted encoding.
inline std::optional<std::string> base64_decode_with(std::string_view text, const char* alphabet, bool padded) {
  if (padded) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::size_t pads = 0;
    while (pads < 2 && pads < text.size() && text[text.size() - 1 - pads] == '=') ++pads;
    text.remove_suffix(pads);
  }
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int d = base64_digit(c, alphabet);
    if (d < 0) return std::nullopt;
    acc = (acc << 6) | std::uint32_t(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((acc >> bits) & 0xFF);
    }
  }
  if ((acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

inline std::string base64_encode(std::string_view bytes) {
  return base64_encode_with(bytes, base64_standard_alphabet, true);
}
inline std::optional<std::string> base64_decode(std::string_view text) {
  return base64_decode_with(text, base64_standard_alphabet, true);
}
inline std::string base64url_encode(std::string_view bytes) {
  return base64_encode_with(bytes, base64_url_alphabet, false);
}
inline std::optional<std::string> base64url_decode(std::string_view text) {
  return base64_decode_with(text, base64_url_alphabet, false);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
