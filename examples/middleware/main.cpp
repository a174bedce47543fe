// middleware: the seams a server in production uses, around a few small tools.
//   - tracing: every request as a span, in the caller's trace when _meta carries a traceparent,
//     written as OpenTelemetry-shaped JSON lines (--spans FILE);
//   - an audit log: one JSON line per request with the caller, the outcome and the time (--audit FILE);
//   - a per-caller rate limit on tool calls (--rate N calls per minute);
//   - a deny list of tools (--deny NAME[,NAME...]): the model is told the tool is disabled;
//   - an extension the server declares and detects in the client ("com.example/shout");
//   - a hook on a client notification that logs to every session (server-wide logging).
// Serves stdio, or Streamable HTTP with --http HOST:PORT.
#include "observe.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>

using example::audit_log;
using example::caller_of;
using example::line_file;
using example::otlp_span;

namespace {

struct echo_args {
  std::string text;
};
MCP_STRUCT(echo_args, (text, "What to say back"));

struct count_args {
  int to = 3;
};
MCP_STRUCT(count_args, (to, "Count from 1 to this", mcp::default_value(3), mcp::minimum(1), mcp::maximum(20)));

}  // namespace

int main(int argc, char** argv) {
  std::optional<std::pair<std::string, unsigned short>> http_address;
  std::string spans_path, audit_path;
  std::set<std::string> denied;
  int rate = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--http" && has_value) {
      http_address = mcp::http::parse_host_port(argv[++i]);
      if (!http_address) return std::cerr << "middleware: --http wants HOST:PORT, not '" << argv[i] << "'\n", 2;
    } else if (arg == "--spans" && has_value) {
      spans_path = argv[++i];
    } else if (arg == "--audit" && has_value) {
      audit_path = argv[++i];
    } else if (arg == "--rate" && has_value) {
      rate = std::atoi(argv[++i]);
    } else if (arg == "--deny" && has_value) {
      std::stringstream names(argv[++i]);
      for (std::string name; std::getline(names, name, ',');) denied.insert(name);
    } else {
      std::ostream& out = arg == "--help" ? std::cout : std::cerr;
      out << "Usage: middleware [--http HOST:PORT] [--spans FILE] [--audit FILE] [--rate N] [--deny NAME,...]\n";
      return arg == "--help" ? 0 : 2;
    }
  }

  mcp::server srv({.name = "middleware", .version = "1.0.0"});
  srv.extension("com.example/shout", {{"version", 1}});

  // The chain runs in this order: tracing first, so its span covers the rest.
  line_file spans(spans_path.empty() ? "/dev/null" : spans_path);
  if (!spans_path.empty()) srv.use(mcp::tracing({.on_end = [&](const mcp::span& s) { spans.write(otlp_span(s)); }}));

  line_file audit(audit_path.empty() ? "/dev/null" : audit_path);
  if (!audit_path.empty()) srv.use(audit_log(audit));

  if (!denied.empty())
    srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
      if (denied.count(std::string(r.tool_name())))
        throw mcp::tool_error("The tool '" + std::string(r.tool_name()) +
                              "' is disabled on this server; use another tool or tell the user.");
      next();
    });

  std::mutex rate_mutex;
  std::map<std::string, std::vector<std::chrono::steady_clock::time_point>> calls;  // per caller, the last minute
  if (rate > 0)
    srv.use([&](mcp::request_info& r, const std::function<void()>& next) {
      if (r.method() == "tools/call") {
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(rate_mutex);
        auto& recent = calls[caller_of(r.ctx())];
        recent.erase(std::remove_if(recent.begin(), recent.end(), [&](auto t) { return now - t > std::chrono::minutes(1); }),
                     recent.end());
        if (static_cast<int>(recent.size()) >= rate)
          throw mcp::protocol_error(-32000, "Rate limit: at most " + std::to_string(rate) +
                                                " tool calls a minute for each client; wait before calling again");
        recent.push_back(now);
      }
      next();
    });

  srv.on_notification("notifications/roots/list_changed", [&srv](const mcp::json&, const mcp::client_state& client) {
    srv.log(mcp::log_level::info, "the roots of " + client.info.value("name", std::string("a client")) + " changed");
  });

  srv.tool("echo", "Say the text back (in capitals for clients that declare com.example/shout).",
           [](const echo_args& a, mcp::context& ctx) {
             std::string text = a.text;
             if (ctx.client_supports_extension("com.example/shout"))
               for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
             return text;
           });
  srv.tool("count", "Count slowly, reporting progress.", [](const count_args& a, mcp::context& ctx) {
    for (int i = 1; i <= a.to; ++i) {
      ctx.progress(i, a.to);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return "Counted to " + std::to_string(a.to) + ".";
  });
  srv.tool("trace_id", "The trace this call belongs to, as the server sees it.", [](mcp::context& ctx) {
    return ctx.trace() ? ctx.trace()->trace_id : std::string("none");
  });
  srv.tool("delete_everything", "Deletes everything (denied by --deny in the tests).",
           [] { return std::string("Deleted everything."); });

  if (http_address) {
    mcp::http::options options;
    options.host = http_address->first;
    options.port = http_address->second;
    return mcp::http::serve(srv, options);
  }
  return mcp::serve_stdio(srv);
}
