// Single use of requestState tokens across every server process that names the same Redis and
// key prefix: a token accepted by one process is refused by all, where the default guard (this
// process's memory) lets a token replayed to another process through once more. Opt-in: nothing
// else includes this header, and a program that does links hiredis (stores/redis.hpp says how).
//
//   mcp::server_options o;
//   o.request_state_key = shared_key;
//   o.request_state_guard = std::make_shared<mcp::redis_replay_guard>(mcp::redis_options::from_url("redis://127.0.0.1:6379/app:"));
//
// Each used token is one Redis key, <prefix>used:<nonce>, made with SET NX (so exactly one of
// several processes presenting it at once gets true), expiring with the token.
#pragma once

#include <mcp/stores/redis.hpp>
#include <mcp/core/replay_guard.hpp>
#include <mcp/error.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// Threads: every member is safe from any thread at once, in any number of processes (each call
// borrows a connection of its own, as redis_task_store's do). A Redis that is down or too slow
// makes first_use throw mcp::error (guard_unavailable) within the timeouts; the server then refuses
// the token (internal error) rather than risk accepting it twice.
class redis_replay_guard final : public replay_guard {
 public:
  // Connects lazily: constructing never fails for a Redis that is down.
  explicit redis_replay_guard(redis_options options)
      : pool_(std::move(options), error_code::guard_unavailable, "The requestState replay guard") {}

  bool first_use(const std::string& key, std::int64_t expires_at, std::int64_t now) override {
    // Kept a second past expiry: the token is refused as expired by then, whatever the clocks say.
    const std::int64_t keep_ms = (std::max<std::int64_t>(expires_at - now, 0) + 1) * 1000;
    const std::vector<std::string> set{"SET", pool_.options().prefix + "used:" + key, "1", "NX", "PX", std::to_string(keep_ms)};
    for (int attempt = 0;; ++attempt) {
      auto c = pool_.borrow(attempt > 0);
      try {
        auto r = c.command(set);
        if (r->type == REDIS_REPLY_STATUS) return true;
        if (r->type == REDIS_REPLY_NIL) return false;
        throw pool_.unexpected(*r, "SET");
      } catch (const mcp::error&) {
        // A pooled connection Redis dropped while idle: once more on a fresh one. (Had the first SET
        // landed, the retry says false: the token is refused, never accepted twice.)
        if (attempt == 0 && c.reused && c.broken()) continue;
        throw;
      }
    }
  }

  // Connections opened so far (a test sees a dropped one replaced).
  std::size_t connections_opened() const { return pool_.opened(); }

 private:
  detail::redis_pool pool_;
};

}  // namespace v0
}  // namespace mcp
