// The threads of the HTTP transport. Sockets and request handlers share them: a handler runs as an
// io handler right after its request was read, on the same thread, with no hand-off (a hand-off to
// a worker and back cost two context switches per request, more than the request itself).
// Handlers may block, though (a slow tool, a question to the client), so two rules keep the
// sockets served:
// - At most `workers` handlers run at once; more wait their turn. So io_threads runners are always
//   free for sockets, timers and pings. A handler that has run `stall_after`, or that its client
//   cancelled, no longer counts (the rule of thread_pool.hpp): a handler that blocks, or ignores
//   a cancel, cannot hold the others back, up to `max_workers` handlers at once.
// - The watchdog (watchdog.hpp, shared with stdio) adds a runner thread when every live runner has
//   been inside one handler for longer than `budget`, up to io_threads + max_workers runners. An
//   added runner leaves as soon as no other runner is held that long any more (or after a second
//   without work): a runner added because its thread was merely descheduled for a moment must not
//   stay to compete with it.
// And one rule uses a free core: when handlers have lately been long (recent_calls, the rule stdio
// shares calls with its pool by), the watchdog adds one runner beside the io_threads, which stays
// while they are. Short handlers keep the io threads to themselves: a second runner competing for
// them cost small calls more than it gave.
// Threads: post() from any thread; run() once, from the thread that serves; the rest is internal.
#pragma once

#include <asio/io_context.hpp>
#include <asio/post.hpp>

#include <mcp/core/detail/call_slot.hpp>
#include <mcp/transport/detail/recent_calls.hpp>
#include <mcp/transport/detail/watchdog.hpp>

#include <algorithm>
#include <chrono>
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

  // Handlers at once, and how long one runs before it no longer counts against `workers`.
  struct handler_limits {
    std::size_t workers = 4;
    std::size_t max_workers = 64;
    std::chrono::milliseconds stall_after = std::chrono::milliseconds(100);
  };

  runners(asio::io_context& io, std::size_t io_threads, handler_limits limits, std::chrono::microseconds budget,
          std::function<void(const std::string&)> log)
      : io_(io),
        base_(io_threads == 0 ? 1 : io_threads),
        workers_(limits.workers == 0 ? 1 : limits.workers),
        max_(std::max(workers_, limits.max_workers)),
        cap_(base_ + max_),
        stall_ticks_(static_cast<std::uint64_t>(std::max<long long>(
            1, std::chrono::duration_cast<std::chrono::microseconds>(limits.stall_after).count() /
                   std::max<long long>(1, budget.count())))),
        log_(std::move(log)),
        slots_(new slot[cap_]),
        watchdog_(cap_, budget) {
    for (std::size_t i = 0; i < cap_; ++i) slots_[i].index = i;
  }
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
    watchdog_.start([this] { on_tick(); });
    std::vector<std::thread> base;
    for (std::size_t i = 1; i < base_; ++i) base.emplace_back([this, i] { serve(slots_[i], false); });
    serve(slots_[0], false);
    for (auto& t : base) t.join();
    join_all();
  }

 private:
  struct slot {
    std::size_t index = 0;  // of its stamp in watchdog_: held while a handler runs on it
    bool live = false;      // guarded by mutex_
    bool stalled = false;   // its handler no longer counts against workers_ (mutex_)
    call_slot call;         // its handler's cancellation (core/detail/call_slot.hpp)
    std::thread thread;     // an added runner's
  };

  // With mutex_ held: whether one more handler may start.
  bool may_start() const { return in_handlers_ < max_ && in_handlers_ - stalled_ < workers_; }

  void start(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      // More would leave fewer than base_ runners for the sockets (stalled handlers aside).
      if (!may_start()) {
        waiting_.push_back(std::move(job));
        return;
      }
      ++in_handlers_;
    }
    run_counted(job);
  }

  // `job` is counted in in_handlers_ already.
  void run_counted(std::function<void()>& job) {
    slot* me = current();
    if (me) {
      me->call.cancelled.store(false, std::memory_order_relaxed);
      current_call_slot() = &me->call;
      watchdog_[me->index].enter();
    }
    static thread_local unsigned handled = 0;
    const bool timed = ++handled % recent_calls::timed_every == 0;
    const auto start = timed ? clock::now() : clock::time_point();
    try {
      job();
    } catch (const std::exception& e) {
      log_(std::string("http: a handler threw: ") + e.what());
    } catch (...) {
      log_("http: a handler threw");
    }
    if (me) {
      watchdog_[me->index].leave();
      current_call_slot() = nullptr;
    }
    if (timed) handlers_.note(clock::now() - start);
    std::function<void()> next;
    {
      std::lock_guard lock(mutex_);
      if (me && me->stalled) {
        me->stalled = false;
        --stalled_;
      }
      --in_handlers_;
      if (waiting_.empty() || !may_start()) return;
      ++in_handlers_;
      next = std::move(waiting_.front());  // takes the place this one leaves
      waiting_.pop_front();
    }
    asio::post(io_, [this, next = std::move(next)]() mutable { run_counted(next); });
  }

  // With mutex_ held, on a tick: handlers past their stall, or cancelled, stop counting; those
  // that wait start in their place (on a runner the rule below adds, when every one is held).
  void release_stalled() {
    bool more = false;
    for (std::size_t i = 0; i < cap_; ++i) {
      slot& s = slots_[i];
      if (!s.live || s.stalled || !watchdog_[i].busy()) continue;
      if (s.call.cancelled.load(std::memory_order_relaxed) || watchdog_.held_for(watchdog_[i], stall_ticks_)) {
        s.stalled = true;
        ++stalled_;
        more = true;
      }
    }
    if (!more) return;
    while (!waiting_.empty() && may_start()) {
      ++in_handlers_;
      asio::post(io_, [this, next = std::move(waiting_.front())]() mutable { run_counted(next); });
      waiting_.pop_front();
    }
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
        if (!others_held(s) && !handlers_.long_lately()) break;
      } catch (const std::exception& e) {
        log_(std::string("http: unexpected exception in the io loop: ") + e.what());
      } catch (...) {
        log_("http: unexpected exception in the io loop");
      }
    }
    current() = nullptr;
    // What this thread's last run_one_for left queued (asio keeps a continuation, such as the next
    // step of an async_write, in the thread's own queue and moves it to the shared one on return,
    // waking no one) would wait for the next event of a runner blocked in epoll_wait: a 7 MB
    // answer then stalled until a timer fired, in 7 of 15 runs of the hostile test of idle
    // keep-alive connections. A post wakes it.
    if (added) asio::post(io_, [] {});
    std::lock_guard lock(mutex_);
    s.live = false;
  }

  // Whether a runner other than `me` has been inside one handler for longer than the budget.
  bool others_held(const slot& me) const {
    for (std::size_t i = 0; i < cap_; ++i)
      if (i != me.index && watchdog_.held(watchdog_[i])) return true;
    return false;
  }

  // Once per budget, on the watchdog's thread: a runner more when every live one is held, or when
  // handlers have lately been long and only the base runners are live.
  void on_tick() {
    std::lock_guard lock(mutex_);
    if (ended_ || io_.stopped()) return;
    release_stalled();
    std::size_t live = 0, held = 0;
    slot* spare = nullptr;
    for (std::size_t i = 0; i < cap_; ++i) {
      slot& s = slots_[i];
      if (!s.live) {
        if (!spare && i >= base_) spare = &s;
        continue;
      }
      ++live;
      if (watchdog_.held(watchdog_[i])) ++held;
    }
    if (live == 0 || !spare) return;
    if (held < live && !(live == base_ && handlers_.long_lately())) return;
    if (spare->thread.joinable()) spare->thread.join();  // a runner that left: its thread has ended
    spare->live = true;  // taken now, so the next tick does not pick it again
    spare->thread = std::thread([this, spare] { serve(*spare, true); });
  }

  void join_all() {
    {
      std::lock_guard lock(mutex_);
      ended_ = true;
    }
    watchdog_.stop();
    watchdog_.join();
    for (std::size_t i = 0; i < cap_; ++i)
      if (slots_[i].thread.joinable()) slots_[i].thread.join();
  }

  asio::io_context& io_;
  const std::size_t base_, workers_, max_, cap_;
  const std::uint64_t stall_ticks_;  // stall_after in ticks of the budget
  std::function<void(const std::string&)> log_;
  std::unique_ptr<slot[]> slots_;
  watchdog watchdog_;  // one stamp per slot
  recent_calls handlers_;  // how long handlers take, one in recent_calls::timed_every timed

  std::mutex mutex_;  // guards what follows and slot::live
  std::size_t in_handlers_ = 0;
  std::size_t stalled_ = 0;  // of them past their stall or cancelled
  std::deque<std::function<void()>> waiting_;
  bool ended_ = false;
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
