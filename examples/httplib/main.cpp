// The notes tools mounted at /mcp in another C++ web server (cpp-httplib), beside a route of its
// own (GET /health). cpp-httplib gives each request a thread and writes the response from it, so
// the route uses mcp::http::handler::handle_blocking and reads the answer from a blocking_writer:
// a whole response, or an SSE stream pulled as it comes.
//
//   httplib_notes --http 127.0.0.1:8080 [--store PATH]
#include <httplib.h>

#include <mcp/ext/tasks.hpp>  // export_notes runs as a task for clients that ask
#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>  // parse_host_port
#include <mcp/transport/http_handler.hpp>

#include "../notes/tools.hpp"

#include <csignal>
#include <strings.h>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

namespace {

mcp::http::request from_httplib(const httplib::Request& in) {
  mcp::http::request r;
  r.method = in.method;
  r.target = in.target.empty() ? in.path : in.target;
  for (const auto& [name, value] : in.headers)
    if (name != "REMOTE_ADDR" && name != "REMOTE_PORT" && name != "LOCAL_ADDR" && name != "LOCAL_PORT")
      r.headers.add(name, value);  // cpp-httplib adds these four of its own
  r.body = in.body;
  return r;
}

// The MCP endpoint as a cpp-httplib handler.
httplib::Server::Handler mount(mcp::http::handler& endpoint) {
  return [&endpoint](const httplib::Request& req, httplib::Response& res) {
    auto answer = endpoint.handle_blocking(from_httplib(req));
    const mcp::http::response& head = answer->wait_head();
    res.status = head.status;
    std::string content_type;
    for (const auto field : head.headers) {
      if (field.name.size() == 12 && strncasecmp(field.name.data(), "Content-Type", 12) == 0) content_type = field.value;
      else res.set_header(std::string(field.name), std::string(field.value));
    }
    if (!answer->streaming()) {
      if (!head.body.empty() || !content_type.empty()) res.set_content(head.body, content_type);
      return;
    }
    res.set_chunked_content_provider(
        content_type,
        [answer](std::size_t, httplib::DataSink& sink) {
          std::string bytes;
          switch (answer->pull(bytes, std::chrono::milliseconds(250))) {
            case mcp::http::blocking_writer::pulled::bytes:
              return sink.write(bytes.data(), bytes.size());
            case mcp::http::blocking_writer::pulled::idle:
              return sink.is_writable();  // false: the client left; the releaser says so
            case mcp::http::blocking_writer::pulled::ended:
              sink.done();
              return true;
          }
          return false;
        },
        [answer](bool success) {
          if (!success) answer->client_gone();
        });
  };
}

}  // namespace

int main(int argc, char** argv) {
  std::string store_path = "notes.json";
  std::optional<std::pair<std::string, unsigned short>> address{{"127.0.0.1", 8080}};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--http" && i + 1 < argc) {
      address = mcp::http::parse_host_port(argv[++i]);
      if (!address) {
        std::cerr << "httplib_notes: --http wants HOST:PORT, e.g. 127.0.0.1:8080, not '" << argv[i] << "'\n";
        return 2;
      }
    } else if (arg == "--store" && i + 1 < argc) {
      store_path = argv[++i];
    } else {
      std::cerr << "Usage: httplib_notes [--http HOST:PORT] [--store PATH]\n";
      return arg == "--help" ? 0 : 2;
    }
  }

  // SIGINT and SIGTERM are taken by a thread of their own (set before any other thread starts).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  notes::store db(store_path);
  mcp::server srv({.name = "notes", .version = "1.0.0"});
  mcp::enable_tasks(srv);  // tasks kept in memory here; notes --http can keep them on Redis
  notes::register_tools(srv, db);
  mcp::http::handler endpoint(srv, {});  // sessions, resumable streams, Origin/Host checks: as in notes --http

  httplib::Server web;
  web.set_payload_max_length(4 * 1024 * 1024);  // 413 beyond, as the SDK's own listener
  web.Get("/health", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok\n", "text/plain"); });
  web.Post("/mcp", mount(endpoint));
  web.Get("/mcp", mount(endpoint));
  web.Delete("/mcp", mount(endpoint));
  // A browser page's CORS preflight: the handler answers it (204 with the Access-Control-* headers
  // for an allowed Origin, 403 otherwise). Left unrouted, cpp-httplib answers it 404 and the page's
  // POST is never sent.
  web.Options("/mcp", mount(endpoint));
  web.Put("/mcp", mount(endpoint));  // the handler answers 405, as the SDK's own listener does
  web.Patch("/mcp", mount(endpoint));

  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    endpoint.close();  // ends open streams, so the server's threads can finish
    web.stop();
  });
  if (!web.bind_to_port(address->first, address->second)) {
    std::cerr << "httplib_notes: cannot listen on " << address->first << ":" << address->second << "\n";
    std::_Exit(1);
  }
  std::cerr << "serving MCP at http://" << address->first << ":" << address->second << "/mcp (and /health)\n";
  web.listen_after_bind();
  stopper.join();
  return 0;
}
