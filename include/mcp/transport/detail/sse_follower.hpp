// Streams resumed through this process but written by another one: their events come from a
// shared event_store (transport/event_store.hpp), polled until the stream's last event.
#pragma once

#include <mcp/transport/event_store.hpp>
#include <mcp/transport/http_types.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

// One thread, started with the first stream it follows, reads each followed stream every `poll`
// and writes what is new to the client. A response ends when the stream's last event is written,
// when nothing new came for `quiet` (the writing process may be gone; the client can resume
// again), when the store fails or forgets the stream, or at close().
//
// Threads: every member from any thread; the writers are called from the follower's thread.
class stream_followers {
 public:
  using clock = std::chrono::steady_clock;

  stream_followers(std::shared_ptr<mcp::http::event_store> store, std::size_t max_followed,
                   std::chrono::milliseconds poll = std::chrono::milliseconds(20),
                   std::chrono::milliseconds quiet = std::chrono::minutes(5))
      : store_(std::move(store)), max_(max_followed), poll_(poll), quiet_(quiet) {}
  ~stream_followers() { close(); }
  stream_followers(const stream_followers&) = delete;
  stream_followers& operator=(const stream_followers&) = delete;

  mcp::http::event_store& store() const { return *store_; }

  // Whether one more stream may be followed now (else the caller answers 503).
  bool has_room() const {
    std::lock_guard lock(mutex_);
    return !closed_ && followed_.size() < max_;
  }

  // Writes to `out` (its stream already started) the events of `name` after `after` as they come.
  void follow(std::shared_ptr<mcp::http::response_writer> out, std::string name, std::uint64_t after) {
    auto f = std::make_shared<follower>();
    f->out = std::move(out);
    f->name = std::move(name);
    f->after = after;
    f->news = clock::now();
    std::weak_ptr<follower> weak = f;
    f->out->on_disconnect([weak] {
      if (auto alive = weak.lock()) alive->gone = true;
    });
    std::lock_guard lock(mutex_);
    if (closed_) return f->out->end();
    followed_.push_back(std::move(f));
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }

  // Ends every followed response; nothing is followed afterwards.
  void close() {
    std::vector<std::shared_ptr<follower>> left;
    std::thread thread;
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      left.swap(followed_);
      thread.swap(thread_);
    }
    changed_.notify_all();
    if (thread.joinable()) thread.join();
    for (auto& f : left) f->out->end();
  }

  std::size_t followed() const {
    std::lock_guard lock(mutex_);
    return followed_.size();
  }

 private:
  struct follower {
    std::shared_ptr<mcp::http::response_writer> out;
    std::string name;
    std::uint64_t after = 0;
    clock::time_point news;
    std::atomic<bool> gone{false};
  };

  void loop() {
    std::unique_lock lock(mutex_);
    while (!changed_.wait_for(lock, poll_, [this] { return closed_; })) {
      std::vector<std::shared_ptr<follower>> batch = followed_;
      lock.unlock();
      std::vector<std::shared_ptr<follower>> done;
      for (const auto& f : batch)
        if (step(*f)) done.push_back(f);
      lock.lock();
      for (const auto& f : done) {  // close() may have taken every follower while the lock was free
        auto it = std::find(followed_.begin(), followed_.end(), f);
        if (it != followed_.end()) followed_.erase(it);
      }
    }
  }

  // One read of one stream; true when its response has ended.
  bool step(follower& f) {
    if (f.gone) return true;
    std::optional<mcp::http::event_store::replay> r;
    try {
      r = store_->read(f.name, f.after);
    } catch (const std::exception&) {
      r.reset();  // the client resumes again later, perhaps through a process whose store works
    }
    if (!r) {
      f.out->end();
      return true;
    }
    for (auto& [seq, text] : r->events) {
      f.out->write(std::move(text));
      f.after = seq;
      f.news = clock::now();
    }
    if (r->complete || clock::now() - f.news > quiet_) {
      f.out->end();
      return true;
    }
    return false;
  }

  const std::shared_ptr<mcp::http::event_store> store_;
  const std::size_t max_;
  const std::chrono::milliseconds poll_;
  const std::chrono::milliseconds quiet_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<follower>> followed_;  // under mutex_
  bool closed_ = false;                              // under mutex_
  std::thread thread_;                               // under mutex_
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
