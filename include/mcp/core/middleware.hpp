// Middleware: functions the server runs around every request it dispatches, in the order they were
// added (server::use), on every transport and in both protocol eras. Each sees the request and the
// handler's context, calls next() to go on, and sees how the request went once next() returns.
// It may answer early instead: throw mcp::protocol_error for a JSON-RPC error, or (tools/call
// only) mcp::tool_error for an isError result the model reads. Typed tools keep their whole
// pipeline (validation, decoding, the result builder) inside next().
//
// initialize is answered before the chain (the session it sets up does not exist yet), and
// notifications are not requests: neither passes through it.
#pragma once

#include <mcp/core/context.hpp>
#include <mcp/core/detail/request_params.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {

// How a request went, once next() has returned (or thrown).
enum class outcome {
  pending,         // next() has not returned yet
  ok,              // a result
  tool_error,      // a tools/call result with isError: true
  protocol_error,  // a JSON-RPC error (error_code() says which)
  failed,          // the handler threw something else: the client gets an internal error
};

// One request as middleware sees it.
//
// Threads: it belongs to the request's thread, like its context; a middleware must not keep it.
class request_info {
 public:
  std::string_view method() const { return method_; }
  // The tool a tools/call names (a string), else empty.
  std::string_view tool_name() const { return method_ == "tools/call" ? name_param() : std::string_view(); }
  // The prompt a prompts/get names (a string), else empty.
  std::string_view prompt_name() const { return method_ == "prompts/get" ? name_param() : std::string_view(); }
  // The "uri" of a resources/ method's params (a string), else empty.
  std::string_view resource_uri() const {
    if (method_.substr(0, 10) != "resources/") return {};
    const json& rest = params_.rest();
    if (!rest.is_object()) return {};
    auto u = rest.find("uri");
    return u != rest.end() && u->is_string() ? std::string_view(u->get_ref<const std::string&>()) : std::string_view();
  }
  // The request's params whole. A tools/call's arguments are then built as a tree: a typed tool
  // takes the slower road, and views from tool_name() and prompt_name() taken before are void.
  const json& params() { return params_.tree(); }
  // The handler's context: the request id, the client, _meta, trace context, progress, logging.
  context& ctx() { return ctx_; }

  // After next(): how it went, and for a protocol error its code and message.
  mcp::outcome outcome() const { return outcome_; }
  int error_code() const { return error_code_; }
  const std::string& error_message() const { return error_message_; }
  // Since the chain started.
  std::chrono::steady_clock::duration elapsed() const { return std::chrono::steady_clock::now() - started_; }

 private:
  friend class server;
  request_info(std::string_view method, detail::request_params& params, context& ctx)
      : method_(method), params_(params), ctx_(ctx), started_(std::chrono::steady_clock::now()) {}

  // params.name: set apart by the reader, else in the rest.
  std::string_view name_param() const {
    if (const std::string* n = params_.name()) return *n;
    const json& rest = params_.rest();
    if (!rest.is_object()) return {};
    auto n = rest.find("name");
    return n != rest.end() && n->is_string() ? std::string_view(n->get_ref<const std::string&>()) : std::string_view();
  }

  std::string_view method_;
  detail::request_params& params_;
  context& ctx_;
  std::chrono::steady_clock::time_point started_;
  mcp::outcome outcome_ = mcp::outcome::pending;
  int error_code_ = 0;
  std::string error_message_;
};

// A middleware: do what comes before, call next() (at most once) to run the rest of the chain and
// the handler, do what comes after. Not calling next() means answering early, by throwing.
using middleware = std::function<void(request_info& request, const std::function<void()>& next)>;

}  // namespace v0
}  // namespace mcp
