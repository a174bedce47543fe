// A listener serving on a thread of its own for as long as a scope lasts: the destructor stops it
// and joins the thread, also when a REQUIRE leaves the test early.
#pragma once

#include <mcp/transport/http.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

namespace test {

class serving {
 public:
  serving(mcp::server& srv, mcp::http::options o)
      : listener_(srv, std::move(o)), thread_([this] {
          listener_.run();
          returned_ = true;
        }) {}
  ~serving() {
    listener_.stop();
    thread_.join();
  }
  serving(const serving&) = delete;
  serving& operator=(const serving&) = delete;

  unsigned short port() const { return listener_.port(); }
  mcp::http::listener& listener() { return listener_; }
  // Whether run() returned (by itself, after a shutdown) within `timeout`.
  bool returns_within(std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!returned_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return returned_;
  }

 private:
  mcp::http::listener listener_;  // before thread_: running by the time the thread starts
  std::atomic<bool> returned_{false};
  std::thread thread_;
};

}  // namespace test
