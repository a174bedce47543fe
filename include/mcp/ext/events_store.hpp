// Where the events extension (ext/events.hpp) keeps what must outlive a request: each event type's
// replay log, the webhook subscriptions, and the queue of webhook deliveries. mcp::memory_events_store
// keeps them in this process (the default); mcp::redis_events_store (stores/redis_events_store.hpp)
// keeps them in Redis, shared by every process behind one endpoint, so that an event raised in one
// process reaches a subscription made through another, once, and a delivery survives the process
// that was making it.
#pragma once

#include <mcp/core/detail/random_id.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>
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
#include <vector>

namespace mcp {
inline namespace v0 {

// Milliseconds since the Unix epoch, the clock of every time the store keeps.
inline std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// How much of an event type's past its log keeps for replay: the newer bound wins.
struct event_retention {
  std::size_t max_events = 1000;
  std::chrono::milliseconds max_age{24 * 3600 * 1000};
};

// One occurrence in a log: its position there (opaque, the store's own; a client sees it inside a
// cursor) and the occurrence without its cursor ({eventId, name, timestamp, data}).
struct logged_event {
  std::string position;
  json occurrence;
  std::int64_t time_ms = 0;  // when it was raised
};

// What a read of a log found.
struct log_read {
  std::vector<logged_event> events;  // after the position asked for, oldest first
  bool truncated = false;            // some events after that position are gone (retention), or it is unknown
  bool more = false;                 // more events follow the last one returned
  std::string position;              // where the next read goes on: the last event returned, else the head
};

// A webhook subscription (events/subscribe), soft state: it lapses at expires_ms unless refreshed.
struct webhook_subscription {
  std::string id;         // derived from principal, name, arguments and url: the same request finds it again
  std::string principal;  // who made it (the caller's subject; empty without authentication)
  std::string name;       // the event type
  json arguments = json::object();
  std::string url;
  std::string secret;  // whsec_..., never logged
  std::int64_t expires_ms = 0;
  bool terminating = false;  // a terminated control is on its way: no more events for it
};

// One POST a delivery worker makes: an event (webhook_id = its eventId) or a control.
struct webhook_delivery {
  std::string id;  // the queue's name for it, set by enqueue
  std::string subscription_id;
  std::string webhook_id;
  std::string body;  // the JSON text sent, as signed
  bool control = false;  // gap, terminated: sent even when events are not
  bool terminates = false;  // the subscription goes once this is delivered (or given up)
  int attempt = 0;          // deliveries tried so far
};

// The store's interface. Threads: every member is called from several threads at once (handlers,
// emit from any thread, the delivery workers); an implementation synchronises itself.
class events_store {
 public:
  virtual ~events_store() = default;

  // The replay log of one event type. append returns the new event's position.
  virtual std::string append(const std::string& type, const json& occurrence, std::int64_t time_ms,
                             const event_retention& keep) = 0;
  // Up to `max` events after `after` (empty: from the oldest kept). A position this log never gave,
  // or one of another store, reads as truncated, from the oldest kept.
  virtual log_read read(const std::string& type, const std::string& after, std::size_t max) = 0;
  // The position of the newest event (where "from now" starts).
  virtual std::string head(const std::string& type) = 0;

  // Webhook subscriptions. put adds or replaces one by id.
  virtual void put(const webhook_subscription& s) = 0;
  virtual std::optional<webhook_subscription> get(const std::string& id) = 0;
  virtual bool remove(const std::string& id) = 0;
  // The unexpired subscriptions of an event type.
  virtual std::vector<webhook_subscription> of_type(const std::string& name) = 0;
  // How many unexpired subscriptions `principal` holds.
  virtual std::size_t count_of(const std::string& principal) = 0;

  // The delivery queue. enqueue refuses (false) when the subscription has `limit` deliveries
  // queued already. claim hands a worker up to `max` deliveries that are due, waiting up to `wait`
  // for one; a delivery claimed and neither settled nor retried within `lease` (its worker died)
  // is handed out again. settle ends one (delivered, or given up); retry puts it back, due at `due_ms`.
  virtual bool enqueue(webhook_delivery d, std::size_t limit) = 0;
  virtual std::vector<webhook_delivery> claim(const std::string& worker, std::size_t max, std::chrono::milliseconds wait,
                                              std::chrono::milliseconds lease) = 0;
  virtual void settle(const webhook_delivery& d) = 0;
  virtual void retry(const webhook_delivery& d, std::int64_t due_ms) = 0;
  // Deliveries queued (due or not) and claimed, for a subscription, or all ("").
  virtual std::size_t queued(const std::string& subscription_id) = 0;

  // Whether other processes write to it too: then readers also look for events they were not
  // woken for (a push stream follows the log every few hundred milliseconds).
  virtual bool shared() const { return false; }
  // Wakes threads blocked in claim() (the extension is stopping).
  virtual void wake() {}
};

// Everything in this process's memory: lost with it. The default.
class memory_events_store final : public events_store {
 public:
  memory_events_store() : epoch_(detail::random_id().substr(0, 8)) {}

  std::string append(const std::string& type, const json& occurrence, std::int64_t time_ms,
                     const event_retention& keep) override {
    std::lock_guard lock(mutex_);
    log& l = logs_[type];
    const std::uint64_t seq = ++l.last;
    l.events.push_back({seq, occurrence, time_ms});
    trim(l, keep, time_ms);
    return position(seq);
  }

  log_read read(const std::string& type, const std::string& after, std::size_t max) override {
    std::lock_guard lock(mutex_);
    log& l = logs_[type];
    log_read out;
    std::uint64_t from = 0;  // the last sequence number the reader has
    if (after.empty()) {
      from = l.events.empty() ? l.last : l.events.front().seq - 1;
    } else if (auto seq = parse(after)) {
      from = std::min(*seq, l.last);
    } else {
      out.truncated = l.dropped > 0 || l.last > 0;  // a position of another store, or of before a restart
      from = l.events.empty() ? l.last : l.events.front().seq - 1;
    }
    if (from < l.dropped) {
      out.truncated = true;
      from = l.dropped;
    }
    out.position = position(from);
    for (const auto& e : l.events) {
      if (e.seq <= from) continue;
      if (out.events.size() == max) {
        out.more = true;
        break;
      }
      out.events.push_back({position(e.seq), e.occurrence, e.time_ms});
      out.position = position(e.seq);
    }
    return out;
  }

  std::string head(const std::string& type) override {
    std::lock_guard lock(mutex_);
    return position(logs_[type].last);
  }

  void put(const webhook_subscription& s) override {
    std::lock_guard lock(mutex_);
    subscriptions_[s.id] = s;
  }
  std::optional<webhook_subscription> get(const std::string& id) override {
    std::lock_guard lock(mutex_);
    auto it = subscriptions_.find(id);
    if (it == subscriptions_.end()) return std::nullopt;
    return it->second;
  }
  bool remove(const std::string& id) override {
    std::lock_guard lock(mutex_);
    return subscriptions_.erase(id) > 0;
  }
  std::vector<webhook_subscription> of_type(const std::string& name) override {
    std::lock_guard lock(mutex_);
    expire(unix_ms_now());
    std::vector<webhook_subscription> out;
    for (const auto& [id, s] : subscriptions_)
      if (s.name == name) out.push_back(s);
    return out;
  }
  std::size_t count_of(const std::string& principal) override {
    std::lock_guard lock(mutex_);
    expire(unix_ms_now());
    std::size_t n = 0;
    for (const auto& [id, s] : subscriptions_) n += s.principal == principal;
    return n;
  }

  bool enqueue(webhook_delivery d, std::size_t limit) override {
    {
      std::lock_guard lock(mutex_);
      std::size_t& n = per_subscription_[d.subscription_id];
      if (n >= limit) return false;
      ++n;
      d.id = std::to_string(++next_delivery_);
      due_.emplace(0, std::move(d));
    }
    ready_.notify_one();
    return true;
  }

  std::vector<webhook_delivery> claim(const std::string&, std::size_t max, std::chrono::milliseconds wait,
                                      std::chrono::milliseconds) override {
    std::unique_lock lock(mutex_);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    std::vector<webhook_delivery> out;
    for (;;) {
      const std::int64_t now = unix_ms_now();
      while (!due_.empty() && due_.begin()->first <= now && out.size() < max) {
        out.push_back(std::move(due_.begin()->second));
        due_.erase(due_.begin());
        ++claimed_;
      }
      if (!out.empty() || woken_) break;
      auto until = deadline;
      if (!due_.empty()) {  // the next retry may fall due before the deadline
        auto in = std::chrono::milliseconds(std::max<std::int64_t>(0, due_.begin()->first - now));
        until = std::min(until, std::chrono::steady_clock::now() + in);
      }
      if (std::chrono::steady_clock::now() >= deadline) break;
      ready_.wait_until(lock, until);
    }
    woken_ = false;
    return out;
  }
  void settle(const webhook_delivery& d) override {
    std::lock_guard lock(mutex_);
    --claimed_;
    auto it = per_subscription_.find(d.subscription_id);
    if (it != per_subscription_.end() && --it->second == 0) per_subscription_.erase(it);
  }
  void retry(const webhook_delivery& d, std::int64_t due_ms) override {
    {
      std::lock_guard lock(mutex_);
      --claimed_;
      due_.emplace(due_ms, d);
    }
    ready_.notify_one();
  }
  std::size_t queued(const std::string& subscription_id) override {
    std::lock_guard lock(mutex_);
    if (subscription_id.empty()) return due_.size() + claimed_;
    auto it = per_subscription_.find(subscription_id);
    return it == per_subscription_.end() ? 0 : it->second;
  }
  void wake() override {
    {
      std::lock_guard lock(mutex_);
      woken_ = true;
    }
    ready_.notify_all();
  }

 private:
  struct entry {
    std::uint64_t seq;
    json occurrence;
    std::int64_t time_ms;
  };
  struct log {
    std::deque<entry> events;
    std::uint64_t last = 0;     // the newest sequence number given
    std::uint64_t dropped = 0;  // every sequence number up to this one is gone
  };

  std::string position(std::uint64_t seq) const { return epoch_ + "-" + std::to_string(seq); }
  std::optional<std::uint64_t> parse(const std::string& p) const {
    if (p.size() <= epoch_.size() + 1 || p.compare(0, epoch_.size(), epoch_) != 0 || p[epoch_.size()] != '-')
      return std::nullopt;
    std::uint64_t v = 0;
    for (std::size_t i = epoch_.size() + 1; i < p.size(); ++i) {
      if (p[i] < '0' || p[i] > '9' || v > (UINT64_MAX - 9) / 10) return std::nullopt;
      v = v * 10 + std::uint64_t(p[i] - '0');
    }
    return v;
  }
  static void trim(log& l, const event_retention& keep, std::int64_t now_ms) {
    const std::int64_t oldest = now_ms - keep.max_age.count();
    while (!l.events.empty() && (l.events.size() > keep.max_events || l.events.front().time_ms < oldest)) {
      l.dropped = l.events.front().seq;
      l.events.pop_front();
    }
  }
  void expire(std::int64_t now_ms) {  // with mutex_ held
    for (auto it = subscriptions_.begin(); it != subscriptions_.end();)
      it = it->second.expires_ms <= now_ms ? subscriptions_.erase(it) : std::next(it);
  }

  const std::string epoch_;  // positions of another store (or of before a restart) are told apart by it
  std::mutex mutex_;
  std::condition_variable ready_;
  std::map<std::string, log> logs_;
  std::map<std::string, webhook_subscription> subscriptions_;
  std::multimap<std::int64_t, webhook_delivery> due_;  // by the time it falls due (0: at once)
  std::map<std::string, std::size_t> per_subscription_;
  std::size_t claimed_ = 0;
  std::uint64_t next_delivery_ = 0;
  bool woken_ = false;
};

}  // namespace v0
}  // namespace mcp
