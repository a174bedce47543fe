// The threads of the HTTP transport. Sockets and request handlers share them: a handler runs as an
// io handler right after its request was read, on the same thread, with no hand-off (a hand-off to
// a worker and back cost two context switches per request, more than the request itself).
// Handlers may block, though (a slow tool, a question to the client), so two rules keep the
// sockets served:
// - At most `workers` handlers run at once; more wait their turn. So io_threads runners are always
//   free for sockets, timers and pings.
// - A watchdog adds a runner thread when every live runner has been inside one handler for longer
//   than `budget`, up to io_threads + workers runners in all. An added runner leaves as soon as no
//   other runner is held that long any more (or after a second without work): a runner added
//   because its thread was merely descheduled for a moment must not stay to compete with it.
#pragma once

#include <asio/io_context.hpp>
#include <asio/post.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

class runners {
 public:
  using clock = std::chrono::steady_clock;

  runners(asio::io_context& io, std::size_t io_threads, std::size_t workers, std::chrono::microseconds budget,
          std::function<void(const std::string&)> log)
      : io_(io),
        base_(io_threads == 0 ? 1 : io_threads),
        workers_(workers == 0 ? 1 : workers),
        cap_(base_ + workers_),
        budget_(budget.count() > 0 ? budget : std::chrono::microseconds(1000)),
        log_(std::move(log)),
        slots_(new slot[cap_]) {}
  runners(const runners&) = delete;
  runners& operator=(const runners&) = delete;
  ~runners() { join_all(); }

  // Runs `job` as a handler soon: as an io handler of its own, so that one that blocks holds no
  // connection's strand (its replies must still get out). Any thread.
  void post(std::function<void()> job) {
    asio::post(io_, [this, job = std::move(job)]() mutable { start(std::move(job)); });
  }

  // Runs until the io_context has no work left: the base runners (this thread is one of them) and
  // those the watchdog adds. Returns once all have ended.
  void run() {
    watchdog_ = std::thread([this] { watch(); });
    std::vector<std::thread> base;
    for (std::size_t i = 1; i < base_; ++i) base.emplace_back([this, i] { serve(slots_[i], false); });
    serve(slots_[0], false);
    for (auto& t : base) t.join();
    join_all();
  }

 private:
  struct slot {
    std::atomic<std::int64_t> job_since{0};  // clock ticks when the running handler began; 0: none
    bool live = false;                       // guarded by mutex_
    std::thread thread;                      // an added runner's
  };

  static std::int64_t now() { return clock::now().time_since_epoch().count() | 1; }  // never 0

  void start(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      if (in_handlers_ >= workers_) {  // more would leave fewer than base_ runners for the sockets
        waiting_.push_back(std::move(job));
        return;
      }
      ++in_handlers_;
      if (resting_) {
        resting_ = false;
        watch_cv_.notify_one();
      }
    }
    run_counted(job);
  }

  // `job` is counted in in_handlers_ already.
  void run_counted(std::function<void()>& job) {
    slot* me = current();
    if (me) me->job_since.store(now(), std::memory_order_relaxed);
    try {
      job();
    } catch (const std::exception& e) {
      log_(std::string("http: a handler threw: ") + e.what());
    } catch (...) {
      log_("http: a handler threw");
    }
    if (me) me->job_since.store(0, std::memory_order_relaxed);
    std::function<void()> next;
    {
      std::lock_guard lock(mutex_);
      if (waiting_.empty()) {
        --in_handlers_;
        return;
      }
      next = std::move(waiting_.front());  // keeps the place this one leaves
      waiting_.pop_front();
    }
    asio::post(io_, [this, next = std::move(next)]() mutable { run_counted(next); });
  }

  static slot*& current() {
    static thread_local slot* s = nullptr;
    return s;
  }

  void serve(slot& s, bool added) {
    {
      std::lock_guard lock(mutex_);
      s.live = true;
    }
    current() = &s;
    auto idle_since = clock::now();
    for (;;) {
      try {
        if (!added) {
          io_.run();
          break;
        }
        if (io_.stopped()) break;
        if (io_.run_one_for(std::chrono::milliseconds(100)) > 0)
          idle_since = clock::now();
        else if (clock::now() - idle_since > std::chrono::seconds(1))
          break;
        if (!others_held(s)) break;
      } catch (const std::exception& e) {
        log_(std::string("http: unexpected exception in the io loop: ") + e.what());
      } catch (...) {
        log_("http: unexpected exception in the io loop");
      }
    }
    current() = nullptr;
    std::lock_guard lock(mutex_);
    s.live = false;
  }

  // Whether a runner other than `me` has been inside one handler for longer than the budget.
  bool others_held(const slot& me) const {
    const std::int64_t late = now() - std::chrono::duration_cast<clock::duration>(budget_).count();
    for (std::size_t i = 0; i < cap_; ++i) {
      if (&slots_[i] == &me) continue;
      const std::int64_t since = slots_[i].job_since.load(std::memory_order_relaxed);
      if (since != 0 && since < late) return true;
    }
    return false;
  }

  // Ticks once per budget while handlers run; rests after a hundred ticks without any.
  void watch() {
    std::unique_lock lock(mutex_);
    int quiet = 0;
    while (!ended_) {
      if (resting_) {
        watch_cv_.wait(lock, [&] { return !resting_ || ended_; });
        quiet = 0;
        continue;
      }
      watch_cv_.wait_for(lock, budget_);
      if (ended_) break;
      if (in_handlers_ == 0) {
        if (++quiet >= 100) resting_ = true;
        continue;
      }
      quiet = 0;
      const std::int64_t late = now() - std::chrono::duration_cast<clock::duration>(budget_).count();
      std::size_t live = 0, stuck = 0;
      slot* spare = nullptr;
      for (std::size_t i = 0; i < cap_; ++i) {
        slot& s = slots_[i];
        if (!s.live) {
          if (!spare && i >= base_) spare = &s;
          continue;
        }
        ++live;
        const std::int64_t since = s.job_since.load(std::memory_order_relaxed);
        if (since != 0 && since < late) ++stuck;
      }
      if (live == 0 || stuck < live || !spare || io_.stopped()) continue;
      if (spare->thread.joinable()) spare->thread.join();  // a runner that left: its thread has ended
      spare->live = true;  // taken now, so the next tick does not pick it again
      spare->thread = std::thread([this, spare] { serve(*spare, true); });
    }
  }

  void join_all() {
    {
      std::lock_guard lock(mutex_);
      ended_ = true;
    }
    watch_cv_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
    for (std::size_t i = 0; i < cap_; ++i)
      if (slots_[i].thread.joinable()) slots_[i].thread.join();
  }

  asio::io_context& io_;
  const std::size_t base_, workers_, cap_;
  const std::chrono::microseconds budget_;
  std::function<void(const std::string&)> log_;
  std::unique_ptr<slot[]> slots_;

  std::mutex mutex_;  // guards what follows and slot::live
  std::condition_variable watch_cv_;
  std::size_t in_handlers_ = 0;
  std::deque<std::function<void()>> waiting_;
  bool resting_ = false;
  bool ended_ = false;
  std::thread watchdog_;
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
