// "Run inline up to a budget, then hand off": the mechanism both transports share. A thread runs
// work itself (no hand-off, no wake-up of another thread) and marks, on a stamp of its own, when it
// began; a watchdog thread ticks once per budget and acts when a stamp has been held past it. What
// it does then is the transport's own: stdio takes over reading from the serving thread
// (transport/impl/stdio.ipp), HTTP adds a runner when every runner is held (http_runners.hpp), and
// both let a waiting call start beside handlers held past stall_after (thread_pool.hpp).
//
// Time is counted in ticks, not read from a clock: a stamp records the tick during which it was
// entered, and one entered two ticks ago or earlier has been held for at least a whole budget. So
// enter() and leave() cost one atomic store (or exchange) and one load: no lock, no clock read, no
// allocation. A watchdog that saw no stamp held for a hundred ticks rests (an idle server wakes
// no one); the next enter() wakes it.
//
// Threads: a stamp's enter() and leave() are called by the one thread that owns it; held(), take()
// and tick() by any thread (tick() is what the watching thread runs; tests call it directly).
// start(), join() and the destructor by the thread that owns the watchdog; stop() by any thread,
// on_tick included.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

class watchdog {
 public:
  // Ticks without a held stamp before the watchdog rests.
  static constexpr int quiet_ticks = 100;

  // When one thread began what it does now (a call, a handler, a write that may block), or 0.
  class stamp {
   public:
    stamp() = default;
    stamp(const stamp&) = delete;
    stamp& operator=(const stamp&) = delete;

    // The owning thread begins something that may take long.
    void enter() noexcept {
      // seq_cst on both sides, with the watchdog's "resting, then look at the stamps" (rest()):
      // either it sees this stamp, or this sees it resting and wakes it. Never neither.
      since_.store(owner_->epoch_.load(std::memory_order_relaxed));
      if (owner_->resting_.load()) owner_->wake();
    }
    // It is done. False when the watchdog took the stamp meanwhile (take()).
    bool leave() noexcept { return since_.exchange(0) != taken; }
    bool busy() const noexcept { return since_.load() != 0; }

   private:
    friend class watchdog;
    static constexpr std::uint64_t taken = std::numeric_limits<std::uint64_t>::max();
    std::atomic<std::uint64_t> since_{0};  // the tick it was entered in; 0 idle; `taken`
    watchdog* owner_ = nullptr;
  };

  watchdog(std::size_t stamps, std::chrono::microseconds budget)
      : budget_(budget.count() > 0 ? budget : std::chrono::microseconds(1000)),
        size_(stamps == 0 ? 1 : stamps),
        stamps_(new stamp[size_]) {
    for (std::size_t i = 0; i < size_; ++i) stamps_[i].owner_ = this;
  }
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;
  ~watchdog() {
    stop();
    join();
  }

  stamp& operator[](std::size_t i) noexcept { return stamps_[i]; }
  const stamp& operator[](std::size_t i) const noexcept { return stamps_[i]; }
  std::size_t size() const noexcept { return size_; }
  std::chrono::microseconds budget() const noexcept { return budget_; }

  // The decision: `s` has been held, by one piece of work, for at least a whole budget.
  bool held(const stamp& s) const noexcept {
    const std::uint64_t since = s.since_.load(std::memory_order_acquire);
    return since != 0 && since < epoch_.load(std::memory_order_relaxed) - 1;  // `taken` never is
  }
  // `s` has been held, by one piece of work, for at least `ticks` whole ticks (held() is one).
  bool held_for(const stamp& s, std::uint64_t ticks) const noexcept {
    const std::uint64_t since = s.since_.load(std::memory_order_acquire);
    return since != 0 && since != stamp::taken && since + ticks < epoch_.load(std::memory_order_relaxed);
  }
  // Claims `s` when it is held: its owner's leave() then returns false, and the caller acts in the
  // owner's place. The work the owner began when it stamped is visible to the caller.
  bool take(stamp& s) noexcept {
    std::uint64_t since = s.since_.load(std::memory_order_acquire);
    if (since == 0 || since >= epoch_.load(std::memory_order_relaxed) - 1) return false;
    return s.since_.compare_exchange_strong(since, stamp::taken);
  }

  // Starts the watching thread: once per budget it calls tick(), until stop().
  void start(std::function<void()> on_tick) {
    on_tick_ = std::move(on_tick);
    thread_ = std::thread([this] { watch(); });
  }
  // One tick: the clock moves on, then the transport decides (on_tick).
  void tick() {
    advance();
    if (on_tick_) on_tick_();
  }
  // The clock alone moves on: for an on_tick that runs long (stdio's reading in the serving
  // thread's place) and keeps time meanwhile, once per budget.
  void advance() noexcept { epoch_.fetch_add(1, std::memory_order_relaxed); }
  void stop() noexcept {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    cv_.notify_all();
  }
  void join() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }
  bool resting() const noexcept { return resting_.load(); }

 private:
  bool any_busy() const noexcept {
    for (std::size_t i = 0; i < size_; ++i)
      if (stamps_[i].busy()) return true;
    return false;
  }

  void wake() {
    {
      std::lock_guard lock(mutex_);
      resting_.store(false);
    }
    cv_.notify_all();
  }

  void watch() {
    std::unique_lock lock(mutex_);
    int quiet = 0;
    while (!stopped_) {
      if (resting_.load()) {
        cv_.wait(lock, [&] { return !resting_.load() || stopped_; });
        quiet = 0;
        continue;
      }
      cv_.wait_for(lock, budget_, [&] { return stopped_; });
      if (stopped_) break;
      lock.unlock();
      tick();  // may run long: stdio's reads in the serving thread's place
      const bool busy = any_busy();
      lock.lock();
      quiet = busy ? 0 : quiet + 1;
      if (quiet < quiet_ticks) continue;
      resting_.store(true);
      if (any_busy()) resting_.store(false);  // an enter() that came before it could see resting_
      quiet = 0;
    }
  }

  const std::chrono::microseconds budget_;
  const std::size_t size_;
  std::unique_ptr<stamp[]> stamps_;
  std::atomic<std::uint64_t> epoch_{1};  // ticks so far, plus one: a stamp of 0 means idle
  std::atomic<bool> resting_{false};     // written under mutex_, read by enter() without it
  std::function<void()> on_tick_;
  std::mutex mutex_;  // guards stopped_; with cv_, the watching thread's sleep
  std::condition_variable cv_;
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
