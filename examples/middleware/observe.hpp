// What examples/middleware and examples/jwt share to watch a server: JSON lines written by several
// request threads, spans as OpenTelemetry JSON, and an audit-log middleware that names the caller
// (the verified identity's subject when the transport has one, else the client's name).
#pragma once

#include <mcp/mcp.hpp>

#include <chrono>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>

namespace example {

// JSON lines appended to a file by several request threads.
class line_file {
 public:
  explicit line_file(const std::string& path) : out_(path, std::ios::app) {}
  explicit operator bool() const { return out_.is_open(); }
  void write(const mcp::json& line) {
    std::lock_guard lock(mutex_);
    out_ << line.dump() << '\n' << std::flush;
  }

 private:
  std::mutex mutex_;
  std::ofstream out_;
};

inline long long unix_nanos(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// A span as one OTLP/JSON span object (the shape of opentelemetry-proto's JSON encoding).
inline mcp::json otlp_span(const mcp::span& s) {
  mcp::json attributes = mcp::json::array();
  for (const auto& [key, value] : s.attributes.items())
    attributes.push_back({{"key", key},
                          {"value", value.is_number_integer() ? mcp::json{{"intValue", std::to_string(value.get<long long>())}}
                                                              : mcp::json{{"stringValue", value.is_string() ? value.get<std::string>() : value.dump()}}}});
  mcp::json span{{"traceId", s.trace_id},
                 {"spanId", s.span_id},
                 {"name", s.name},
                 {"kind", 2},  // SPAN_KIND_SERVER
                 {"startTimeUnixNano", std::to_string(unix_nanos(s.start))},
                 {"endTimeUnixNano", std::to_string(unix_nanos(s.end))},
                 {"attributes", attributes},
                 {"status", {{"code", s.ok ? 1 : 2}}}};
  if (!s.parent_span_id.empty()) span["parentSpanId"] = s.parent_span_id;
  if (!s.tracestate.empty()) span["traceState"] = s.tracestate;
  return span;
}

// Who is calling: the verified subject when the transport authenticated the caller, else the
// name the client gave itself (which anyone can claim).
inline std::string caller_of(mcp::context& ctx) {
  if (const mcp::identity* who = ctx.caller()) return who->subject;
  return ctx.client().info.value("name", std::string("unknown"));
}

inline const char* to_string(mcp::outcome o) {
  switch (o) {
    case mcp::outcome::ok: return "ok";
    case mcp::outcome::tool_error: return "tool_error";
    case mcp::outcome::protocol_error: return "protocol_error";
    case mcp::outcome::failed: return "failed";
    case mcp::outcome::pending: break;
  }
  return "pending";
}

// One JSON line per request: method, tool, caller, outcome, error code, duration.
inline mcp::middleware audit_log(line_file& out) {
  return [&out](mcp::request_info& r, const std::function<void()>& next) {
    auto write = [&] {
      out.write({{"method", r.method()},
                 {"tool", r.tool_name()},
                 {"caller", caller_of(r.ctx())},
                 {"outcome", to_string(r.outcome())},
                 {"error_code", r.error_code()},
                 {"micros", std::chrono::duration_cast<std::chrono::microseconds>(r.elapsed()).count()}});
    };
    try {
      next();
    } catch (...) {
      write();
      throw;
    }
    write();
  };
}

}  // namespace example
