// 128 random bits as 32 hex digits, from the operating system's generator: names nobody can guess
// (task ids, a session's key).
#pragma once

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

namespace mcp {
inline namespace v0 {
namespace detail {

inline std::string random_id() {
  // random_device is the operating system's CSPRNG on the platforms the SDK supports; its
  // operator() is not promised to be thread-safe, hence the lock.
  static std::mutex mutex;
  static std::random_device device;
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  std::lock_guard lock(mutex);
  for (int i = 0; i < 4; ++i) {
    std::uint32_t bits = device();
    for (int j = 0; j < 8; ++j, bits >>= 4) id += hex[bits & 0xF];
  }
  return id;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
