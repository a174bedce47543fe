// Out-of-line bodies of core/replay_guard.hpp: the memory guard. Included once, from the bottom of
// core/replay_guard.hpp.
#pragma once

namespace mcp {
inline namespace v0 {

MCP_DECL bool memory_replay_guard::first_use(const std::string& key, std::int64_t expires_at, std::int64_t now) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!by_expiry_.empty() && by_expiry_.begin()->first <= now) {
    seen_.erase(by_expiry_.begin()->second);
    by_expiry_.erase(by_expiry_.begin());
  }
  if (seen_.count(key) != 0) return false;
  while (seen_.size() >= max_remembered_) {
    seen_.erase(by_expiry_.begin()->second);
    by_expiry_.erase(by_expiry_.begin());
  }
  seen_.insert(key);
  by_expiry_.emplace(expires_at, key);
  return true;
}

}  // namespace v0
}  // namespace mcp
