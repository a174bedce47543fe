// What an HTTP host and the Streamable HTTP handler (http_handler.hpp) exchange: a request in, and
// a response writer the handler answers through, now or later, with one whole response or a
// stream of SSE bytes. A host is anything that speaks HTTP: the SDK's own asio listener
// (http.hpp), or a route of another web server.
#pragma once

#include <mcp/transport/detail/http_message.hpp>

#include <functional>
#include <string>

namespace mcp {
inline namespace v0 {
namespace http {

// Field lines in arrival order: add(name, value), set(name, value), get(name) (case-insensitive,
// the first one), get_all(name), contains(name); iterable as {name, value} views.
using header_map = detail::http::header_map;

// One whole request: method ("POST"), target as sent ("/mcp?x=1"; path() and query() split it),
// headers, body (already de-chunked). minor_version is 1 unless the host knows better.
using request = detail::http::request;

// status, reason (empty: the standard phrase), headers, body.
using response = detail::http::response;

// Where the handler's answer to one request goes. The host implements it.
//
// The handler calls respond() once, or start_stream() once followed by write()s and one end().
// Any of them may come later, from any thread (a tool's reply comes from a worker): an
// implementation must be thread-safe and keep call order. After end() or after the client has
// gone, calls must do nothing. A stream's head gives the status and extra headers; the host adds
// Content-Type: text/event-stream and Cache-Control: no-cache, and sends the body as it comes
// (chunked, or until close) without buffering.
class response_writer {
 public:
  virtual ~response_writer() = default;
  virtual void respond(response r) = 0;          // a whole response; ends the exchange
  virtual void start_stream(response head) = 0;  // a stream's head; write() adds to its body
  virtual void write(std::string sse_bytes) = 0; // whole SSE events (or comments), to send at once
  virtual void end() = 0;                        // ends the stream
  // `fn` runs once if the client goes away before the end (the handler then lets go of the writer
  // or cancels the request). Never inline from on_disconnect itself: the caller may hold a lock
  // that fn takes.
  virtual void on_disconnect(std::function<void()> fn) = 0;
};

}  // namespace http
}  // namespace v0
}  // namespace mcp
