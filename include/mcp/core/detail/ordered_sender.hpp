// Messages to one outbound from many threads, in the order they were handed over, without anyone
// holding a lock while sending: a thread that finds another one sending leaves its message in the
// queue for it. The server sends to listen streams this way (subscriptions/listen), so that a
// stream whose client does not read holds up only the thread sending to it, never the server's
// own locks, and its acknowledgement always comes before its notifications and its final result.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/core/port.hpp>

#include <deque>
#include <memory>
#include <mutex>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

class ordered_sender {
 public:
  explicit ordered_sender(std::shared_ptr<outbound> out) : out_(std::move(out)) {}

  // Queues a message without sending it: cheap enough to call under a lock of the caller's, which
  // fixes its place in the order. flush() (or the next send()) sends it.
  void post(json message) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(message));
  }
  // Sends what is queued, unless another thread is sending already (it takes it along).
  void flush() {
    std::unique_lock lock(mutex_);
    if (sending_) return;
    sending_ = true;
    while (!queue_.empty()) {
      json next = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      try {
        out_->send(next);
      } catch (...) {  // an outbound that throws loses this message, not the ones behind it
      }
      lock.lock();
    }
    sending_ = false;
  }
  void send(json message) {
    post(std::move(message));
    flush();
  }

 private:
  std::shared_ptr<outbound> out_;
  std::mutex mutex_;
  std::deque<json> queue_;
  bool sending_ = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
