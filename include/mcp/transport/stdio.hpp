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
  // Calls (tools, resources, prompts) running at once on the pool, besides the one the reading
  // thread may run itself; more wait their turn. A call that has run `stall_after`, or that the
  // client cancelled, no longer counts: one that waits then starts beside it, up to `max_workers`
  // calls at once (a handler that blocks, or ignores a cancel, still holds a thread until it returns).
  std::size_t workers = 4;
  std::size_t max_workers = 64;
  std::chrono::milliseconds stall_after = std::chrono::milliseconds(100);
  std::size_t max_message_bytes = 64 * 1024 * 1024;  // longer lines are refused and skipped
  // Replies waiting for a client that reads its output slowly; beyond this, handlers wait to send
  // (and, while a long call holds the thread that reads, reading waits too).
  std::size_t max_queued_output = 16 * 1024 * 1024;
  // At end of input (or a stop: a signal, stop_stdio()), in-flight requests get this long to
  // finish before they are cancelled; those still running are then named on stderr, and serving
  // ends once they have returned.
  std::chrono::milliseconds shutdown_grace = std::chrono::seconds(10);
  // serve_stdio only: while it serves, the first SIGINT or SIGTERM stops it as end of input would
  // (it then returns 0), and a second one ends the process at once with status 128 + the signal
  // (130, 143), as a shell reports a process a signal ended. Only signals the program leaves at
  // their default action are caught; the previous action is back when serve_stdio returns.
  // Windows: Ctrl+C or Ctrl+Break in the console, once input next arrives or ends (a read of a
  // pipe cannot be woken there); a second one ends the process with status 130.
  bool catch_signals = true;
  // A tool call runs on the thread that reads the input (no hand-off, no wake-up) until it has
  // taken this long; then another thread takes over reading, so ping and cancellation are still
  // answered. Zero: every call goes to the worker pool. Calls that lately took over 100 us (and
  // longer than reading their messages) go to the pool when more input is already waiting, so
  // pipelined requests use more than one core (and may finish in another order than they came,
  // as JSON-RPC allows).
  std::chrono::microseconds inline_budget = std::chrono::milliseconds(1);
};

// Serves one client over a pair of file descriptors until end of input or stop_stdio(). Returns 0
// on a clean end. Catches no signal.
int serve_stream(server& srv, int in_fd, int out_fd, stdio_options options = {});

// Serves one client on stdin/stdout (POSIX and Windows). Returns the process exit code. On POSIX,
// SIGPIPE is ignored (a client that goes away fails a write rather than killing the server), and
// on Linux both pipes are widened to 1 MiB where the system allows, so that a large reply does not
// hold the server in write() until the client has read most of it. SIGINT and SIGTERM: see
// stdio_options::catch_signals.
int serve_stdio(server& srv, stdio_options options = {});

// Every serve_stdio and serve_stream serving now stops reading and ends as at end of input.
// Async-signal-safe: call it from a signal handler of your own (then catch_signals changes nothing
// for that signal), or from any thread. On Windows, each stops once its input next arrives or ends.
void stop_stdio() noexcept;

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/transport/impl/stdio.ipp>
#endif
