// The MCP side of the Streamable HTTP transport: what one parsed HTTP request means (POST a
// message, GET a stream, DELETE a session), the checks before it (Host, Origin, auth, Accept,
// Content-Type, MCP-Protocol-Version, session id), and how a request's replies become either one
// JSON body or an SSE stream. Also the /metrics text. Connection handling is elsewhere.
#pragma once

#include <mcp/core/connection.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/message.hpp>
#include <mcp/core/server.hpp>
#include <mcp/json/json.hpp>
#include <mcp/transport/detail/http_message.hpp>
#include <mcp/transport/detail/http_session.hpp>
#include <mcp/transport/detail/sse.hpp>
#include <mcp/transport/detail/sse_follower.hpp>
#include <mcp/transport/event_store.hpp>
#include <mcp/transport/http_auth.hpp>
#include <mcp/version.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

// What the endpoint needs of the listener's options.
struct endpoint_config {
  std::string path = "/mcp";
  bool stateless = false;
  bool get_stream = true;
  bool validate_origin = true;
  std::vector<std::string> allowed_origins;
  std::vector<std::string> allowed_hosts;
  std::optional<int> retry_ms;
  std::size_t replay_events = 256;
  std::function<mcp::http::auth_result(const mcp::http::auth_request&)> authorize;
  json protected_resource_metadata = nullptr;
  bool metrics = false;
  std::shared_ptr<mcp::http::event_store> event_store;  // null: requests' streams stay in this process
  std::size_t max_sessions = 10000;                     // also the most streams followed from the store
};

// Transport counters for /metrics.
class transport_stats {
 public:
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> connections_open{0};

  void count_status(int status) {
    std::lock_guard lock(mutex_);
    ++statuses_[status];
  }
  std::map<int, std::uint64_t> statuses() const {
    std::lock_guard lock(mutex_);
    return statuses_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<int, std::uint64_t> statuses_;
};

// ---- requests in flight ---------------------------------------------------------------------

// The POSTs whose reply is still open, with the connection (core) each runs on: a graceful stop
// waits for them and ends the listen streams among them. Each reply lists itself while it lives
// (an entry inside it: nothing is allocated per request). Threads: any.
class in_flight_table {
 public:
  class entry {
   public:
    entry(std::shared_ptr<in_flight_table> table, std::weak_ptr<mcp::connection> core)
        : table_(std::move(table)), core_(std::move(core)) {
      if (table_) table_->link(this);
    }
    ~entry() {
      if (table_) table_->unlink(this);
    }
    entry(const entry&) = delete;
    entry& operator=(const entry&) = delete;

   private:
    friend class in_flight_table;
    std::shared_ptr<in_flight_table> table_;  // the table may outlive the endpoint, as replies do
    std::weak_ptr<mcp::connection> core_;
    entry* prev_ = nullptr;
    entry* next_ = nullptr;
  };

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::vector<std::shared_ptr<mcp::connection>> cores() const {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<mcp::connection>> out;
    for (const entry* e = head_; e; e = e->next_)
      if (auto c = e->core_.lock()) out.push_back(std::move(c));
    return out;
  }

 private:
  void link(entry* e) {
    std::lock_guard lock(mutex_);
    e->next_ = head_;
    if (head_) head_->prev_ = e;
    head_ = e;
    ++count_;
  }
  void unlink(entry* e) {
    std::lock_guard lock(mutex_);
    if (e->prev_) e->prev_->next_ = e->next_;
    else head_ = e->next_;
    if (e->next_) e->next_->prev_ = e->prev_;
    --count_;
  }

  mutable std::mutex mutex_;
  entry* head_ = nullptr;
  std::size_t count_ = 0;
};

// ---- CORS --------------------------------------------------------------------------------------

// What a browser page may send (preflight's Access-Control-Allow-Headers) and read (every
// answer's Access-Control-Expose-Headers) beyond the CORS-safelisted headers.
inline constexpr std::string_view cors_request_headers =
    "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID";
inline constexpr std::string_view cors_exposed_headers = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";

// The exchange of a request from an allowed browser origin: every answer's head carries the
// CORS headers that let the page read it. Threads: as the writer it wraps.
class cors_writer final : public mcp::http::response_writer {
 public:
  cors_writer(std::shared_ptr<mcp::http::response_writer> inner, std::string origin)
      : inner_(std::move(inner)), origin_(std::move(origin)) {}
  void respond(response r) override { inner_->respond(with_cors(std::move(r))); }
  void start_stream(response head) override { inner_->start_stream(with_cors(std::move(head))); }
  void write(std::string sse_bytes) override { inner_->write(std::move(sse_bytes)); }
  void end() override { inner_->end(); }
  void on_disconnect(std::function<void()> fn) override { inner_->on_disconnect(std::move(fn)); }

 private:
  response with_cors(response r) const {
    r.headers.set("Access-Control-Allow-Origin", origin_);
    r.headers.add("Vary", "Origin");
    r.headers.set("Access-Control-Expose-Headers", cors_exposed_headers);
    return r;
  }
  std::shared_ptr<mcp::http::response_writer> inner_;
  std::string origin_;
};

// ---- small responses -------------------------------------------------------------------------

inline response json_response(int status, const json& body) {
  response r;
  r.status = status;
  r.headers.add("Content-Type", "application/json");
  r.body = to_json_text(body);
  return r;
}

// A transport-level refusal, as a JSON-RPC error without an id (the spec allows this body).
inline response rpc_error_response(int status, int code, const std::string& message) {
  return json_response(status, jsonrpc::error(nullptr, code, message));
}

inline response text_response(int status, std::string text) {
  response r;
  r.status = status;
  r.headers.add("Content-Type", "text/plain; charset=utf-8");
  r.body = std::move(text);
  r.body += '\n';
  return r;
}

// SSE priming and close_stream polling came with 2025-11-25; older clients may choke on an event
// with empty data.
inline bool supports_priming(std::string_view protocol_version) { return protocol_version >= "2025-11-25"; }

// ---- replies to one POSTed request ------------------------------------------------------------

// The outbound a POSTed request's handler writes to. The HTTP response waits for the first
// message: the request's own response makes it JSON; anything else (progress, logs, requests to
// the client) starts an SSE stream that the response then ends.
// A request the caller lacks a scope for is refused by the core, inside the middleware (an audit
// log sees the attempt); its JSON answer goes out as 403 with the scopes it needs in the challenge
// (RFC 6750 §3.1) and -32003 in the body.
inline void insufficient_scope_head(const json& error, const std::string& resource_metadata, response& head) {
  mcp::http::bearer_challenge challenge;
  challenge.error = "insufficient_scope";
  const json& data = error.contains("data") ? error["data"] : error;
  if (data.is_object() && data.contains("requiredScopes") && data["requiredScopes"].is_array())
    for (const auto& s : data["requiredScopes"])
      if (s.is_string()) challenge.scopes.push_back(s.get<std::string>());
  challenge.resource_metadata = resource_metadata;
  head.status = 403;
  head.headers.set("WWW-Authenticate", challenge.to_string());
}

class post_reply final : public outbound {
 public:
  struct setup {
    std::shared_ptr<exchange> ex;
    std::shared_ptr<http_session> owner;  // null in stateless mode: nothing to resume from
    std::shared_ptr<mcp::connection> core;
    std::string header_version;           // MCP-Protocol-Version, or what to assume without it
    std::optional<int> retry_ms;
    std::size_t replay_events = 256;
    header_map headers;                   // added to the response head
    std::shared_ptr<in_flight_table> in_flight;  // lists the reply while it lives (endpoint::requests_in_flight)
    // The endpoint's RFC 9728 metadata URL, named in a 403's challenge (empty: none). Outlived by it.
    const std::string* resource_metadata = nullptr;
    // A last look at a JSON reply before it goes: `error` is its "error" member, null for a result.
    std::function<void(const json* error, response& head)> on_json;
    // What the client leaving does (its connection closes, which cancels the request). Registered
    // again once the reply is a stream without a session: the stream's own watch replaced it.
    std::function<void()> on_disconnect;
  };

  explicit post_reply(setup s) : s_(std::move(s)), listed_(std::move(s_.in_flight), s_.core) {}

  ~post_reply() override {
    // No response will come (the request was cancelled or its session closed): end what was
    // started, so the connection can move on.
    try {
      std::lock_guard lock(mutex_);
      if (state_ == state::waiting) {
        s_.ex->start_stream(head());
        s_.ex->end();
      } else if (state_ == state::streaming) {
        stream_->finish();
      }
    } catch (...) {
    }
  }

  void send(const json& message) override {
    std::lock_guard lock(mutex_);
    const bool is_response = message.is_object() && !message.contains("method");
    if (state_ == state::waiting) {
      if (is_response) {
        auto error = message.find("error");
        return respond_json_locked(to_json_text(message), error == message.end() ? nullptr : &*error);
      }
      open_stream_locked();
    }
    if (state_ == state::streaming) {
      stream_->emit(message, is_response);
      if (is_response) state_ = state::done;
    }
  }

  void send_result(const json& id, json result) override {
    std::unique_lock lock(mutex_);
    if (state_ != state::waiting) {
      lock.unlock();
      return send(jsonrpc::response(id, std::move(result)));  // onto the open stream, as any message
    }
    std::string body;
    write_response(id, result, body);
    respond_json_locked(std::move(body), nullptr);
  }
  bool takes_text() const override { return true; }
  void send_result_text(const json& id, std::string_view result) override {
    std::string body;
    body.reserve(result.size() + 64);  // the envelope around it: one allocation
    write_response_text(id, result, body);
    std::lock_guard lock(mutex_);
    if (state_ == state::waiting) return respond_json_locked(std::move(body), nullptr);
    if (state_ == state::streaming) {  // onto the open stream, as any message
      stream_->emit_text(body, true);
      state_ = state::done;
    }
  }

  // Ends the HTTP response after the priming event; the rest stays in the stream's buffer until
  // the client resumes with GET and Last-Event-ID.
  void close_stream() override {
    std::lock_guard lock(mutex_);
    if (state_ == state::done || !resumable()) return;
    if (state_ == state::waiting) open_stream_locked();
    stream_->detach();
  }

 private:
  enum class state { waiting, streaming, done };

  response head() const {
    response r;
    r.status = 200;
    r.headers = s_.headers;
    return r;
  }

  void respond_json_locked(std::string body, const json* error) {
    response r = head();
    if (r.headers.empty()) r.headers.add("Content-Type", "application/json");
    else r.headers.set("Content-Type", "application/json");
    r.body = std::move(body);
    // A body the core found not JSON only when it ran the request (message::read leaves parts for
    // later): 400, as for a body found not JSON when read.
    if (error && error->is_object() && error->value("code", 0) == error_code::parse_error) r.status = 400;
    if (s_.on_json) s_.on_json(error, r);
    if (error && error->is_object() && error->value("code", 0) == error_code::insufficient_scope)
      insufficient_scope_head(*error, s_.resource_metadata ? *s_.resource_metadata : std::string(), r);
    s_.ex->respond(std::move(r));
    state_ = state::done;
  }

  bool resumable() const {
    if (!s_.owner) return false;
    std::string version = s_.core->protocol_version();
    return supports_priming(version.empty() ? s_.header_version : version);
  }

  void open_stream_locked() {
    stream_ = s_.owner ? s_.owner->new_request_stream() : std::make_shared<event_stream>("r0", s_.replay_events);
    response h = head();
    h.headers.set("X-Accel-Buffering", "no");  // proxies such as nginx must pass events on at once
    s_.ex->start_stream(std::move(h));
    stream_->attach_started(s_.ex);
    // Without a session nothing can resume this stream, so the client leaving still ends the
    // request (a long-lived one, such as events/stream, would otherwise stay open until the server
    // next wrote to it): the stream's watch replaced the one registered before.
    if (!s_.owner && s_.on_disconnect) s_.ex->on_disconnect(s_.on_disconnect);
    if (resumable()) stream_->prime(s_.retry_ms);
    state_ = state::streaming;
  }

  setup s_;
  in_flight_table::entry listed_;
  std::mutex mutex_;
  state state_ = state::waiting;
  std::shared_ptr<event_stream> stream_;
};

// Collects what the core answers to a notification or a response (only ever an error).
class capture_outbound final : public outbound {
 public:
  void send(const json& message) override {
    std::lock_guard lock(mutex_);
    if (!first_) first_ = message;
  }
  std::optional<json> first() const {
    std::lock_guard lock(mutex_);
    return first_;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<json> first_;
};

// Where a stateless session's unrelated messages go: nowhere, it has no GET stream.
class discard_outbound final : public outbound {
 public:
  void send(const json&) override {}
};

// ---- /metrics --------------------------------------------------------------------------------

// Prometheus text exposition (format 0.0.4): the server's own (server::metrics_text: per-tool
// counters and histograms), then the transport's.
inline std::string metrics_text(const server& srv, const transport_stats& stats, std::size_t sessions_open) {
  std::ostringstream out;
  out << srv.metrics_text();
  out << "# HELP mcp_http_connections_total Connections accepted.\n# TYPE mcp_http_connections_total counter\n"
      << "mcp_http_connections_total " << stats.connections_total.load() << '\n';
  out << "# HELP mcp_http_connections_open Connections open now.\n# TYPE mcp_http_connections_open gauge\n"
      << "mcp_http_connections_open " << stats.connections_open.load() << '\n';
  out << "# HELP mcp_http_responses_total Responses sent, by status.\n# TYPE mcp_http_responses_total counter\n";
  for (const auto& [status, n] : stats.statuses()) out << "mcp_http_responses_total{status=\"" << status << "\"} " << n << '\n';
  out << "# HELP mcp_http_sessions_open MCP sessions open now.\n# TYPE mcp_http_sessions_open gauge\n"
      << "mcp_http_sessions_open " << sessions_open << '\n';
  return out.str();
}

// ---- the endpoint ----------------------------------------------------------------------------

class endpoint {
 public:
  endpoint(server& srv, endpoint_config config, session_table& sessions, transport_stats& stats, executor run)
      : srv_(srv), config_(std::move(config)), sessions_(sessions), stats_(stats), run_(std::move(run)) {
    const json& meta = config_.protected_resource_metadata;
    if (meta.is_object() && meta.contains("resource") && meta["resource"].is_string()) {
      metadata_url_ = mcp::http::protected_resource_metadata::metadata_url(meta["resource"].get<std::string>());
      constexpr std::string_view base = "/.well-known/oauth-protected-resource";
      const auto at = metadata_url_.find(base);
      if (at != std::string::npos) resource_path_ = metadata_url_.substr(at + base.size());
    }
    mcp::http::bearer_challenge challenge;
    challenge.resource_metadata = metadata_url_;
    default_challenge_ = challenge.to_string();
    if (config_.event_store)  // its thread starts with the first stream followed
      followers_ = std::make_unique<stream_followers>(config_.event_store, config_.max_sessions);
  }

  // Ends the streams this process follows for other processes (their clients can resume again).
  void close() {
    if (followers_) followers_->close();
  }

  // Requests whose reply is still open (a handler runs, or its answer is being written).
  std::size_t requests_in_flight() const { return in_flight_->size(); }
  // From now on new requests are refused (503); replies, notifications and the calls already
  // running go on; 2026-07-28 listen streams end now with their final result. Any thread.
  void start_draining() {
    draining_ = true;
    for (const auto& core : in_flight_->cores()) core->end_listen_streams();
  }

  // One complete request; the answer goes to `ex`, now or later. Called on an io thread.
  void handle(const request& req, std::shared_ptr<exchange> ex) {
    const std::string_view path = req.path();
    if (config_.validate_origin) {
      if (!host_allowed(req.headers))
        return ex->respond(rpc_error_response(403, -32000, "Forbidden: Host header not allowed"));
      if (!origin_allowed(req.headers))
        return ex->respond(rpc_error_response(403, -32000, "Forbidden: Origin not allowed"));
    }
    // A browser page's request (its Origin passed the check above): every answer says so, and a
    // preflight is answered here, before auth, as browsers send it without credentials.
    if (const auto origin = req.headers.get("Origin")) {
      const bool known_path = path == config_.path || (config_.metrics && path == "/metrics") ||
                              (!config_.protected_resource_metadata.is_null() && is_metadata_path(path));
      if (req.method == "OPTIONS" && known_path) return ex->respond(preflight(*origin, path));
      ex = std::make_shared<cors_writer>(std::move(ex), std::string(*origin));
    }
    if (!config_.protected_resource_metadata.is_null() && is_metadata_path(path)) {
      if (req.method != "GET" && req.method != "HEAD") return method_not_allowed(ex, "GET");
      return ex->respond(json_response(200, config_.protected_resource_metadata));
    }
    std::shared_ptr<const identity> caller;
    if (config_.metrics && path == "/metrics") {
      if (!admitted(req, ex, caller)) return;
      if (req.method != "GET" && req.method != "HEAD") return method_not_allowed(ex, "GET");
      response r;
      r.headers.add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      r.body = metrics_text(srv_, stats_, sessions_.size());
      return ex->respond(std::move(r));
    }
    if (path != config_.path) return ex->respond(text_response(404, "not found"));
    if (draining_ && req.method != "POST") return refuse_draining(ex);
    if (!admitted(req, ex, caller)) return;
    if (req.method == "POST") return post(req, ex, std::move(caller));
    if (req.method == "GET" && !config_.stateless && config_.get_stream) return get(req, ex, caller.get());
    if (req.method == "DELETE" && !config_.stateless) return remove(req, ex, caller.get());
    method_not_allowed(ex, allowed_methods());
  }

 private:
  // ---- checks ----

  bool host_allowed(const header_map& h) const {
    const auto host = h.get("Host");
    if (!host) return true;  // HTTP/1.0 without Host: no browser sends that
    if (is_plain_loopback_host(*host)) return true;
    const auto parsed = parse_host(*host);
    if (!parsed) return false;
    if (is_loopback_host(parsed->host)) return true;
    for (const auto& allowed : config_.allowed_hosts)
      if (iequals(allowed, *host) || iequals(allowed, parsed->host)) return true;
    return false;
  }

  bool origin_allowed(const header_map& h) const {
    const auto origin = h.get("Origin");
    if (!origin) return true;  // not a browser
    if (is_local_origin(*origin)) return true;
    for (const auto& allowed : config_.allowed_origins)
      if (iequals(allowed, *origin)) return true;
    return false;
  }

  // RFC 9728 §3.1: the well-known name, alone or followed by the resource's path (the endpoint's,
  // or the one the metadata's "resource" names, which differs behind a proxy that rewrites it).
  bool is_metadata_path(std::string_view path) const {
    constexpr std::string_view base = "/.well-known/oauth-protected-resource";
    if (path == base) return true;
    if (path.substr(0, base.size()) != base) return false;
    const std::string_view suffix = path.substr(base.size());
    return suffix == config_.path || (!resource_path_.empty() && suffix == resource_path_);
  }

  // The auth hook's verdict: false when refused (the 401 or 500 is sent); the caller it names goes
  // into `caller`.
  bool admitted(const request& req, const std::shared_ptr<exchange>& ex, std::shared_ptr<const identity>& caller) {
    if (!config_.authorize) return true;
    mcp::http::auth_result verdict;
    try {
      verdict = config_.authorize(mcp::http::auth_request{req.method, req.path(), req.headers.get("Authorization")});
    } catch (const std::exception& e) {
      log_diagnostic(srv_.options(), std::string("http: the authorize hook threw: ") + e.what());
      ex->respond(rpc_error_response(500, -32603, "Internal error"));
      return false;
    }
    if (verdict.allowed) {
      caller = std::move(verdict.caller);
      return true;
    }
    response r = rpc_error_response(401, -32000, "Unauthorized");
    r.headers.add("WWW-Authenticate", verdict.www_authenticate.empty() ? default_challenge_ : verdict.www_authenticate);
    ex->respond(std::move(r));
    return false;
  }

  // The answer to a CORS preflight (Fetch standard, "CORS-preflight fetch"): the methods the path
  // takes, the request headers MCP clients send, cached by the browser for ten minutes.
  response preflight(std::string_view origin, std::string_view path) const {
    response r;
    r.status = 204;
    r.headers.add("Access-Control-Allow-Origin", origin);
    r.headers.add("Vary", "Origin");
    r.headers.add("Access-Control-Allow-Methods", path == config_.path ? allowed_methods() : "GET, HEAD");
    r.headers.add("Access-Control-Allow-Headers", cors_request_headers);
    r.headers.add("Access-Control-Max-Age", "600");
    return r;
  }

  void refuse_draining(const std::shared_ptr<exchange>& ex) {
    response r = rpc_error_response(503, -32000, "Service Unavailable: the server is shutting down");
    r.headers.add("Retry-After", "5");
    ex->respond(std::move(r));
  }

  // The reply to one POST of requests, in flight for as long as it lives.
  std::shared_ptr<post_reply> reply_to(post_reply::setup setup) {
    setup.resource_metadata = &metadata_url_;
    setup.in_flight = in_flight_;
    return std::make_shared<post_reply>(std::move(setup));
  }

  std::string allowed_methods() const {
    if (config_.stateless) return "POST";
    return config_.get_stream ? "GET, POST, DELETE" : "POST, DELETE";
  }

  void method_not_allowed(const std::shared_ptr<exchange>& ex, std::string_view allow) {
    response r = rpc_error_response(405, -32000, "Method not allowed");
    r.headers.add("Allow", allow);
    ex->respond(std::move(r));
  }

  // The MCP-Protocol-Version header: absent is fine (2025-03-26 is assumed), any supported version
  // is fine (not only the negotiated one: clients send others), anything else is 400. Before a
  // refusal, `answered_first()` may answer instead (true when it did): see post().
  template <class AnsweredFirst>
  bool version_ok(const request& req, const std::shared_ptr<exchange>& ex, std::optional<std::string>& header,
                  AnsweredFirst&& answered_first) {
    const auto v = req.headers.get("MCP-Protocol-Version");
    if (!v) return true;
    if (is_supported_protocol_version(*v)) {
      header = std::string(*v);
      return true;
    }
    if (answered_first()) return false;
    std::string supported;
    for (auto known : protocol_versions) supported += (supported.empty() ? "" : ", ") + std::string(known);
    ex->respond(rpc_error_response(400, -32000,
                                   "Bad Request: Unsupported protocol version: " + std::string(*v) +
                                       " (supported versions: " + supported + ")"));
    return false;
  }

  // The session a request names: 400 without the header, 404 when unknown or ended, or when it is
  // another caller's (a session is bound to the subject that opened it, so a leaked id is no use
  // to anyone else; its existence is not told).
  // `answered_first` as version_ok's.
  template <class AnsweredFirst>
  std::shared_ptr<http_session> named_session(const request& req, const std::shared_ptr<exchange>& ex,
                                              const identity* caller, AnsweredFirst&& answered_first) {
    const auto id = req.headers.get("Mcp-Session-Id");
    if (!id) {
      if (!answered_first()) ex->respond(rpc_error_response(400, -32000, "Bad Request: Mcp-Session-Id header is required"));
      return nullptr;
    }
    auto s = sessions_.find(*id);
    if (s && !s->owner().empty() && (!caller || caller->subject != s->owner())) s = nullptr;
    if (!s && !answered_first()) ex->respond(rpc_error_response(404, -32001, "Session not found"));
    return s;
  }
  static bool answered_nothing() { return false; }

  // ---- POST: one JSON-RPC message ----

  void post(const request& req, const std::shared_ptr<exchange>& ex, std::shared_ptr<const identity> caller) {
    const auto accept = parse_accept(req.headers);
    if (!accept.json || !accept.event_stream)
      return ex->respond(rpc_error_response(
          406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream"));
    const auto content_type = req.headers.get("Content-Type");
    if (!content_type || !is_json_content_type(*content_type))
      return ex->respond(
          rpc_error_response(415, -32000, "Unsupported Media Type: Content-Type must be application/json"));
    // message::read leaves part of a body for the core to check where the request runs. Whatever
    // this endpoint answers before the core does checks the rest first (not_json), so that every
    // body answers as when read whole: what is not JSON is 400 with -32700, whatever else is wrong
    // with it.
    message in = message::read(req.body, srv_.options().max_json_depth);
    auto not_json = [&] {
      if (in.check()) return false;
      ex->respond(json_response(400, in.refusal()));
      return true;
    };
    if (!in.readable()) return ex->respond(json_response(400, in.refusal()));
    if (draining_ && in.is_request()) {  // answers to running calls still count
      if (!not_json()) refuse_draining(ex);
      return;
    }
    if (caller) in.set_caller(std::move(caller));
    // W3C trace context: handlers see it when params._meta carries none (context::trace).
    if (auto traceparent = req.headers.get("traceparent"))
      in.set_trace_headers(*traceparent, req.headers.get("tracestate").value_or(std::string_view()));
    // The 2026-07-28 checks compare headers with the body (SEP-2243): the body is checked first.
    if (srv_.options().serve_stateless && is_stateless_era(req, in)) {
      if (!not_json()) post_stateless_era(req, ex, std::move(in));
      return;
    }

    std::optional<std::string> version;
    if (!version_ok(req, ex, version, not_json)) return;

    const bool is_initialize = in.is_request() && in.method() == "initialize";
    if (config_.stateless) return post_stateless(ex, std::move(in), is_initialize, version);

    std::shared_ptr<http_session> owner;
    post_reply::setup setup;
    if (!req.headers.contains("Mcp-Session-Id") && is_initialize) {
      owner = sessions_.create(in.caller() ? in.caller()->subject : std::string());
      if (!owner) {
        if (not_json()) return;
        response r = rpc_error_response(503, -32000, "Service Unavailable: too many sessions; try again later");
        r.headers.add("Retry-After", "5");
        return ex->respond(std::move(r));
      }
      // The id goes out only with a successful InitializeResult; a failed initialize leaves no session.
      setup.on_json = [table = &sessions_, id = owner->id()](const json* error, response& head) {
        if (!error) head.headers.set("Mcp-Session-Id", id);
        else table->remove(id);
      };
    } else {
      owner = named_session(req, ex, in.caller().get(), not_json);
      if (!owner) return;
    }
    owner->touch();

    if (!in.is_request()) return post_no_reply(ex, *owner->core(), std::move(in));
    setup.ex = ex;
    setup.owner = owner;
    setup.core = owner->core();
    setup.header_version = version.value_or(std::string(assumed_version));
    setup.retry_ms = config_.retry_ms;
    setup.replay_events = config_.replay_events;
    owner->core()->receive(std::move(in), reply_to(std::move(setup)));
  }

  // Notifications and responses: 202 when accepted, 400 with the core's error otherwise.
  void post_no_reply(const std::shared_ptr<exchange>& ex, mcp::connection& core, message in) {
    auto capture = std::make_shared<capture_outbound>();
    core.receive(std::move(in), capture);
    if (auto error = capture->first()) return ex->respond(json_response(400, *error));
    response r;
    r.status = 202;
    ex->respond(std::move(r));
  }

  // A fresh connection per POST. Requests other than initialize run as if initialized with the
  // header's version (else the latest), with no client capabilities known.
  void post_stateless(const std::shared_ptr<exchange>& ex, message in, bool is_initialize,
                      const std::optional<std::string>& header_version) {
    auto core = std::make_shared<mcp::connection>(srv_, std::make_shared<discard_outbound>(), run_);
    core->set_transport("tcp");
    if (!is_initialize) core->serve_sessionless(header_version.value_or(std::string(latest_protocol_version)));
    if (!in.is_request()) return post_no_reply(ex, *core, std::move(in));
    post_reply::setup setup;
    setup.ex = ex;
    setup.core = core;
    setup.header_version = header_version.value_or(std::string(assumed_version));
    setup.replay_events = config_.replay_events;
    core->receive(std::move(in), reply_to(std::move(setup)));
  }

  // ---- POST of the 2026-07-28 era: every request on its own ----

  // The body decides (a version claim in params._meta); a 2026-07-28 header without the claim is a
  // malformed 2026 request, never silently a 2025 one.
  static bool is_stateless_era(const request& req, const message& in) {
    return in.claims_stateless() || (!in.is_response() && header_claims_modern(req));
  }
  static bool header_claims_modern(const request& req) {
    const auto header = req.headers.get("MCP-Protocol-Version");
    return header && (is_modern_protocol_version(*header) || (!is_supported_protocol_version(*header) && *header >= "2026-07-28"));
  }

  // 2026-07-28 answers errors of the envelope and headers with HTTP statuses.
  static int status_for(int code) {
    switch (code) {
      case error_code::header_mismatch:
      case error_code::missing_required_client_capability:
      case error_code::unsupported_protocol_version:
        return 400;
      case error_code::method_not_found:
        return 404;
      default:
        return 200;
    }
  }

  // The core's checks in the order the spec gives: _meta (400, -32602), headers against the body
  // (400, -32020), version (400, -32022), method (404, -32601); then the request runs on a
  // connection of its own that ends with it. The client closing the response stream cancels it.
  void post_stateless_era(const request& req, const std::shared_ptr<exchange>& ex, message in) {
    auto refuse = [&](int status, const json& id, int code, const std::string& text, const json& data = nullptr) {
      ex->respond(json_response(status, jsonrpc::error(id, code, text, data)));
    };
    if (in.method().empty())
      return refuse(400, in.id(), error_code::invalid_request,
                    "Invalid request: a 2026-07-28 client sends requests and notifications only");
    if (in.is_notification()) {  // nothing for it to do over HTTP in this era
      response r;
      r.status = 202;
      return ex->respond(std::move(r));
    }
    if (!jsonrpc::is_valid_id(in.id()))
      return refuse(400, nullptr, error_code::invalid_request, "Invalid request: \"id\" must be a string or an integer");

    auto core = std::make_shared<mcp::connection>(srv_, std::make_shared<discard_outbound>(), run_);
    core->set_transport("tcp");
    const header_lookup headers = [&req](std::string_view lower) -> std::optional<std::string> {
      if (auto v = req.headers.get(lower)) return std::string(*v);
      return std::nullopt;
    };
    if (auto refusal = core->check_stateless(in, headers)) {
      const int status = refusal->code() == error_code::invalid_params ? 400 : status_for(refusal->code());
      return refuse(status, in.id(), refusal->code(), refusal->what(), refusal->data());
    }

    auto close_core = [weak = std::weak_ptr<mcp::connection>(core)] {
      if (auto c = weak.lock()) c->close();
    };
    ex->on_disconnect(close_core);
    post_reply::setup setup;
    setup.ex = ex;
    setup.core = core;
    setup.on_disconnect = close_core;
    setup.header_version = std::string(req.headers.get("MCP-Protocol-Version").value_or(""));  // equal to the body's
    setup.replay_events = config_.replay_events;
    setup.on_json = [](const json* error, response& head) {
      if (error && error->is_object()) head.status = status_for(error->value("code", 0));
    };
    core->receive(std::move(in), reply_to(std::move(setup)));
  }

  // ---- GET: the session's stream, or a resumed one ----

  void get(const request& req, const std::shared_ptr<exchange>& ex, const identity* caller) {
    if (!parse_accept(req.headers).event_stream)
      return ex->respond(rpc_error_response(406, -32000, "Not Acceptable: Client must accept text/event-stream"));
    std::optional<std::string> version;
    if (!version_ok(req, ex, version, answered_nothing)) return;
    const auto last = last_event_id(req.headers);
    if (followers_ && last && last->first.front() == 'r' && req.headers.get("Mcp-Session-Id") &&
        !sessions_.find(*req.headers.get("Mcp-Session-Id")))
      return resume_elsewhere(req, ex, caller, *last);
    auto owner = named_session(req, ex, caller, answered_nothing);
    if (!owner) return;
    owner->touch();

    std::shared_ptr<event_stream> stream = owner->standalone();
    std::optional<std::uint64_t> after;
    if (last) {
      if (auto resumed = owner->find_stream(last->first)) {
        stream = std::move(resumed);
        after = last->second;
      }
    }
    const std::string negotiated = owner->core()->protocol_version();
    const bool prime = !after && supports_priming(negotiated.empty() ? version.value_or(std::string(assumed_version)) : negotiated);
    response head;
    head.status = 200;
    if (stream->attach(ex, std::move(head), after, prime, config_.retry_ms) == event_stream::attach_result::busy)
      ex->respond(rpc_error_response(409, -32000, "Conflict: this stream already has a client"));
  }

  // A request's stream of a session another process holds: what the shared store kept after the
  // client's last event, then what the other process adds, until its response.
  void resume_elsewhere(const request& req, const std::shared_ptr<exchange>& ex, const identity* caller,
                        const std::pair<std::string, std::uint64_t>& last) {
    const std::string name = std::string(*req.headers.get("Mcp-Session-Id")) + "/" + last.first;
    std::optional<mcp::http::event_store::replay> kept;
    try {
      kept = followers_->store().read(name, last.second);
    } catch (const std::exception& e) {
      log_diagnostic(srv_.options(), std::string("http: the SSE event store failed: ") + e.what());
      return ex->respond(rpc_error_response(503, -32000, "Service Unavailable: the stream cannot be read now"));
    }
    // Someone else's stream is as unknown as one that never was.
    if (!kept || (!kept->owner.empty() && (!caller || caller->subject != kept->owner)))
      return ex->respond(rpc_error_response(404, -32001, "Session not found"));
    if (!kept->complete && !followers_->has_room())
      return ex->respond(rpc_error_response(503, -32000, "Service Unavailable: too many resumed streams"));
    response head;
    head.status = 200;
    head.headers.set("X-Accel-Buffering", "no");
    ex->start_stream(std::move(head));
    std::uint64_t after = last.second;
    for (auto& [seq, text] : kept->events) {
      ex->write(std::move(text));
      after = seq;
    }
    if (kept->complete) return ex->end();
    followers_->follow(ex, name, after);
  }

  // ---- DELETE: end the session ----

  void remove(const request& req, const std::shared_ptr<exchange>& ex, const identity* caller) {
    std::optional<std::string> version;
    if (!version_ok(req, ex, version, answered_nothing)) return;
    auto owner = named_session(req, ex, caller, answered_nothing);
    if (!owner) return;
    if (!sessions_.remove(owner->id())) return ex->respond(rpc_error_response(404, -32001, "Session not found"));
    response r;
    r.status = 204;
    ex->respond(std::move(r));
  }

  server& srv_;
  const endpoint_config config_;
  session_table& sessions_;
  transport_stats& stats_;
  executor run_;
  std::string metadata_url_;       // RFC 9728 URL of the metadata, from its "resource"; empty if unknown
  std::string resource_path_;      // that resource's path ("/mcp"), another place the metadata is served
  std::string default_challenge_;  // a refusal's WWW-Authenticate when the hook gives none
  // Shared with the replies' tokens, which may outlive the endpoint.
  std::shared_ptr<in_flight_table> in_flight_ = std::make_shared<in_flight_table>();
  std::atomic<bool> draining_{false};
  std::unique_ptr<stream_followers> followers_;  // with an event store: streams other processes write
  // What the spec says to assume of a client that sends no MCP-Protocol-Version.
  static constexpr std::string_view assumed_version = "2025-03-26";
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
