// Events (the io.modelcontextprotocol/events extension, SEP-3415; MCP 2026-07-28 only): a client
// subscribes to things that happen on the server's side (a note changed, a build failed) and an
// agent reacts without a user present. Declare an event type once, like a tool: a name, a
// description, an MCP_STRUCT for the subscription's arguments and one for the payload (their
// schemas derived by the same reflection), the delivery modes, and a filter deciding which
// occurrences a subscription's arguments match. Raise one with one call, from any thread:
//
//   mcp::events events(srv);                               // after srv, so it goes first
//   auto changed = events.declare<note_filter, note_change>(
//       "note_changed", "A note was created, updated or deleted.",
//       [](const note_filter& f, const note_change& c) { return !f.title || *f.title == c.title; });
//   changed.emit({"Groceries", "updated"});               // checked against its schema, then delivered
//
// Delivery: poll (events/poll, a cursor in and out), push (events/stream, a long-lived request
// that delivers notifications/events/* until the client goes, with heartbeats) and webhook
// (events/subscribe: the server POSTs each occurrence, signed the Standard Webhooks way with the
// client's secret, to a callback it verified first; soft state the client refreshes). Webhooks need
// an outgoing HTTP client (events_options::http, the seam of ext/outgoing_http.hpp; the SDK ships
// none yet, and webhook delivery is not yet tested: issue 58), and every callback URL goes through
// its policy (ext/outgoing_http.hpp: https only, no private addresses...).
// Cursors are opaque; an event type that replays keeps a bounded log (event_retention) from which a
// client resumes, and is told `truncated` when what it asked for is gone. The log, the webhook
// subscriptions and their delivery queue live in an events_store (ext/events_store.hpp): memory by
// default, Redis for several processes (stores/redis_events_store.hpp).
#pragma once

#include <mcp/core/detail/random_id.hpp>
#include <mcp/core/detail/scopes.hpp>
#include <mcp/core/detail/sha256.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/core/request_stream.hpp>
#include <mcp/core/server.hpp>
#include <mcp/ext/events_store.hpp>
#include <mcp/ext/outgoing_http.hpp>
#include <mcp/json/detail/base64.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <shared_mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <typeindex>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

inline constexpr const char* events_extension = "io.modelcontextprotocol/events";

// The extension's error codes, as the design sketch behind SEP-3415 lists them (read in a client's
// plan that quotes it; the published pages were only partly readable here). Each error's data says
// more: {"kind": "event"|"subscription"}, {"limit": ..., "max": ...}, {"delivery": ...}, {"reason": ...}.
namespace events_error {
inline constexpr int not_found = -32011;           // no such event type, or no such subscription
inline constexpr int forbidden = -32012;           // the principal may not (scopes refuse as for tools: -32003)
inline constexpr int resource_exhausted = -32013;  // a bound: subscriptions per principal, open streams
inline constexpr int unsupported = -32014;         // a delivery mode the event type does not offer
inline constexpr int callback_endpoint = -32015;   // the webhook callback failed its check or verification
}  // namespace events_error

enum class event_delivery { poll, push, webhook };

inline const char* to_string(event_delivery d) {
  switch (d) {
    case event_delivery::poll: return "poll";
    case event_delivery::push: return "push";
    case event_delivery::webhook: return "webhook";
  }
  return "poll";
}

// One event type's settings.
struct event_options {
  // The modes offered. webhook needs events_options::http; poll needs replay (a poll reads what
  // happened since its cursor).
  std::vector<event_delivery> delivery{event_delivery::poll, event_delivery::push};
  // Whether a client may resume from a cursor of its own. Without replay, deliveries carry a null
  // cursor and every subscription starts from now.
  bool replay = true;
  event_retention retention;         // how much of the past the log keeps
  std::vector<std::string> scopes;   // as a tool's: hidden from callers without them, refused (403)
};

// The extension's settings.
struct events_options {
  std::shared_ptr<events_store> store;   // null: memory_events_store, this process only
  std::shared_ptr<outgoing_http> http;   // null: no webhook delivery
  std::chrono::milliseconds heartbeat{15000};  // push streams: a heartbeat this often
  std::chrono::milliseconds follow{250};       // push streams on a shared store: how often to look for others' events
  std::size_t max_streams = 1000;              // open push streams in this process
  std::size_t poll_default_events = 50;        // events/poll without maxEvents
  std::size_t poll_max_events = 100;           // maxEvents above this is capped
  std::chrono::milliseconds next_poll{2000};   // nextPollMs: when a poll that found nothing more may come again
  // Webhooks.
  std::chrono::milliseconds default_ttl{3600 * 1000};
  std::chrono::milliseconds min_ttl{60 * 1000};
  std::chrono::milliseconds max_ttl{24 * 3600 * 1000};
  std::size_t max_subscriptions_per_principal = 100;
  std::size_t max_queued_per_subscription = 1000;  // past it an event is dropped and a gap follows
  int max_attempts = 8;                           // deliveries of one body; then a gap follows
  std::chrono::milliseconds first_retry{1000};    // then doubling, to max_retry, with +-20% jitter
  std::chrono::milliseconds max_retry{5 * 60 * 1000};
  std::size_t delivery_threads = 2;
  std::chrono::milliseconds lease{30000};  // a claimed delivery not settled in this time is taken up again
  std::size_t replay_on_subscribe = 1000;  // events/subscribe with a cursor: at most this many replayed
};

namespace detail {

// RFC 3339 in UTC with milliseconds, from Unix milliseconds (no gmtime: the same on every platform).
inline std::string rfc3339(std::int64_t unix_ms) {
  std::int64_t secs = unix_ms / 1000, ms = unix_ms % 1000;
  if (ms < 0) {
    ms += 1000;
    --secs;
  }
  std::int64_t days = secs / 86400, rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  // Howard Hinnant's civil_from_days.
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t y = yoe + era * 400;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buf[96];  // room for any 64-bit year, which -Wformat-truncation counts on
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(rem / 3600),
                static_cast<long long>(rem % 3600 / 60), static_cast<long long>(rem % 60), static_cast<long long>(ms));
  return buf;
}

// A Standard Webhooks secret: "whsec_" and the base64 of 24 to 64 random bytes. The key bytes, or
// nullopt.
inline std::optional<std::string> webhook_key(const std::string& secret) {
  if (secret.size() < 6 || secret.compare(0, 6, "whsec_") != 0) return std::nullopt;
  auto bytes = base64_decode(std::string_view(secret).substr(6));
  if (!bytes || bytes->size() < 24 || bytes->size() > 64) return std::nullopt;
  return bytes;
}

// webhook-signature: "v1," and the base64 HMAC-SHA256, keyed by the secret's bytes, of
// "<webhook-id>.<webhook-timestamp>.<body>".
inline std::string webhook_signature(std::string_view key, std::string_view id, std::int64_t timestamp, std::string_view body) {
  std::string signed_text;
  signed_text.reserve(id.size() + body.size() + 24);
  signed_text.append(id).append(".").append(std::to_string(timestamp)).append(".").append(body);
  return "v1," + base64_encode(digest_bytes(hmac_sha256(key, signed_text)));
}

inline protocol_error events_failure(int code, const std::string& message, json data = nullptr) {
  return protocol_error(code, message, std::move(data));
}

// A declared event type as the engine keeps it, type-erased.
struct event_entry {
  std::string name;
  std::string description;
  event_options options;
  json listed;  // its entry in events/list: schemas as their ordered text
  std::shared_ptr<const validator> arguments_check;
  std::shared_ptr<const validator> payload_check;
  std::type_index payload_type{typeid(void)};
  // The arguments (validated) as the filter takes them; a payload (as JSON) as the filter takes it.
  std::function<std::shared_ptr<const void>(const json&)> decode_arguments;
  std::function<std::shared_ptr<const void>(const json&)> decode_payload;
  std::function<bool(const void* arguments, const void* payload)> matches;  // null: everything matches
  bool offers(event_delivery d) const {
    return std::find(options.delivery.begin(), options.delivery.end(), d) != options.delivery.end();
  }
};

class events_engine : public std::enable_shared_from_this<events_engine> {
 public:
  events_engine(server& srv, events_options o)
      : srv_(srv), options_(std::move(o)), store_(options_.store ? options_.store : std::make_shared<memory_events_store>()) {
    if (options_.heartbeat.count() <= 0) throw definition_error("events_options.heartbeat must be positive");
    if (options_.max_attempts < 1) throw definition_error("events_options.max_attempts must be at least 1");
    if (options_.min_ttl > options_.max_ttl || options_.default_ttl < options_.min_ttl || options_.default_ttl > options_.max_ttl)
      throw definition_error("events_options: min_ttl <= default_ttl <= max_ttl, please");
  }

  // Called once, by the events constructor, with the engine in a shared_ptr.
  void start() {
    srv_.capability("events", json::object(), true);
    srv_.extension(events_extension);
    std::weak_ptr<events_engine> weak = shared_from_this();
    auto add = [&](const char* method, bool slow, json (events_engine::*fn)(context&, const json&)) {
      srv_.method(method, {[weak, fn, method](context& ctx, const json& params) -> json {
                             auto self = weak.lock();
                             if (!self)
                               throw protocol_error(error_code::method_not_found,
                                                    "Method not found: '" + std::string(method) + "' (events are no longer served)");
                             if (!ctx.client().stateless)
                               throw protocol_error(error_code::method_not_found,
                                                    "Method not found: '" + std::string(method) +
                                                        "': events are served to 2026-07-28 requests only");
                             return ((*self).*fn)(ctx, params.is_object() ? params : json::object());
                           },
                           slow});
    };
    add("events/list", false, &events_engine::list);
    add("events/poll", true, &events_engine::poll);
    add("events/stream", true, &events_engine::stream);
    add("events/subscribe", true, &events_engine::subscribe);
    add("events/unsubscribe", true, &events_engine::unsubscribe);
    running_ = true;
    pump_ = std::thread([this] { pump(); });
    if (options_.http)
      for (std::size_t i = 0; i < std::max<std::size_t>(1, options_.delivery_threads); ++i)
        workers_.emplace_back([this, i] { deliver_loop("w" + std::to_string(i) + "-" + random_id().substr(0, 8)); });
  }

  // Stops the threads; open streams end with their final result.
  void stop() {
    {
      std::lock_guard lock(wake_mutex_);
      if (!running_) return;
      running_ = false;
    }
    wake_.notify_all();
    store_->wake();
    for (auto& w : workers_) w.join();
    workers_.clear();
    if (pump_.joinable()) pump_.join();
    std::vector<std::shared_ptr<push_stream>> open;
    {
      std::lock_guard lock(streams_mutex_);
      open.swap(streams_);
    }
    for (auto& s : open) s->out->finish();
  }

  void add(std::shared_ptr<const event_entry> e) {
    if (e->name.empty()) throw definition_error("An event type needs a name");
    if (e->offers(event_delivery::webhook) && !options_.http)
      throw definition_error("Event '" + e->name + "' offers webhook delivery, but the events have no outgoing HTTP client: "
                             "set events_options::http (<mcp/transport/curl.hpp>: mcp::http::curl_client)");
    if (e->offers(event_delivery::poll) && !e->options.replay)
      throw definition_error("Event '" + e->name + "' offers poll without replay: a poll reads what happened since its "
                             "cursor, so it needs replay (event_options::replay)");
    if (e->options.delivery.empty()) throw definition_error("Event '" + e->name + "' offers no delivery mode");
    std::unique_lock lock(types_mutex_);
    for (const auto& t : types_)
      if (t->name == e->name) throw definition_error("An event type named '" + e->name + "' is declared already");
    types_.push_back(std::move(e));
  }

  std::string emit(const std::string& name, std::type_index payload_type, json data,
                   std::shared_ptr<const void> typed_payload, std::string event_id) {
    auto e = find(name);
    if (!e) throw error(error_code::not_found, "emit: no event type named '" + name + "' is declared");
    if (payload_type != e->payload_type && payload_type != std::type_index(typeid(json)))
      throw error(error_code::invalid_argument, "emit('" + name + "'): the payload is not of the type the event was declared with");
    auto problems = e->payload_check->validate(data);
    if (!problems.empty())
      throw error(error_code::invalid_argument, "emit('" + name + "'): the payload breaks its schema: " +
                                                    describe_violations(name, problems, e->payload_check->schema()));
    if (!typed_payload) typed_payload = e->decode_payload(data);
    const std::int64_t now = unix_ms_now();
    if (event_id.empty()) event_id = "evt_" + random_id();
    json occurrence{{"eventId", std::move(event_id)}, {"name", name}, {"timestamp", rfc3339(now)}, {"data", std::move(data)}};
    const std::string body_bound_check = to_json_text(occurrence);
    if (body_bound_check.size() + 512 > max_body_bytes())  // room for the cursor
      throw error(error_code::invalid_argument, "emit('" + name + "'): the event is " + std::to_string(body_bound_check.size()) +
                                                    " bytes of JSON; a delivery carries at most " +
                                                    std::to_string(max_body_bytes()) + " (send less: clients fetch detail with tools)");
    const std::string position = store_->append(name, occurrence, now, e->options.retention);
    ++emitted_;
    {
      std::lock_guard lock(wake_mutex_);
      dirty_ = true;
    }
    wake_.notify_all();
    if (e->offers(event_delivery::webhook)) fan_out(*e, occurrence, position, typed_payload.get());
    return occurrence["eventId"].get<std::string>();
  }

  // Every subscription (webhook) and stream (push) of `name` whose arguments `which` picks ends with
  // a terminated control carrying `code` and `message`. Returns how many.
  std::size_t terminate(const std::string& name, const std::function<bool(const void*)>& which, int code,
                        const std::string& message) {
    auto e = find(name);
    if (!e) throw error(error_code::not_found, "terminate: no event type named '" + name + "' is declared");
    const json err{{"code", code}, {"message", message}};
    std::size_t ended = 0;
    std::vector<std::shared_ptr<push_stream>> streams;
    {
      std::lock_guard lock(streams_mutex_);
      for (auto it = streams_.begin(); it != streams_.end();) {
        if ((*it)->type->name == name && (!which || which((*it)->arguments.get()))) {
          streams.push_back(*it);
          it = streams_.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& s : streams) {
      s->out->notify("notifications/events/terminated", json{{"error", err}, {"_meta", {{meta_subscription_id, s->out->id()}}}});
      s->out->finish();
      ++ended;
    }
    if (e->offers(event_delivery::webhook)) {
      for (auto& sub : store_->of_type(name)) {
        if (sub.terminating) continue;
        if (which) {
          std::shared_ptr<const void> args;
          try {
            args = e->decode_arguments(sub.arguments);
          } catch (...) {
            continue;
          }
          if (!which(args.get())) continue;
        }
        sub.terminating = true;
        store_->put(sub);
        webhook_delivery d;
        d.subscription_id = sub.id;
        d.webhook_id = "msg_" + random_id();
        d.body = to_json_text(json{{"type", "terminated"}, {"error", err}});
        d.control = true;
        d.terminates = true;
        store_->enqueue(std::move(d), options_.max_queued_per_subscription + 1);
        ++ended;
      }
    }
    return ended;
  }

  std::shared_ptr<const event_entry> find(const std::string& name) const {
    std::shared_lock lock(types_mutex_);
    for (const auto& t : types_)
      if (t->name == name) return t;
    return nullptr;
  }

  std::size_t streams_open() {
    std::lock_guard lock(streams_mutex_);
    std::size_t n = 0;
    for (const auto& s : streams_) n += s->out->open();
    return n;
  }
  std::size_t deliveries_queued() { return store_->queued(""); }
  std::uint64_t delivered() const { return delivered_.load(); }
  std::uint64_t emitted() const { return emitted_.load(); }
  events_store& store() { return *store_; }

 private:
  struct push_stream {
    std::shared_ptr<request_stream> out;
    std::shared_ptr<const event_entry> type;
    std::shared_ptr<const void> arguments;
    std::string position;
    std::int64_t not_before_ms = 0;  // maxAgeMs: older events are skipped
    std::chrono::steady_clock::time_point next_heartbeat;
    bool failing = false;  // the store failed; an error notification went out
  };

  std::size_t max_body_bytes() const { return options_.http ? options_.http->policy().max_request_bytes : 256 * 1024; }

  // ---- parameters ----

  std::shared_ptr<const event_entry> requested(context& ctx, const json& params, event_delivery mode) const {
    auto n = params.find("name");
    if (n == params.end() || !n->is_string())
      throw protocol_error(error_code::invalid_params, "Invalid params: \"name\" must be the event type's name, a string");
    const std::string& name = n->get_ref<const std::string&>();
    auto e = find(name);
    if (!e) {
      std::string known;
      for (const auto& t : visible(ctx.caller())) known += (known.empty() ? "" : ", ") + t->name;
      throw events_failure(events_error::not_found,
                           "Unknown event type: '" + name + "'. Event types: " + (known.empty() ? "none" : known),
                           json{{"kind", "event"}, {"name", name}});
    }
    if (auto refusal = scope_refusal(ctx.caller(), e->options.scopes, "event type", name)) throw *refusal;
    if (!e->offers(mode)) {
      std::string modes;
      for (auto d : e->options.delivery) modes += (modes.empty() ? "" : ", ") + std::string(to_string(d));
      throw events_failure(events_error::unsupported,
                           "The event type '" + name + "' does not offer " + to_string(mode) + " delivery; it offers " + modes,
                           json{{"delivery", to_string(mode)}, {"offered", e->listed["delivery"]}});
    }
    return e;
  }

  static std::shared_ptr<const void> arguments_of(const event_entry& e, const json& params) {
    json arguments = json::object();
    if (auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
      if (!a->is_object()) throw protocol_error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
      arguments = *a;
    }
    auto problems = e.arguments_check->validate(arguments);
    if (!problems.empty())
      throw protocol_error(error_code::invalid_params,
                           "Invalid params: the arguments of '" + e.name + "' break its inputSchema: " +
                               describe_violations(e.name, problems, e.arguments_check->schema()),
                           json{{"violations", violations_json(problems)}});
    return e.decode_arguments(arguments);
  }

  static json violations_json(const std::vector<violation>& v) {
    json out = json::array();
    for (const auto& p : v) out.push_back({{"pointer", p.pointer}, {"keyword", p.keyword}, {"message", p.message}});
    return out;
  }

  static std::optional<std::int64_t> non_negative(const json& params, const char* key) {
    auto it = params.find(key);
    if (it == params.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
      throw protocol_error(error_code::invalid_params, std::string("Invalid params: \"") + key + "\" must be a non-negative integer");
    return it->get<std::int64_t>();
  }

  // A cursor names the event type and a position in its log: "ev1." and the base64url of both.
  static std::string cursor_of(const std::string& type, const std::string& position) {
    return "ev1." + base64url_encode(type + "\n" + position);
  }
  // The position a client's cursor holds; nullopt for a null or absent cursor ("from now").
  static std::optional<std::string> position_of(const json& params, const std::string& type) {
    auto c = params.find("cursor");
    if (c == params.end() || c->is_null()) return std::nullopt;
    auto refuse = [] {
      return protocol_error(error_code::invalid_params,
                            "Invalid params: \"cursor\" must be a cursor this server handed out for this event type, "
                            "exactly as received, or null to start from now");
    };
    if (!c->is_string()) throw refuse();
    const std::string& text = c->get_ref<const std::string&>();
    if (text.compare(0, 4, "ev1.") != 0) throw refuse();
    auto inner = base64url_decode(std::string_view(text).substr(4));
    if (!inner) throw refuse();
    const auto nl = inner->find('\n');
    if (nl == std::string::npos || inner->compare(0, nl, type) != 0 || nl != type.size()) throw refuse();
    return inner->substr(nl + 1);
  }

  std::vector<std::shared_ptr<const event_entry>> visible(const identity* caller) const {
    std::shared_lock lock(types_mutex_);
    std::vector<std::shared_ptr<const event_entry>> out;
    for (const auto& t : types_)
      if (permits(caller, t->options.scopes)) out.push_back(t);
    return out;
  }

  static json with_cursor(const event_entry& e, json occurrence, const std::string& position) {
    occurrence["cursor"] = e.options.replay ? json(cursor_of(e.name, position)) : json(nullptr);
    return occurrence;
  }

  bool matches(const event_entry& e, const void* arguments, const json& occurrence, std::shared_ptr<const void>& payload) const {
    if (!e.matches) return true;
    try {
      if (!payload) payload = e.decode_payload(occurrence.at("data"));
      return e.matches(arguments, payload.get());
    } catch (const std::exception& x) {
      log(std::string("events: the filter of '") + e.name + "' threw: " + x.what());
      return false;
    }
  }

  void log(const std::string& text) const { log_diagnostic(srv_.options(), text); }

  // ---- the methods ----

  json list(context& ctx, const json& params) {
    auto types = visible(ctx.caller());
    page_window w = requested_page(params, types.size(), srv_.options().page_size, "events");
    json out = json::array();
    for (std::size_t i = w.begin; i < w.end; ++i) out.push_back(types[i]->listed);
    json result{{"events", std::move(out)}};
    if (w.next_cursor) result["nextCursor"] = *w.next_cursor;
    return result;
  }

  json poll(context& ctx, const json& params) {
    auto e = requested(ctx, params, event_delivery::poll);
    auto arguments = arguments_of(*e, params);
    auto max_events = non_negative(params, "maxEvents");
    auto max_age = non_negative(params, "maxAgeMs");
    const std::size_t want = std::min<std::size_t>(max_events ? std::size_t(*max_events) : options_.poll_default_events,
                                                   options_.poll_max_events);
    auto from = position_of(params, e->name);
    json events = json::array();
    json result{{"truncated", false}, {"hasMore", false}, {"nextPollMs", options_.next_poll.count()}};
    if (!from) {  // from now: no events, and where now is
      result["events"] = std::move(events);
      result["cursor"] = cursor_of(e->name, store_->head(e->name));
      return result;
    }
    const std::int64_t not_before = max_age ? unix_ms_now() - *max_age : 0;
    std::string position = *from;
    bool truncated = false, more = false;
    // Events that do not match are stepped over (the cursor moves past them), up to ten pages a poll.
    for (int page = 0; page < 10 && events.size() < want; ++page) {
      log_read r = store_->read(e->name, position, std::max<std::size_t>(want, 100));
      truncated = truncated || r.truncated;
      if (r.events.empty()) position = r.position;
      std::size_t taken = 0;
      for (auto& ev : r.events) {
        if (events.size() == want) break;
        ++taken;
        position = ev.position;
        if (ev.time_ms < not_before) {
          truncated = true;
          continue;
        }
        std::shared_ptr<const void> payload;
        if (matches(*e, arguments.get(), ev.occurrence, payload)) events.push_back(with_cursor(*e, std::move(ev.occurrence), ev.position));
      }
      more = r.more || taken < r.events.size();
      if (!more) break;
    }
    result["events"] = std::move(events);
    result["cursor"] = cursor_of(e->name, position);
    result["truncated"] = truncated;
    result["hasMore"] = more;
    if (more) result["nextPollMs"] = 0;
    return result;
  }

  json stream(context& ctx, const json& params) {
    auto e = requested(ctx, params, event_delivery::push);
    auto arguments = arguments_of(*e, params);
    auto max_age = non_negative(params, "maxAgeMs");
    auto from = e->options.replay ? position_of(params, e->name) : std::nullopt;
    if (!e->options.replay) position_of(params, e->name);  // a malformed cursor is refused all the same
    {
      std::lock_guard lock(streams_mutex_);
      prune_locked();
      if (streams_.size() >= options_.max_streams)
        throw events_failure(events_error::resource_exhausted,
                             "Too many open event streams on this server (" + std::to_string(options_.max_streams) +
                                 "): poll instead, or try again later",
                             json{{"limit", "streams"}, {"max", options_.max_streams}});
    }
    auto s = std::make_shared<push_stream>();
    s->type = e;
    s->arguments = std::move(arguments);
    s->not_before_ms = max_age ? unix_ms_now() - *max_age : 0;
    bool truncated = false;
    if (from) {
      log_read probe = store_->read(e->name, *from, 0);  // is anything after the cursor gone?
      truncated = probe.truncated;
      s->position = probe.truncated ? probe.position : *from;
    } else {
      s->position = store_->head(e->name);
    }
    s->out = ctx.keep_open();
    s->out->on_server_end([] { return json::object(); });
    s->next_heartbeat = std::chrono::steady_clock::now() + options_.heartbeat;
    const json tag{{meta_subscription_id, s->out->id()}};
    s->out->notify("notifications/events/active",
                   json{{"cursor", e->options.replay ? json(cursor_of(e->name, s->position)) : json(nullptr)},
                        {"truncated", truncated},
                        {"_meta", tag}});
    {
      std::lock_guard lock(streams_mutex_);
      streams_.push_back(s);
    }
    {
      std::lock_guard lock(wake_mutex_);
      dirty_ = true;  // the pump replays what follows the cursor
    }
    wake_.notify_all();
    return json::object();  // not sent: the stream answers when it ends
  }

  // ---- webhooks ----

  struct callback {
    std::string url;
    std::string secret;
    std::string key;  // the secret's bytes
  };

  callback callback_of(const json& params, bool with_secret) const {
    auto d = params.find("delivery");
    if (d == params.end() || !d->is_object())
      throw protocol_error(error_code::invalid_params,
                           "Invalid params: \"delivery\" must be an object: {\"mode\": \"webhook\", \"url\": ..., \"secret\": ...}");
    auto mode = d->find("mode");
    if (mode != d->end() && !(mode->is_string() && *mode == "webhook"))
      throw events_failure(events_error::unsupported, "Only webhook delivery is subscribed with events/subscribe "
                                                     "(poll with events/poll, push with events/stream)",
                           json{{"delivery", *mode}});
    auto url = d->find("url");
    if (url == d->end() || !url->is_string())
      throw protocol_error(error_code::invalid_params, "Invalid params: \"delivery.url\" must be the callback URL, a string");
    callback c;
    c.url = url->get<std::string>();
    auto [checked, why] = check_url(c.url, options_.http->policy());
    if (!checked) throw protocol_error(error_code::invalid_params, "Invalid params: \"delivery.url\" is refused: " + why);
    if (!with_secret) return c;
    auto secret = d->find("secret");
    if (secret == d->end() || !secret->is_string())
      throw protocol_error(error_code::invalid_params, "Invalid params: \"delivery.secret\" must be the signing secret, a string");
    c.secret = secret->get<std::string>();
    auto key = webhook_key(c.secret);
    if (!key)
      throw protocol_error(error_code::invalid_params,
                           "Invalid params: \"delivery.secret\" must be \"whsec_\" followed by the base64 of 24 to 64 random bytes");
    c.key = std::move(*key);
    return c;
  }

  static std::string principal_of(const context& ctx) { return ctx.caller() ? ctx.caller()->subject : std::string(); }

  // The same principal, event type, arguments and callback name the same subscription, in every process.
  static std::string subscription_id(const std::string& principal, const std::string& name, const json& arguments,
                                     const std::string& url) {
    const std::string key = principal + '\0' + name + '\0' + to_json_text(arguments) + '\0' + url;
    static constexpr char hex[] = "0123456789abcdef";
    std::string id = "sub_";
    auto digest = sha256(key);
    for (std::size_t i = 0; i < 16; ++i) {
      id += hex[digest[i] >> 4];
      id += hex[digest[i] & 0xF];
    }
    return id;
  }

  outgoing_request signed_request(const std::string& url, const std::string& key, const std::string& subscription,
                                  const std::string& webhook_id, std::string body) const {
    const std::int64_t ts = unix_ms_now() / 1000;
    outgoing_request r;
    r.url = url;
    r.headers = {{"Content-Type", "application/json"},
                 {"webhook-id", webhook_id},
                 {"webhook-timestamp", std::to_string(ts)},
                 {"webhook-signature", webhook_signature(key, webhook_id, ts, body)},
                 {"X-MCP-Subscription-Id", subscription}};
    r.body = std::move(body);
    return r;
  }

  static const char* reason_of(outgoing_response::failure f) {
    switch (f) {
      case outgoing_response::failure::refused_url: return "url_not_allowed";
      case outgoing_response::failure::refused_address: return "address_not_allowed";
      case outgoing_response::failure::unresolved: return "unresolved";
      case outgoing_response::failure::timeout: return "timeout";
      case outgoing_response::failure::too_large: return "response_too_large";
      default: return "unreachable";
    }
  }

  // The signed challenge, before the first delivery: the callback must echo it.
  void verify(const callback& c, const std::string& id) {
    const std::string challenge = random_id() + random_id();
    auto response = options_.http->post(signed_request(
        c.url, c.key, id, "msg_" + random_id(), to_json_text(json{{"type", "verification"}, {"challenge", challenge}})));
    auto refuse = [&](const std::string& reason, const std::string& why, json extra = json::object()) {
      extra["reason"] = reason;
      return events_failure(events_error::callback_endpoint, "The callback failed verification: " + why, std::move(extra));
    };
    if (response.failed != outgoing_response::failure::none) throw refuse(reason_of(response.failed), response.error);
    if (response.status < 200 || response.status > 299)
      throw refuse("rejected", "it answered HTTP " + std::to_string(response.status) + " to the challenge",
                   json{{"status", response.status}});
    json answer = json::parse(response.body, nullptr, false);
    if (!answer.is_object() || answer.value("challenge", json()) != challenge)
      throw refuse("challenge_mismatch", "its answer did not echo the challenge ({\"challenge\": ...})");
  }

  json subscribe(context& ctx, const json& params) {
    auto e = requested(ctx, params, event_delivery::webhook);
    auto arguments = arguments_of(*e, params);
    json arguments_json = params.contains("arguments") && params["arguments"].is_object() ? params["arguments"] : json::object();
    callback c = callback_of(params, true);
    auto ttl = non_negative(params, "ttlMs");
    auto max_age = non_negative(params, "maxAgeMs");
    auto from = e->options.replay ? position_of(params, e->name) : std::nullopt;
    if (!e->options.replay) position_of(params, e->name);
    std::chrono::milliseconds life = ttl ? std::chrono::milliseconds(*ttl) : options_.default_ttl;
    life = std::clamp(life, options_.min_ttl, options_.max_ttl);

    const std::string principal = principal_of(ctx);
    webhook_subscription sub;
    sub.id = subscription_id(principal, e->name, arguments_json, c.url);
    auto existing = store_->get(sub.id);
    if (existing && existing->expires_ms <= unix_ms_now()) existing.reset();
    if (!existing && store_->count_of(principal) >= options_.max_subscriptions_per_principal)
      throw events_failure(events_error::resource_exhausted,
                           "Too many webhook subscriptions for this principal (" +
                               std::to_string(options_.max_subscriptions_per_principal) + "): unsubscribe some first",
                           json{{"limit", "subscriptions"}, {"max", options_.max_subscriptions_per_principal}});
    if (existing && existing->terminating)
      throw events_failure(events_error::forbidden, "This subscription was ended by the server; subscribe again later",
                           json{{"kind", "subscription"}});
    // A new callback, or a new secret for it, is verified before anything is sent to it.
    if (!existing || existing->secret != c.secret) verify(c, sub.id);
    sub.principal = principal;
    sub.name = e->name;
    sub.arguments = std::move(arguments_json);
    sub.url = c.url;
    sub.secret = c.secret;
    sub.expires_ms = unix_ms_now() + life.count();
    store_->put(sub);

    // From a cursor: what followed it is delivered (at least once: an event raised meanwhile may come twice).
    const std::string head = store_->head(e->name);
    bool truncated = false;
    if (from) {
      const std::int64_t not_before = max_age ? unix_ms_now() - *max_age : 0;
      std::string position = *from;
      std::size_t replayed = 0;
      for (;;) {
        log_read r = store_->read(e->name, position, 100);
        truncated = truncated || r.truncated;
        for (auto& ev : r.events) {
          position = ev.position;
          if (ev.time_ms < not_before) {
            truncated = true;
            continue;
          }
          if (replayed == options_.replay_on_subscribe) {
            truncated = true;
            break;
          }
          std::shared_ptr<const void> payload;
          if (!matches(*e, arguments.get(), ev.occurrence, payload)) continue;
          ++replayed;
          enqueue_event(sub.id, with_cursor(*e, std::move(ev.occurrence), ev.position));
        }
        if (!r.more || replayed == options_.replay_on_subscribe || position == head) break;
      }
    }
    return json{{"id", sub.id},
                {"refreshBefore", rfc3339(sub.expires_ms)},
                {"cursor", e->options.replay ? json(cursor_of(e->name, head)) : json(nullptr)},
                {"truncated", truncated}};
  }

  json unsubscribe(context& ctx, const json& params) {
    auto n = params.find("name");
    if (n == params.end() || !n->is_string())
      throw protocol_error(error_code::invalid_params, "Invalid params: \"name\" must be the event type's name, a string");
    if (!options_.http)
      throw events_failure(events_error::not_found, "This server has no webhook subscriptions", json{{"kind", "subscription"}});
    json arguments = params.contains("arguments") && params["arguments"].is_object() ? params["arguments"] : json::object();
    callback c = callback_of(params, false);
    const std::string id = subscription_id(principal_of(ctx), n->get<std::string>(), arguments, c.url);
    if (!store_->remove(id))
      throw events_failure(events_error::not_found, "No such subscription (name, arguments and url as subscribed, by the same principal)",
                           json{{"kind", "subscription"}});
    return json::object();
  }

  void enqueue_event(const std::string& subscription, const json& occurrence) {
    webhook_delivery d;
    d.subscription_id = subscription;
    d.webhook_id = occurrence["eventId"].get<std::string>();
    d.body = to_json_text(occurrence);
    if (store_->enqueue(std::move(d), options_.max_queued_per_subscription)) return;
    // Full: this one is dropped, and the subscriber told so (once: the gap takes the one place past the bound).
    enqueue_gap(subscription, occurrence["name"].get<std::string>());
  }

  void enqueue_gap(const std::string& subscription, const std::string& type) {
    webhook_delivery gap;
    gap.subscription_id = subscription;
    gap.webhook_id = "msg_" + random_id();
    gap.body = to_json_text(json{{"type", "gap"}, {"cursor", cursor_of(type, store_->head(type))}});
    gap.control = true;
    store_->enqueue(std::move(gap), options_.max_queued_per_subscription + 1);
  }

  void fan_out(const event_entry& e, const json& occurrence, const std::string& position, const void* payload) {
    const json delivered = with_cursor(e, occurrence, position);
    for (const auto& sub : store_->of_type(e.name)) {
      if (sub.terminating) continue;
      if (e.matches) {
        std::shared_ptr<const void> args;
        try {
          args = e.decode_arguments(sub.arguments);
          if (!e.matches(args.get(), payload)) continue;
        } catch (const std::exception& x) {
          log("events: subscription " + sub.id + " of '" + e.name + "': " + x.what());
          continue;
        }
      }
      enqueue_event(sub.id, delivered);
    }
  }

  void deliver_loop(const std::string& worker) {
    while (running_.load()) {
      std::vector<webhook_delivery> batch;
      try {
        batch = store_->claim(worker, 8, std::chrono::milliseconds(500), options_.lease);
      } catch (const std::exception& x) {
        log(std::string("events: the store failed to hand out deliveries: ") + x.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        continue;
      }
      for (auto& d : batch) {
        try {
          deliver(d);
        } catch (const std::exception& x) {
          log(std::string("events: a delivery failed: ") + x.what());
          try {
            store_->retry(d, unix_ms_now() + backoff(d.attempt).count());
          } catch (...) {
          }
        }
      }
    }
  }

  std::chrono::milliseconds backoff(int attempt) const {
    double ms = double(options_.first_retry.count());
    for (int i = 1; i < attempt && ms < double(options_.max_retry.count()); ++i) ms *= 2;
    ms = std::min(ms, double(options_.max_retry.count()));
    thread_local std::mt19937 jitter{std::random_device{}()};
    std::uniform_real_distribution<double> spread(0.8, 1.2);
    return std::chrono::milliseconds(static_cast<std::int64_t>(ms * spread(jitter)));
  }

  void deliver(webhook_delivery& d) {
    auto sub = store_->get(d.subscription_id);
    const std::int64_t now = unix_ms_now();
    if (!sub || sub->expires_ms <= now || (sub->terminating && !d.control)) {
      store_->settle(d);  // unsubscribed, lapsed or ended: nothing more for it
      if (sub && sub->expires_ms <= now) store_->remove(sub->id);
      return;
    }
    auto key = webhook_key(sub->secret);
    if (!key) {
      store_->settle(d);
      return;
    }
    ++d.attempt;
    auto response = options_.http->post(signed_request(sub->url, *key, sub->id, d.webhook_id, d.body));
    const bool answered = response.failed == outgoing_response::failure::none;
    const int status = response.status;
    auto give_up = [&] {
      store_->settle(d);
      if (d.terminates) store_->remove(sub->id);
    };
    if (answered && status >= 200 && status < 300) {
      ++delivered_;
      return give_up();  // delivered
    }
    if (answered && status == 410) {  // the client let the subscription go
      store_->settle(d);
      store_->remove(sub->id);
      return;
    }
    const bool refused = response.failed == outgoing_response::failure::refused_url ||
                         response.failed == outgoing_response::failure::refused_address;
    if ((answered && status >= 300 && status < 500) || refused) {  // refused (or redirected): never the same body again
      if (refused) log("events: delivery to subscription " + sub->id + " refused: " + response.error);
      return give_up();
    }
    if (d.attempt < options_.max_attempts) {
      store_->retry(d, now + backoff(d.attempt).count());
      return;
    }
    log("events: delivery " + d.webhook_id + " to subscription " + sub->id + " given up after " + std::to_string(d.attempt) +
        " attempts (" + (answered ? "HTTP " + std::to_string(status) : response.error) + ")");
    give_up();
    if (!d.control) enqueue_gap(sub->id, sub->name);  // the subscriber learns that something is missing
  }

  // ---- push streams ----

  void prune_locked() {
    streams_.erase(std::remove_if(streams_.begin(), streams_.end(),
                                  [](const auto& s) {
                                    if (s->out->open()) return false;
                                    s->out->end_by_server(false);  // cancelled or gone: its request is over
                                    return true;
                                  }),
                   streams_.end());
  }

  void pump() {
    std::unique_lock lock(wake_mutex_);
    while (running_) {
      auto next = std::chrono::steady_clock::now() + options_.heartbeat;
      {
        std::lock_guard s(streams_mutex_);
        for (const auto& st : streams_) next = std::min(next, st->next_heartbeat);
        if (store_->shared() && !streams_.empty()) next = std::min(next, std::chrono::steady_clock::now() + options_.follow);
      }
      wake_.wait_until(lock, next, [this] { return dirty_ || !running_; });
      if (!running_) break;
      dirty_ = false;
      lock.unlock();
      pump_once();
      lock.lock();
    }
  }

  void pump_once() {
    std::vector<std::shared_ptr<push_stream>> streams;
    {
      std::lock_guard lock(streams_mutex_);
      prune_locked();
      streams = streams_;
    }
    const auto now = std::chrono::steady_clock::now();
    for (auto& s : streams) {
      const json tag{{meta_subscription_id, s->out->id()}};
      try {
        // Up to ten pages a round per stream: one stream far behind does not hold up the others long.
        for (int page = 0; page < 10; ++page) {
          log_read r = store_->read(s->type->name, s->position, 100);
          for (auto& ev : r.events) {
            s->position = ev.position;
            if (ev.time_ms < s->not_before_ms) continue;
            std::shared_ptr<const void> payload;
            if (!matches(*s->type, s->arguments.get(), ev.occurrence, payload)) continue;
            json params = with_cursor(*s->type, std::move(ev.occurrence), ev.position);
            params["_meta"] = tag;
            if (!s->out->notify("notifications/events/event", std::move(params))) break;
          }
          if (r.events.empty()) s->position = r.position.empty() ? s->position : r.position;
          if (!r.more) break;
        }
        s->failing = false;
      } catch (const std::exception& x) {
        if (!s->failing)
          s->out->notify("notifications/events/error",
                         json{{"error", {{"code", error_code::internal_error}, {"message", "The event log cannot be read now; "
                                                                                           "the stream goes on when it can"}}},
                              {"_meta", tag}});
        s->failing = true;
        log(std::string("events: reading the log of '") + s->type->name + "' failed: " + x.what());
      }
      if (now >= s->next_heartbeat) {
        s->out->notify("notifications/events/heartbeat",
                       json{{"cursor", s->type->options.replay ? json(cursor_of(s->type->name, s->position)) : json(nullptr)},
                            {"_meta", tag}});
        s->next_heartbeat = now + options_.heartbeat;
      }
    }
  }

  server& srv_;
  const events_options options_;
  std::shared_ptr<events_store> store_;
  mutable std::shared_mutex types_mutex_;
  std::vector<std::shared_ptr<const event_entry>> types_;
  std::mutex streams_mutex_;
  std::vector<std::shared_ptr<push_stream>> streams_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool dirty_ = false;
  std::atomic<bool> running_{false};
  std::thread pump_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> delivered_{0};
  std::atomic<std::uint64_t> emitted_{0};
};

// A filter's arguments: an MCP_STRUCT, or void for an event type without arguments.
template <class Args>
struct event_arguments_traits {
  static const json& schema() { return schema_of<Args>(); }
  static const nlohmann::ordered_json* ordered() { return &schema_of_ordered<Args>(); }
};
template <>
struct event_arguments_traits<void> {
  static const json& schema() {
    static const json s{{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}};
    return s;
  }
  static const nlohmann::ordered_json* ordered() { return nullptr; }
};

}  // namespace detail

class events;

// A declared event type, for raising it and ending its subscriptions. A small value: copy it, use
// it from any thread. Its calls throw mcp::error once the events object that declared it is gone.
template <class Payload, class Args = void>
class event_type {
 public:
  const std::string& name() const { return name_; }
  // Raises one occurrence, checked against the payload schema (mcp::error with
  // error_code::invalid_argument when it breaks it, naming each violation), logged for replay,
  // delivered to the streams and webhook subscriptions whose arguments match. Returns its eventId.
  // `event_id`: the upstream's own stable id, when it has one (clients deduplicate by it).
  std::string emit(const Payload& payload, std::string event_id = {}) const {
    auto engine = lock();
    return engine->emit(name_, typeid(Payload), encode(payload), std::make_shared<Payload>(payload), std::move(event_id));
  }
  // Ends every stream and webhook subscription of this type whose arguments `which` picks (all,
  // without it): each gets a terminated control with `code` and `message`. Returns how many.
  template <class Which>
  std::size_t terminate_where(Which which, int code, const std::string& message) const {
    static_assert(!std::is_void_v<Args>, "terminate_where: this event type has no arguments; use terminate_all");
    return lock()->terminate(name_, [which](const void* a) { return bool(which(*static_cast<const Args*>(a))); }, code, message);
  }
  std::size_t terminate_all(int code, const std::string& message) const { return lock()->terminate(name_, nullptr, code, message); }

 private:
  friend class events;
  event_type(std::weak_ptr<detail::events_engine> engine, std::string name) : engine_(std::move(engine)), name_(std::move(name)) {}
  std::shared_ptr<detail::events_engine> lock() const {
    auto e = engine_.lock();
    if (!e) throw error(error_code::not_found, "the events that declared '" + name_ + "' are gone");
    return e;
  }
  std::weak_ptr<detail::events_engine> engine_;
  std::string name_;
};

// The events extension on one server. Construct it after the server (so that it is destroyed
// first) and before serving; declare event types at any time.
//
// Threads: every member is safe from any thread. The object runs threads of its own: one that
// feeds push streams (events/stream) and sends their heartbeats, and events_options::delivery_threads
// that make webhook deliveries. ~events stops them, waiting for deliveries in progress (each bounded
// by the outgoing client's time limit), and ends open streams with their final result.
class events {
 public:
  explicit events(server& srv, events_options options = {})
      : engine_(std::make_shared<detail::events_engine>(srv, std::move(options))) {
    engine_->start();
  }
  ~events() { engine_->stop(); }
  events(const events&) = delete;
  events& operator=(const events&) = delete;

  // Declares an event type: Args (an MCP_STRUCT, or void for none) describes a subscription's
  // arguments, Payload (an MCP_STRUCT) each occurrence's data. `filter(args, payload)` says whether
  // an occurrence goes to a subscription with those arguments; without one, every occurrence does.
  // Throws definition_error for a name declared already or options that cannot work.
  template <class Args, class Payload, class Filter>
  event_type<Payload, Args> declare(std::string name, std::string description, Filter filter, event_options options = {}) {
    static_assert(!std::is_void_v<Args>, "declare<void, Payload>(name, description, options): a filter needs arguments to look at");
    static_assert(std::is_invocable_r_v<bool, Filter, const Args&, const Payload&>,
                  "declare<Args, Payload>(..., filter): the filter must be callable as bool(const Args&, const Payload&)");
    auto e = entry<Args, Payload>(std::move(name), std::move(description), std::move(options));
    e->matches = [filter = std::move(filter)](const void* a, const void* p) {
      return bool(filter(*static_cast<const Args*>(a), *static_cast<const Payload*>(p)));
    };
    const std::string n = e->name;
    engine_->add(std::move(e));
    return event_type<Payload, Args>(engine_, n);
  }
  template <class Args, class Payload>
  event_type<Payload, Args> declare(std::string name, std::string description, event_options options = {}) {
    auto e = entry<Args, Payload>(std::move(name), std::move(description), std::move(options));
    const std::string n = e->name;
    engine_->add(std::move(e));
    return event_type<Payload, Args>(engine_, n);
  }

  // Raises an event by name: the payload must be of the type it was declared with, or an mcp::json
  // (checked against the payload schema all the same).
  template <class Payload>
  std::string emit(const std::string& name, const Payload& payload, std::string event_id = {}) {
    if constexpr (std::is_same_v<Payload, json>)
      return engine_->emit(name, typeid(json), payload, nullptr, std::move(event_id));
    else
      return engine_->emit(name, typeid(Payload), encode(payload), std::make_shared<Payload>(payload), std::move(event_id));
  }

  // Open push streams in this process, deliveries queued (in the store: every process's, with a
  // shared one), webhook deliveries this process made (2xx answers) and events it raised.
  std::size_t streams_open() const { return engine_->streams_open(); }
  std::size_t deliveries_queued() const { return engine_->deliveries_queued(); }
  std::uint64_t delivered() const { return engine_->delivered(); }
  std::uint64_t emitted() const { return engine_->emitted(); }

 private:
  template <class Args, class Payload>
  static std::shared_ptr<detail::event_entry> entry(std::string name, std::string description, event_options options) {
    static_assert(is_reflected_v<Payload>, "events.declare<Args, Payload>: Payload must be an MCP_STRUCT (an occurrence's data is an object)");
    static_assert(std::is_void_v<Args> || is_reflected_v<Args>,
                  "events.declare<Args, Payload>: Args must be an MCP_STRUCT, or void for an event without arguments");
    auto e = std::make_shared<detail::event_entry>();
    e->name = std::move(name);
    e->description = std::move(description);
    e->options = std::move(options);
    e->payload_type = typeid(Payload);
    using traits = detail::event_arguments_traits<Args>;
    e->arguments_check = std::make_shared<const validator>(traits::schema());
    e->payload_check = std::make_shared<const validator>(schema_of<Payload>());
    e->decode_payload = [](const json& j) -> std::shared_ptr<const void> { return std::make_shared<Payload>(decode<Payload>(j)); };
    if constexpr (std::is_void_v<Args>)
      e->decode_arguments = [](const json&) -> std::shared_ptr<const void> { return std::make_shared<int>(0); };
    else
      e->decode_arguments = [](const json& j) -> std::shared_ptr<const void> { return std::make_shared<Args>(decode<Args>(j)); };
    auto text = [](const nlohmann::ordered_json& s) { return detail::raw_json(s.dump(-1, ' ', false, json::error_handler_t::replace)); };
    json delivery = json::array();
    for (auto d : e->options.delivery) delivery.push_back(to_string(d));
    e->listed = json{{"name", e->name}, {"delivery", std::move(delivery)}};
    if (!e->description.empty()) e->listed["description"] = e->description;
    e->listed["inputSchema"] = traits::ordered() ? text(*traits::ordered()) : traits::schema();
    e->listed["payloadSchema"] = text(schema_of_ordered<Payload>());
    return e;
  }

  std::shared_ptr<detail::events_engine> engine_;
};

}  // namespace v0
}  // namespace mcp
