// Turns for tool calls with large arguments. Such a call spends most of its time in reading and
// checking its arguments, work for a core that holds a tree of about ten times the text (a typed
// value less); run more of them at once than there are cores and none finishes sooner, but every
// one holds its tree at the same time. Measured (bench order_rt, N = 10,000, 700 KB a call, 4 in
// flight over stdio, 2 cores): four at once peaked at 43 MiB, two at 29 MiB, at the same calls/s.
// A turn is held for the whole call (the check and read of its arguments, middleware, the handler;
// not the write of its reply), so a call waits at most `longest_wait`: a
// turn held that long is most likely waiting (on the client's answer to ctx.ask, on a slow
// service), not using a core, and the waiting call then runs without one.
// Threads: every member from any thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

class large_call_turns {
 public:
  // Arguments of at least this many bytes of JSON make a call large.
  static constexpr std::size_t large_bytes = 256 * 1024;
  static constexpr std::chrono::milliseconds longest_wait{100};

  // `at_once` turns; 0: one per core the machine reports (at least one).
  explicit large_call_turns(std::size_t at_once)
      : free_(at_once ? at_once : std::max<std::size_t>(std::thread::hardware_concurrency(), 1)) {}
  large_call_turns(const large_call_turns&) = delete;
  large_call_turns& operator=(const large_call_turns&) = delete;

  // Holds a turn while it lives, if it got one.
  class turn {
   public:
    turn() = default;
    turn(turn&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)) {}
    turn& operator=(turn&& other) noexcept {  // `t = {}` gives a turn back early
      std::swap(owner_, other.owner_);
      return *this;
    }
    ~turn() {
      if (owner_) owner_->give_back();
    }

   private:
    friend class large_call_turns;
    explicit turn(large_call_turns* owner) : owner_(owner) {}
    large_call_turns* owner_ = nullptr;
  };

  // A turn for a call whose arguments are `argument_bytes` long: none needed under large_bytes;
  // else the first free one within longest_wait, or none after it.
  turn take(std::size_t argument_bytes) {
    if (argument_bytes < large_bytes) return turn();
    std::unique_lock lock(mutex_);
    if (!freed_.wait_for(lock, longest_wait, [&] { return free_ > 0; })) return turn();
    --free_;
    return turn(this);
  }

 private:
  void give_back() {
    {
      std::lock_guard lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable freed_;
  std::size_t free_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
