// The Streamable HTTP transport's memory: resumable SSE streams with bounded replay buffers, the
// HTTP side of an MCP session (its streams and its idle clock), and the table of live sessions.
// No sockets here: a stream writes to an `exchange`, which the connection layer implements.
#pragma once

#include <mcp/core/connection.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/transport/detail/http_message.hpp>
#include <mcp/transport/detail/sse.hpp>
#include <mcp/transport/event_store.hpp>
#include <mcp/transport/http_types.hpp>
#include <mcp/transport/transport.hpp>

#include <atomic>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

// One HTTP response in the making, as the host carrying it sees it (the public name is
// mcp::http::response_writer).
using exchange = mcp::http::response_writer;

// An SSE stream that outlives its HTTP connections: every event gets the id "<stream>:<seq>" and
// a bounded buffer keeps the latest ones, so a client that comes back with Last-Event-ID gets what
// it missed. A request's stream completes with its response; the session's GET stream never does.
//
// With a shared event_store (mirror), every event is also written there under `name`, so that a
// client can resume the stream through another process (event_store.hpp). The store failing loses
// only that: `warn` says so, and this process's own client and buffer go on as without it.
class event_stream : public std::enable_shared_from_this<event_stream> {
 public:
  enum class attach_result { attached, ended, busy };

  struct mirror {
    std::shared_ptr<mcp::http::event_store> store;
    std::string name;                             // "<session id>/<stream id>"
    std::function<void(const std::string&)> warn;
  };

  event_stream(std::string id, std::size_t capacity, mirror shared = {})
      : id_(std::move(id)), capacity_(capacity ? capacity : 1), shared_(std::move(shared)) {}

  const std::string& id() const noexcept { return id_; }

  // An id and empty data (plus retry), so the client can resume before any message arrived. Not
  // kept for replay: it carries nothing.
  void prime(std::optional<int> retry_ms) {
    std::lock_guard lock(mutex_);
    const std::string event = sse_priming_event(make_event_id(id_, next_seq_++), retry_ms);
    if (client_) client_->write(event);
  }

  // One message as the next event, written at once when a client is attached. `last` is the
  // response that completes a request's stream.
  void emit(const json& message, bool last = false) { emit_text(to_json_text(message), last); }
  // The same for a message already written as JSON text.
  void emit_text(std::string_view message, bool last = false) {
    std::lock_guard lock(mutex_);
    if (complete_) return;
    const std::uint64_t seq = next_seq_++;
    std::string event = sse_event(make_event_id(id_, seq), message, std::string_view("message"));
    if (client_) {
      client_->write(event);
      written_ = seq;
    }
    if (shared_.store) {
      try {  // under the lock: the store gets one stream's events in order
        shared_.store->append(shared_.name, seq, event, last);
      } catch (const std::exception& e) {
        if (shared_.warn) shared_.warn(e.what());
      }
    }
    events_.emplace_back(seq, std::move(event));
    while (events_.size() > capacity_) events_.pop_front();
    if (last) complete_locked();
  }

  // Serves this stream on `ex`: the head, a priming event if asked, the events after `after`
  // (without it: those no client was sent yet), then live events until the stream completes.
  // One client at a time.
  attach_result attach(const std::shared_ptr<exchange>& ex, response head, std::optional<std::uint64_t> after,
                       bool prime = false, std::optional<int> retry_ms = std::nullopt) {
    std::lock_guard lock(mutex_);
    if (client_) return attach_result::busy;
    ex->start_stream(std::move(head));
    const std::uint64_t from = after ? *after : written_;
    if (prime && !complete_) ex->write(sse_priming_event(make_event_id(id_, next_seq_++), retry_ms));
    for (const auto& [seq, text] : events_)
      if (seq > from) {
        ex->write(text);
        written_ = std::max(written_, seq);
      }
    if (complete_) {
      ex->end();
      delivered_ = true;
      return attach_result::ended;
    }
    watch_locked(ex);
    return attach_result::attached;
  }

  // Attaches the exchange a request's stream starts on (its head already sent by the caller).
  void attach_started(const std::shared_ptr<exchange>& ex) {
    std::lock_guard lock(mutex_);
    watch_locked(ex);
  }

  // Ends the current HTTP response but not the stream: what follows is kept for a resume.
  void detach() {
    std::lock_guard lock(mutex_);
    if (client_) client_->end();
    client_.reset();
  }

  // Ends the stream for good; an attached client's response ends too.
  void finish() {
    std::lock_guard lock(mutex_);
    complete_locked();
  }

  bool attached() const {
    std::lock_guard lock(mutex_);
    return client_ != nullptr;
  }
  // Complete, and its last event went to a client: nobody needs it any more.
  bool delivered() const {
    std::lock_guard lock(mutex_);
    return delivered_;
  }

 private:
  // The stream is complete: an attached client's response ends, and it got everything.
  void complete_locked() {
    complete_ = true;
    if (client_) {
      client_->end();
      client_.reset();
      delivered_ = true;
    }
  }

  void watch_locked(const std::shared_ptr<exchange>& ex) {
    client_ = ex;
    std::weak_ptr<event_stream> self = weak_from_this();
    exchange* raw = ex.get();
    ex->on_disconnect([self, raw] {
      if (auto s = self.lock()) s->lost(raw);
    });
  }

  void lost(exchange* ex) {
    std::lock_guard lock(mutex_);
    if (client_.get() == ex) client_.reset();
  }

  mutable std::mutex mutex_;
  const std::string id_;
  const std::size_t capacity_;
  const mirror shared_;
  std::uint64_t next_seq_ = 1;
  std::uint64_t written_ = 0;  // highest seq written to a client
  std::deque<std::pair<std::uint64_t, std::string>> events_;
  std::shared_ptr<exchange> client_;
  bool complete_ = false;
  bool delivered_ = false;
};

// Where a session's unrelated messages (list_changed, resources/updated) go: its GET stream.
class stream_outbound final : public outbound {
 public:
  explicit stream_outbound(std::shared_ptr<event_stream> stream) : stream_(std::move(stream)) {}
  void send(const json& message) override { stream_->emit(message); }
  // emit() writes with the SDK's writer: a result's raw JSON text stays as the server wrote it.
  void send_result(const json& id, json result) override { send(jsonrpc::response(id, std::move(result))); }

 private:
  std::shared_ptr<event_stream> stream_;
};

// steady_clock's time to within a few milliseconds, read more cheaply where the system has such a
// clock (Linux: CLOCK_MONOTONIC_COARSE, the same clock as steady_clock's at a coarser step).
inline std::chrono::steady_clock::time_point coarse_now() {
#if defined(CLOCK_MONOTONIC_COARSE) && defined(__linux__)
  timespec ts{};
  if (::clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
    return std::chrono::steady_clock::time_point(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec)));
#endif
  return std::chrono::steady_clock::now();
}

// The HTTP side of one MCP session.
class http_session {
 public:
  using clock = std::chrono::steady_clock;

  // A session's stream ids are "g" (its GET stream) and "r1", "r2", ... (its requests' streams).
  // `owner`: the subject of the caller that opened it (empty: nobody authenticated).
  // `events`: where requests' streams are shared with other processes (null: nowhere).
  http_session(server& srv, std::string id, std::size_t replay_events, executor run, std::string owner = {},
               std::shared_ptr<mcp::http::event_store> events = nullptr)
      : srv_(srv),
        id_(std::move(id)),
        owner_(std::move(owner)),
        replay_events_(replay_events),
        events_(std::move(events)),
        standalone_(std::make_shared<event_stream>("g", replay_events)),
        core_(std::make_shared<mcp::connection>(srv, std::make_shared<stream_outbound>(standalone_), std::move(run))),
        last_used_(clock::now().time_since_epoch().count()) {
    // HTTP runs over TCP in the SDK's listener and in the hosts it is mounted in; a Unix socket
    // listener also says tcp here (telemetry's network.transport), which only the listener knows.
    core_->set_transport("tcp", id_);
  }

  const std::string& id() const noexcept { return id_; }
  const std::string& owner() const noexcept { return owner_; }
  const std::shared_ptr<mcp::connection>& core() const noexcept { return core_; }
  const std::shared_ptr<event_stream>& standalone() const noexcept { return standalone_; }

  // A new stream for one request's reply, kept for resumption until its response is delivered.
  std::shared_ptr<event_stream> new_request_stream() {
    std::lock_guard lock(mutex_);
    prune_locked();
    const std::uint64_t n = ++stream_count_;
    const std::string stream_id = "r" + std::to_string(n);
    event_stream::mirror shared;
    if (events_) {
      shared.name = id_ + "/" + stream_id;
      // The server, not the session: the stream may outlive the session (a reply after a DELETE).
      shared.warn = [&srv = srv_](const std::string& why) { log_diagnostic(srv.options(), "http: the SSE event store failed: " + why); };
      try {
        events_->open(shared.name, owner_);
        shared.store = events_;
      } catch (const std::exception& e) {
        shared.warn(e.what());  // this stream stays with this process
      }
    }
    auto s = std::make_shared<event_stream>(stream_id, replay_events_, std::move(shared));
    streams_[n] = s;
    return s;
  }

  // The stream a Last-Event-ID names, if it is still kept.
  std::shared_ptr<event_stream> find_stream(const std::string& stream_id) {
    if (stream_id == standalone_->id()) return standalone_;
    if (stream_id.size() < 2 || stream_id.size() > 20 || stream_id[0] != 'r') return nullptr;
    std::uint64_t n = 0;
    for (std::size_t i = 1; i < stream_id.size(); ++i) {
      if (!is_digit(stream_id[i])) return nullptr;
      n = n * 10 + static_cast<std::uint64_t>(stream_id[i] - '0');
    }
    std::lock_guard lock(mutex_);
    auto it = streams_.find(n);
    return it == streams_.end() ? nullptr : it->second;
  }

  // Every request of the session: no lock, and the clock read coarsely (idle expiry counts minutes).
  void touch() { last_used_.store(coarse_now().time_since_epoch().count(), std::memory_order_relaxed); }

  // Unused since `cutoff`: nothing in flight, no client on any of its streams.
  bool idle_since(clock::time_point cutoff) {
    if (core_->requests_in_flight() > 0 || standalone_->attached()) return false;
    std::lock_guard lock(mutex_);
    if (clock::time_point(clock::duration(last_used_.load(std::memory_order_relaxed))) > cutoff) return false;
    for (const auto& [id, s] : streams_)
      if (s->attached()) return false;
    return true;
  }

  // Ends the session: handlers see a cancellation, every stream's client is let go.
  void close() {
    core_->close();
    standalone_->finish();
    std::map<std::uint64_t, std::shared_ptr<event_stream>> streams;
    {
      std::lock_guard lock(mutex_);
      streams.swap(streams_);
    }
    for (auto& [id, s] : streams) s->finish();
  }

 private:
  // A session that never resumes must not pile up streams: drop the delivered ones, and past a
  // bound the oldest.
  void prune_locked() {
    for (auto it = streams_.begin(); it != streams_.end();)
      it = it->second->delivered() ? streams_.erase(it) : std::next(it);
    while (streams_.size() >= max_kept_streams) streams_.erase(streams_.begin());
  }

  static constexpr std::size_t max_kept_streams = 64;

  server& srv_;
  const std::string id_;
  const std::string owner_;
  const std::size_t replay_events_;
  const std::shared_ptr<mcp::http::event_store> events_;
  std::shared_ptr<event_stream> standalone_;
  std::shared_ptr<mcp::connection> core_;
  std::mutex mutex_;
  std::map<std::uint64_t, std::shared_ptr<event_stream>> streams_;  // by number: oldest first
  std::uint64_t stream_count_ = 0;
  std::atomic<clock::rep> last_used_;  // a clock::time_point's count
};

// 128 random bits from the OS, as 32 lowercase hex digits: visible ASCII, unguessable.
inline std::string random_session_id() {
  static std::mutex m;
  static std::random_device rd;
  std::uint32_t words[4];
  {
    std::lock_guard lock(m);
    for (auto& w : words) w = rd();
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (auto w : words)
    for (int shift = 28; shift >= 0; shift -= 4) out += hex[(w >> shift) & 0xF];
  return out;
}

// Live sessions by id. Past max_sessions a new session is refused (the caller answers 503)
// rather than evicting one a client may still be using.
class session_table {
 public:
  session_table(server& srv, std::size_t max_sessions, std::chrono::seconds idle_timeout, std::size_t replay_events,
                executor run, std::shared_ptr<mcp::http::event_store> events = nullptr)
      : srv_(srv),
        max_(max_sessions),
        idle_timeout_(idle_timeout),
        replay_events_(replay_events),
        run_(std::move(run)),
        events_(std::move(events)) {}

  // Null when the table is full even after expiring idle sessions.
  std::shared_ptr<http_session> create(std::string owner = {}) {
    if (size() >= max_) expire_idle();
    std::lock_guard lock(mutex_);
    if (closed_ || sessions_.size() >= max_) return nullptr;
    std::string id;
    do id = random_session_id();
    while (sessions_.count(id));
    auto s = std::make_shared<http_session>(srv_, id, replay_events_, run_, std::move(owner), events_);
    sessions_.emplace(id, s);
    return s;
  }

  std::shared_ptr<http_session> find(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
  }

  // Removes and closes the session; false if there was none.
  bool remove(std::string_view id) {
    std::shared_ptr<http_session> s;
    {
      std::lock_guard lock(mutex_);
      auto it = sessions_.find(id);
      if (it == sessions_.end()) return false;
      s = std::move(it->second);
      sessions_.erase(it);
    }
    s->close();
    return true;
  }

  // Closes sessions idle for longer than the timeout; returns how many.
  std::size_t expire_idle() {
    const auto cutoff = http_session::clock::now() - idle_timeout_;
    std::vector<std::shared_ptr<http_session>> expired;
    {
      std::lock_guard lock(mutex_);
      for (auto it = sessions_.begin(); it != sessions_.end();) {
        if (it->second->idle_since(cutoff)) {
          expired.push_back(std::move(it->second));
          it = sessions_.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& s : expired) s->close();
    return expired.size();
  }

  // Closes every session and refuses new ones.
  void close_all() {
    std::map<std::string, std::shared_ptr<http_session>, std::less<>> all;
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      all.swap(sessions_);
    }
    for (auto& [id, s] : all) s->close();
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return sessions_.size();
  }

 private:
  server& srv_;
  const std::size_t max_;
  const std::chrono::seconds idle_timeout_;
  const std::size_t replay_events_;
  executor run_;
  const std::shared_ptr<mcp::http::event_store> events_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<http_session>, std::less<>> sessions_;
  bool closed_ = false;
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
