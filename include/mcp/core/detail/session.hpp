// The state one connection carries between messages: its phase, the client it serves, its log
// level, the requests in flight each way, its resource subscriptions. Internal to the core: a
// transport holds it through mcp::connection (core/connection.hpp), and handlers see it through
// mcp::context. Every member is safe to call from any thread.
#pragma once

#include <mcp/core/client_state.hpp>
#include <mcp/core/detail/call_slot.hpp>
#include <mcp/core/detail/message_origin.hpp>
#include <mcp/core/log_level.hpp>
#include <mcp/core/detail/random_id.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/port.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace mcp {
inline namespace v0 {
namespace detail {

// One request from the client while it runs: its cancellation flag and its progress bookkeeping.
struct request_state {
  json id;
  std::string key;  // the id as session::in_flight_ keys it
  message_origin origin;  // who asked, and the trace of the transport's headers
  std::optional<json> progress_token;
  std::atomic<bool> cancelled{false};
  std::atomic<bool> finished{false};  // the reply went out (or was dropped): nothing more may follow it
  std::mutex progress_mutex;           // orders this request's progress notifications before its reply
  std::optional<double> last_progress;
  // What it is, to name it when it outlasts the end of input: the tool's name for a tools/call
  // (`tool`), else the method; and when it arrived (coarse_now_ms).
  std::string subject;
  bool tool = false;
  std::int64_t arrived_ms = 0;
  // The worker thread's slot while a pool runs it: a cancel marks it too (call_slot.hpp).
  std::atomic<call_slot*> slot{nullptr};
};

class session : public std::enable_shared_from_this<session> {
 public:
  enum class phase { awaiting_initialize, initialized, closed };

  explicit session(std::shared_ptr<outbound> out, executor run = inline_executor())
      : out_(std::move(out)), run_(std::move(run)) {}

  // The channel for messages unrelated to any one request (list_changed, resource updates).
  outbound& out() const { return *out_; }
  const std::shared_ptr<outbound>& out_ptr() const { return out_; }
  const executor& run() const { return run_; }

  phase current_phase() const {
    std::lock_guard lock(mutex_);
    return phase_;
  }
  client_state client() const { return *client_ptr(); }
  // Shared and immutable: every request of the session reads it without copying.
  std::shared_ptr<const client_state> client_ptr() const {
    std::lock_guard lock(mutex_);
    return client_;
  }
  void set_initialized(client_state state) {
    auto fixed = std::make_shared<const client_state>(std::move(state));
    std::lock_guard lock(mutex_);
    min_log_level_ = fixed->min_log_level;
    client_ = std::move(fixed);
    phase_ = phase::initialized;
  }
  // logging/setLevel: the one part of the client's state that changes during a session.
  void set_min_log_level(log_level level) { min_log_level_ = level; }
  // A random name of this session, made when first asked for (context::session_key): what an
  // extension binds its per-session state to (the 2025-11-25 tasks of an unauthenticated client).
  std::string key() const {
    std::lock_guard lock(mutex_);
    if (key_.empty()) key_ = "session:" + random_id();
    return key_;
  }
  log_level min_log_level() const { return min_log_level_.load(); }
  bool client_ready() const { return client_ready_.load(); }  // notifications/initialized arrived
  void set_client_ready() { client_ready_.store(true); }

  // A long-lived connection (stdio) keeps the era its client chose first: a 2026-07-28 request
  // pins it modern (a later initialize is refused, a request without the _meta claim is refused),
  // an initialize pins it legacy (a later claim is ignored and served as 2025-11-25). The first
  // pin wins. Transports that give each 2026-07-28 request a session of its own (HTTP) never mix.
  enum class era { open, legacy, modern };
  void pin(era e) {
    era expected = era::open;
    era_.compare_exchange_strong(expected, e);
  }
  era pinned() const { return era_.load(); }
  bool pinned_stateless() const { return pinned() == era::modern; }

  // Requests from the client. Returns null when the id is already in flight (ids must not be reused).
  std::shared_ptr<request_state> begin_request(const json& id, std::optional<json> progress_token) {
    auto state = std::make_shared<request_state>();
    state->id = id;
    state->key = key(id);
    state->progress_token = std::move(progress_token);
    std::lock_guard lock(mutex_);
    if (!in_flight_.emplace(state->key, state).second) return nullptr;
    return state;
  }
  void end_request(const request_state& state) {
    std::lock_guard lock(mutex_);
    in_flight_.erase(state.key);
  }
  void end_request(const json& id) {
    std::lock_guard lock(mutex_);
    in_flight_.erase(key(id));
  }
  // notifications/cancelled: unknown or finished ids are ignored, as the spec allows.
  void cancel_request(const json& id) {
    std::lock_guard lock(mutex_);
    auto it = in_flight_.find(key(id));
    if (it != in_flight_.end()) mark_cancelled(*it->second);
  }
  std::size_t requests_in_flight() const {
    std::lock_guard lock(mutex_);
    return in_flight_.size();
  }
  // Calls f(const request_state&) for each request in flight, with the session's lock held.
  template <class F>
  void each_in_flight(F&& f) const {
    std::lock_guard lock(mutex_);
    for (const auto& [k, state] : in_flight_) f(*state);
  }

  // Requests to the client: an id of our own, and the response when it comes.
  struct pending_response {
    std::mutex mutex;
    std::condition_variable arrived;
    std::optional<json> message;
  };
  std::pair<json, std::shared_ptr<pending_response>> expect_response() {
    auto pending = std::make_shared<pending_response>();
    std::lock_guard lock(mutex_);
    json id = "s" + std::to_string(++next_request_id_);
    pending_[key(id)] = pending;
    return {id, pending};
  }
  void forget_response(const json& id) {
    std::lock_guard lock(mutex_);
    pending_.erase(key(id));
  }
  // A response from the client: `answer` holds its "result" or its "error". Returns false when it
  // answers nothing we asked.
  bool deliver_response(const json& id, json answer) {
    std::shared_ptr<pending_response> pending;
    {
      std::lock_guard lock(mutex_);
      auto it = pending_.find(key(id));
      if (it == pending_.end()) return false;
      pending = it->second;
      pending_.erase(it);
    }
    std::lock_guard lock(pending->mutex);
    pending->message = std::move(answer);
    pending->arrived.notify_all();
    return true;
  }

  // resources/subscribe and unsubscribe.
  void subscribe(const std::string& uri) {
    std::lock_guard lock(mutex_);
    subscriptions_.insert(uri);
  }
  void unsubscribe(const std::string& uri) {
    std::lock_guard lock(mutex_);
    subscriptions_.erase(uri);
  }
  bool subscribed(const std::string& uri) const {
    std::lock_guard lock(mutex_);
    return subscriptions_.count(uri) > 0;
  }

  // URL-mode elicitations this session's client was asked (2025-11-25), until
  // server::complete_elicitation names one. Bounded: past 1024 open ones the oldest is dropped
  // (its completion notification, which is optional, is then not sent).
  void remember_url_elicitation(const std::string& elicitation_id) {
    std::lock_guard lock(mutex_);
    for (const auto& id : url_elicitations_)
      if (id == elicitation_id) return;
    if (url_elicitations_.size() >= 1024) url_elicitations_.erase(url_elicitations_.begin());
    url_elicitations_.push_back(elicitation_id);
  }
  // Whether it was open (it is not any more).
  bool forget_url_elicitation(const std::string& elicitation_id) {
    std::lock_guard lock(mutex_);
    for (auto it = url_elicitations_.begin(); it != url_elicitations_.end(); ++it)
      if (*it == elicitation_id) {
        url_elicitations_.erase(it);
        return true;
      }
    return false;
  }

  // Ends the session: in-flight work sees a cancellation and nothing more is sent to the client.
  // Returns the phase it was in (closed: an earlier call ended it).
  phase close() {
    std::lock_guard lock(mutex_);
    const phase was = phase_;
    phase_ = phase::closed;
    for (auto& [k, state] : in_flight_) mark_cancelled(*state);
    return was;
  }

  // What the transport says of itself (connection::set_transport), set before the first message
  // and never changed after, so requests read it without a lock.
  void set_transport(std::string network_transport, std::string session_id) {
    network_transport_ = std::move(network_transport);
    transport_session_id_ = std::move(session_id);
  }
  const std::string& network_transport() const { return network_transport_; }
  const std::string& transport_session_id() const { return transport_session_id_; }
  std::chrono::steady_clock::time_point opened() const { return opened_; }
  bool closed() const { return current_phase() == phase::closed; }

 private:
  // With mutex_ held, while `state` is in flight: a pool thread running it stays in its call
  // until end_request, which needs the lock, so the slot is still that call's.
  static void mark_cancelled(request_state& state) {
    state.cancelled = true;
    if (call_slot* slot = state.slot.load(std::memory_order_acquire)) slot->cancelled.store(true);
  }

  // Ids keep their JSON type: 1 and "1" are different requests.
  static std::string key(const json& id) {
    if (id.is_string()) return '"' + id.get_ref<const std::string&>();
    return detail::to_json_text(id);
  }

  std::shared_ptr<outbound> out_;
  executor run_;
  std::string network_transport_;     // "pipe", "tcp", "unix"; empty when the transport did not say
  std::string transport_session_id_;  // HTTP's Mcp-Session-Id; empty without one
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  mutable std::string key_;  // under mutex_
  phase phase_ = phase::awaiting_initialize;
  std::shared_ptr<const client_state> client_ = std::make_shared<const client_state>();
  std::atomic<log_level> min_log_level_{log_level::info};
  std::atomic<bool> client_ready_{false};
  std::atomic<era> era_{era::open};
  std::map<std::string, std::shared_ptr<request_state>> in_flight_;
  std::map<std::string, std::shared_ptr<pending_response>> pending_;
  std::set<std::string> subscriptions_;
  std::deque<std::string> url_elicitations_;  // oldest first
  std::uint64_t next_request_id_ = 0;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
