// Single use of requestState tokens (2026-07-28 multi-round calls): the server accepts each token
// once. Where it remembers the tokens it has accepted is a replay_guard: by default this process's
// memory (memory_replay_guard), so a token replayed to another process behind the same load
// balancer is accepted there once more until it expires. Processes that share one guard refuse
// it everywhere: mcp::redis_replay_guard (stores/redis_replay_guard.hpp) is one.
//
//   mcp::server_options o;
//   o.request_state_key = shared_key;                 // every process opens every process's tokens
//   o.request_state_guard = std::make_shared<mcp::redis_replay_guard>(mcp::redis_options::from_url(url));
#pragma once

#include <mcp/config.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>

namespace mcp {
inline namespace v0 {

// Threads: every member may be called from any thread at once (request threads open tokens side by
// side); an implementation locks, or relies on its database.
class replay_guard {
 public:
  virtual ~replay_guard() = default;
  // True the first time `key` is presented, false every time after, until `expires_at` (seconds
  // since the Unix epoch, when the token stops being accepted anyway; `now` is the caller's clock,
  // in the same unit). Throws mcp::error when it cannot tell (a database that is down): the
  // server then refuses the token rather than risk accepting it twice.
  virtual bool first_use(const std::string& key, std::int64_t expires_at, std::int64_t now) = 0;
};

// The default: the keys in this process's memory, at most `max_remembered`. When full, the key
// closest to expiry is forgotten rather than new work refused: that token becomes replayable for
// the rest of its (short) life; the bound keeps memory finite.
//
// Threads: every member is safe from any thread at once (one mutex).
class memory_replay_guard final : public replay_guard {
 public:
  explicit memory_replay_guard(std::size_t max_remembered = 100000)
      : max_remembered_(max_remembered == 0 ? 1 : max_remembered) {}

  bool first_use(const std::string& key, std::int64_t expires_at, std::int64_t now) override;

 private:
  const std::size_t max_remembered_;
  std::mutex mutex_;
  std::unordered_set<std::string> seen_;              // under mutex_
  std::multimap<std::int64_t, std::string> by_expiry_;  // under mutex_
};

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/core/impl/replay_guard.ipp>
#endif
