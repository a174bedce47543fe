// Out-of-line bodies of transport/http.hpp, included once from its bottom.
// mcp::http::listener and serve(): the acceptor, the io threads, the handler threads, the idle
// session sweep, and an orderly stop. Connections live in detail/http_connection.hpp, the MCP
// endpoint in detail/http_endpoint.hpp, sessions and streams in detail/http_session.hpp.
#pragma once

#include <mcp/transport/detail/http_connection.hpp>
#include <mcp/transport/detail/http_endpoint.hpp>
#include <mcp/transport/detail/http_session.hpp>
#include <mcp/transport/detail/http_runners.hpp>

#include <asio/basic_socket_acceptor.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/generic/stream_protocol.hpp>
#include <asio/local/stream_protocol.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <asio/strand.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <cstdio>
#if defined(ASIO_HAS_LOCAL_SOCKETS) && !defined(_WIN32)
#include <sys/stat.h>
#endif

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

class listener_impl : public std::enable_shared_from_this<listener_impl> {
 public:
  using tcp = asio::ip::tcp;
  using generic = asio::generic::stream_protocol;

  // `external`: the io_context is the caller's, and handlers get threads of their own.
  listener_impl(server& srv, mcp::http::options opts, asio::io_context& io, bool external)
      : srv_(srv),
        opts_(std::move(opts)),
        io_(io),
        external_(external),
        handler_work_(asio::make_work_guard(handler_io_)),
        control_(asio::make_strand(io_)),
        acceptor_(control_),
        sweep_timer_(control_),
        retry_timer_(control_),
        drain_timer_(control_),
        handler_(srv_, opts_, [this](std::function<void()> job) { runners_.post(std::move(job)); }),
        stats_(handler_.impl_->stats()),
        runners_(external ? handler_io_ : io_, external ? opts_.workers : opts_.io_threads,
                 {opts_.workers, opts_.max_workers, opts_.stall_after},
                 opts_.inline_budget, [this](const std::string& text) { log_diagnostic(srv_.options(), text); }) {
    settings_.limits = opts_.limits;
    settings_.read_timeout = opts_.read_timeout;
    settings_.idle_timeout = opts_.idle_timeout;
    settings_.write_timeout = opts_.write_timeout;
    settings_.sse_keepalive = opts_.sse_keepalive;
    settings_.tls = std::static_pointer_cast<const tls_opener>(opts_.tls);  // the only kind of tls_setup
    // Its own loop runs until stopped. The caller's runs as long as the caller wants: a guard taken
    // and dropped there would even stop it (asio stops a loop whose work count falls to zero).
    if (!external_) work_.emplace(asio::make_work_guard(io_));
    bind();
  }

  ~listener_impl() {
    // Pending operations hold this object, so everything on the loop has let go of it.
    handler_work_.reset();
    if (handler_thread_.joinable()) handler_thread_.join();
    remove_socket_file();
  }

  // Hooks hold the listener weakly: a connection may outlive it on the caller's loop.
  void start() {
    std::weak_ptr<listener_impl> weak = weak_from_this();
    hooks_.on_request = [weak](const request& req, std::shared_ptr<exchange> ex) {
      if (auto self = weak.lock()) self->handler_.impl_->handle(req, ex);
    };
    hooks_.on_status = [weak](int status) {
      if (auto self = weak.lock()) self->stats_.count_status(status);
    };
    hooks_.on_closed = [weak](const void* c) {
      auto self = weak.lock();
      if (!self) return;
      std::lock_guard lock(self->connections_mutex_);
      if (self->connections_.erase(c)) --self->stats_.connections_open;
    };
    hooks_.log = [weak](std::string_view text) {
      if (auto self = weak.lock()) log_diagnostic(self->srv_.options(), text);
    };
    if (external_) handler_thread_ = std::thread([this] { runners_.run(); });
    asio::post(control_, [self = shared_from_this()] {
      self->accept();
      self->sweep();
    });
  }

  unsigned short port() const { return port_; }

  // Its own loop: returns once stopped and every handler has ended.
  void run() { runners_.run(); }

  // Also after a graceful shut_down: what it still waits to write is dropped.
  void stop() {
    stopping_ = true;
    if (stopped_.exchange(true)) return;
    asio::post(control_, [self = shared_from_this()] { self->shut_down(false); });
  }

  // Stops accepting, answers new requests 503, and stops once the running calls have answered
  // (their streams end after the final result) or `grace` is over; stop() cuts it short.
  void shutdown(std::chrono::milliseconds grace) {
    if (stopping_.exchange(true)) return;
    asio::post(control_, [self = shared_from_this(), grace] {
      asio::error_code ignored;
      self->acceptor_.close(ignored);
      self->remove_socket_file();
      self->handler_.start_draining();
      self->drain_deadline_ = std::chrono::steady_clock::now() + grace;
      self->wait_drained();
    });
  }

 private:
  void bind() {
    if (!opts_.unix_socket.empty()) return bind_unix();
    const std::string where = "mcp::http: cannot listen on " + opts_.host + ":" + std::to_string(opts_.port);
    asio::error_code ec;
    tcp::endpoint ep;
    const auto address = asio::ip::make_address(opts_.host, ec);
    if (!ec) {
      ep = tcp::endpoint(address, opts_.port);
    } else {
      tcp::resolver resolver(io_);
      auto results = resolver.resolve(opts_.host, std::to_string(opts_.port), ec);
      if (ec || results.empty()) throw std::system_error(ec ? ec : asio::error::host_not_found, where);
      ep = results.begin()->endpoint();
    }
    listen(generic::endpoint(ep), true, where);
    asio::error_code ignored;
    const generic::endpoint local = acceptor_.local_endpoint(ignored);
    tcp::endpoint bound;
    if (!ignored && local.size() <= bound.capacity()) {
      std::memcpy(bound.data(), local.data(), local.size());
      bound.resize(local.size());
      port_ = bound.port();
    }
  }

  void bind_unix() {
    const std::string where = "mcp::http: cannot listen on the Unix socket " + opts_.unix_socket;
#if defined(ASIO_HAS_LOCAL_SOCKETS)
#if !defined(_WIN32)  // (Windows has no portable test for "this file is a socket": a stale one stays)
    struct stat st {};
    if (::lstat(opts_.unix_socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode))
      std::remove(opts_.unix_socket.c_str());  // left by a process that ended without cleaning up
#endif
    listen(generic::endpoint(asio::local::stream_protocol::endpoint(opts_.unix_socket)), false, where);
    owns_socket_file_ = true;
#else
    throw std::system_error(asio::error::operation_not_supported, where);
#endif
  }

  void listen(const generic::endpoint& ep, bool reuse, const std::string& where) {
    asio::error_code ec;
    acceptor_.open(ep.protocol(), ec);
    if (!ec && reuse) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw std::system_error(ec, where);
  }

  void remove_socket_file() {
#if defined(ASIO_HAS_LOCAL_SOCKETS)
    if (owns_socket_file_) std::remove(opts_.unix_socket.c_str());
    owns_socket_file_ = false;
#endif
  }

  void accept() {
    if (stopping_) return;
    auto strand = asio::make_strand(io_);
    acceptor_.async_accept(strand, [self = shared_from_this(), strand](asio::error_code ec, generic::socket socket) {
      self->accepted(ec, std::move(socket), strand);
    });
  }

  void accepted(asio::error_code ec, generic::socket socket, const asio::strand<asio::io_context::executor_type>& strand) {
    try {
      if (stopping_ || !acceptor_.is_open()) return;
      if (ec) {
        // Out of descriptors and the like: say so, breathe, try again.
        log_diagnostic(srv_.options(), "http: accept failed: " + ec.message());
        retry_timer_.expires_after(std::chrono::milliseconds(100));
        retry_timer_.async_wait([self = shared_from_this()](asio::error_code e) {
          if (!e) self->accept();
        });
        return;
      }
      bool full = false;
      {
        std::lock_guard lock(connections_mutex_);  // only this handler adds: the count can only fall
        full = opts_.max_connections != 0 && connections_.size() >= opts_.max_connections;
      }
      if (full) {
        asio::error_code ignored;
        if (opts_.tls) socket.close(ignored);  // an answer would need a handshake: the cap saves that too
        else refuse_busy(std::move(socket), strand);
        accept();
        return;
      }
      auto c = std::make_shared<connection>(std::move(socket), strand, settings_, hooks_);
      {
        std::lock_guard lock(connections_mutex_);
        connections_[c.get()] = c;
      }
      ++stats_.connections_total;
      ++stats_.connections_open;
      c->start();
    } catch (const std::exception& e) {
      log_diagnostic(srv_.options(), std::string("http: accept handler failed: ") + e.what());
    }
    accept();
  }

  // One connection past max_connections: a 503 the client can read (its request, if any, is read and
  // dropped, so closing does not reset the answer away), then closed; two seconds at most.
  void refuse_busy(generic::socket socket, const asio::strand<asio::io_context::executor_type>& strand) {
    static const std::string busy = [] {
      const std::string body = R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Too many connections: )"
                               R"(try again in a moment"}})";
      return "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\nContent-Length: " +
             std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    }();
    stats_.count_status(503);
    struct refusal {
      generic::socket socket;
      asio::steady_timer deadline;
      char sink[512];
      void drain(std::shared_ptr<refusal> self) {
        socket.async_read_some(asio::buffer(sink), [self](asio::error_code ec, std::size_t) {
          if (ec) return self->close();
          self->drain(self);
        });
      }
      void close() {
        asio::error_code ignored;
        deadline.cancel();
        socket.close(ignored);
      }
    };
    auto r = std::make_shared<refusal>(refusal{std::move(socket), asio::steady_timer(strand), {}});
    r->deadline.expires_after(std::chrono::seconds(2));
    r->deadline.async_wait([r](asio::error_code ec) {
      if (!ec) r->close();
    });
    asio::async_write(r->socket, asio::buffer(busy), [r](asio::error_code ec, std::size_t) {
      if (ec) return r->close();
      asio::error_code ignored;
      r->socket.shutdown(asio::socket_base::shutdown_send, ignored);
      r->drain(r);
    });
  }

  // Idle sessions expire on a timer that ticks a few times per timeout.
  void sweep() {
    if (stopping_) return;
    try {
      handler_.impl_->expire_idle();
    } catch (const std::exception& e) {
      log_diagnostic(srv_.options(), std::string("http: session sweep failed: ") + e.what());
    }
    const auto tick = std::clamp<std::chrono::milliseconds>(
        std::chrono::duration_cast<std::chrono::milliseconds>(opts_.session_idle_timeout) / 4,
        std::chrono::milliseconds(50), std::chrono::milliseconds(30000));
    sweep_timer_.expires_after(tick);
    sweep_timer_.async_wait([self = shared_from_this()](asio::error_code ec) {
      if (!ec) self->sweep();
    });
  }

  // On the control strand. Polled: replies end on handler threads, and 20 ms is soon enough.
  void wait_drained() {
    if (stopped_ || closing_) return;
    if (handler_.requests_in_flight() > 0 && std::chrono::steady_clock::now() < drain_deadline_) {
      drain_timer_.expires_after(std::chrono::milliseconds(20));
      drain_timer_.async_wait([self = shared_from_this()](asio::error_code ec) {
        if (!ec) self->wait_drained();
      });
      return;
    }
    shut_down(true);
    if (opts_.write_timeout.count() > 0) wait_written(std::chrono::steady_clock::now() + opts_.write_timeout);
  }

  // On the control strand, after a graceful shut_down: connections still writing to a client that
  // reads slowly get until `deadline`, then are closed as by stop(). Polled, and only while one is
  // open, so the loop ends as soon as the last one does.
  void wait_written(std::chrono::steady_clock::time_point deadline) {
    if (stopped_) return;
    std::size_t open = 0;
    {
      std::lock_guard lock(connections_mutex_);
      open = connections_.size();
    }
    if (open == 0) return;
    if (std::chrono::steady_clock::now() >= deadline) {
      log_diagnostic(srv_.options(), "http: " + std::to_string(open) +
                                         " connection(s) closed with their answers unsent, write_timeout after "
                                         "the grace");
      return stop();
    }
    drain_timer_.expires_after(std::chrono::milliseconds(20));
    drain_timer_.async_wait([self = shared_from_this(), deadline](asio::error_code ec) {
      if (!ec) self->wait_written(deadline);
    });
  }

  // On the control strand: no new connections or sessions, everything open is closed (`graceful`:
  // once what is queued on it was written); its own io_context's run returns once the last
  // handler is done, and so do the handler threads. Not graceful also after a graceful one: the
  // connections still open are closed at once.
  void shut_down(bool graceful) {
    closing_ = true;
    asio::error_code ignored;
    acceptor_.close(ignored);
    remove_socket_file();
    sweep_timer_.cancel();
    retry_timer_.cancel();
    drain_timer_.cancel();
    handler_.close();
    std::vector<std::shared_ptr<connection>> open;
    {
      std::lock_guard lock(connections_mutex_);
      for (auto& [key, c] : connections_) open.push_back(c);
    }
    for (auto& c : open) graceful ? c->finish() : c->stop();
    if (work_) work_->reset();
    handler_work_.reset();
  }

  server& srv_;
  const mcp::http::options opts_;
  asio::io_context& io_;  // sockets and timers
  const bool external_;
  // Handlers' own loop when io_ is the caller's (unused otherwise): destroyed after the runners.
  asio::io_context handler_io_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  asio::executor_work_guard<asio::io_context::executor_type> handler_work_;
  asio::strand<asio::io_context::executor_type> control_;
  asio::basic_socket_acceptor<generic> acceptor_;
  asio::steady_timer sweep_timer_;
  asio::steady_timer retry_timer_;
  asio::steady_timer drain_timer_;
  std::chrono::steady_clock::time_point drain_deadline_;
  unsigned short port_ = 0;
  bool owns_socket_file_ = false;
  std::atomic<bool> stopping_{false};  // stop() or shutdown() was called
  std::atomic<bool> stopped_{false};   // stop() was called: shut_down(false) is under way
  bool closing_ = false;               // shut_down() ran (control strand only)
  mcp::http::handler handler_;  // the endpoint; this listener is one host of it
  transport_stats& stats_;
  connection_settings settings_;
  connection_hooks hooks_;
  std::mutex connections_mutex_;
  // Owned here until closed: a connection waiting on a handler has no asio operation holding it.
  std::map<const void*, std::shared_ptr<connection>> connections_;
  // Declared last so its threads end first: handlers still running may use everything above.
  runners runners_;
  std::thread handler_thread_;  // the caller's loop: runs the runners
};

}  // namespace http
}  // namespace detail

namespace http {

MCP_DECL listener::listener(mcp::server& srv, options opts) : own_io_(std::make_unique<asio::io_context>()) {
  impl_ = std::make_shared<detail::http::listener_impl>(srv, std::move(opts), *own_io_, false);
  impl_->start();
}

MCP_DECL listener::listener(mcp::server& srv, asio::io_context& io, options opts)
    : impl_(std::make_shared<detail::http::listener_impl>(srv, std::move(opts), io, true)) {}

// Its own loop: the handlers still queued there hold the listener; destroying the loop lets them go.
MCP_DECL listener::~listener() {
  impl_->stop();
  impl_.reset();
  own_io_.reset();
}

MCP_DECL unsigned short listener::port() const { return impl_->port(); }
MCP_DECL void listener::run() { impl_->run(); }
MCP_DECL void listener::start() { impl_->start(); }
MCP_DECL void listener::stop() { impl_->stop(); }
MCP_DECL void listener::shutdown(std::chrono::milliseconds grace) { impl_->shutdown(grace); }

MCP_DECL int serve(mcp::server& srv, options opts) {
  try {
    const std::string host = opts.host.find(':') != std::string::npos ? "[" + opts.host + "]" : opts.host;
    const std::string path = opts.path;
    const std::string unix_socket = opts.unix_socket;
    const std::chrono::milliseconds grace = opts.shutdown_grace;
    const bool tls = static_cast<bool>(opts.tls);
    listener l(srv, std::move(opts));
    // Signals are waited for on a context of their own, so the listener's stays private.
    asio::io_context signal_io;
    asio::signal_set signals(signal_io, SIGINT, SIGTERM);
    // The first signal stops gracefully; a second one stops at once.
    bool grace_started = false;
    std::function<void(asio::error_code, int)> on_signal = [&](asio::error_code ec, int) {
      if (ec) return;
      if (grace_started) return l.stop();
      grace_started = true;
      l.shutdown(grace);
      signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);
    std::thread signal_thread([&signal_io] { signal_io.run(); });
    detail::log_diagnostic(srv.options(), unix_socket.empty()
                                              ? std::string("serving MCP over HTTP at ") + (tls ? "https://" : "http://") +
                                                    host + ":" + std::to_string(l.port()) + path
                                              : "serving MCP over HTTP on the Unix socket " + unix_socket + ", at " + path);
    l.run();
    asio::error_code ignored;
    signals.cancel(ignored);
    signal_io.stop();
    signal_thread.join();
    return 0;
  } catch (const std::exception& e) {
    detail::log_diagnostic(srv.options(), e.what());
    return 1;
  }
}

MCP_DECL std::optional<std::pair<std::string, unsigned short>> parse_host_port(std::string_view text) {
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') return std::nullopt;
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    if (host.find(':') == std::string_view::npos) return std::nullopt;
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) return std::nullopt;  // IPv6 needs brackets
  }
  if (host.empty() || port.empty() || port.size() > 5) return std::nullopt;
  for (char c : host)
    if (static_cast<unsigned char>(c) <= 0x20 || c == '/' || c == '[' || c == ']' || c == '@') return std::nullopt;
  unsigned value = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > 65535) return std::nullopt;
  return std::make_pair(std::string(host), static_cast<unsigned short>(value));
}

}  // namespace http
}  // namespace v0
}  // namespace mcp
