// One HTTP/1.1 connection on asio: reads and parses requests, hands them out one at a time, and
// writes their responses in order (keep-alive and pipelining), whole or as a stream (SSE).
//
// Choices:
// - Pipelined requests are served one after another: the next is parsed only when the current
//   response has ended. Responses therefore leave in request order without reordering buffers.
//   Bytes that arrive meanwhile wait (up to limits.max_pending_input, then reading pauses).
// - Everything a connection does runs on its strand. Work from other threads (handler replies)
//   reaches it through exchange calls, which post onto the strand; nothing else touches it. A
//   handler that answers on the strand, while its request is dispatched, is served at once.
// - Writes are queued and gathered into one async_write per round, without copying. A body larger
//   than kept_wire_capacity is written from the response itself (never copied into wire_), and
//   what the socket does not take is queued by moving it: a connection holds a large answer once,
//   and only until it is sent.
// - Timers: idle_timeout between requests; read_timeout from the first byte of a request until it
//   is whole (a slowloris client gets 408 and is cut off); none while a response is in progress.
//   While bytes wait for the client, write_timeout from the last bytes it took: a client that
//   stops reading is closed, and what was queued for it let go.
// - End of input while a response is pending is a half-close: the response is finished, then the
//   connection closes. During a stream it means the client left: the stream lets go of it.
// - A connection that must close after an error response shuts down its sending side and drains
//   input briefly (lingering close), so the client reads the response rather than a reset.
#pragma once

#include <mcp/transport/detail/http_parser.hpp>
#include <mcp/transport/detail/http_session.hpp>

#include <asio/bind_executor.hpp>
#include <asio/io_context.hpp>
#include <asio/generic/stream_protocol.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/strand.hpp>
#include <asio/write.hpp>

#include <array>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/ioctl.h>
#endif

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

// TLS over a connection's socket (transport/https.hpp makes one, over OpenSSL): once its handshake
// is done, the connection reads and writes through it. Without one, the socket is used directly.
// Called on the connection's strand only; completions come there too.
class tls_layer {
 public:
  using done = std::function<void(asio::error_code, std::size_t)>;
  virtual ~tls_layer() = default;
  virtual void async_handshake(std::function<void(asio::error_code)> fn) = 0;
  virtual void async_read_some(asio::mutable_buffer into, done fn) = 0;
  // All of it; `progress` is called on the strand each time some of it was written.
  virtual void async_write(std::vector<asio::const_buffer> from, done fn, std::function<void()> progress) = 0;
};

// What a public mcp::http::tls_setup is (https.hpp makes the one kind there is, over OpenSSL):
// opens each connection's TLS layer. Called from every connection's strand at once.
class tls_opener : public ::mcp::http::tls_setup {
 public:
  virtual std::unique_ptr<tls_layer> open(asio::generic::stream_protocol::socket& socket) const = 0;
};

struct connection_settings {
  http_limits limits;
  std::chrono::milliseconds read_timeout{30000};
  std::chrono::milliseconds idle_timeout{120000};
  std::chrono::milliseconds write_timeout{30000};  // zero: never
  std::chrono::milliseconds sse_keepalive{15000};  // zero: never
  std::shared_ptr<const tls_opener> tls;           // null: plain HTTP
};

// What a connection reports to its owner. Every hook is called on the connection's strand.
struct connection_hooks {
  // The request lives in the connection's parser until the next one is read: copy what must outlive the call.
  std::function<void(const request&, std::shared_ptr<exchange>)> on_request;
  std::function<void(int status)> on_status;      // every final status sent
  std::function<void(const void* conn)> on_closed;
  std::function<void(std::string_view)> log;
};

class connection;

// The exchange of the request a connection is serving.
class connection_exchange final : public exchange, public std::enable_shared_from_this<connection_exchange> {
 public:
  using strand_type = asio::strand<asio::io_context::executor_type>;

  connection_exchange(std::weak_ptr<connection> conn, strand_type strand)
      : conn_(std::move(conn)), strand_(std::move(strand)) {}

  void respond(response r) override;
  void start_stream(response head) override;
  void write(std::string sse_bytes) override;
  void end() override;

  void on_disconnect(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    if (!disconnected_) {
      on_disconnect_ = std::move(fn);
      return;
    }
    lock.unlock();
    // Never call back inline: the caller may hold the lock fn takes.
    asio::post(strand_, std::move(fn));
  }

  // From the connection, on its strand.
  void disconnected() {
    std::function<void()> fn;
    {
      std::lock_guard lock(mutex_);
      if (disconnected_) return;
      disconnected_ = true;
      ended_ = true;
      fn.swap(on_disconnect_);
    }
    if (fn) fn();
  }
  void ended() {
    std::lock_guard lock(mutex_);
    ended_ = true;
    on_disconnect_ = nullptr;
  }

 private:
  template <class Fn>
  void post(Fn&& fn);
  bool live() {
    std::lock_guard lock(mutex_);
    return !ended_;
  }
  bool mark_ended() {
    std::lock_guard lock(mutex_);
    if (ended_) return false;
    ended_ = true;
    return true;
  }

  std::weak_ptr<connection> conn_;
  strand_type strand_;
  std::mutex mutex_;
  bool ended_ = false;
  bool disconnected_ = false;
  std::function<void()> on_disconnect_;
};

class connection : public std::enable_shared_from_this<connection> {
 public:
  using tcp = asio::ip::tcp;
  using socket_type = asio::generic::stream_protocol::socket;  // TCP or a Unix domain socket
  using strand_type = connection_exchange::strand_type;

  // The socket must have been opened on `strand`.
  connection(socket_type socket, strand_type strand, const connection_settings& settings, const connection_hooks& hooks)
      : strand_(std::move(strand)),
        socket_(std::move(socket)),
        timer_(strand_),
        settings_(settings),
        hooks_(hooks),
        parser_(settings.limits),
        tls_(settings.tls ? settings.tls->open(socket_) : nullptr) {}

  void start() {
    asio::post(strand_, [self = shared_from_this()] {
      self->guard([&] {
        asio::error_code ignored;
        self->socket_.set_option(tcp::no_delay(true), ignored);  // fails harmlessly on a Unix socket
        self->socket_.non_blocking(true, ignored);  // flush() writes what the socket takes at once
        if (!self->tls_) {
          self->arm_timer(self->settings_.idle_timeout, timer_kind::idle);
          return self->read();
        }
        // The handshake must be over within read_timeout, like a request.
        self->arm_timer(self->settings_.read_timeout, timer_kind::handshake);
        self->tls_->async_handshake([self](asio::error_code ec) {
          self->guard([&] {
            if (self->closed_) return;
            if (ec) return self->close();
            self->arm_timer(self->settings_.idle_timeout, timer_kind::idle);
            self->read();
          });
        });
      });
    });
  }

  // Thread-safe: closes the connection (the client on a stream is let go).
  void stop() {
    asio::post(strand_, [self = shared_from_this()] { self->guard([&] { self->close(); }); });
  }
  // Closes once what is queued was written: a final result answered just before a graceful
  // shutdown reaches its client.
  void finish() {
    asio::post(strand_, [self = shared_from_this()] { self->guard([&] { self->finish_or_close(); }); });
  }

 private:
  friend class connection_exchange;
  enum class timer_kind { idle, read, linger, keepalive, handshake };

  static constexpr std::chrono::milliseconds linger_time{2000};
  // wire_ keeps its storage from one response to the next for bodies up to this (a response then
  // costs no allocation), the rule the parser follows for a request's body (kept_body_capacity);
  // a larger body is written from the response itself, so an idle keep-alive connection holds no
  // copy of its last large answer (twelve connections after a 7 MB answer held 100 MB before).
  static constexpr std::size_t kept_wire_capacity = request_parser::kept_body_capacity;

  // No exception may reach asio: report it and drop the connection.
  template <class Fn>
  void guard(Fn&& fn) noexcept {
    try {
      fn();
    } catch (const std::exception& e) {
      report(std::string("http connection error: ") + e.what());
      close_quietly();
    } catch (...) {
      report("http connection error: unknown exception");
      close_quietly();
    }
  }
  void report(const std::string& text) noexcept {
    try {
      if (hooks_.log) hooks_.log(text);
    } catch (...) {
    }
  }
  void close_quietly() noexcept {
    try {
      close();
    } catch (...) {
    }
  }

  // ---- reading -------------------------------------------------------------------------------

  void read() {
    // (Not while requests are parsed from read_buffer_: on_read reads again once they are.)
    if (reading_ || closed_ || input_done_ || parsing_read_buffer_) return;
    if (current_ && pending_.size() >= settings_.limits.max_pending_input) return;  // resumed when the response ends
    reading_ = true;
    auto on_read = [self = shared_from_this()](asio::error_code ec, std::size_t n) {
      self->guard([&] { self->on_read(ec, n); });
    };
    if (tls_) return tls_->async_read_some(asio::buffer(read_buffer_), std::move(on_read));
    socket_.async_read_some(asio::buffer(read_buffer_), std::move(on_read));
  }

  void on_read(asio::error_code ec, std::size_t n) {
    reading_ = false;
    if (closed_) return;
    if (lingering_) {
      if (ec) close();
      else read();
      return;
    }
    if (ec) {
      input_done_ = true;
      if (ec != asio::error::eof) return close();
      if (!current_) return finish_or_close();
      if (streaming_) return close();  // the client left its stream
      return;  // half-close: the pending response still goes out
    }
    if (pending_.empty()) {
      // The usual case: requests parsed where they were read, what waits behind the current one
      // (pipelined bytes) kept in pending_.
      std::string_view fresh(read_buffer_.data(), n);
      parsing_read_buffer_ = true;
      process(fresh);
      parsing_read_buffer_ = false;
      if (!fresh.empty() && !closed_) pending_.append(fresh.data(), fresh.size());
    } else {
      pending_.append(read_buffer_.data(), n);
      process();
    }
    read();
  }

  // Parses and dispatches the next request, if idle and one is there. A response given while its
  // request is being dispatched (a quick handler answers at once, on this strand) ends up here
  // again through finish_exchange: this loop then goes on, rather than recursing once per
  // pipelined request.
  void process() {
    if (processing_) return;
    std::string_view input = pending_;
    process(input);
    pending_.erase(0, pending_.size() - input.size());
  }

  // The same over `input`, which it takes from the front as it parses.
  void process(std::string_view& input) {
    if (processing_) return;
    processing_ = true;
    struct done_processing {
      bool& flag;
      ~done_processing() { flag = false; }
    } reset{processing_};
    while (!current_ && !closed_ && !close_after_write_) {
      if (input.empty()) {
        if (input_done_) return finish_or_close();
        if (!request_started_) arm_timer(settings_.idle_timeout, timer_kind::idle);
        return;
      }
      std::size_t used = 0;
      const auto result = parser_.feed(input, used);
      input.remove_prefix(used);
      if (result == request_parser::result::complete) {
        parser_.take_continue();  // the body is already here: no 100 Continue needed
        request_started_ = false;
        dispatch(parser_.completed());
        continue;
      }
      if (result == request_parser::result::error) {
        request_started_ = false;
        fail(error_response(parser_.error()));
        return;
      }
      if (parser_.take_continue()) queue(std::string(continue_response()));
      if (!request_started_) {
        request_started_ = true;
        arm_timer(settings_.read_timeout, timer_kind::read);
      }
    }
  }

  void dispatch(const request& req) {
    cancel_timer();
    keep_alive_ = req.keep_alive();
    minor_version_ = req.minor_version;
    head_request_ = req.method == "HEAD";
    current_ = std::make_shared<connection_exchange>(weak_from_this(), strand_);
    auto ex = current_;
    try {
      hooks_.on_request(req, ex);
    } catch (const std::exception& e) {
      report(std::string("http request handler failed: ") + e.what());
      response r;
      r.status = 500;
      r.headers.add("Content-Type", "text/plain; charset=utf-8");
      r.body = "internal error\n";
      ex->respond(std::move(r));
    }
  }

  // An error that ends the connection after its response.
  void fail(response r) {
    r.headers.set("Connection", "close");
    count(r.status);
    queue(serialize(r));
    close_after_write_ = true;
    if (!writing_) linger();
  }

  // Input ended with nothing left to serve.
  void finish_or_close() {
    if (request_started_) return close();
    close_after_write_ = true;
    if (!writing_) linger();
  }

  // ---- exchange operations, on the strand --------------------------------------------------

  void do_respond(const connection_exchange* ex, response r) {
    if (ex != current_.get() || streaming_) return;
    if (!keep_alive_) r.headers.set("Connection", "close");
    else if (r.headers.has_token("Connection", "close")) keep_alive_ = false;
    if (head_request_) r.body.clear();
    count(r.status);
    wire_.clear();
    if (r.body.size() > kept_wire_capacity) return respond_large(std::move(r));
    serialize_to(r, wire_);
    write_or_queue(wire_);
    finish_exchange();
  }

  // A body larger than kept_wire_capacity: written from where it is, never copied into wire_.
  void respond_large(response r) {
    if (serialize_head_to(r, wire_)) write_or_queue(wire_, std::move(r.body));
    else write_or_queue(wire_);
    finish_exchange();
  }

  void do_start_stream(const connection_exchange* ex, response head) {
    if (ex != current_.get() || streaming_) return;
    chunked_ = minor_version_ >= 1;
    if (!chunked_) keep_alive_ = false;
    else if (!keep_alive_) head.headers.set("Connection", "close");
    count(head.status);
    streaming_ = true;
    queue(serialize_event_stream_head(head, chunked_ ? stream_framing::chunked : stream_framing::close_delimited));
    keep_alive_stream();
  }

  void do_write(const connection_exchange* ex, std::string bytes) {
    if (ex != current_.get() || !streaming_ || bytes.empty()) return;
    queue(chunked_ ? chunk(bytes) : std::move(bytes));
    keep_alive_stream();
  }

  // A stream with nothing to say for sse_keepalive gets an SSE comment, which clients ignore: proxies
  // and load balancers that cut idle connections see traffic, and a client gone away is noticed.
  // It moves the connection's one deadline; the wait already pending covers it.
  void keep_alive_stream() {
    if (settings_.sse_keepalive.count() > 0) arm_timer(settings_.sse_keepalive, timer_kind::keepalive);
  }

  void do_end(const connection_exchange* ex) {
    if (ex != current_.get()) return;
    if (streaming_ && chunked_) queue(std::string(last_chunk()));
    finish_exchange();
  }

  void finish_exchange() {
    if (current_) current_->ended();
    current_.reset();
    streaming_ = false;
    if (!keep_alive_) {
      close_after_write_ = true;
      if (!writing_) linger();
      return;
    }
    process();
    read();
  }

  void count(int status) {
    if (hooks_.on_status) hooks_.on_status(status);
  }

  // ---- writing -------------------------------------------------------------------------------

  void queue(std::string bytes) {
    if (bytes.empty()) return;
    if (enqueue(std::move(bytes)) && !writing_) flush();
  }

  // Adds to the queue without writing; false when that closed the connection.
  bool enqueue(std::string bytes) {
    if (closed_) return false;
    queued_bytes_ += bytes.size();
    if (queued_bytes_ > settings_.limits.max_queued_output) {
      report("http connection closed: the client reads too slowly");
      close();
      return false;
    }
    if (!bytes.empty()) queue_.push_back(std::move(bytes));
    return true;
  }

  // Writes `bytes` (a buffer the caller keeps) at once when nothing is queued before them, as far
  // as the socket takes them; the rest is queued. A response usually goes whole: no copy, no
  // allocation, no completion to schedule.
  void write_or_queue(const std::string& bytes) {
    if (closed_ || bytes.empty()) return;
    if (writing_ || !queue_.empty() || tls_) return queue(bytes);
    asio::error_code ec;
    const std::size_t now = socket_.write_some(asio::buffer(bytes), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
    if (ec) return close();
    if (now < bytes.size()) queue(bytes.substr(now));
  }

  // The same for a head (in wire_) and a large body, written together: what the socket does not
  // take is queued, the body moved there rather than copied.
  void write_or_queue(const std::string& head, std::string body) {
    if (closed_) return;
    std::size_t now = 0;
    if (!writing_ && queue_.empty() && !tls_) {
      const std::array<asio::const_buffer, 2> both{asio::buffer(head), asio::buffer(body)};
      asio::error_code ec;
      now = socket_.write_some(both, ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
      if (ec) return close();
    }
    if (now < head.size() && !enqueue(head.substr(now))) return;
    now -= std::min(now, head.size());
    if (now == body.size()) return;
    body.erase(0, now);
    if (enqueue(std::move(body)) && !writing_) flush();
  }

  void flush() {
    if (closed_) return;
    if (queue_.empty()) {
      if (close_after_write_) linger();
      return;
    }
    writing_ = true;
    in_flight_.swap(queue_);
    std::vector<asio::const_buffer>& buffers = buffers_;
    buffers.clear();
    std::size_t total = 0;
    for (const auto& s : in_flight_) {
      buffers.emplace_back(asio::buffer(s));
      total += s.size();
    }
    // A response usually fits the socket's buffer: written now, it needs no asynchronous write
    // (and no completion to schedule). What the socket does not take goes the asynchronous way.
    // (TLS writes records: always the asynchronous way.)
    asio::error_code ec;
    const std::size_t now = tls_ ? 0 : socket_.write_some(buffers, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
    if (ec || now == total) return on_written(ec, now);
    std::size_t skip = now;
    auto first = buffers.begin();
    while (skip >= first->size()) skip -= (first++)->size();
    *first += skip;
    buffers.erase(buffers.begin(), first);
    auto on_written = [self = shared_from_this(), now](asio::error_code ec, std::size_t n) {
      self->guard([&] { self->on_written(ec, now + n); });
    };
    await_write_progress();
    // (Both run on the strand, inside the write: the handler above holds the connection.)
    if (tls_) return tls_->async_write(std::move(buffers), std::move(on_written), [this] { wrote_some(); });
    asio::async_write(
        socket_, buffers,
        [this](const asio::error_code& ec, std::size_t written) {
          if (written > 0) wrote_some();  // called after each partial write (and with 0 before the first)
          return asio::transfer_all()(ec, written);
        },
        std::move(on_written));
  }

  // Bytes wait for the client: it must take some within write_timeout, or be closed. Only on the
  // way to an asynchronous write: a response the socket takes at once arms nothing.
  void await_write_progress() {
    if (settings_.write_timeout.count() <= 0) return;
    write_deadline_ = coarse_now() + settings_.write_timeout;
    write_deadline_set_ = true;
    kernel_backlog_ = kernel_backlog();
    if (!timer_waiting_ || timer_.expiry() > write_deadline_) wait_for_deadline();
  }
  // The client took some: the deadline moves later, which costs no timer operation (the wait
  // pending fires at the earlier time and waits again for the rest).
  void wrote_some() {
    if (!write_deadline_set_) return;
    write_deadline_ = coarse_now() + settings_.write_timeout;
    kernel_backlog_ = kernel_backlog();
  }
  // At the write deadline: whether the client took bytes the kernel held for it since the last
  // write. The socket says it has room only once a good part of its buffer is free (a third on
  // Linux: over a megabyte once the buffer has grown), which a slow reader that keeps reading may
  // take longer than write_timeout to make. 7 MB read at 800 KB/s through a small receive buffer
  // went 1.6 s without a write completing.
  bool client_took_bytes() {
    const long long now = kernel_backlog();
    if (now < 0 || now >= kernel_backlog_) return false;
    kernel_backlog_ = now;
    return true;
  }
  // Bytes the kernel holds for the client: not yet sent or not yet acknowledged over TCP, not yet
  // read over a Unix socket (Linux's TIOCOUTQ); -1 where that cannot be known (elsewhere, only
  // completed writes count as progress).
  long long kernel_backlog() {
#if defined(__linux__) && defined(TIOCOUTQ)
    int n = 0;
    if (::ioctl(socket_.native_handle(), TIOCOUTQ, &n) == 0) return n;
#endif
    return -1;
  }

  void on_written(asio::error_code ec, std::size_t n) {
    writing_ = false;
    write_deadline_set_ = false;  // a pending wait finds nothing to do
    queued_bytes_ -= std::min(queued_bytes_, n);
    in_flight_.clear();
    if (closed_) return;
    if (ec) return close();
    flush();
  }

  // Everything is written and the connection must end: stop sending, drain input for a moment.
  void linger() {
    if (closed_ || lingering_) return;
    lingering_ = true;
    asio::error_code ignored;
    socket_.shutdown(asio::socket_base::shutdown_send, ignored);
    if (input_done_) return close();
    arm_timer(linger_time, timer_kind::linger);
    read();
  }

  // ---- timers and closing --------------------------------------------------------------------

  // One deadline (and the write deadline beside it), one timer wait at a time, for the earlier of
  // the two. Moving a deadline later (as every keep-alive request does) costs no timer operation:
  // the wait fires at the old time and waits again for the rest.
  void arm_timer(std::chrono::milliseconds after, timer_kind kind) {
    deadline_ = coarse_now() + after;  // every keep-alive request moves it: a coarse clock will do
    deadline_kind_ = kind;
    deadline_set_ = true;
    if (!timer_waiting_ || timer_.expiry() > deadline_) wait_for_deadline();
  }
  void cancel_timer() { deadline_set_ = false; }  // a pending wait finds nothing to do

  void wait_for_deadline() {
    const auto generation = ++timer_generation_;  // a replaced wait ends with operation_aborted: ignored
    timer_waiting_ = true;
    timer_.expires_at(!write_deadline_set_ ? deadline_
                      : !deadline_set_     ? write_deadline_
                                           : std::min(deadline_, write_deadline_));
    timer_.async_wait([self = shared_from_this(), generation](asio::error_code ec) {
      self->guard([&] {
        if (generation != self->timer_generation_) return;
        self->timer_waiting_ = false;
        if (ec || self->closed_) return;
        self->on_deadline();
      });
    });
  }

  void on_deadline() {
    const auto now = asio::steady_timer::clock_type::now();
    if (write_deadline_set_ && now >= write_deadline_) {
      if (!client_took_bytes()) {
        report("http connection closed: the client took no bytes for write_timeout");
        return close();
      }
      write_deadline_ = coarse_now() + settings_.write_timeout;
    }
    if (deadline_set_ && now >= deadline_) {
      deadline_set_ = false;
      on_timer(deadline_kind_);  // may arm the timer again, or close
    }
    if (!closed_ && !timer_waiting_ && (deadline_set_ || write_deadline_set_)) wait_for_deadline();
  }

  void on_timer(timer_kind kind) {
    switch (kind) {
      case timer_kind::idle:
        if (current_ || request_started_) return;
        // A slow reader, not an idle one: write_timeout watches it.
        if (writing_) return arm_timer(settings_.idle_timeout, timer_kind::idle);
        return close();
      case timer_kind::read: {
        if (current_) return;
        response r;
        r.status = 408;
        r.headers.add("Content-Type", "text/plain; charset=utf-8");
        r.body = "the request did not arrive in time\n";
        request_started_ = false;
        return fail(std::move(r));
      }
      case timer_kind::linger:
      case timer_kind::handshake:  // nothing can be answered before it is done
        return close();
      case timer_kind::keepalive:
        if (!streaming_) return;
        return do_write(current_.get(), ": keep-alive\n\n");
    }
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    cancel_timer();
    timer_.cancel();  // its handler holds the connection
    asio::error_code ignored;
    socket_.shutdown(asio::socket_base::shutdown_both, ignored);
    socket_.close(ignored);
    queue_.clear();
    if (auto ex = std::move(current_)) ex->disconnected();
    if (hooks_.on_closed) hooks_.on_closed(this);
  }

  strand_type strand_;
  socket_type socket_;
  asio::steady_timer timer_;
  const connection_settings settings_;
  const connection_hooks hooks_;
  request_parser parser_;
  std::unique_ptr<tls_layer> tls_;  // over socket_; null: plain HTTP
  std::array<char, 16384> read_buffer_{};
  std::string pending_;  // received, not yet parsed
  std::shared_ptr<connection_exchange> current_;
  std::vector<std::string> queue_, in_flight_;
  std::vector<asio::const_buffer> buffers_;  // flush()'s, kept for the next
  std::string wire_;  // a response serialized (a large body stays out); kept for the next
  std::size_t queued_bytes_ = 0;
  std::uint64_t timer_generation_ = 0;
  asio::steady_timer::time_point deadline_;
  asio::steady_timer::time_point write_deadline_;  // while an asynchronous write waits for the client
  timer_kind deadline_kind_ = timer_kind::idle;
  bool deadline_set_ = false;
  bool write_deadline_set_ = false;
  long long kernel_backlog_ = -1;  // kernel_backlog() when the write deadline was last set
  bool timer_waiting_ = false;
  int minor_version_ = 1;
  bool reading_ = false;
  bool writing_ = false;
  bool input_done_ = false;      // end of input or a read error
  bool request_started_ = false; // bytes of an unfinished request were read
  bool keep_alive_ = true;
  bool head_request_ = false;
  bool streaming_ = false;
  bool chunked_ = true;
  bool close_after_write_ = false;
  bool lingering_ = false;
  bool closed_ = false;
  bool processing_ = false;
  bool parsing_read_buffer_ = false;  // process() is reading requests from read_buffer_
};

// On the connection's strand already (a handler that answers while its request is dispatched),
// the operation runs at once; from any other thread it is posted there.
template <class Fn>
void connection_exchange::post(Fn&& fn) {
  auto c = conn_.lock();
  if (!c) return;
  if (strand_.running_in_this_thread()) return c->guard([&] { fn(*c); });
  asio::post(strand_, [c, fn = std::forward<Fn>(fn)]() mutable { c->guard([&] { fn(*c); }); });
}

inline void connection_exchange::respond(response r) {
  if (!mark_ended()) return;
  post([self = shared_from_this(), r = std::move(r)](connection& c) mutable { c.do_respond(self.get(), std::move(r)); });
}

inline void connection_exchange::start_stream(response head) {
  if (!live()) return;
  post([self = shared_from_this(), head = std::move(head)](connection& c) mutable {
    c.do_start_stream(self.get(), std::move(head));
  });
}

inline void connection_exchange::write(std::string sse_bytes) {
  if (!live()) return;
  post([self = shared_from_this(), b = std::move(sse_bytes)](connection& c) mutable { c.do_write(self.get(), std::move(b)); });
}

inline void connection_exchange::end() {
  if (!mark_ended()) return;
  post([self = shared_from_this()](connection& c) { c.do_end(self.get()); });
}

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
