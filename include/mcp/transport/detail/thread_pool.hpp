// The threads that run calls: stdio's pool, and an embedded HTTP handler's own threads (the
// listener's are http_runners.hpp, by the same rule).
//
// The rule: at most `workers` calls run at once, not counting calls that have run longer than
// `stall_after` or whose client cancelled them, and at most `max_threads` in all. A handler
// blocked on something slow, or one that never looks at ctx.cancelled(), cannot hold the others
// back: once it has run `stall_after` (or is cancelled), a call that waits gets a thread beside
// it. Nothing can stop a thread from outside, so a call past its stall still holds its thread
// until it returns; at `max_threads` such threads, calls wait again. Threads beyond `workers`
// leave after a second without work.
//
// Stalls are counted in watchdog ticks (watchdog.hpp): each thread holds a stamp while it runs a
// call, and check() is called once per tick, by the watchdog the pool's owner already has (stdio)
// or by one of the pool's own (standalone). A call's cancellation reaches the pool through its
// thread's call_slot (core/detail/call_slot.hpp).
//
// Threads: post() and check() from any thread; join() from the owner, once nothing posts any more.
#pragma once

#include <mcp/core/detail/call_slot.hpp>
#include <mcp/transport/detail/watchdog.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace mcp {
inline namespace v0 {
namespace detail {

class thread_pool {
 public:
  struct limits {
    std::size_t workers = 4;      // calls at once, stalled ones not counted
    std::size_t max_threads = 64;  // calls at once in all
    std::chrono::milliseconds stall_after = std::chrono::milliseconds(100);
  };

  // Standalone: a watchdog of its own, ticking eight times per stall_after while a call runs (none
  // when the pool cannot grow: max_threads <= workers).
  explicit thread_pool(limits l) : thread_pool(l, nullptr, 0, tick_of(l)) {}
  // A fixed pool of `threads` threads (tests that need handlers on real threads).
  explicit thread_pool(std::size_t threads) : thread_pool(limits{threads, threads, std::chrono::milliseconds(100)}) {}
  // On `dog`, whose owner calls check() once per tick: stamps [first_stamp, first_stamp +
  // max_threads) are the pool's.
  thread_pool(limits l, watchdog& dog, std::size_t first_stamp) : thread_pool(l, &dog, first_stamp, dog.budget()) {}
  ~thread_pool() { join(); }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  // Stamps a watchdog needs for a pool of these limits.
  static std::size_t stamps(const limits& l) { return std::max(l.max_threads, std::max<std::size_t>(l.workers, 1)); }

  void post(std::function<void()> job) {
    std::unique_lock lock(mutex_);
    jobs_.push_back(std::move(job));
    if (live_ > running_) {
      lock.unlock();
      wake_.notify_one();
      return;
    }
    start_threads(lock);  // every thread is in a call: one more if some are stalled
  }

  // Once per tick: calls past their stall (or cancelled) stop counting, and waiting calls get
  // threads in their place.
  void check() {
    std::unique_lock lock(mutex_);
    check(lock);
  }

  // Runs what is queued, then stops every thread. Cancelled calls (a closed connection's) still
  // make room for what waits; no stall is counted any more.
  void join() {
    if (own_dog_) {
      own_dog_->stop();
      own_dog_->join();  // no check() from now on: every thread is started below
    }
    std::unique_lock lock(mutex_);
    stopping_ = true;
    check(lock);
    wake_.notify_all();
    for (;;) {
      std::thread t;
      for (std::size_t i = 0; i < size_ && !t.joinable(); ++i)
        if (slots_[i].thread.joinable()) t = std::move(slots_[i].thread);
      if (!t.joinable()) break;
      lock.unlock();
      t.join();
      lock.lock();
    }
  }

  // Calls running now (for tests).
  std::size_t running() const {
    std::lock_guard lock(mutex_);
    return running_;
  }

 private:
  struct slot {
    std::thread thread;
    bool live = false;     // a thread runs on it (under mutex_)
    bool busy = false;     // in a call
    bool stalled = false;  // that call no longer counts against workers
    call_slot call;
  };

  void check(std::unique_lock<std::mutex>& lock) {
    bool more = false;
    for (std::size_t i = 0; i < size_; ++i) {
      slot& s = slots_[i];
      if (!s.busy || s.stalled) continue;
      if (s.call.cancelled.load(std::memory_order_relaxed) || (dog_ && dog_->held_for((*dog_)[first_ + i], stall_ticks_))) {
        s.stalled = true;
        ++stalled_;
        more = true;
      }
    }
    if (more && !jobs_.empty()) {
      if (live_ > running_) wake_.notify_all();
      start_threads(lock);
    }
  }


  static std::chrono::microseconds tick_of(const limits& l) {
    return std::max<std::chrono::microseconds>(std::chrono::microseconds(1000),
                                               std::chrono::duration_cast<std::chrono::microseconds>(l.stall_after) / 8);
  }

  thread_pool(limits l, watchdog* dog, std::size_t first_stamp, std::chrono::microseconds tick)
      : workers_(std::max<std::size_t>(l.workers, 1)),
        size_(stamps(l)),
        slots_(new slot[size_]),
        own_dog_(dog || size_ <= workers_ ? nullptr : std::make_unique<watchdog>(size_, tick)),
        dog_(dog ? dog : own_dog_.get()),
        first_(dog ? first_stamp : 0),
        stall_ticks_(static_cast<std::uint64_t>(std::max<long long>(
            1, std::chrono::duration_cast<std::chrono::microseconds>(l.stall_after).count() / std::max<long long>(1, tick.count())))) {
    std::unique_lock lock(mutex_);
    for (std::size_t i = 0; i < workers_; ++i) spawn(i, lock);
    lock.unlock();
    if (own_dog_) own_dog_->start([this] { check(); });
  }

  // With the lock held: calls that may start now (their count against workers, and the bound).
  std::size_t startable() const {
    if (jobs_.empty() || running_ >= size_ || running_ - stalled_ >= workers_) return 0;
    return std::min({jobs_.size(), workers_ - (running_ - stalled_), size_ - running_});
  }

  // With the lock held: a thread more for each call that may start and finds none free.
  void start_threads(std::unique_lock<std::mutex>& lock) {
    std::size_t want = startable();
    const std::size_t idle = live_ - running_;
    want = want > idle ? want - idle : 0;
    for (std::size_t i = workers_; i < size_ && want > 0; ++i)
      if (!slots_[i].live && spawn(i, lock)) --want;
  }

  // With the lock held. False when no thread can be had (the call waits for one to be free).
  bool spawn(std::size_t i, std::unique_lock<std::mutex>& lock) {
    slot& s = slots_[i];
    if (s.thread.joinable()) {  // a thread that left: it has, or is about to, end without the lock
      std::thread old = std::move(s.thread);
      lock.unlock();
      old.join();
      lock.lock();
      if (s.live || s.thread.joinable()) return false;  // taken meanwhile
    }
    try {
      s.thread = std::thread([this, i] { work(i); });
    } catch (const std::system_error&) {
      return false;
    }
    s.live = true;
    ++live_;
    return true;
  }

  void work(std::size_t i) {
    slot& s = slots_[i];
    watchdog::stamp* stamp = dog_ ? &(*dog_)[first_ + i] : nullptr;
    const bool extra = i >= workers_;
    current_call_slot() = &s.call;
    std::unique_lock lock(mutex_);
    for (;;) {
      if (startable() == 0) {
        if (stopping_ && jobs_.empty()) break;
        auto ready = [&] { return startable() > 0 || (stopping_ && jobs_.empty()); };
        if (!extra) {
          wake_.wait(lock, ready);
        } else if (!wake_.wait_for(lock, std::chrono::seconds(1), ready)) {
          break;  // a second without work: a thread beyond workers leaves
        }
        continue;
      }
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
      s.busy = true;
      lock.unlock();
      s.call.cancelled.store(false, std::memory_order_relaxed);
      if (stamp) stamp->enter();
      job();
      if (stamp) stamp->leave();
      job = nullptr;  // what the call held goes before the next one starts
      lock.lock();
      --running_;
      s.busy = false;
      if (s.stalled) {
        s.stalled = false;
        --stalled_;
      }
    }
    current_call_slot() = nullptr;
    s.live = false;
    --live_;
  }

  const std::size_t workers_;
  const std::size_t size_;  // slots: the most threads at once
  std::unique_ptr<slot[]> slots_;
  std::unique_ptr<watchdog> own_dog_;
  watchdog* dog_;
  const std::size_t first_;
  const std::uint64_t stall_ticks_;

  mutable std::mutex mutex_;  // guards what follows and each slot but its call flag
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::size_t live_ = 0;     // threads
  std::size_t running_ = 0;  // of them in a call
  std::size_t stalled_ = 0;  // of those past their stall or cancelled
  bool stopping_ = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
