// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), written out here so the SDK stays free of a
// crypto library dependency. They back the integrity seal on MRTR requestState, nothing more.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

using sha256_digest = std::array<std::uint8_t, 32>;

// Incremental form, so HMAC can hash ipad||message without copying the message.
class sha256_hasher {
 public:
  void update(std::string_view data) {
    for (char c : data) {
      block_[block_size_++] = std::uint8_t(c);
      if (block_size_ == 64) {
        compress();
        block_size_ = 0;
      }
    }
    total_bytes_ += data.size();
  }

  sha256_digest finish() {
    const std::uint64_t total_bits = total_bytes_ * 8;
    block_[block_size_++] = 0x80;
    if (block_size_ > 56) {
      while (block_size_ < 64) block_[block_size_++] = 0;
      compress();
      block_size_ = 0;
    }
    while (block_size_ < 56) block_[block_size_++] = 0;
    for (int i = 7; i >= 0; --i) block_[block_size_++] = std::uint8_t(total_bits >> (i * 8));
    compress();
    block_size_ = 0;
    sha256_digest out{};
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t b = 0; b < 4; ++b) out[i * 4 + b] = std::uint8_t(state_[i] >> (24 - 8 * b));
    return out;
  }

 private:
  static std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

  void compress() {
    static constexpr std::uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    std::uint32_t w[64];
    for (std::size_t t = 0; t < 16; ++t)
      w[t] = (std::uint32_t(block_[t * 4]) << 24) | (std::uint32_t(block_[t * 4 + 1]) << 16) |
             (std::uint32_t(block_[t * 4 + 2]) << 8) | std::uint32_t(block_[t * 4 + 3]);
    for (std::size_t t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    std::uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (std::size_t t = 0; t < 64; ++t) {
      const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
  }

  std::uint32_t state_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::uint8_t block_[64] = {};
  std::size_t block_size_ = 0;
  std::uint64_t total_bytes_ = 0;
};

inline sha256_digest sha256(std::string_view data) {
  sha256_hasher h;
  h.update(data);
  return h.finish();
}

inline std::string_view digest_bytes(const sha256_digest& d) {
  return std::string_view(reinterpret_cast<const char*>(d.data()), d.size());
}

inline sha256_digest hmac_sha256(std::string_view key, std::string_view data) {
  constexpr std::size_t block = 64;
  std::array<char, block> padded{};
  if (key.size() > block) {
    const sha256_digest hashed = sha256(key);
    for (std::size_t i = 0; i < hashed.size(); ++i) padded[i] = char(hashed[i]);
  } else {
    for (std::size_t i = 0; i < key.size(); ++i) padded[i] = key[i];
  }
  std::array<char, block> ipad{}, opad{};
  for (std::size_t i = 0; i < block; ++i) {
    ipad[i] = char(std::uint8_t(padded[i]) ^ 0x36);
    opad[i] = char(std::uint8_t(padded[i]) ^ 0x5c);
  }
  sha256_hasher inner;
  inner.update(std::string_view(ipad.data(), block));
  inner.update(data);
  const sha256_digest inner_digest = inner.finish();
  sha256_hasher outer;
  outer.update(std::string_view(opad.data(), block));
  outer.update(digest_bytes(inner_digest));
  return outer.finish();
}

// Time depends on the lengths only, never on where the contents first differ, so a MAC check
// does not tell an attacker how many leading bytes of a forged MAC were right.
inline bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
