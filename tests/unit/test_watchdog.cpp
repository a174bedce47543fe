// The watchdog both transports share (transport/detail/watchdog.hpp): the decision, driven tick by
// tick; then the watching thread itself, its rest and its wake-up, with real threads; then the
// pool that counts calls past their stall on its ticks (thread_pool.hpp).
#include "catch.hpp"

#include <mcp/core/detail/call_slot.hpp>
#include <mcp/transport/detail/recent_calls.hpp>
#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/transport/detail/watchdog.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

using mcp::detail::watchdog;
using namespace std::chrono_literals;

namespace test_watchdog {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// Polls `done` until it holds or `limit` passes; whether it held.
template <class Done>
bool eventually(Done done, std::chrono::milliseconds limit = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

}  // namespace

TEST_CASE("watchdog: a stamp is held once a whole tick has passed inside it") {
  watchdog wd(3, 1ms);  // not started: the test is the clock
  auto& a = wd[0];
  auto& b = wd[1];
  CHECK_FALSE(wd.held(a));
  a.enter();
  CHECK(a.busy());
  CHECK_FALSE(wd.held(a));
  wd.tick();  // a may have been entered just before this tick: not yet a whole one
  CHECK_FALSE(wd.held(a));
  b.enter();
  wd.tick();  // a has now seen a whole tick pass; b only a part of one
  CHECK(wd.held(a));
  CHECK_FALSE(wd.held(b));
  CHECK_FALSE(wd.held(wd[2]));
  CHECK(a.leave());
  CHECK_FALSE(a.busy());
  CHECK_FALSE(wd.held(a));
  wd.tick();
  CHECK(wd.held(b));
  CHECK(b.leave());

  SECTION("new work on a stamp starts the count again") {
    a.enter();
    CHECK(a.leave());
    a.enter();
    wd.tick();
    CHECK_FALSE(wd.held(a));
    wd.tick();
    CHECK(wd.held(a));
    CHECK(a.leave());
  }
}

TEST_CASE("watchdog: held_for counts whole ticks; a taken stamp is never held") {
  watchdog wd(1, 1ms);
  auto& s = wd[0];
  s.enter();
  for (int i = 0; i < 3; ++i) {
    wd.tick();
    CHECK_FALSE(wd.held_for(s, 3));  // entered during the first tick: not three whole ones yet
  }
  wd.tick();
  CHECK(wd.held_for(s, 3));
  CHECK_FALSE(wd.held_for(s, 4));
  CHECK(wd.held_for(s, 1) == wd.held(s));
  REQUIRE(wd.take(s));
  CHECK_FALSE(wd.held_for(s, 1));
  CHECK_FALSE(s.leave());
}

TEST_CASE("watchdog: take claims a held stamp once, and its owner learns it on leave") {
  watchdog wd(1, 1ms);
  auto& s = wd[0];
  CHECK_FALSE(wd.take(s));  // idle
  s.enter();
  wd.tick();
  CHECK_FALSE(wd.take(s));  // not held long enough
  wd.tick();
  REQUIRE(wd.take(s));
  CHECK_FALSE(wd.take(s));  // taken already: nothing left to take
  CHECK_FALSE(wd.held(s));  // and no longer counts as held by its owner
  CHECK(s.busy());
  CHECK_FALSE(s.leave());  // the owner finds out
  CHECK_FALSE(s.busy());
  s.enter();  // and may stamp again
  CHECK(s.leave());

  SECTION("a stamp left before the take cannot be taken") {
    s.enter();
    wd.tick();
    wd.tick();
    CHECK(s.leave());
    CHECK_FALSE(wd.take(s));
  }
}

TEST_CASE("watchdog: the thread ticks once per budget, rests when idle and wakes on the next stamp") {
  watchdog wd(2, 200us);
  std::atomic<int> ticks{0};
  std::atomic<bool> seen_held{false};
  wd.start([&] {
    ++ticks;
    if (wd.held(wd[1])) seen_held = true;
  });
  // No stamp was ever entered: after quiet_ticks ticks it rests and stops ticking.
  REQUIRE(eventually([&] { return wd.resting(); }));
  CHECK(ticks >= watchdog::quiet_ticks);
  const int at_rest = ticks;
  std::this_thread::sleep_for(20ms);  // a hundred budgets
  CHECK(ticks == at_rest);

  // A stamp wakes it; one held long enough is seen.
  wd[1].enter();
  CHECK_FALSE(wd.resting());
  CHECK(eventually([&] { return seen_held.load(); }));
  CHECK(ticks > at_rest + 1);
  CHECK(wd[1].leave());

  // A stamp entered at any moment is seen: while ticking, at rest, and (some of the 40 rounds land
  // there) just as the watchdog decides to rest, about quiet_ticks budgets after the last stamp.
  // The stamp and the resting flag are each checked after the other is set, so none is missed.
  int seen = 0;
  for (int round = 0; round < 40; ++round) {
    std::this_thread::sleep_for(std::chrono::microseconds(round * 900));
    seen_held = false;
    wd[1].enter();
    seen += eventually([&] { return seen_held.load(); }) ? 1 : 0;
    CHECK(wd[1].leave());
  }
  CHECK(seen == 40);
  wd.stop();
  wd.join();
}

TEST_CASE("watchdog: stop from inside a tick ends the thread") {
  watchdog wd(1, 100us);
  std::atomic<int> ticks{0};
  wd.start([&] {
    if (++ticks == 3) wd.stop();
  });
  wd[0].enter();  // keeps it awake
  REQUIRE(eventually([&] { return ticks.load() >= 3; }));
  wd.join();
  const int after = ticks;
  std::this_thread::sleep_for(5ms);
  CHECK(ticks == after);
  CHECK(after == 3);
  CHECK(wd[0].leave());
}

namespace {

// Jobs for a pool that wait until the test lets them go, and what has run.
struct jobs {
  std::mutex mutex;
  std::condition_variable changed;
  std::set<std::string> released, started, done;
  std::map<std::string, mcp::detail::call_slot*> slots;
  bool all = false;

  std::function<void()> blocking(std::string name) {
    return [this, name] {
      std::unique_lock lock(mutex);
      started.insert(name);
      slots[name] = mcp::detail::current_call_slot();
      changed.notify_all();
      changed.wait(lock, [&] { return all || released.count(name) > 0; });
      done.insert(name);
      changed.notify_all();
    };
  }
  void release(const std::string& name) {
    std::lock_guard lock(mutex);
    released.insert(name);
    changed.notify_all();
  }
  bool wait_started(const std::string& name) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, 10s, [&] { return started.count(name) > 0; });
  }
  bool has_started(const std::string& name) {
    std::lock_guard lock(mutex);
    return started.count(name) > 0;
  }
};

// Lets every job go when the test leaves (a failed REQUIRE too), before the pool waits for them:
// declared after the pool.
struct release_on_exit {
  jobs& j;
  ~release_on_exit() {
    std::lock_guard lock(j.mutex);
    j.all = true;
    j.changed.notify_all();
  }
};

}  // namespace

TEST_CASE("thread pool: a call past stall_after stops counting against workers; max_threads bounds all") {
  using mcp::detail::thread_pool;
  watchdog wd(1 + 2, 1ms);  // not started: the test is the clock
  thread_pool::limits limits;
  limits.workers = 1;
  limits.max_threads = 2;
  limits.stall_after = 3ms;  // three ticks
  jobs j;
  thread_pool pool(limits, wd, 1);
  release_on_exit released{j};
  auto tick = [&](int n) {
    for (int i = 0; i < n; ++i) wd.tick();
    pool.check();
  };

  pool.post(j.blocking("a"));
  REQUIRE(j.wait_started("a"));
  pool.post(j.blocking("b"));
  tick(3);  // a entered during the first: not three whole ticks yet
  CHECK(pool.running() == 1);
  CHECK_FALSE(j.has_started("b"));
  tick(1);  // a has stalled: b starts beside it
  REQUIRE(j.wait_started("b"));
  CHECK(pool.running() == 2);

  pool.post(j.blocking("c"));  // two at once: the bound, stalled or not
  tick(10);
  CHECK_FALSE(j.has_started("c"));
  j.release("a");
  REQUIRE(j.wait_started("c"));  // on the thread a left

  j.release("b");
  j.release("c");
  pool.join();
  CHECK(j.done == std::set<std::string>{"a", "b", "c"});
}

TEST_CASE("thread pool: a cancel frees the call's place in workers at the next check, whatever the time") {
  using mcp::detail::thread_pool;
  thread_pool::limits limits;
  limits.workers = 1;
  limits.max_threads = 4;
  limits.stall_after = std::chrono::hours(1);
  watchdog wd(1 + 4, 1ms);
  jobs j;
  thread_pool pool(limits, wd, 1);
  release_on_exit released{j};
  pool.post(j.blocking("d"));
  REQUIRE(j.wait_started("d"));
  pool.post(j.blocking("e"));
  wd.tick();
  pool.check();
  CHECK_FALSE(j.has_started("e"));
  mcp::detail::call_slot* slot = nullptr;
  {
    std::lock_guard lock(j.mutex);
    slot = j.slots["d"];
  }
  REQUIRE(slot != nullptr);  // the core marks it when the client cancels the call (session.hpp)
  slot->cancelled = true;
  pool.check();
  REQUIRE(j.wait_started("e"));
  j.release("d");
  j.release("e");
  pool.join();
  CHECK(j.done == std::set<std::string>{"d", "e"});
}

TEST_CASE("recent_calls: long lately once calls average more than share_above; one long wait is soon forgotten") {
  using mcp::detail::recent_calls;
  recent_calls calls;
  CHECK_FALSE(calls.long_lately());
  for (int i = 0; i < 50; ++i) calls.note(20us);  // small calls: the transports keep them on one thread
  CHECK_FALSE(calls.long_lately());
  int samples = 0;
  while (!calls.long_lately() && samples < 50) calls.note(300us), ++samples;
  CHECK(calls.long_lately());
  CHECK(samples <= 4);  // a quarter of the way each time: 20 -> 90 -> 142 us
  // A call that waited ten seconds (for the client, say) counts as 10 ms, so a few dozen short
  // calls bring the average back down.
  for (int i = 0; i < 50; ++i) calls.note(20us);
  calls.note(10s);
  CHECK(calls.long_lately());
  samples = 0;
  while (calls.long_lately() && samples < 100) calls.note(20us), ++samples;
  CHECK_FALSE(calls.long_lately());
  CHECK(samples <= 20);
}

}  // namespace test_watchdog
