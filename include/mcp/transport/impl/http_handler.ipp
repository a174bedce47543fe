// Out-of-line bodies of transport/http_handler.hpp, included once from its bottom.
#pragma once

#include <mcp/transport/detail/http_endpoint.hpp>
#include <mcp/transport/detail/http_session.hpp>
#include <mcp/transport/detail/thread_pool.hpp>

#include <algorithm>
#include <exception>
#include <thread>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

MCP_DECL endpoint_config make_endpoint_config(const mcp::http::handler_options& o) {
  endpoint_config c;
  c.path = o.path;
  c.stateless = o.stateless;
  c.get_stream = o.get_stream;
  c.validate_origin = o.validate_origin;
  c.allowed_origins = o.allowed_origins;
  c.allowed_hosts = o.allowed_hosts;
  c.retry_ms = static_cast<int>(std::min<long long>(o.retry.count(), 24LL * 3600 * 1000));
  c.replay_events = o.replay_events;
  c.authorize = o.authorize;
  c.protected_resource_metadata = o.protected_resource_metadata;
  c.metrics = o.metrics;
  c.event_store = o.event_store;
  c.max_sessions = o.max_sessions;
  return c;
}

// The endpoint with what it needs around it. Standalone (no executor given), it owns the threads
// handlers run on and a thread that expires idle sessions; the listener brings both of its own.
class handler_impl {
 public:
  handler_impl(server& srv, const mcp::http::handler_options& opts, executor run)
      : srv_(srv),
        idle_timeout_(opts.session_idle_timeout),
        run_(run ? std::move(run) : own_threads(opts)),
        sessions_(srv, opts.max_sessions, opts.session_idle_timeout, opts.replay_events, run_, opts.event_store),
        endpoint_(srv, make_endpoint_config(opts), sessions_, stats_, run_) {
    if (pool_) sweeper_ = std::thread([this] { sweep_until_closed(); });
  }

  ~handler_impl() {
    close();
    if (sweeper_.joinable()) sweeper_.join();
    if (pool_) pool_->join();  // what is queued still runs: it answers into closed sessions
  }

  void handle(const request& req, const std::shared_ptr<exchange>& out) { endpoint_.handle(req, out); }

  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    changed_.notify_all();
    sessions_.close_all();
    endpoint_.close();
  }

  void start_draining() { endpoint_.start_draining(); }
  std::size_t requests_in_flight() const { return endpoint_.requests_in_flight(); }

  std::size_t expire_idle() { return sessions_.expire_idle(); }
  std::size_t sessions_open() const { return sessions_.size(); }
  transport_stats& stats() { return stats_; }
  const executor& run() const { return run_; }

 private:
  executor own_threads(const mcp::http::handler_options& opts) {
    thread_pool::limits limits;
    limits.workers = opts.workers;
    limits.max_threads = opts.max_workers;
    limits.stall_after = opts.stall_after;
    pool_ = std::make_unique<thread_pool>(limits);
    return [this](std::function<void()> job) {
      pool_->post([this, job = std::move(job)] {
        try {
          job();
        } catch (const std::exception& e) {
          log_diagnostic(srv_.options(), std::string("http: a handler threw: ") + e.what());
        } catch (...) {
          log_diagnostic(srv_.options(), "http: a handler threw");
        }
      });
    };
  }

  void sweep_until_closed() {
    const auto tick = std::clamp<std::chrono::milliseconds>(
        std::chrono::duration_cast<std::chrono::milliseconds>(idle_timeout_) / 4, std::chrono::milliseconds(50),
        std::chrono::milliseconds(30000));
    std::unique_lock lock(mutex_);
    while (!changed_.wait_for(lock, tick, [this] { return closed_; })) {
      lock.unlock();
      try {
        sessions_.expire_idle();
      } catch (const std::exception& e) {
        log_diagnostic(srv_.options(), std::string("http: session sweep failed: ") + e.what());
      }
      lock.lock();
    }
  }

  server& srv_;
  const std::chrono::seconds idle_timeout_;
  std::unique_ptr<thread_pool> pool_;  // set by own_threads, before run_ is used
  executor run_;
  transport_stats stats_;
  session_table sessions_;
  endpoint endpoint_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool closed_ = false;
  std::thread sweeper_;
};

}  // namespace http
}  // namespace detail

namespace http {

MCP_DECL handler::handler(mcp::server& srv, handler_options opts)
    : impl_(std::make_unique<detail::http::handler_impl>(srv, opts, executor{})) {}
MCP_DECL handler::handler(mcp::server& srv, handler_options opts, executor run)
    : impl_(std::make_unique<detail::http::handler_impl>(srv, opts, std::move(run))) {}
MCP_DECL handler::~handler() = default;

MCP_DECL void handler::handle(const request& req, std::shared_ptr<response_writer> out) { impl_->handle(req, out); }

MCP_DECL std::shared_ptr<blocking_writer> handler::handle_blocking(const request& req) {
  auto out = std::make_shared<blocking_writer>(impl_->run());
  impl_->handle(req, out);
  out->wait_head();
  return out;
}

MCP_DECL void handler::close() { impl_->close(); }
MCP_DECL void handler::start_draining() { impl_->start_draining(); }
MCP_DECL std::size_t handler::requests_in_flight() const { return impl_->requests_in_flight(); }

MCP_DECL bool handler::drain(std::chrono::milliseconds grace) {
  start_draining();
  const auto deadline = std::chrono::steady_clock::now() + grace;
  // Polled: a reply ends on whichever thread writes it, and nothing here is worth a wake-up path.
  while (requests_in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool finished = requests_in_flight() == 0;
  close();
  return finished;
}
MCP_DECL std::size_t handler::sessions_open() const { return impl_->sessions_open(); }

// ---- blocking_writer ----

MCP_DECL blocking_writer::blocking_writer(executor later) : later_(std::move(later)) {}

MCP_DECL const response& blocking_writer::wait_head() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return has_head_; });
  return head_;
}

MCP_DECL bool blocking_writer::streaming() const {
  std::lock_guard lock(mutex_);
  return streaming_;
}

MCP_DECL blocking_writer::pulled blocking_writer::pull(std::string& out, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [this] { return !pending_.empty() || ended_; });
  if (!pending_.empty()) {
    out += pending_;
    pending_.clear();
    return pulled::bytes;
  }
  return ended_ ? pulled::ended : pulled::idle;
}

MCP_DECL void blocking_writer::client_gone() {
  std::function<void()> fn;
  {
    std::lock_guard lock(mutex_);
    if (gone_ || (ended_ && pending_.empty())) return;
    gone_ = ended_ = true;
    pending_.clear();
    fn.swap(on_disconnect_);
  }
  changed_.notify_all();
  if (fn) fn();
}

MCP_DECL void blocking_writer::respond(response r) {
  {
    std::lock_guard lock(mutex_);
    if (has_head_) return;
    head_ = std::move(r);
    has_head_ = ended_ = true;
  }
  changed_.notify_all();
}

MCP_DECL void blocking_writer::start_stream(response head) {
  {
    std::lock_guard lock(mutex_);
    if (has_head_) return;
    if (!head.headers.contains("Content-Type")) head.headers.set("Content-Type", "text/event-stream");
    if (!head.headers.contains("Cache-Control")) head.headers.set("Cache-Control", "no-cache");
    head_ = std::move(head);
    has_head_ = streaming_ = true;
  }
  changed_.notify_all();
}

MCP_DECL void blocking_writer::write(std::string sse_bytes) {
  {
    std::lock_guard lock(mutex_);
    if (!streaming_ || ended_) return;
    pending_ += sse_bytes;
  }
  changed_.notify_all();
}

MCP_DECL void blocking_writer::end() {
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    ended_ = true;
    on_disconnect_ = nullptr;
    if (!has_head_) {  // ended before anything: an empty stream
      has_head_ = streaming_ = true;
      head_.headers.set("Content-Type", "text/event-stream");
    }
  }
  changed_.notify_all();
}

MCP_DECL void blocking_writer::on_disconnect(std::function<void()> fn) {
  std::unique_lock lock(mutex_);
  if (!gone_) {
    if (!ended_) on_disconnect_ = std::move(fn);
    return;
  }
  lock.unlock();
  later_(std::move(fn));  // never inline: the caller may hold the lock fn takes
}

}  // namespace http
}  // namespace v0
}  // namespace mcp
