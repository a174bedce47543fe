// What a handler sees of the request it serves: cancellation, progress, logging to the client,
// the client's declared state, and requests back to the client.
#pragma once

#include <mcp/content.hpp>
#include <mcp/json.hpp>
#include <mcp/jsonrpc.hpp>
#include <mcp/log_level.hpp>
#include <mcp/session.hpp>
#include <mcp/transport.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace mcp {
inline namespace v0 {

// A request to the client got no answer in time, or the call it served was cancelled meanwhile.
class request_timeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class context {
 public:
  context(std::shared_ptr<session> s, std::shared_ptr<request_state> request, std::shared_ptr<outbound> replies,
          std::shared_ptr<const client_state> client)
      : session_(std::move(s)), request_(std::move(request)), replies_(std::move(replies)), client_(std::move(client)) {}

  const json& request_id() const { return request_->id; }
  // True once the client cancelled this request (or the session ended). Long handlers should poll
  // it and return early; whatever they return is then dropped.
  bool cancelled() const { return request_->cancelled.load(); }
  const client_state& client() const { return *client_; }
  const std::optional<json>& progress_token() const { return request_->progress_token; }

  // notifications/progress for this request, when the client asked for progress. Values must grow;
  // a value that does not, or any call after the reply, is dropped rather than sent out of order.
  void progress(double value, std::optional<double> total = std::nullopt, const std::string& message = {}) {
    if (!request_->progress_token || request_->finished) return;
    std::lock_guard lock(request_->progress_mutex);
    if (request_->last_progress && value <= *request_->last_progress) return;
    request_->last_progress = value;
    json params{{"progressToken", *request_->progress_token}, {"progress", value}};
    if (total) params["total"] = *total;
    if (!message.empty()) params["message"] = message;
    replies_->send(jsonrpc::notification("notifications/progress", std::move(params)));
  }

  // notifications/message, sent only at or above the client's chosen level.
  void log(log_level level, json data, const std::string& logger = {}) {
    if (level < current_min_level() || request_->finished) return;
    json params{{"level", to_string(level)}, {"data", std::move(data)}};
    if (!logger.empty()) params["logger"] = logger;
    replies_->send(jsonrpc::notification("notifications/message", std::move(params)));
  }

  // Sends a request to the client and waits for its result. Throws protocol_error when the client
  // answers with an error, request_timeout when it does not answer in time or this call is cancelled.
  json request_client(const std::string& method, json params,
                      std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    if (!session_) throw protocol_error(error_code::internal_error, "No session to send '" + method + "' on");
    auto [id, pending] = session_->expect_response();
    replies_->send(jsonrpc::request(id, method, std::move(params)));
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

  // Requests a server may make of the client, each only when the client declared the capability;
  // otherwise they throw a tool_error that says so (a tool's caller then sees why).
  json create_message(json params, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    require_capability("sampling", "sampling (sampling/createMessage)");
    return request_client("sampling/createMessage", std::move(params), timeout);
  }
  // Form-mode elicitation: `requested_schema` is a flat object schema of primitive properties.
  json elicit(const std::string& message, json requested_schema,
              std::chrono::milliseconds timeout = std::chrono::seconds(300)) {
    require_capability("elicitation", "elicitation (elicitation/create)");
    return request_client("elicitation/create", {{"message", message}, {"requestedSchema", std::move(requested_schema)}},
                          timeout);
  }
  json list_roots(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    require_capability("roots", "roots (roots/list)");
    return request_client("roots/list", json::object(), timeout);
  }

  // Lets the client poll for this request's result instead of holding a connection open
  // (Streamable HTTP closes the request's SSE stream; the reply is replayed when the client
  // reconnects). Does nothing on other transports.
  void close_stream() { replies_->close_stream(); }

  const std::shared_ptr<session>& session_ptr() const { return session_; }

 private:
  void require_capability(const char* name, const char* what) const {
    if (!client_->capabilities.is_object() || !client_->capabilities.contains(name))
      throw tool_error(std::string("This needs the client to support ") + what +
                       ", and the connected client did not declare that capability.");
  }
  log_level current_min_level() const { return session_ ? session_->min_log_level() : client_->min_log_level; }

  std::shared_ptr<session> session_;
  std::shared_ptr<request_state> request_;
  std::shared_ptr<outbound> replies_;
  std::shared_ptr<const client_state> client_;
};

}  // namespace v0
}  // namespace mcp
