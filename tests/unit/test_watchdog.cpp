// The watchdog both transports share (transport/detail/watchdog.hpp): the decision, driven tick by
// tick; then the watching thread itself, its rest and its wake-up, with real threads.
#include "catch.hpp"

#include <mcp/transport/detail/recent_calls.hpp>
#include <mcp/transport/detail/watchdog.hpp>

#include <atomic>
#include <chrono>
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
