// What a handler sees of the request it serves: cancellation, progress, logging to the client,
// the client's declared state, and requests back to the client.
#pragma once

#include <mcp/core/app_link.hpp>
#include <mcp/core/client_state.hpp>
#include <mcp/core/content.hpp>
#include <mcp/core/detail/session.hpp>
#include <mcp/core/elicitation.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/log_level.hpp>
#include <mcp/core/trace_context.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/port.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <vector>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace mcp {
inline namespace v0 {

// A request to the client got no answer in time, or the call it served was cancelled meanwhile.
class request_timeout : public error {
 public:
  explicit request_timeout(const std::string& message) : error(error_code::request_timeout, message) {}
};

// One question a handler puts to the client: elicitation, sampling or the client's roots. The key
// names the answer; it must be unique within the request.
struct input_request {
  std::string key;
  std::string method;  // "elicitation/create", "sampling/createMessage" or "roots/list"
  json params = json::object();
};

// Form-mode elicitation: `requested_schema` is a flat object schema of primitive properties
// (ctx.elicit<T>() derives one from an MCP_STRUCT: its params hold the form as JSON text in
// declaration order, which the SDK writes as it is; detail::expand_raw_json makes it plain values).
inline input_request elicitation_input(std::string key, std::string message, json requested_schema) {
  return {std::move(key), "elicitation/create", json{{"message", std::move(message)}, {"requestedSchema", std::move(requested_schema)}}};
}
// URL-mode elicitation: the client offers the user to open `url`. `elicitation_id` is sent to a
// 2025-11-25 client only (2026-07-28 has none); ctx.elicit_url() fills it in as the era needs.
inline input_request url_elicitation_input(std::string key, std::string message, std::string url,
                                           std::string elicitation_id = {}) {
  json params{{"mode", "url"}, {"message", std::move(message)}, {"url", std::move(url)}};
  if (!elicitation_id.empty()) params["elicitationId"] = std::move(elicitation_id);
  return {std::move(key), "elicitation/create", std::move(params)};
}
// `params` is a CreateMessageRequest's params: messages, maxTokens, ... With `tools` or
// `toolChoice` in them the client must have declared sampling.tools.
inline input_request sampling_input(std::string key, json params) {
  return {std::move(key), "sampling/createMessage", std::move(params)};
}
inline input_request roots_input(std::string key) { return {std::move(key), "roots/list", json::object()}; }

template <class T>
struct elicit_result;  // ext/elicitation.hpp

namespace detail {

// How a 2026-07-28 request asks: the handler stops here, the server answers input_required with
// these requests, and the client's retry runs the handler again with the answers. Not a
// std::exception, so handlers' own catch blocks for errors let it through; a catch (...) that does
// not rethrow swallows it (see context::ask and check_round_ended).
struct input_required {
  std::vector<input_request> requests;
};

// What ctx.begin_task() throws on the request of a task_start::at_begin_task tool: the server
// catches it, answers CreateTaskResult and runs the handler again as the task. Not a
// std::exception, for the reason input_required is not one.
struct begin_task_signal {};

// The answers a 2026-07-28 request brings: this retry's inputResponses, and those of earlier
// rounds carried in the (sealed) requestState. `used` collects what the handler consumed, which
// the next requestState carries forward.
struct input_round {
  json responses = json::object();
  json carried = json::object();
  json used = json::object();
  std::atomic<bool> ended{false};  // ask() threw input_required during this run of the handler
};

// For a handler that returned normally: if ask() had thrown input_required meanwhile, the handler
// caught it (a catch (...) around ask() that does not rethrow), the client was never asked, and
// what it returned is not what it meant. Throws an error that the server logs and answers with an
// internal error, so the mistake is loud rather than a wrong result.
inline void check_round_ended(const input_round& round, const std::string& method) {
  if (!round.ended.load()) return;
  throw error(error_code::input_swallowed,
              "the '" + method + "' handler returned normally after ctx.ask() had ended the round: it caught what "
              "ask() (or elicit, create_message, list_roots) throws to stop the handler, so the client was never "
              "asked. A catch (...) around them must rethrow (catch (...) { ...; throw; }), or catch "
              "std::exception instead. The request was answered with an internal error.");
}

// An answer of the wrong shape counts as no answer: the question is asked again.
inline bool answers(const input_request& request, const json& answer) {
  if (!answer.is_object()) return false;
  if (request.method == "elicitation/create") {
    auto action = answer.find("action");
    if (action == answer.end() || !action->is_string()) return false;
    const auto& a = action->get_ref<const std::string&>();
    if (a == "accept") return answer.contains("content") ? answer["content"].is_object() : true;
    return a == "decline" || a == "cancel";
  }
  if (request.method == "sampling/createMessage") return answer.contains("role") && answer.contains("content");
  if (request.method == "roots/list") return answer.contains("roots") && answer["roots"].is_array();
  return true;
}

// ask() for something the client did not declare. A tool answers it as an isError result (it is a
// tool_error, written for the model); prompts/get and resources/read answer -32021 naming it.
struct missing_capability : tool_error {
  missing_capability(const std::string& message, std::string name, json required_capabilities)
      : tool_error(error_code::missing_required_client_capability, message),
        capability(std::move(name)),
        required(std::move(required_capabilities)) {}
  std::string capability;  // dotted: "sampling", "elicitation.url", "sampling.tools"
  json required;           // as ClientCapabilities: {"elicitation": {"url": {}}}
};

// The capability a request to the client needs: its dotted name and, as ClientCapabilities, what
// the client must have declared. Empty for a method a server may not send.
struct needed_capability {
  std::string name;
  json required;
};
inline needed_capability capability_needed(const input_request& r) {
  const json& p = r.params;
  auto has = [&](const char* key) { return p.is_object() && p.contains(key); };
  if (r.method == "elicitation/create") {
    auto mode = p.is_object() ? p.find("mode") : p.end();
    if (p.is_object() && mode != p.end() && *mode == "url")
      return {"elicitation.url", {{"elicitation", {{"url", json::object()}}}}};
    return {"elicitation", {{"elicitation", json::object()}}};  // form mode
  }
  if (r.method == "sampling/createMessage") {
    if (has("tools") || has("toolChoice")) return {"sampling.tools", {{"sampling", {{"tools", json::object()}}}}};
    return {"sampling", {{"sampling", json::object()}}};
  }
  if (r.method == "roots/list") return {"roots", {{"roots", json::object()}}};
  return {};
}

// Whether `caps` (the client's ClientCapabilities) covers `required`. An elicitation capability
// that names no mode means form mode only; one that names modes offers those.
inline bool declares(const json& caps, const json& required) {
  if (!caps.is_object()) return false;
  for (const auto& [name, sub] : required.items()) {
    auto c = caps.find(name);
    if (c == caps.end()) return false;
    for (const auto& [key, value] : sub.items())
      if (!c->is_object() || !c->contains(key)) return false;
    if (name == "elicitation" && sub.empty() && c->is_object() && c->contains("url") && !c->contains("form"))
      return false;  // URL mode only
  }
  return true;
}

}  // namespace detail

class server;
class tool_call;
class detached_call;
class request_stream;  // core/request_stream.hpp

// What a run detached from its request (a task's: core/task_seam.hpp, ext/tasks.hpp) lends the
// handler's context: its id (ctx.task_id()), its cancellation (ctx.cancelled()), where its
// questions go (ctx.ask() parks the task until the client answers) and where its progress goes
// (the task's statusMessage). Implemented by the extension that runs it; called from the run's
// threads.
class detached_link {
 public:
  virtual ~detached_link() = default;
  virtual const std::string& id() const = 0;
  virtual bool cancelled() const = 0;
  // The answers by the keys asked; throws request_timeout when the run is cancelled, ends or the
  // client does not answer within `timeout`.
  virtual std::map<std::string, json> ask(const std::vector<input_request>& requests,
                                          std::chrono::milliseconds timeout) = 0;
  virtual void progress(double value, std::optional<double> total, const std::string& message) = 0;
};

// The request a handler serves. The server makes one per request and passes it to the handler.
//
// Threads: a context belongs to one request. Its handler may call it from its own thread and from
// threads it starts, several at once, until the handler returns; not afterwards. Handlers of
// different requests run concurrently (the SDK's transports run up to four at once), each with its
// own context.
class context {
 public:
  const json& request_id() const { return request_->id; }
  // True once the client cancelled this request (or the session ended). Long handlers should poll
  // it and return early; whatever they return is then dropped.
  bool cancelled() const { return request_->cancelled.load() || (link_ && link_->cancelled()); }
  const client_state& client() const { return *client_; }
  // Who is calling, when the transport authenticated the caller (HTTP with an auth hook), else null.
  const identity* caller() const { return request_->origin.caller.get(); }
  // The request's params._meta as sent (an empty object when it has none).
  const json& meta() const {
    static const json none = json::object();
    return meta_ ? *meta_ : none;
  }
  // The caller's trace (a valid traceparent in _meta, with its tracestate), if any.
  const std::optional<trace_context>& trace() const { return trace_; }
  // The trace that requests this request sends to the client (request_client, and so elicitation,
  // sampling and roots in a 2025-era session) carry in params._meta as traceparent/tracestate:
  // a tracing middleware sets its server span here (ext/tracing.hpp). Unset: they carry none.
  void set_outgoing_trace(std::optional<trace_context> t) { outgoing_trace_ = std::move(t); }
  const std::optional<trace_context>& outgoing_trace() const { return outgoing_trace_; }
  // What the transport is (OpenTelemetry's network.transport: "pipe" for stdio, "tcp", "unix";
  // empty when it did not say) and the session id it gave the client (HTTP's Mcp-Session-Id;
  // empty without one). See connection::set_transport.
  const std::string& network_transport() const {
    static const std::string none;
    return session_ ? session_->network_transport() : none;
  }
  const std::string& session_id() const {
    static const std::string none;
    return session_ ? session_->transport_session_id() : none;
  }
  // The settings the client declared for an extension (capabilities.extensions[name]; in
  // 2026-07-28 requests, from _meta), or nullptr when it declared none by that name.
  const json* client_extension(std::string_view name) const {
    const json& caps = client_->capabilities;
    if (!caps.is_object()) return nullptr;
    auto ext = caps.find("extensions");
    if (ext == caps.end() || !ext->is_object()) return nullptr;
    auto it = ext->find(name);
    return it == ext->end() ? nullptr : &*it;
  }
  bool client_supports_extension(std::string_view name) const { return client_extension(name) != nullptr; }
  // Whether the client shows MCP Apps (ext/apps.hpp): it declared the extension with the app MIME
  // type among its mimeTypes. Asked per request, as a 2026-07-28 client declares per request.
  bool client_supports_apps() const {
    const json* ui = client_extension(apps_extension);
    if (!ui || !ui->is_object()) return false;
    auto types = ui->find("mimeTypes");
    if (types == ui->end() || !types->is_array()) return false;
    for (const auto& t : *types)
      if (t.is_string() && t.get_ref<const std::string&>() == app_mime_type) return true;
    return false;
  }
  const std::optional<json>& progress_token() const { return request_->progress_token; }
  // A random name of this request's 2025-era session, the same for all of its requests; empty
  // without one (a 2026-07-28 request, HTTP without sessions, a detached run).
  std::string session_key() const { return session_ && !client_->stateless ? session_->key() : std::string(); }

  // notifications/progress for this request, when the client asked for progress. Values must grow;
  // a value that does not, or any call after the reply, is dropped rather than sent out of order.
  // In a task, which has no stream to send on, it sets the task's statusMessage instead: `message`,
  // or "value of total".
  void progress(double value, std::optional<double> total = std::nullopt, const std::string& message = {}) {
    if (link_) return link_->progress(value, total, message);
    if (!request_->progress_token || request_->finished) return;
    std::lock_guard lock(request_->progress_mutex);
    if (request_->last_progress && value <= *request_->last_progress) return;
    request_->last_progress = value;
    json params{{"progressToken", *request_->progress_token}, {"progress", value}};
    if (total) params["total"] = *total;
    if (!message.empty()) params["message"] = message;
    replies_->send(jsonrpc::notification("notifications/progress", std::move(params)));
  }

  // notifications/message, sent only at or above the client's chosen level (2026-07-28: only when
  // the request asked for logs at all).
  void log(log_level level, json data, const std::string& logger = {}) {
    if (!client_->logging || level < current_min_level() || request_->finished) return;
    json params{{"level", to_string(level)}, {"data", std::move(data)}};
    if (!logger.empty()) params["logger"] = logger;
    replies_->send(jsonrpc::notification("notifications/message", std::move(params)));
  }

  // Asks the client and returns the answers by key; the same code serves both eras. A 2025-era
  // session sends each request to the client and waits for it. A 2026-07-28 request cannot wait:
  // the call ends with an input_required result and, when the client retries with the answers,
  // the handler runs again from the start and this returns them. Handlers must therefore ask the
  // same questions in the same order on every run, and do nothing irreversible before asking.
  // Throws a tool_error when the client did not declare the capability a request needs (outside
  // tools, the request is refused with -32021).
  //
  // Let what ask() throws pass. To end a 2026-07-28 round it throws an internal exception that is
  // not a std::exception: `catch (const std::exception&)` lets it through, but a `catch (...)` that
  // does not rethrow swallows it, and the client is never asked. Write `catch (...) { ...; throw; }`.
  // The server notices a swallowed one: it logs a diagnostic naming the handler and answers the
  // request with an internal error instead of the handler's result. The same holds for
  // create_message, elicit and list_roots, which call ask().
  std::map<std::string, json> ask(const std::vector<input_request>& requests,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    for (const auto& r : requests) require_capability(r);
    std::map<std::string, json> answers;
    if (!round_) {
      for (const auto& r : requests) answers[r.key] = request_client(r.method, r.params, timeout);
      return answers;
    }
    std::vector<input_request> missing;
    for (const auto& r : requests) {
      const json* answer = nullptr;
      if (auto it = round_->responses.find(r.key); it != round_->responses.end() && detail::answers(r, *it)) answer = &*it;
      else if (auto c = round_->carried.find(r.key); c != round_->carried.end() && detail::answers(r, *c)) answer = &*c;
      if (!answer) {
        missing.push_back(r);
        continue;
      }
      round_->used[r.key] = *answer;
      answers[r.key] = *answer;
    }
    if (!missing.empty()) {
      if (link_) {  // a task waits for tasks/update instead of ending the round
        for (auto& [key, answer] : link_->ask(missing, timeout)) answers[key] = std::move(answer);
        return answers;
      }
      round_->ended = true;
      throw detail::input_required{std::move(missing)};
    }
    return answers;
  }
  json ask(const input_request& request, std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    return ask(std::vector<input_request>{request}, timeout).at(request.key);
  }

  // Shorthands for one question each; their keys are numbered in the order of asking. Like ask(),
  // they end a 2026-07-28 round by throwing: never swallow that in a catch (...) (see ask()).
  json create_message(json params, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    return ask(sampling_input(next_key("sampling"), std::move(params)), timeout);
  }
  json elicit(const std::string& message, json requested_schema,
              std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    return ask(elicitation_input(next_key("elicitation"), message, std::move(requested_schema)), timeout);
  }
  json list_roots(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    return ask(roots_input(next_key("roots")), timeout);
  }

  // Typed elicitation (ext/elicitation.hpp): asks the user to fill in a form of T's fields and
  // returns what they did, with T on accept. T must be an MCP_STRUCT of form fields (a
  // static_assert names any other); an answer that does not fit T throws elicitation_error. Like
  // ask(), it ends a 2026-07-28 round by throwing: never swallow that in a catch (...).
  // Defined in ext/elicitation.hpp, which <mcp/mcp.hpp> includes.
  template <class T>
  elicit_result<T> elicit(const std::string& message, std::chrono::milliseconds timeout = std::chrono::seconds(300));

  // URL-mode elicitation: asks the client to offer the user `url`, for what must not pass through
  // the client (credentials, payment, consent). Returns what the user chose; accept means they
  // agreed to go, not that they are done. When they are, server::complete_elicitation(elicitation_id)
  // tells a 2025-11-25 client; a 2026-07-28 request has no elicitation id (the handler, run again
  // on the retry, decides from its own records). Refused like ask() (an isError result in a tool,
  // -32021 elsewhere) unless the client declared elicitation.url.
  elicit_action elicit_url(const std::string& message, const std::string& url, const std::string& elicitation_id,
                           std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    input_request r = url_elicitation_input(next_key("elicitation"), message, url, round_ ? "" : elicitation_id);
    require_capability(r);
    const bool tracked = !round_ && session_;
    if (tracked) session_->remember_url_elicitation(elicitation_id);  // before asking: the user may finish first
    elicit_action action = detail::elicit_action_of(ask(r, timeout), message);
    if (tracked && action != elicit_action::accept) session_->forget_url_elicitation(elicitation_id);
    return action;
  }
  // Whether the client offers URL-mode elicitation (declared elicitation.url).
  bool client_supports_url_elicitation() const {
    return detail::declares(client_->capabilities, detail::capability_needed(url_elicitation_input("", "", "")).required);
  }

  // Sends a request to the client and waits for its result (2025-era sessions only; ask() is the
  // way that works in both eras). Throws protocol_error when the client answers with an error,
  // request_timeout when it does not answer in time or this call is cancelled.
  json request_client(const std::string& method, json params,
                      std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    if (!session_ || client_->stateless)
      throw protocol_error(error_code::internal_error, "No session to send '" + method + "' on");
    auto [id, pending] = session_->expect_response();
    if (outgoing_trace_ && (params.is_object() || params.is_null())) {
      json& meta = params["_meta"];
      if (!meta.is_object()) meta = json::object();
      meta["traceparent"] = outgoing_trace_->traceparent();
      if (!outgoing_trace_->tracestate.empty()) meta["tracestate"] = outgoing_trace_->tracestate;
    }
    json request = jsonrpc::request(id, method, std::move(params));
    if (!replies_->takes_text()) detail::expand_raw_json(request);  // a typed form's ordered text
    replies_->send(request);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(pending->mutex);
    while (!pending->message) {
      if (cancelled() || std::chrono::steady_clock::now() >= deadline) {
        lock.unlock();
        session_->forget_response(id);
        // Tell the client to stop working on it, as the spec asks of a requester that gives up.
        replies_->send(jsonrpc::notification("notifications/cancelled",
                                             {{"requestId", id}, {"reason", cancelled() ? "cancelled" : "timeout"}}));
        throw request_timeout(cancelled() ? "The request '" + method + "' was cancelled"
                                          : "The client did not answer '" + method + "' in time");
      }
      pending->arrived.wait_for(lock, std::chrono::milliseconds(50));
    }
    const json& answer = *pending->message;
    if (answer.contains("error")) {
      const json& e = answer["error"];
      throw protocol_error(e.value("code", error_code::internal_error), e.value("message", std::string("error")),
                           e.value("data", json()));
    }
    return answer.value("result", json::object());
  }

  // Tasks (ext/tasks.hpp). For a tool registered with task_start::at_begin_task: what the handler
  // did before this call ran on the request, its ctx.ask() calls as multi-round input
  // (input_required); here the request ends with a CreateTaskResult, and the handler runs again
  // from the start as the task, on a worker thread, where those asks return the answers already
  // given and this returns true. The same rule as for ask() holds: ask the same questions in the
  // same order, and do nothing irreversible before this call. Returns false, and the handler
  // simply goes on, where there is no task: a client that did not declare the extension, a
  // 2025-era session, a tool without a task mode. Like ask(), it ends the request by throwing:
  // never swallow that in a catch (...).
  bool begin_task() {
    if (link_) {
      if (!task_began_ && round_) {  // later asks are new questions, even under a key used before
        round_->responses = json::object();
        round_->carried = json::object();
      }
      task_began_ = true;
      return true;
    }
    if (!may_begin_task_) return false;
    throw detail::begin_task_signal{};
  }
  // Whether this run is a task's, and its id (empty when not).
  bool in_task() const { return link_ != nullptr; }
  std::string task_id() const { return link_ ? link_->id() : std::string(); }

  // Refuses the request with -32021 unless the client declared `capability` (e.g. "sampling"),
  // for handlers that cannot do without it.
  void require_client_capability(const std::string& capability) const {
    if (client_->capabilities.is_object() && client_->capabilities.contains(capability)) return;
    throw protocol_error(error_code::missing_required_client_capability,
                         "Missing required client capability: " + capability,
                         json{{"requiredCapabilities", {{capability, json::object()}}}});
  }

  // Lets the client poll for this request's result instead of holding a connection open
  // (Streamable HTTP closes the request's SSE stream; the reply is replayed when the client
  // reconnects). Does nothing on other transports.
  void close_stream() { replies_->close_stream(); }

  // Keeps this request open after the handler returns: a long-lived request (the events
  // extension's events/stream) sends notifications on its own stream from any thread and ends
  // later with one result, through the request_stream returned (core/request_stream.hpp; include
  // it to use it). The engine sends nothing for the request when the handler returns, unless the
  // handler threw: then its error goes out and the stream is ended. Calling it again returns the
  // same stream. Throws std::logic_error in a task's run, which has no request to keep.
  std::shared_ptr<request_stream> keep_open();

 private:
  friend class server;
  friend class tool_call;
  friend class detached_call;
  context(std::shared_ptr<detail::session> s, std::shared_ptr<detail::request_state> request,
          std::shared_ptr<outbound> replies, std::shared_ptr<const client_state> client,
          std::shared_ptr<detail::input_round> round = nullptr)
      : session_(std::move(s)),
        request_(std::move(request)),
        replies_(std::move(replies)),
        client_(std::move(client)),
        round_(std::move(round)) {}

  // Called once by the server, before the handler runs.
  void set_meta(const json& params) {
    if (params.is_object())
      if (auto m = params.find("_meta"); m != params.end() && m->is_object()) {
        meta_ = &*m;
        trace_ = trace_context::from_meta(*m);
      }
    if (!trace_) trace_ = request_->origin.header_trace;  // _meta first, then the transport's headers
  }

  void require_capability(const input_request& r) const {
    detail::needed_capability needed = detail::capability_needed(r);
    if (needed.name.empty())
      throw error(error_code::invalid_argument, "ask(): '" + r.method + "' is not a request a server may make");
    if (client_->sessionless)
      throw tool_error("This needs to ask the client (" + r.method +
                       "), which this server cannot do for a 2025-era client: it serves HTTP without sessions, so "
                       "each request stands alone. A 2026-07-28 client can answer such questions.");
    if (!detail::declares(client_->capabilities, needed.required))
      throw detail::missing_capability("This needs the client to support " + needed.name + " (" + r.method +
                                           "), and the connected client did not declare that capability.",
                                       needed.name, needed.required);
  }
  std::string next_key(const char* kind) { return std::string(kind) + "-" + std::to_string(++asked_); }
  log_level current_min_level() const {
    return session_ && !client_->stateless ? session_->min_log_level() : client_->min_log_level;
  }

  std::shared_ptr<detail::session> session_;
  std::shared_ptr<detail::request_state> request_;
  std::shared_ptr<outbound> replies_;
  std::shared_ptr<const client_state> client_;
  std::shared_ptr<detail::input_round> round_;  // null in a 2025-era session
  const json* meta_ = nullptr;  // in the request's params, which outlive the context
  std::optional<trace_context> trace_;
  std::optional<trace_context> outgoing_trace_;
  int asked_ = 0;
  std::shared_ptr<detached_link> link_;  // set on a detached run (a task's worker)
  bool may_begin_task_ = false;  // the request of an at_begin_task tool, from a declaring client
  bool task_began_ = false;
  server* server_ = nullptr;                // set by the server before the handler runs
  std::shared_ptr<request_stream> kept_;    // keep_open() was called
};

}  // namespace v0
}  // namespace mcp
