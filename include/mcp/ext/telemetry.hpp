// Telemetry as OpenTelemetry's semantic conventions for MCP describe it (semantic-conventions-genai,
// docs/gen-ai/mcp.md): a span per request (ext/tracing.hpp) and the two histograms
// mcp.server.operation.duration and mcp.server.session.duration, in seconds, with the buckets the
// conventions advise. The histograms join the server's Prometheus page (server::metrics_text, and
// so HTTP's /metrics) under the names OpenTelemetry's Prometheus conversion gives them:
// mcp_server_operation_duration_seconds{mcp_method_name="tools/call",gen_ai_tool_name="add",...}.
//
//   mcp::telemetry tel(srv, {.spans = {.on_end = write_span}});   // before other srv.use(...)
//
// Opt-in by including this header and making one: a server without it runs no telemetry code.
#pragma once

#include <mcp/core/server.hpp>
#include <mcp/ext/tracing.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <locale>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

struct telemetry_options {
  span_hooks spans;  // where spans go; both empty: no spans, only the histograms
};

// One series of a histogram: its labels (Prometheus names, only those set), its bucket counts
// (not cumulative; the last is above the highest bound), sum and count.
struct histogram_series {
  std::map<std::string, std::string> labels;
  std::vector<std::uint64_t> buckets;
  double sum = 0;
  std::uint64_t count = 0;
};

namespace detail {

class telemetry_state {
 public:
  // The conventions' advice for both histograms (ExplicitBucketBoundaries), in seconds.
  static constexpr std::array<double, 14> bounds = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};
  // The operation histogram's labels, in the order they are written.
  static constexpr std::array<const char*, 6> operation_labels = {
      "mcp_method_name", "gen_ai_operation_name", "gen_ai_tool_name", "error_type", "mcp_protocol_version",
      "network_transport"};
  static constexpr std::array<const char*, 2> session_labels = {"mcp_protocol_version", "network_transport"};

  explicit telemetry_state(server& srv) : srv_(srv) {}

  void record_operation(std::vector<std::string> labels, double seconds) {
    std::lock_guard lock(mutex_);
    add(operations_[std::move(labels)], seconds);
  }
  void record_session(std::vector<std::string> labels, double seconds) {
    std::lock_guard lock(mutex_);
    add(sessions_[std::move(labels)], seconds);
  }

  // A tool name as a label value: the name of a registered tool, else "_OTHER", so a client that
  // calls made-up names cannot grow the page (OpenTelemetry folds unknown HTTP methods the same way).
  std::string tool_label(std::string_view name) {
    {
      std::lock_guard lock(mutex_);
      if (known_tools_.count(name)) return std::string(name);
    }
    for (const auto& t : srv_.tool_names())
      if (t == name) {
        std::lock_guard lock(mutex_);
        known_tools_.emplace(t);
        return t;
      }
    return "_OTHER";
  }

  std::vector<histogram_series> operations() const { return series(operations_, operation_labels); }
  std::vector<histogram_series> sessions() const { return series(sessions_, session_labels); }

  std::string prometheus_text() const {
    std::ostringstream out;
    write(out, "mcp_server_operation_duration_seconds",
          "MCP request duration as observed on the receiver from the time it was received until the result is sent.",
          operations());
    write(out, "mcp_server_session_duration_seconds", "The duration of the MCP session as observed on the MCP server.",
          sessions());
    return out.str();
  }

 private:
  struct histogram {
    std::array<std::uint64_t, bounds.size() + 1> buckets{};
    double sum = 0;
    std::uint64_t count = 0;
  };
  static void add(histogram& h, double seconds) {
    std::size_t b = 0;
    while (b < bounds.size() && seconds > bounds[b]) ++b;  // le: a value on a bound counts in it
    ++h.buckets[b];
    h.sum += seconds;
    ++h.count;
  }
  template <std::size_t N>
  std::vector<histogram_series> series(const std::map<std::vector<std::string>, histogram>& from,
                                       const std::array<const char*, N>& names) const {
    std::lock_guard lock(mutex_);
    std::vector<histogram_series> out;
    for (const auto& [values, h] : from) {
      histogram_series s;
      for (std::size_t i = 0; i < N && i < values.size(); ++i)
        if (!values[i].empty()) s.labels[names[i]] = values[i];
      s.buckets.assign(h.buckets.begin(), h.buckets.end());
      s.sum = h.sum;
      s.count = h.count;
      out.push_back(std::move(s));
    }
    return out;
  }
  // The shortest text that reads back as v: le="0.2", not "0.20000000000000001".
  static std::string number(double v) {
    std::string text;
    for (int digits = 1; digits <= 17; ++digits) {
      std::ostringstream s;
      s.imbue(std::locale::classic());
      s.precision(digits);
      s << v;
      text = s.str();
      std::istringstream back(text);
      back.imbue(std::locale::classic());
      double read = 0;
      if (back >> read && read == v) break;
    }
    return text;
  }
  static std::string label_value(const std::string& v) {
    std::string out;
    for (char c : v) {
      if (c == '\\' || c == '"') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    return out;
  }
  static void write(std::ostringstream& out, const char* name, const char* help, const std::vector<histogram_series>& all) {
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << " histogram\n";
    for (const auto& s : all) {
      std::string labels;
      for (const auto& [k, v] : s.labels) labels += k + "=\"" + label_value(v) + "\",";
      std::uint64_t cumulative = 0;
      for (std::size_t i = 0; i < bounds.size(); ++i) {
        cumulative += s.buckets[i];
        out << name << "_bucket{" << labels << "le=\"" << number(bounds[i]) << "\"} " << cumulative << '\n';
      }
      out << name << "_bucket{" << labels << "le=\"+Inf\"} " << s.count << '\n';
      if (!labels.empty()) labels.pop_back();
      out << name << "_sum{" << labels << "} " << number(s.sum) << '\n';
      out << name << "_count{" << labels << "} " << s.count << '\n';
    }
  }

  server& srv_;
  mutable std::mutex mutex_;
  std::map<std::vector<std::string>, histogram> operations_;
  std::map<std::vector<std::string>, histogram> sessions_;
  std::set<std::string, std::less<>> known_tools_;
};

}  // namespace detail

// Spans and the two histograms for one server. Making one adds a middleware (so make it before
// other middleware: its span and duration then cover them), a source of server::metrics_text and a
// session hook; they keep what they record alive, so the telemetry object may go before the server.
//
// Threads: the server records from its request threads, several at once; every member may be
// called from any thread.
class telemetry {
 public:
  explicit telemetry(server& srv, telemetry_options options = {})
      : state_(std::make_shared<detail::telemetry_state>(srv)) {
    srv.use([state = state_, hooks = std::move(options.spans)](request_info& r, const std::function<void()>& next) {
      const bool spans = hooks.on_start || hooks.on_end;
      span s = detail::begin_span(r);
      detail::propagate(s, r);
      if (hooks.on_start) hooks.on_start(s);
      const auto started = std::chrono::steady_clock::now();
      auto finish = [&] {
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
        const std::string error_type = detail::end_span(s, r);
        const auto tool = r.tool_name();
        std::string method(r.method());
        // A method the server does not know (a middleware or handler answered -32601) is folded.
        if (r.outcome() == outcome::protocol_error && r.error_code() == error_code::method_not_found) method = "_OTHER";
        state->record_operation({std::move(method), tool.empty() ? std::string() : std::string("execute_tool"),
                                 tool.empty() ? std::string() : state->tool_label(tool), error_type,
                                 r.ctx().client().protocol_version, r.ctx().network_transport()},
                                took.count());
        if (spans && hooks.on_end) hooks.on_end(s);
      };
      try {
        next();
      } catch (...) {
        finish();
        throw;
      }
      finish();
    });
    srv.metrics_source([state = state_] { return state->prometheus_text(); });
    srv.on_session_end([state = state_](const session_summary& end) {
      state->record_session({end.protocol_version, end.network_transport},
                            std::chrono::duration<double>(end.duration).count());
    });
  }

  // mcp.server.operation.duration and mcp.server.session.duration, one entry per label set.
  std::vector<histogram_series> operation_duration() const { return state_->operations(); }
  std::vector<histogram_series> session_duration() const { return state_->sessions(); }
  // Both histograms in Prometheus text (also part of server::metrics_text()).
  std::string prometheus_text() const { return state_->prometheus_text(); }

 private:
  std::shared_ptr<detail::telemetry_state> state_;
};

}  // namespace v0
}  // namespace mcp
