// The core's port: what the core needs from a transport, somewhere to send messages and something
// to run work on. A transport turns bytes into JSON-RPC messages and hands each one, as text, to
// its mcp::connection (core/connection.hpp); it never knows about tools. See transport/stdio.hpp,
// testing.hpp (in-memory) and transport/http.hpp for the ones the SDK ships.
#pragma once

#include <mcp/core/jsonrpc.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>

#include <functional>
#include <stdexcept>
#include <string_view>

namespace mcp {
inline namespace v0 {

// A channel to the peer.
//
// Threads: the core calls every member from any thread, several at once (handlers run
// concurrently); an implementation must write each message whole and may block while the peer
// does not read (the core holds no lock of its own while it sends).
class outbound {
 public:
  virtual ~outbound() = default;
  virtual void send(const json& message) = 0;
  // A request's successful response: {"jsonrpc":"2.0","id":id,"result":result}. Transports that
  // write text override it to write that envelope around `result` without building the message,
  // with the SDK's writer (detail::write_response): `result` may hold JSON text the server wrote,
  // an object in declaration order (detail::raw_json), which only that writer writes. This
  // default turns such text back into plain values first, so send() always gets a plain tree.
  virtual void send_result(const json& id, json result) {
    detail::expand_raw_json(result);
    send(jsonrpc::response(id, std::move(result)));
  }
  // Whether this outbound writes text and takes results as JSON text (send_result_text). The core
  // then writes typed tools' results straight to text, without a tree; other outbounds always get
  // trees, so nothing ever reads the server's own text back.
  virtual bool takes_text() const { return false; }
  // A request's successful response whose result is already JSON text written by the server (only
  // called where takes_text() is true): write the envelope around it as it is.
  virtual void send_result_text(const json& id, std::string_view result) {
    (void)id;
    (void)result;
    throw std::logic_error("mcp: an outbound whose takes_text() is true must override send_result_text");
  }
  // Ends the underlying stream early while keeping what is sent afterwards for the client to
  // fetch later (Streamable HTTP: close the SSE stream; the client resumes with Last-Event-ID).
  // Transports without such streams ignore it.
  virtual void close_stream() {}
};

// Runs a piece of work now or later, on any thread. Handlers of requests that may be slow (tool
// calls, resource reads, prompts) go through it so that a slow handler never blocks ping or a
// cancellation; everything else is answered inline. The transports of the SDK run up to four
// handlers at once: handlers must be safe to run concurrently.
using executor = std::function<void(std::function<void()>)>;

inline executor inline_executor() {
  return [](std::function<void()> work) { work(); };
}

namespace detail {
// An outbound that sends nothing: for a context whose request has no stream left.
class discard_outbound final : public outbound {
 public:
  void send(const json&) override {}
};
}  // namespace detail

// An outbound that forwards to a function; handy for tests and small transports. The function is
// called from any thread, several at once.
class function_outbound final : public outbound {
 public:
  explicit function_outbound(std::function<void(const json&)> fn) : fn_(std::move(fn)) {}
  void send(const json& message) override { fn_(message); }

 private:
  std::function<void(const json&)> fn_;
};

}  // namespace v0
}  // namespace mcp
