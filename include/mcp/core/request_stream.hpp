// A request that stays open after its handler returns: a long-lived request (the events extension's
// events/stream is one) sends notifications on its own stream, from any thread, for as long as it
// lasts, then ends with one result. context::keep_open() makes one; the handler then returns and
// the engine sends nothing for it (subscriptions/listen works the same way inside the engine).
//
// The stream ends when the owner calls finish() or fail(), when the client cancels the request
// (notifications/cancelled; an HTTP client closing its response stream), when its connection
// closes, or when the transport ends its long-lived requests (stdio at end of input, an HTTP
// graceful stop): those call the function given to on_server_end() for the result to send, or send
// {} without one. After any of these, open() is false and everything sent is dropped.
#pragma once

#include <mcp/core/detail/session.hpp>
#include <mcp/core/detail/stateless_rules.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/port.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace mcp {
inline namespace v0 {

class context;
class server;

// Threads: every member may be called from any thread, several at once; messages leave in the
// order their calls took the stream's lock, and no lock of the caller's is needed. A client that
// does not read holds up only the thread that happens to be sending to it.
class request_stream : public std::enable_shared_from_this<request_stream> {
 public:
  const json& id() const { return state_->id; }
  // False once the stream has ended (finished, failed, cancelled, its connection closed).
  bool open() const {
    std::lock_guard lock(mutex_);
    return open_locked();
  }
  // A notification on the request's stream; dropped (false) once the stream has ended.
  bool notify(const std::string& method, json params) {
    std::shared_ptr<outbound> drop;  // after the lock: see release_when_idle
    std::unique_lock lock(mutex_);
    if (!open_locked()) return false;
    queue_.push_back(jsonrpc::notification(method, std::move(params)));
    send_queued(lock, drop);
    return true;
  }
  // Ends the request with its result. A 2026-07-28 result gets what every result of that era carries
  // (resultType, _meta's serverInfo). Does nothing once the stream has ended.
  void finish(json result = json::object()) { end(std::move(result), nullptr); }
  // Ends the request with a JSON-RPC error.
  void fail(const protocol_error& e) { end(json(), &e); }
  // The result to end with when the transport ends the stream (stdio at end of input, an HTTP
  // graceful stop); without one, {}. Called once, from the thread that ends it.
  void on_server_end(std::function<json()> result) {
    std::lock_guard lock(mutex_);
    server_end_ = std::move(result);
  }

  // For the engine: the transport ends the stream, with a final result (true) or without (false:
  // the connection is gone).
  void end_by_server(bool final_result) {
    std::function<json()> make;
    {
      std::lock_guard lock(mutex_);
      make = server_end_;
    }
    if (!final_result) return end_silently();
    json result = json::object();
    if (make) try {
        result = make();
      } catch (...) {  // a final result that cannot be made: end with {} all the same
      }
    end(std::move(result), nullptr);
  }

  ~request_stream() {
    // Dropped without an end (its owner let go of it): the request is over all the same.
    if (!ended_) {
      state_->finished = true;
      session_->end_request(*state_);
    }
  }

 private:
  friend class context;  // keep_open() makes one
  friend class server;   // ends those of a session (end_listeners)
  // A stream over the request `state` of session `s`, sending on `out`. `stateless`: a 2026-07-28
  // request, whose result names the server (`server_identity`).
  request_stream(std::shared_ptr<detail::session> s, std::shared_ptr<detail::request_state> state,
                 std::shared_ptr<outbound> out, bool stateless, json server_identity)
      : session_(std::move(s)),
        state_(std::move(state)),
        out_(std::move(out)),
        stateless_(stateless),
        identity_(std::move(server_identity)) {}
  const detail::session* owner() const { return session_.get(); }

  bool open_locked() const { return !ended_ && !state_->cancelled.load() && !session_->closed(); }

  void end(json result, const protocol_error* error) {
    std::shared_ptr<outbound> drop;
    std::unique_lock lock(mutex_);
    if (ended_) return;
    ended_ = true;
    state_->finished = true;
    session_->end_request(*state_);
    if (state_->cancelled.load() || session_->closed()) {  // no reply to a cancelled request
      queue_.clear();
      release_when_idle(drop);
      return;
    }
    if (error) {
      queue_.push_back(jsonrpc::error(state_->id, *error));
    } else {
      if (!result.is_object()) result = json::object();
      if (stateless_) {
        if (!result.contains("resultType")) result["resultType"] = "complete";
        result["_meta"][detail::meta_server_info] = identity_;
      }
      queue_.push_back(jsonrpc::response(state_->id, std::move(result)));
    }
    send_queued(lock, drop);
  }
  void end_silently() {
    std::shared_ptr<outbound> drop;
    std::lock_guard lock(mutex_);
    if (ended_) return;
    ended_ = true;
    state_->finished = true;
    session_->end_request(*state_);
    queue_.clear();
    release_when_idle(drop);
  }
  // Sends what is queued unless another thread is sending (it takes these along). Called with the
  // lock held; releases it while sending.
  void send_queued(std::unique_lock<std::mutex>& lock, std::shared_ptr<outbound>& drop) {
    if (sending_) return;
    sending_ = true;
    while (!queue_.empty() && out_) {
      json next = std::move(queue_.front());
      queue_.pop_front();
      auto out = out_;
      lock.unlock();
      try {
        out->send(next);
      } catch (...) {  // an outbound that throws loses this message, not the ones behind it
      }
      lock.lock();
    }
    sending_ = false;
    release_when_idle(drop);
  }
  // Once ended and drained, the outbound goes: a transport counts a request as in flight while its
  // reply channel lives (an HTTP graceful stop waits for it). It goes into `drop`, which the caller
  // declared before taking the lock: the outbound may hold the last reference to its connection,
  // whose close ends this stream again (end_listeners), which would wait for this lock forever.
  void release_when_idle(std::shared_ptr<outbound>& drop) {
    if (ended_ && !sending_ && queue_.empty()) drop = std::move(out_);
  }

  std::shared_ptr<detail::session> session_;
  std::shared_ptr<detail::request_state> state_;
  mutable std::mutex mutex_;
  std::shared_ptr<outbound> out_;
  std::deque<json> queue_;
  bool sending_ = false;
  bool ended_ = false;
  const bool stateless_;
  const json identity_;
  std::function<json()> server_end_;
};

}  // namespace v0
}  // namespace mcp
