// Out-of-line bodies of transport/http.hpp, included once from its bottom.
// mcp::http::listener and serve(): the acceptor, the io threads, the handler threads, the idle
// session sweep, and an orderly stop. Connections live in detail/http_connection.hpp, the MCP
// endpoint in detail/http_endpoint.hpp, sessions and streams in detail/http_session.hpp.
#pragma once

#include <mcp/transport/detail/http_connection.hpp>
#include <mcp/transport/detail/http_endpoint.hpp>
#include <mcp/transport/detail/http_session.hpp>
#include <mcp/transport/detail/http_runners.hpp>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/signal_set.hpp>
#include <asio/steady_timer.hpp>
#include <asio/strand.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

class listener_impl {
 public:
  using tcp = asio::ip::tcp;

  listener_impl(server& srv, mcp::http::options opts)
      : srv_(srv),
        opts_(std::move(opts)),
        work_(asio::make_work_guard(io_)),
        control_(asio::make_strand(io_)),
        acceptor_(control_),
        sweep_timer_(control_),
        retry_timer_(control_),
        handler_(srv_, opts_, [this](std::function<void()> job) { runners_.post(std::move(job)); }),
        stats_(handler_.impl_->stats()),
        runners_(io_, opts_.io_threads, opts_.workers, opts_.inline_budget,
                 [this](const std::string& text) { log_diagnostic(srv_.options(), text); }) {
    settings_.limits = opts_.limits;
    settings_.read_timeout = opts_.read_timeout;
    settings_.idle_timeout = opts_.idle_timeout;
    hooks_.on_request = [this](request req, std::shared_ptr<exchange> ex) { handler_.impl_->handle(req, ex); };
    hooks_.on_status = [this](int status) { stats_.count_status(status); };
    hooks_.on_closed = [this](const void* c) {
      std::lock_guard lock(connections_mutex_);
      if (connections_.erase(c)) --stats_.connections_open;
    };
    hooks_.log = [this](std::string_view text) { log_diagnostic(srv_.options(), text); };
    bind();
    asio::post(control_, [this] {
      accept();
      sweep();
    });
  }

  ~listener_impl() { stop(); }

  unsigned short port() const { return port_; }

  // Returns once stopped and every handler has ended.
  void run() { runners_.run(); }

  void stop() {
    if (stopping_.exchange(true)) return;
    asio::post(control_, [this] { shut_down(); });
  }

 private:
  void bind() {
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
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw std::system_error(ec, where);
    port_ = acceptor_.local_endpoint().port();
  }

  void accept() {
    if (stopping_) return;
    auto strand = asio::make_strand(io_);
    acceptor_.async_accept(strand, [this, strand](asio::error_code ec, tcp::socket socket) {
      try {
        if (stopping_ || !acceptor_.is_open()) return;
        if (ec) {
          // Out of descriptors and the like: say so, breathe, try again.
          log_diagnostic(srv_.options(), "http: accept failed: " + ec.message());
          retry_timer_.expires_after(std::chrono::milliseconds(100));
          retry_timer_.async_wait([this](asio::error_code e) {
            if (!e) accept();
          });
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
    sweep_timer_.async_wait([this](asio::error_code ec) {
      if (!ec) sweep();
    });
  }

  // On the control strand: no new connections or sessions, everything open is closed, and
  // io_context::run returns once the last handler is done.
  void shut_down() {
    asio::error_code ignored;
    acceptor_.close(ignored);
    sweep_timer_.cancel();
    retry_timer_.cancel();
    handler_.close();
    std::vector<std::shared_ptr<connection>> open;
    {
      std::lock_guard lock(connections_mutex_);
      for (auto& [key, c] : connections_) open.push_back(c);
    }
    for (auto& c : open) c->stop();
    work_.reset();
  }

  server& srv_;
  const mcp::http::options opts_;
  // Declared first so it is destroyed last: queued handlers still hold connections.
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  asio::strand<asio::io_context::executor_type> control_;
  tcp::acceptor acceptor_;
  asio::steady_timer sweep_timer_;
  asio::steady_timer retry_timer_;
  unsigned short port_ = 0;
  std::atomic<bool> stopping_{false};
  mcp::http::handler handler_;  // the endpoint; this listener is one host of it
  transport_stats& stats_;
  connection_settings settings_;
  connection_hooks hooks_;
  std::mutex connections_mutex_;
  // Owned here until closed: a connection waiting on a handler has no asio operation holding it.
  std::map<const void*, std::shared_ptr<connection>> connections_;
  // Declared last so its threads end first: handlers still running may use everything above.
  runners runners_;
};

}  // namespace http
}  // namespace detail

namespace http {

inline listener::listener(mcp::server& srv, options opts)
    : impl_(std::make_shared<detail::http::listener_impl>(srv, std::move(opts))) {}

inline listener::~listener() = default;

inline unsigned short listener::port() const { return impl_->port(); }
inline void listener::run() { impl_->run(); }
inline void listener::stop() { impl_->stop(); }

inline int serve(mcp::server& srv, options opts) {
  try {
    const std::string host = opts.host.find(':') != std::string::npos ? "[" + opts.host + "]" : opts.host;
    const std::string path = opts.path;
    listener l(srv, std::move(opts));
    // Signals are waited for on a context of their own, so the listener's stays private.
    asio::io_context signal_io;
    asio::signal_set signals(signal_io, SIGINT, SIGTERM);
    signals.async_wait([&l](asio::error_code ec, int) {
      if (!ec) l.stop();
    });
    std::thread signal_thread([&signal_io] { signal_io.run(); });
    detail::log_diagnostic(srv.options(), "serving MCP over HTTP at http://" + host + ":" + std::to_string(l.port()) + path);
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

inline std::optional<std::pair<std::string, unsigned short>> parse_host_port(std::string_view text) {
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
