// A listener serving on a thread of its own for as long as a scope lasts: the destructor stops it
// and joins the thread, also when a REQUIRE leaves the test early.
#pragma once

#include <mcp/transport/http.hpp>

#include <thread>
#include <utility>

namespace test {

class serving {
 public:
  serving(mcp::server& srv, mcp::http::options o) : listener_(srv, std::move(o)), thread_([this] { listener_.run(); }) {}
  ~serving() {
    listener_.stop();
    thread_.join();
  }
  serving(const serving&) = delete;
  serving& operator=(const serving&) = delete;

  unsigned short port() const { return listener_.port(); }

 private:
  mcp::http::listener listener_;  // before thread_: running by the time the thread starts
  std::thread thread_;
};

}  // namespace test
