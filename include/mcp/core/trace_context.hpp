// Trace context (W3C Trace Context: traceparent and tracestate) as a request carries it in
// params._meta; context::trace() gives it to handlers and middleware.
#pragma once

#include <mcp/json/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {

// A valid traceparent, split: version 00, a trace id of 32 and a parent id of 16 lower-case hex
// digits (neither all zeros), and the trace flags.
struct trace_context {
  std::string trace_id;
  std::string parent_id;
  std::uint8_t flags = 0;
  std::string tracestate;  // as sent, when a traceparent came with it

  bool sampled() const { return (flags & 1) != 0; }
  // The traceparent header value: "00-<trace id>-<parent id>-<flags>".
  std::string traceparent() const {
    static constexpr char hex[] = "0123456789abcdef";
    return "00-" + trace_id + "-" + parent_id + "-" + hex[flags >> 4] + hex[flags & 0xF];
  }

  // nullopt for anything that is not a valid version-00 traceparent (the trace then starts here).
  static std::optional<trace_context> parse(std::string_view traceparent, std::string_view tracestate = {}) {
    auto hex = [](std::string_view s) {
      for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
      return true;
    };
    auto zeros = [](std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; };
    if (traceparent.size() != 55 || traceparent.substr(0, 3) != "00-" || traceparent[35] != '-' || traceparent[52] != '-')
      return std::nullopt;
    const auto trace = traceparent.substr(3, 32), parent = traceparent.substr(36, 16), flags = traceparent.substr(53, 2);
    if (!hex(trace) || !hex(parent) || !hex(flags) || zeros(trace) || zeros(parent)) return std::nullopt;
    trace_context t;
    t.trace_id = std::string(trace);
    t.parent_id = std::string(parent);
    t.flags = static_cast<std::uint8_t>(std::stoi(std::string(flags), nullptr, 16));
    t.tracestate = std::string(tracestate);
    return t;
  }
  // The trace context in a request's _meta ("traceparent", "tracestate"), when valid.
  static std::optional<trace_context> from_meta(const json& meta) {
    if (!meta.is_object()) return std::nullopt;
    auto tp = meta.find("traceparent");
    if (tp == meta.end() || !tp->is_string()) return std::nullopt;
    auto ts = meta.find("tracestate");
    return parse(tp->get_ref<const std::string&>(),
                 ts != meta.end() && ts->is_string() ? std::string_view(ts->get_ref<const std::string&>()) : "");
  }
};

}  // namespace v0
}  // namespace mcp
