// The Streamable HTTP endpoint as a handler any HTTP server can mount: a whole request in, the
// answer out through a response_writer (http_types.hpp), as one JSON body or an SSE stream over
// time. Sessions, resumable streams, the Origin/Host checks, the auth hook, stateless mode, limits
// and /metrics live here, so they are the same in every host; the SDK's own asio listener
// (http.hpp) is one host among others.
//
//   mcp::http::handler mcp_endpoint(srv, {});          // path "/mcp"
//   // in the host's route for /mcp, for each request:
//   mcp_endpoint.handle(request, writer);               // writer: the host's response_writer
//
// Hosts that give each request a thread and write the response from it (cpp-httplib and the like)
// can use handle_blocking(), which returns a blocking_writer to read the answer from; see
// examples/httplib.
//
// What the host still does: HTTP parsing and its limits (header and body sizes: 413/431 are the
// host's), timeouts, TLS. The handler answers 404 for paths other than options.path (and the
// metadata and /metrics paths when enabled).
#pragma once

#include <mcp/config.hpp>

#include <mcp/core/server.hpp>
#include <mcp/json/json.hpp>
#include <mcp/transport/http_auth.hpp>
#include <mcp/transport/event_store.hpp>
#include <mcp/transport/http_types.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {
class handler_impl;
class listener_impl;
}  // namespace http
}  // namespace detail

namespace http {

// What the endpoint does, whatever carries it.
struct handler_options {
  std::string path = "/mcp";
  // Handlers (tool calls, reads, prompts) running at once; more wait their turn. One that has run
  // `stall_after`, or that its client cancelled, no longer counts: one that waits then starts
  // beside it, up to `max_workers` at once (a handler that blocks, or ignores a cancel, still
  // holds a thread until it returns).
  std::size_t workers = 4;
  std::size_t max_workers = 64;
  std::chrono::milliseconds stall_after = std::chrono::milliseconds(100);
  bool stateless = false;                     // no sessions: every POST is self-contained
  bool get_stream = true;                     // false -> GET answers 405
  std::chrono::seconds session_idle_timeout{1800};
  std::size_t max_sessions = 10000;           // beyond: a new initialize gets 503
  std::size_t replay_events = 256;            // kept per stream for Last-Event-ID
  std::chrono::milliseconds retry{1000};      // SSE retry field for 2025-11-25 sessions
  bool validate_origin = true;                // Origin/Host DNS-rebinding checks (403)
  std::vector<std::string> allowed_origins;   // in addition to loopback origins, e.g. "https://app.example"
  std::vector<std::string> allowed_hosts;     // in addition to loopback hosts, e.g. "mcp.example:8080"
  // Null: no auth. Else asked before every request to the endpoint and /metrics (http_auth.hpp):
  // refused -> 401; admitted with an identity -> handlers see it, scoped features are checked (403).
  std::function<auth_result(const auth_request&)> authorize;
  // When set (a json document or a protected_resource_metadata): served at
  // /.well-known/oauth-protected-resource and at that name followed by `path` (RFC 9728 §3.1), and
  // named in the 401 challenge of a refusal that brings none of its own.
  json protected_resource_metadata = nullptr;
  bool metrics = false;                       // GET /metrics in Prometheus text format
  // 2025-11-25 sessions: where requests' SSE streams are also kept, so that a client can resume
  // one through another process sharing the store (event_store.hpp; redis_event_store.hpp). Null:
  // only through this process.
  std::shared_ptr<mcp::http::event_store> event_store;
};

class blocking_writer;

// Threads: handle() and handle_blocking() from any thread, several at once; they return once the
// request was taken (handle) or its head is known (handle_blocking), while a tool may still run.
// Slow handlers (tool calls, reads, prompts) run on `workers` threads of the handler's own (more,
// up to `max_workers`, beside handlers past `stall_after` or cancelled), never on the caller's;
// idle sessions expire on a thread of its own. Destroy it after the host has stopped calling it:
// the destructor ends every session and stream and waits for running handlers.
class handler {
 public:
  handler(mcp::server& srv, handler_options opts);
  ~handler();
  handler(const handler&) = delete;
  handler& operator=(const handler&) = delete;

  // One whole request; the answer goes to `out`, now or later, from any thread.
  void handle(const request& req, std::shared_ptr<response_writer> out);
  // The same for thread-per-request hosts: waits until the answer's head is known.
  std::shared_ptr<blocking_writer> handle_blocking(const request& req);

  // Ends every session and stream (their clients see the streams end); new sessions are refused.
  void close();
  std::size_t sessions_open() const;

  // A graceful stop, in two steps for hosts that cannot block (the listener's shutdown() does
  // both): start_draining() refuses new requests with 503 while the calls already running go on,
  // with their progress, their questions to the client and the client's answers; once
  // requests_in_flight() is 0 (or a grace period is over), close(). drain(grace) does all three,
  // blocking, and says whether every call finished in time.
  void start_draining();
  std::size_t requests_in_flight() const;
  bool drain(std::chrono::milliseconds grace);

 private:
  friend class detail::http::listener_impl;
  handler(mcp::server& srv, handler_options opts, executor run);  // the listener's: runs handlers on `run`
  std::unique_ptr<detail::http::handler_impl> impl_;
};

// A response_writer a host thread reads the answer from: wait_head(), then, while streaming(),
// pull() the body as it comes until it ends; client_gone() when the host sees the client leave.
// Threads: the writer side from any thread; the reading side from the host's thread.
class blocking_writer final : public response_writer {
 public:
  explicit blocking_writer(executor later);  // runs on_disconnect functions registered after client_gone()

  // Waits for respond() or start_stream(); the whole response, or the stream's head.
  const response& wait_head();
  bool streaming() const;

  enum class pulled { bytes, idle, ended };
  // Appends the stream's next bytes to `out` (bytes); waits up to `wait` for some (idle: check
  // the client is still there and pull again); ended once end() came and everything was pulled.
  pulled pull(std::string& out, std::chrono::milliseconds wait);
  void client_gone();

  void respond(response r) override;
  void start_stream(response head) override;
  void write(std::string sse_bytes) override;
  void end() override;
  void on_disconnect(std::function<void()> fn) override;

 private:
  executor later_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool has_head_ = false, streaming_ = false, ended_ = false, gone_ = false;
  response head_;
  std::string pending_;
  std::function<void()> on_disconnect_;
};

}  // namespace http
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/transport/impl/http_handler.ipp>
#endif
