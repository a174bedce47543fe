// What the core needs from a transport: somewhere to send messages, and something to run work on.
// A transport turns bytes into JSON-RPC messages and hands them to server::handle; it never knows
// about tools. See stdio.hpp, testing.hpp (in-memory) and http.hpp for the ones the SDK ships.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/jsonrpc.hpp>

#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace mcp {
inline namespace v0 {

// A channel to the peer. send() is called from any thread and must write each message whole.
class outbound {
 public:
  virtual ~outbound() = default;
  virtual void send(const json& message) = 0;
  // A request's successful response: {"jsonrpc":"2.0","id":id,"result":result}. Transports that
  // write text override it to write that envelope around `result` without building the message;
  // every request's reply takes this path.
  virtual void send_result(const json& id, json result) { send(jsonrpc::response(id, std::move(result))); }
  // The same for a result already written as JSON text (typed tool results are written straight
  // from the handler's value). Transports that write text override it to send it as it is.
  virtual void send_result_text(const json& id, std::string_view result) {
    json value;
    if (detail::read_json(result, value, std::numeric_limits<std::size_t>::max()) != detail::read_result::ok)
      throw std::logic_error("mcp: send_result_text was given text that is not JSON");
    send_result(id, std::move(value));
  }
  // Ends the underlying stream early while keeping what is sent afterwards for the client to
  // fetch later (Streamable HTTP: close the SSE stream; the client resumes with Last-Event-ID).
  // Transports without such streams ignore it.
  virtual void close_stream() {}
};

// Runs a piece of work now or later, on any thread. Handlers of requests that may be slow (tool
// calls, resource reads, prompts) go through it so that a slow handler never blocks ping or a
// cancellation; everything else is answered inline.
using executor = std::function<void(std::function<void()>)>;

inline executor inline_executor() {
  return [](std::function<void()> work) { work(); };
}

// An outbound that forwards to a function; handy for tests and small transports.
class function_outbound final : public outbound {
 public:
  explicit function_outbound(std::function<void(const json&)> fn) : fn_(std::move(fn)) {}
  void send(const json& message) override { fn_(message); }

 private:
  std::function<void(const json&)> fn_;
};

}  // namespace v0
}  // namespace mcp
