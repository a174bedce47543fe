// What a transport's worker thread and the core share about the call that thread runs: whether
// the client has cancelled it. A handler that never looks at ctx.cancelled() runs on after a
// cancel, and nothing can stop a thread from outside; the pool it runs on reads this flag so that
// such a call no longer counts against `workers` (transport/detail/thread_pool.hpp,
// http_runners.hpp). And a clock cheap enough to read for every request.
// Threads: a worker sets current_call_slot() for itself; the core marks the flag from any thread
// (session::cancel_request, under the session's lock, while the request is in flight).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#if defined(__linux__)
#include <time.h>
#endif

namespace mcp {
inline namespace v0 {
namespace detail {

struct call_slot {
  std::atomic<bool> cancelled{false};  // the call running on it now was cancelled
};

// The slot of the worker thread this runs on, null on any other thread (a stdio reader, an io
// thread running a quick request itself).
inline call_slot*& current_call_slot() noexcept {
  static thread_local call_slot* slot = nullptr;
  return slot;
}

// Milliseconds on a monotonic clock, to a few milliseconds: when a request arrived, to say how
// long it has run. Linux's coarse clock costs 8.5 ns a read where steady_clock costs 52 ns (this
// 2-core VM, 10^7 reads each): a stdio call is about 1.6 us in all.
inline std::int64_t coarse_now_ms() noexcept {
#if defined(__linux__) && defined(CLOCK_MONOTONIC_COARSE)
  timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
    return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
#endif
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
