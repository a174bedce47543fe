// The stdio transport: newline-delimited JSON-RPC on stdin/stdout (or any pair of file
// descriptors). Nothing but protocol messages is ever written to the output; diagnostics go to stderr.
#pragma once

#include <mcp/detail/thread_pool.hpp>
#include <mcp/server.hpp>
#include <mcp/session.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include <unistd.h>

namespace mcp {
inline namespace v0 {

struct stdio_options {
  std::size_t workers = 4;                        // threads that run tool calls and other slow handlers
  std::size_t max_message_bytes = 64 * 1024 * 1024;  // longer lines are refused and skipped
  // At end of input, in-flight requests get this long to finish before they are cancelled.
  std::chrono::milliseconds shutdown_grace = std::chrono::seconds(10);
};

namespace detail {

// Writes each message as one line. Threads that send while another is writing only queue their
// line; the writing thread then sends everything queued in one write(), so replies that finish
// together leave together.
class fd_writer final : public outbound {
 public:
  explicit fd_writer(int fd) : fd_(fd) {}
  void send(const json& message) override {
    std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    line.push_back('\n');
    std::unique_lock lock(mutex_);
    if (broken_) return;
    queued_ += line;
    if (writing_) return;
    writing_ = true;
    while (!queued_.empty() && !broken_) {
      std::string batch;
      batch.swap(queued_);
      lock.unlock();
      bool ok = write_all(batch);
      lock.lock();
      if (!ok) broken_ = true;  // the reader went away; there is no one left to tell
    }
    queued_.clear();
    writing_ = false;
  }

 private:
  bool write_all(const std::string& bytes) const {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return true;
  }

  int fd_;
  std::mutex mutex_;
  std::string queued_;
  bool writing_ = false;
  bool broken_ = false;
};

}  // namespace detail

// Serves one client over a pair of file descriptors until end of input. Returns 0 on a clean end.
inline int serve_stream(server& srv, int in_fd, int out_fd, stdio_options options = {}) {
  auto out = std::make_shared<detail::fd_writer>(out_fd);
  detail::thread_pool pool(options.workers);
  auto s = std::make_shared<session>(out, [&pool](std::function<void()> job) { pool.post(std::move(job)); });

  std::string buffer;
  bool skipping = false;  // inside a line that was too long: drop bytes until its newline
  char chunk[65536];
  auto handle_line = [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) return;
    srv.handle_text(s, line);
  };
  auto refuse_long_line = [&] {
    out->send(jsonrpc::error(nullptr, error_code::invalid_request,
                             "Invalid request: message longer than the limit of " +
                                 std::to_string(options.max_message_bytes) + " bytes; it was skipped"));
  };
  for (;;) {
    ssize_t n = ::read(in_fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::string_view data(chunk, static_cast<std::size_t>(n));
    while (!data.empty()) {
      auto nl = data.find('\n');
      if (skipping) {
        if (nl == std::string_view::npos) break;
        skipping = false;
        data.remove_prefix(nl + 1);
        continue;
      }
      if (nl == std::string_view::npos) {
        if (buffer.size() + data.size() > options.max_message_bytes) {
          buffer.clear();
          buffer.shrink_to_fit();
          skipping = true;
          refuse_long_line();
        } else {
          buffer.append(data);
        }
        break;
      }
      if (buffer.size() + nl > options.max_message_bytes) {
        buffer.clear();
        refuse_long_line();
      } else if (buffer.empty()) {
        handle_line(data.substr(0, nl));
      } else {
        buffer.append(data.substr(0, nl));
        handle_line(buffer);
        buffer.clear();
      }
      data.remove_prefix(nl + 1);
    }
  }
  if (!skipping && !buffer.empty()) handle_line(buffer);  // a last message without its newline

  const auto deadline = std::chrono::steady_clock::now() + options.shutdown_grace;
  while (s->requests_in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  s->close();
  pool.join();
  return 0;
}

// Serves one client on stdin/stdout. Returns the process exit code.
inline int serve_stdio(server& srv, stdio_options options = {}) {
  std::signal(SIGPIPE, SIG_IGN);  // a client that closes our stdout must not kill us mid-write
  return serve_stream(srv, STDIN_FILENO, STDOUT_FILENO, options);
}

}  // namespace v0
}  // namespace mcp
