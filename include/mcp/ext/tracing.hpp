// A tracing hook: mcp::tracing(hooks) is a middleware that hands the hooks a span for every
// request, in the caller's trace when the request carries one (context::trace), shaped after
// OpenTelemetry's conventions for MCP. No tracing library is needed.
#pragma once

#include <mcp/core/middleware.hpp>
#include <mcp/json/json.hpp>

#include <chrono>
#include <functional>
#include <random>
#include <string>

namespace mcp {
inline namespace v0 {

// One request as a span. Attributes follow OpenTelemetry's semantic conventions for MCP
// (mcp.method.name, gen_ai.tool.name, jsonrpc.request.id, mcp.protocol.version, error.type,
// rpc.jsonrpc.error_code); the hook may add its own before it writes the span out.
struct span {
  std::string name;            // "tools/call add", or the method alone
  std::string trace_id;        // the caller's trace, or a new one
  std::string span_id;         // new for this request
  std::string parent_span_id;  // the caller's span; empty when the trace starts here
  std::string tracestate;
  std::chrono::system_clock::time_point start, end;  // end is set for on_end only
  bool ok = true;              // false for a tool error, a protocol error or a failure
  json attributes = json::object();
};

// Where spans go: on_start before the handler runs, on_end after it answered. Either may be empty.
// Called on the request's thread, concurrently for concurrent requests.
struct span_hooks {
  std::function<void(const span&)> on_start;
  std::function<void(const span&)> on_end;
};

namespace detail {
inline std::string random_hex(std::size_t digits) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  while (out.size() < digits) {
    auto bits = rng();
    for (int i = 0; i < 16 && out.size() < digits; ++i, bits >>= 4) out += hex[bits & 0xF];
  }
  return out;
}
}  // namespace detail

// A middleware that reports every request to `hooks` as a span. Add it first (server::use) so the
// span covers the other middleware too.
inline middleware tracing(span_hooks hooks) {
  return [hooks = std::move(hooks)](request_info& r, const std::function<void()>& next) {
    span s;
    const auto tool = r.tool_name();
    s.name = tool.empty() ? std::string(r.method()) : std::string(r.method()) + " " + std::string(tool);
    if (const auto& parent = r.ctx().trace()) {
      s.trace_id = parent->trace_id;
      s.parent_span_id = parent->parent_id;
      s.tracestate = parent->tracestate;
    } else {
      s.trace_id = detail::random_hex(32);
    }
    s.span_id = detail::random_hex(16);
    s.start = std::chrono::system_clock::now();
    s.attributes["mcp.method.name"] = std::string(r.method());
    if (!tool.empty()) s.attributes["gen_ai.tool.name"] = std::string(tool);
    s.attributes["jsonrpc.request.id"] = r.ctx().request_id();
    if (!r.ctx().client().protocol_version.empty()) s.attributes["mcp.protocol.version"] = r.ctx().client().protocol_version;
    if (hooks.on_start) hooks.on_start(s);
    auto finish = [&] {
      s.end = std::chrono::system_clock::now();
      switch (r.outcome()) {
        case outcome::tool_error: s.ok = false; s.attributes["error.type"] = "tool_error"; break;
        case outcome::protocol_error:
          s.ok = false;
          s.attributes["error.type"] = std::to_string(r.error_code());
          s.attributes["rpc.jsonrpc.error_code"] = r.error_code();
          break;
        case outcome::failed: s.ok = false; s.attributes["error.type"] = "internal_error"; break;
        default: break;
      }
      if (hooks.on_end) hooks.on_end(s);
    };
    try {
      next();
    } catch (...) {
      finish();
      throw;
    }
    finish();
  };
}

}  // namespace v0
}  // namespace mcp
