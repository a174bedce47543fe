// A tracing hook: mcp::tracing(hooks) is a middleware that hands the hooks a span for every
// request, in the caller's trace when the request carries one (context::trace), named and
// attributed as OpenTelemetry's semantic conventions for MCP say (semantic-conventions-genai,
// docs/gen-ai/mcp.md, status Development). No tracing library is needed. The requests the server
// sends to the client while serving the call (elicitation, sampling, roots) carry the span as
// their parent in params._meta.traceparent. Opt-in: nothing of it runs unless a server uses it.
#pragma once

#include <mcp/core/middleware.hpp>
#include <mcp/core/trace_context.hpp>
#include <mcp/json/json.hpp>

#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {

// One request as a span. Attributes follow OpenTelemetry's semantic conventions for MCP:
// mcp.method.name, mcp.protocol.version, mcp.session.id (with a session), mcp.resource.uri
// (resource methods), jsonrpc.request.id, jsonrpc.protocol.version, gen_ai.tool.name and
// gen_ai.operation.name = execute_tool (tools/call), gen_ai.prompt.name (prompts/get),
// network.transport (pipe for stdio, tcp for HTTP), network.protocol.name (http), and on failure
// error.type (the JSON-RPC code, or tool_error for an isError result) with rpc.response.status_code
// (the JSON-RPC code). The hook may add its own before it writes the span out.
struct span {
  std::string name;            // "{mcp.method.name} {target}": "tools/call add", or the method alone
  std::string kind = "server"; // OpenTelemetry's SpanKind: the server receives the request
  std::string trace_id;        // the caller's trace, or a new one
  std::string span_id;         // new for this request
  std::string parent_span_id;  // the caller's span; empty when the trace starts here
  std::string tracestate;
  std::uint8_t trace_flags = 1;  // the caller's (sampled or not), else sampled
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

// The span of a request before its handler runs: name, ids, and the attributes known up front.
inline span begin_span(request_info& r) {
  span s;
  const std::string method(r.method());
  // Never r.params(): it would build a typed tool's arguments as a tree (its slower road).
  const auto tool = r.tool_name();
  const auto prompt = r.prompt_name();
  const std::string_view target = !tool.empty() ? tool : prompt;
  s.name = target.empty() ? method : method + " " + std::string(target);
  if (const auto& parent = r.ctx().trace()) {
    s.trace_id = parent->trace_id;
    s.parent_span_id = parent->parent_id;
    s.tracestate = parent->tracestate;
    s.trace_flags = parent->flags;
  } else {
    s.trace_id = random_hex(32);
  }
  s.span_id = random_hex(16);
  s.start = std::chrono::system_clock::now();
  json& a = s.attributes;
  a["mcp.method.name"] = method;
  if (!tool.empty()) {
    a["gen_ai.tool.name"] = std::string(tool);
    a["gen_ai.operation.name"] = "execute_tool";
  }
  if (!prompt.empty()) a["gen_ai.prompt.name"] = std::string(prompt);
  const auto uri = r.resource_uri();
  if (!uri.empty()) a["mcp.resource.uri"] = std::string(uri);
  // The conventions give the request id as a string: "1" for the id 1, "abc" for "abc".
  const json& id = r.ctx().request_id();
  a["jsonrpc.request.id"] = id.is_string() ? id.get<std::string>() : id.dump();
  a["jsonrpc.protocol.version"] = "2.0";
  if (!r.ctx().client().protocol_version.empty()) a["mcp.protocol.version"] = r.ctx().client().protocol_version;
  if (!r.ctx().session_id().empty()) a["mcp.session.id"] = r.ctx().session_id();
  const std::string& transport = r.ctx().network_transport();
  if (!transport.empty()) a["network.transport"] = transport;
  if (transport == "tcp") a["network.protocol.name"] = "http";
  return s;
}

// The outcome of a request on its span: error.type and rpc.response.status_code. Returns the
// error.type, empty when it went well.
inline std::string end_span(span& s, const request_info& r) {
  s.end = std::chrono::system_clock::now();
  std::string error_type;
  switch (r.outcome()) {
    case outcome::tool_error: error_type = "tool_error"; break;
    case outcome::protocol_error: error_type = std::to_string(r.error_code()); break;
    case outcome::failed: error_type = "-32603"; break;  // the client gets an internal error
    default: break;
  }
  if (!error_type.empty()) {
    s.ok = false;
    s.attributes["error.type"] = error_type;
    if (error_type != "tool_error") s.attributes["rpc.response.status_code"] = error_type;
  }
  return error_type;
}

// The server span as the parent of what the server sends while serving the request.
inline void propagate(const span& s, request_info& r) {
  trace_context out;
  out.trace_id = s.trace_id;
  out.parent_id = s.span_id;
  out.flags = s.trace_flags;
  out.tracestate = s.tracestate;
  r.ctx().set_outgoing_trace(std::move(out));
}
}  // namespace detail

// A middleware that reports every request to `hooks` as a span. Add it first (server::use) so the
// span covers the other middleware too.
inline middleware tracing(span_hooks hooks) {
  return [hooks = std::move(hooks)](request_info& r, const std::function<void()>& next) {
    span s = detail::begin_span(r);
    detail::propagate(s, r);
    if (hooks.on_start) hooks.on_start(s);
    auto finish = [&] {
      detail::end_span(s, r);
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
