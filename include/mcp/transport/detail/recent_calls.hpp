// How long calls have lately taken, and so whether another thread is worth its wake-up: both
// transports run a call on the thread that read it, and share work out only when calls have lately
// been long. stdio then hands the next call to its pool (transport/impl/stdio.ipp), HTTP starts
// one runner more (http_runners.hpp).
// Threads: note() and the readers from any thread. A lost update (two notes at once) only ages the
// average by one sample.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>

namespace mcp {
inline namespace v0 {
namespace detail {

class recent_calls {
 public:
  // Calls that take longer than this on average are worth sharing with another thread. A hand-off
  // costs another thread's wake-up and the caches it lands in: measured on 2 cores, pipelined calls
  // of ~230 us went 37% faster through stdio's pool; at ~25-30 us one tool gained and another lost
  // (tests/bench/results/history.md, "Tried on 11-27, not kept"). HTTP: a second thread serving made 250 us
  // calls 65% faster and small calls (~7 us) 28% slower, on a machine whose other core ran the
  // load generator.
  static constexpr std::chrono::microseconds share_above{100};
  // The transports time one call in this many where calls are short (a clock read costs ~1% of one).
  static constexpr unsigned timed_every = 8;

  // A running average that weighs the newest sample a quarter.
  static long long averaged(long long old, long long sample) { return old + (sample - old) / 4; }
  static long long nanoseconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  }

  // A sample counts as at most a hundred times share_above (10 ms): one call that waited long (for
  // the client's answer to a question, say) must not hold the average up for long after it; 17
  // samples of short calls bring it down. stdio compares the average with its reading thread's
  // work on a line too, which is longer than that only for lines of megabytes.
  void note(std::chrono::steady_clock::duration took) {
    const long long sample = std::min(nanoseconds(took), 100 * nanoseconds(share_above));
    ns_.store(averaged(ns_.load(std::memory_order_relaxed), sample), std::memory_order_relaxed);
  }
  long long average_ns() const { return ns_.load(std::memory_order_relaxed); }
  bool long_lately() const { return average_ns() > nanoseconds(share_above); }

 private:
  std::atomic<long long> ns_{0};
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
