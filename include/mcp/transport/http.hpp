// The Streamable HTTP transport (MCP 2025-11-25) on standalone asio: one endpoint that takes
// JSON-RPC messages by POST and answers with JSON or an SSE stream, a GET stream for messages the
// server starts, sessions, resumable streams, and the checks the spec asks for (Origin, Host,
// Accept, Content-Type, MCP-Protocol-Version). Opt-in: mcp.hpp does not include it.
//
//   mcp::http::options opts;
//   opts.port = 8080;
//   return mcp::http::serve(srv, opts);  // until SIGINT or SIGTERM
//
// Where the spec leaves the choice open:
// - max_sessions reached: a new initialize gets 503 (idle sessions are expired first); no live
//   session is evicted.
// - One GET stream per session at a time: a second concurrent GET gets 409.
// - DELETE answers 204; the id is then unknown (404).
// - A request whose handler sends nothing before its response gets application/json; the first
//   message that is not its response switches the reply to SSE.
// - SSE streams of sessions on 2025-11-25 or later start with a priming event and carry `retry`;
//   ctx.close_stream() is honoured only there (older clients could not resume).
// - A request that ends without a response (it was cancelled) gets an SSE stream that ends empty.
// - Stateless mode: no session ids, GET and DELETE answer 405, each POST runs on a fresh session,
//   initialized from the MCP-Protocol-Version header (else the latest version).
// - CORS: a request whose Origin passes the check (loopback or allowed_origins) gets
//   Access-Control-Allow-Origin on every answer, with Mcp-Session-Id exposed; an OPTIONS preflight
//   is answered 204 before the auth hook (browsers send it without credentials).
#pragma once

#include <mcp/config.hpp>

#include <mcp/transport/http_handler.hpp>
#include <mcp/transport/http_types.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/server.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace asio {
class io_context;
}

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {
class listener_impl;
}
}  // namespace detail

namespace http {

// The endpoint's options (handler_options, http_handler.hpp: path, workers, sessions, origins,
// auth, ...) and the listener's own.
struct options : handler_options {
  std::string host = "127.0.0.1";            // bind address; never 0.0.0.0 by default
  unsigned short port = 8080;                 // 0 = any free port (read it back from listener::port())
  std::string unix_socket;                    // a path: listen on this Unix domain socket instead (POSIX);
                                              // a stale socket file there is replaced, and removed on stop
  std::size_t io_threads = 1;                 // threads serving the sockets, and quick handlers
  // A handler runs on the io thread that read its request (no hand-off). Once every io thread has
  // been in one handler for this long, another thread is added, so sockets are always served. And
  // while handlers have lately taken over 100 us on average, one more thread serves beside the io
  // threads, so long calls use a free core; short ones keep the io threads to themselves.
  std::chrono::microseconds inline_budget = std::chrono::milliseconds(1);
  mcp::http::limits limits;                   // 431/413/414 limits; chunk extensions (400)
  std::chrono::seconds read_timeout{30};      // a request must arrive whole within this
  std::chrono::seconds idle_timeout{120};     // keep-alive connection idle limit
  // A response's bytes waiting for a client that takes none of them for this long: the connection
  // is closed and they are let go (a slow reader that keeps taking some is served; max_queued_output
  // bounds how much waits). Also how long a graceful stop waits, after its grace, for what is still
  // queued. Zero: no limit (a graceful stop then waits until it is written, or a second stop()).
  std::chrono::milliseconds write_timeout = std::chrono::seconds(30);
  // An SSE stream quiet this long gets a comment line (": keep-alive"), which clients ignore and
  // idle-cutting proxies count as traffic. Zero: never.
  std::chrono::milliseconds sse_keepalive = std::chrono::seconds(15);
  // Connections open at once; one more is answered 503 with Retry-After and closed (over TLS,
  // closed without an answer). 0: no cap.
  std::size_t max_connections = 1024;
  // serve()'s graceful stop on SIGINT or SIGTERM (listener::shutdown): how long running calls get
  // to answer before their connections are closed (after write_timeout more at most for what is
  // queued; a second signal stops at once).
  std::chrono::milliseconds shutdown_grace = std::chrono::seconds(10);
  // HTTPS: mcp::http::make_tls({chain, key}) (transport/https.hpp, which needs OpenSSL). Null:
  // plain HTTP.
  std::shared_ptr<const tls_setup> tls;
};

// Binds in the constructor (std::system_error naming the address when it cannot). Two ways to run:
// - Its own loop: run() serves on io_threads threads (the caller's included) until stop().
//   Destroy it only after run() has returned (or was never called).
// - The caller's asio::io_context: start() begins accepting there; sockets and timers are served
//   by whatever threads run that io_context, never blocked by a handler: handlers (tool calls,
//   which may take long) run on `workers` threads the listener owns. stop() ends it (closes
//   sessions and connections); it may be destroyed at any time after, even while the io_context
//   still runs: what is pending there keeps what it needs alive.
// Threads: stop() from any thread, also from a handler; the rest from the thread that owns it.
class listener {
 public:
  listener(mcp::server& srv, options opts);
  listener(mcp::server& srv, asio::io_context& io, options opts);
  ~listener();  // stops it
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;

  unsigned short port() const;  // 0 for a Unix socket
  void run();    // its own loop: blocks until stop(); runs io_threads threads (this one included)
  void start();  // the caller's loop: accept from now on; returns at once
  void stop();   // thread-safe, also before run() or start(); run() returns
  // A graceful stop(), thread-safe: stops accepting and answers new requests 503 (Retry-After),
  // while calls already running go on (their progress, their questions to the client, the
  // client's answers); once they have answered, or `grace` is over, everything is closed as by
  // stop(), after the final results were written (within write_timeout: what is still queued
  // then is dropped). stop() at any time after cuts it short, closing every connection at once.
  void shutdown(std::chrono::milliseconds grace);

 private:
  std::unique_ptr<asio::io_context> own_io_;  // its own loop; destroyed after impl_ lets go of it
  std::shared_ptr<detail::http::listener_impl> impl_;
};

// A listener run until SIGINT or SIGTERM. Returns the process exit code (1 when it cannot bind).
int serve(mcp::server& srv, options opts);

// "127.0.0.1:8080", "[::1]:9000", "localhost:0" -> {host, port} (IPv6 without brackets);
// nullopt for anything else.
std::optional<std::pair<std::string, unsigned short>> parse_host_port(std::string_view text);

}  // namespace http
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/transport/impl/http.ipp>
#endif
