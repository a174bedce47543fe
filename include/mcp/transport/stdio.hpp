// The stdio transport: newline-delimited JSON-RPC on stdin/stdout (or any pair of file
// descriptors). Nothing but protocol messages is ever written to the output; diagnostics go to stderr.
#pragma once

#include <mcp/config.hpp>

#include <mcp/core/connection.hpp>
#include <mcp/core/server.hpp>
#include <mcp/transport/detail/fd_io.hpp>

#include <chrono>
#include <cstddef>
#include <memory>

namespace mcp {
inline namespace v0 {

struct stdio_options {
  std::size_t workers = 4;                        // threads that run tool calls and other slow handlers
  std::size_t max_message_bytes = 64 * 1024 * 1024;  // longer lines are refused and skipped
  // Replies waiting for a client that reads its output slowly; beyond this, handlers wait to send
  // (and, while a long call holds the thread that reads, reading waits too).
  std::size_t max_queued_output = 16 * 1024 * 1024;
  // At end of input, in-flight requests get this long to finish before they are cancelled.
  std::chrono::milliseconds shutdown_grace = std::chrono::seconds(10);
  // A tool call runs on the thread that reads the input (no hand-off, no wake-up) until it has
  // taken this long; then another thread takes over reading, so ping and cancellation are still
  // answered. Zero: every call goes to the worker pool. Calls that lately took over 100 us (and
  // longer than reading their messages) go to the pool when more input is already waiting, so
  // pipelined requests use more than one core (and may finish in another order than they came,
  // as JSON-RPC allows).
  std::chrono::microseconds inline_budget = std::chrono::milliseconds(1);
};

// Serves one client over a pair of file descriptors until end of input. Returns 0 on a clean end.
int serve_stream(server& srv, int in_fd, int out_fd, stdio_options options = {});

// Serves one client on stdin/stdout (POSIX and Windows). Returns the process exit code. On POSIX,
// SIGPIPE is ignored (a client that goes away fails a write rather than killing the server), and
// on Linux both pipes are widened to 1 MiB where the system allows, so that a large reply does not
// hold the server in write() until the client has read most of it.
int serve_stdio(server& srv, stdio_options options = {});

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/transport/impl/stdio.ipp>
#endif
