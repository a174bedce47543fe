// In-process testing: an in-memory connection to a server and a small client that drives it.
// The SDK's own tests use these; so can yours. It is also the smallest transport there is: an
// outbound that keeps what the server sends, and a connection fed with each message as text.
#pragma once

#include <mcp/core/connection.hpp>
#include <mcp/core/server.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace mcp {
inline namespace v0 {
namespace testing {

// Messages the server sent, in order, waiting to be read by the client end. Every member is safe
// from any thread.
class inbox final : public outbound {
 public:
  void send(const json& message) override {
    {
      std::lock_guard lock(mutex_);
      messages_.push_back(message);
    }
    arrived_.notify_all();
  }
  // The first message matching `pred`, removed from the inbox; waits up to `timeout`.
  template <class Pred>
  std::optional<json> take(Pred pred, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    std::optional<json> found;
    arrived_.wait_for(lock, timeout, [&] {
      for (auto it = messages_.begin(); it != messages_.end(); ++it)
        if (pred(*it)) {
          found = std::move(*it);
          messages_.erase(it);
          return true;
        }
      return false;
    });
    return found;
  }
  std::deque<json> drain() {
    std::lock_guard lock(mutex_);
    return std::exchange(messages_, {});
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return messages_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<json> messages_;
};

// A client connected to a server in memory. With the default inline executor every request is
// answered before request() returns; pass another executor to exercise concurrency.
//
// Threads: drive it from one thread (ids are numbered without a lock); messages() may be read
// from any thread.
class client {
 public:
  explicit client(server& srv, executor run = inline_executor())
      : inbox_(std::make_shared<inbox>()), connection_(srv, inbox_, std::move(run)) {}

  // Sends a request and returns the whole response message (result or error).
  json request(const std::string& method, json params = json::object(),
               std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    json id = next_id_++;
    send(jsonrpc::request(id, method, std::move(params)));
    return wait_response(id, timeout);
  }
  // Sends without waiting; pair with wait_response().
  json start_request(const std::string& method, json params = json::object()) {
    json id = next_id_++;
    send(jsonrpc::request(id, method, std::move(params)));
    return id;
  }
  json wait_response(const json& id, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto found = inbox_->take(
        [&](const json& m) {
          // The id comes back as the server read it from text: 1 may come back unsigned, never as a
          // string or a float.
          return !m.contains("method") && m.contains("id") && m["id"] == id &&
                 m["id"].is_number_float() == id.is_number_float();
        },
        timeout);
    if (!found) throw std::runtime_error("no response to request " + id.dump());
    return *found;
  }
  // The result of a request; throws when the server answered with an error.
  json result(const std::string& method, json params = json::object()) {
    json response = request(method, std::move(params));
    if (!response.contains("result")) throw std::runtime_error("error response: " + response.dump());
    return response["result"];
  }
  void notify(const std::string& method, json params = nullptr) { send(jsonrpc::notification(method, std::move(params))); }
  // Any JSON value as a message, sent as its text: the road every transport's messages take.
  void send(const json& message) { send_text(detail::to_json_text(message)); }
  void send_text(std::string_view text) { connection_.receive_from(caller_, text); }
  // What follows is sent as `who` (as a transport that authenticated it would); null: nobody.
  void set_caller(std::shared_ptr<const identity> who) { caller_ = std::move(who); }

  // initialize + notifications/initialized; returns the initialize result.
  json initialize(const std::string& version = "2025-11-25", json capabilities = json::object()) {
    json result = this->result("initialize", {{"protocolVersion", version},
                                              {"capabilities", std::move(capabilities)},
                                              {"clientInfo", {{"name", "mcp-test-client"}, {"version", "1.0"}}}});
    notify("notifications/initialized");
    return result;
  }
  // tools/call; returns the CallToolResult (throws on a protocol error).
  json call_tool(const std::string& name, json arguments = json::object()) {
    return result("tools/call", {{"name", name}, {"arguments", std::move(arguments)}});
  }

  // 2026-07-28 (no initialize): the request with the per-request _meta envelope that era needs.
  // `capabilities` are the client's for this request; `log_level` asks for notifications/message.
  json stateless_request(const std::string& method, json params = json::object(), json capabilities = json::object(),
                         const std::string& log_level = {}) {
    json& meta = params["_meta"];
    meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
    meta["io.modelcontextprotocol/clientCapabilities"] = std::move(capabilities);
    meta["io.modelcontextprotocol/clientInfo"] = {{"name", "mcp-test-client"}, {"version", "1.0"}};
    if (!log_level.empty()) meta["io.modelcontextprotocol/logLevel"] = log_level;
    return request(method, std::move(params));
  }

  // Messages not yet taken by wait_response: notifications, requests from the server, stray replies.
  inbox& messages() { return *inbox_; }
  // The server's end of this client's connection.
  mcp::connection& connection() { return connection_; }

 private:
  std::shared_ptr<inbox> inbox_;
  mcp::connection connection_;
  std::shared_ptr<const identity> caller_;
  long long next_id_ = 1;
};

}  // namespace testing
}  // namespace v0
}  // namespace mcp
