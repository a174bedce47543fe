// mcp::connection: one client's connection to a server, and the one way into the core for every
// transport. A transport makes one per client connection (stdio: one; HTTP: one per session, or
// one per request without sessions), hands it each message it receives as text (receive), and
// sends what the core gives its outbound. It never needs to know what a message means.
//
//   auto out = std::make_shared<my_outbound>(socket);       // writes each message whole
//   mcp::connection conn(srv, out, my_executor);            // one per client
//   while (auto line = read_line(socket)) conn.receive(*line);
//   conn.finish(std::chrono::seconds(10));                  // end of input
#pragma once

#include <mcp/core/client_state.hpp>
#include <mcp/core/detail/session.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/message.hpp>
#include <mcp/core/server.hpp>
#include <mcp/core/port.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// A request of a connection that has not been answered yet (connection::in_flight).
struct request_in_flight {
  json id;
  std::string method;  // "tools/call", "resources/read", ...
  // For people: "tool 'hold'" for a tools/call, else the method. The core names it, so that a
  // transport can report it without knowing what a tool is.
  std::string what;
  std::chrono::milliseconds age{0};  // since it arrived, to a few milliseconds
  bool cancelled = false;            // by the client, or by the end of the connection
};

// Threads: receive() may be called from any thread, several at once (the replies of concurrent
// requests may then leave in any order); so may every other member. Requests whose handlers may be
// slow (tools, resources, prompts) run on the executor given here, the rest on the calling thread
// before receive() returns. The server must outlive the connection; work still in flight when the
// connection is destroyed is cancelled and keeps what it needs alive.
class connection {
 public:
  // `out` carries what the server sends on its own (notifications, requests to the client) and, by
  // default, the replies; `run` runs handlers that may be slow.
  connection(server& srv, std::shared_ptr<outbound> out, executor run = inline_executor())
      : srv_(srv), session_(std::make_shared<detail::session>(std::move(out), std::move(run))) {}
  ~connection() { close(); }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // Where the handler of a request is about to run, as the transport knows it: `here`, on the
  // thread that hands the message over, before receive() returns (stdio's reading thread running
  // a quick call itself); `elsewhere` otherwise (a pool, another thread, or not known). With
  // `here`, the core reads what the handler needs in the same pass as the message.
  enum class runs { elsewhere, here };

  // The one entry point: one JSON-RPC message as text (one line of stdio, one HTTP body). Replies,
  // and notifications about the request, go to `replies` (null: the connection's outbound). Text
  // that is not one message gets its error reply there too; nothing throws for any input.
  void receive(std::string_view text, const std::shared_ptr<outbound>& replies = nullptr, runs where = runs::elsewhere) {
    message m = where == runs::here ? message::read(text, srv_.options().max_json_depth, &srv_.arguments_reader_)
                                    : message::read(text, srv_.options().max_json_depth);
    srv_.receive(session_, m, replies ? replies : session_->out_ptr());
  }
  // The same for text from a caller the transport authenticated (its handler sees context::caller()).
  void receive_from(std::shared_ptr<const identity> caller, std::string_view text,
                    const std::shared_ptr<outbound>& replies = nullptr) {
    message m = message::read(text, srv_.options().max_json_depth);
    m.set_caller(std::move(caller));
    srv_.receive(session_, m, replies ? replies : session_->out_ptr());
  }
  // The same for a message the transport has read itself with message::read (to look at it first).
  void receive(message m, const std::shared_ptr<outbound>& replies = nullptr) {
    srv_.receive(session_, m, replies ? replies : session_->out_ptr());
  }

  // For transports that answer a 2026-07-28 request's failures with their own status before they
  // run it (HTTP answers 400 or 404): the checks receive() makes of such a request, in the order
  // the spec gives, with the transport's headers checked against the body in between (SEP-2243:
  // MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*). nullopt when it passes all of them:
  // the _meta envelope (-32602), the headers (-32020), the protocol version (-32022), the method
  // (-32601).
  std::optional<protocol_error> check_stateless(const message& m, const header_lookup& headers) const {
    return srv_.check_stateless(m, &headers);
  }

  // For transports that authenticate (HTTP answers 403 with a scope challenge before it runs the
  // request): the refusal receive() would answer a message from m.caller() with, for a tools/call
  // of a tool whose scopes the caller lacks (error_code::insufficient_scope); nullopt otherwise.
  std::optional<protocol_error> check_access(const message& m) const { return srv_.check_access(m); }

  // A 2025-era client served without sessions (HTTP stateless mode): requests run as if initialized
  // with `protocol_version`, the client's capabilities unknown, so nothing can be asked of it.
  void serve_sessionless(std::string protocol_version) {
    client_state client;
    client.protocol_version = std::move(protocol_version);
    client.sessionless = true;
    session_->set_initialized(std::move(client));
  }

  // What the transport is, for telemetry (OpenTelemetry's network.transport: "pipe" for stdio,
  // "tcp", "unix"), and the session id it gave the client (HTTP's Mcp-Session-Id), if any. Call it
  // before the first message; handlers read both through context.
  void set_transport(std::string network_transport, std::string session_id = {}) {
    session_->set_transport(std::move(network_transport), std::move(session_id));
  }

  // The negotiated protocol version; empty before initialize.
  std::string protocol_version() const { return session_->client_ptr()->protocol_version; }
  // Requests of this connection whose handlers have not finished (listen streams included).
  std::size_t requests_in_flight() const { return session_->requests_in_flight(); }
  // The same requests, each named, with how long it has been in flight.
  std::vector<request_in_flight> in_flight() const {
    std::vector<request_in_flight> out;
    const std::int64_t now = detail::coarse_now_ms();
    session_->each_in_flight([&](const detail::request_state& state) {
      request_in_flight r;
      r.id = state.id;
      r.method = state.tool ? "tools/call" : state.subject;
      r.what = state.tool ? "tool '" + state.subject + "'" : state.subject;
      r.age = std::chrono::milliseconds(std::max<std::int64_t>(0, now - state.arrived_ms));
      r.cancelled = state.cancelled.load();
      out.push_back(std::move(r));
    });
    return out;
  }

  // Ends this connection's 2026-07-28 listen streams now, each with its final result (a graceful
  // stop: they would otherwise run until the client leaves). Any thread.
  void end_listen_streams() { srv_.end_listeners(session_.get(), true); }

  // End of input: the client will send nothing more. Its 2026-07-28 listen streams end at once
  // with their final result (nothing can be asked of them any more); other requests in flight get
  // up to `grace` to finish; then close(). Blocks meanwhile.
  void finish(std::chrono::milliseconds grace) {
    end_listen_streams();
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (session_->requests_in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    close();
  }
  // Ends the connection now: requests in flight see a cancellation, its listen streams end, and
  // nothing more is sent for it. Later messages are ignored.
  void close() {
    const auto was = session_->close();
    srv_.end_listeners(session_.get(), false);
    if (was == detail::session::phase::initialized) srv_.session_ended(*session_);
  }
  bool closed() const { return session_->closed(); }

 private:
  server& srv_;
  std::shared_ptr<detail::session> session_;
};

}  // namespace v0
}  // namespace mcp
