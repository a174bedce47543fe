// Stopping a stdio server from outside: a signal (serve_stdio's SIGINT and SIGTERM), or the
// program's own call to stop_stdio(). A stop is one process-wide counter; each serving stream
// notes it when it starts and stops once it has moved. What wakes a reader blocked on its input
// is a pipe of its own (POSIX): the reader waits in poll() on its input and that pipe, and a stop
// writes one byte to the pipe of every stream serving. Counters, fds and write() are all a signal
// handler may use. The table is constant-initialized, so a handler never meets it half made.
// On Windows nothing wakes a blocked read of a pipe: a stop is seen once the read returns, or
// while the watchdog reads in the serving thread's place (it peeks at the pipe between ticks).
// Threads: request_stop() from any thread or a signal handler; a stop_watch belongs to the
// stream that made it (wait() from whichever thread holds the right to read).
#pragma once

#include <atomic>
#include <cerrno>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <io.h>
#include <stdlib.h>
#include <windows.h>
#else
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <unistd.h>
#endif

namespace mcp {
inline namespace v0 {
namespace detail {

struct stdio_stop_table {
  static constexpr int size = 32;  // streams that can be woken at once; more see a stop at their next input
  std::atomic<int> wake[size];     // the write end + 1 of each serving stream's pipe; 0: free
  std::atomic<unsigned> requests;  // stops so far
  std::atomic<int> waking;         // request_stop() calls writing to the pipes now
  std::atomic<int> signals;        // stop signals since serve_stdio began
};
// Zero-initialized storage of static duration, no constructor run: ready before main.
inline stdio_stop_table stdio_stops;

inline void request_stop() noexcept {
  stdio_stops.requests.fetch_add(1);
#ifndef _WIN32
  stdio_stops.waking.fetch_add(1);
  for (auto& slot : stdio_stops.wake) {
    const int fd = slot.load() - 1;
    if (fd < 0) continue;
    const char byte = 1;
    const ssize_t ignored = ::write(fd, &byte, 1);  // non-blocking: a full pipe is woken already
    (void)ignored;
  }
  stdio_stops.waking.fetch_sub(1);
#endif
}

// A serving stream's view of stops: whether one came since it began, and a wait for input that a
// stop ends.
class stop_watch {
 public:
  enum class waited { input, stop, timeout };

  stop_watch() {
#ifndef _WIN32
    int fds[2];
    if (::pipe(fds) == 0) {
      for (int fd : fds) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        ::fcntl(fd, F_SETFD, FD_CLOEXEC);
      }
      for (auto& slot : stdio_stops.wake) {
        int free = 0;
        if (slot.compare_exchange_strong(free, fds[1] + 1)) {
          slot_ = &slot;
          break;
        }
      }
      if (slot_) {
        read_end_ = fds[0];
        write_end_ = fds[1];
      } else {
        ::close(fds[0]);
        ::close(fds[1]);
      }
    }
#endif
    // After the pipe is in the table: a stop counted after this is sure to write to it.
    start_ = stdio_stops.requests.load();
  }
  ~stop_watch() {
#ifndef _WIN32
    if (!slot_) return;
    slot_->store(0);
    // A request_stop() that saw the pipe may still write to it: its fd must not be reused first.
    while (stdio_stops.waking.load() != 0) std::this_thread::yield();
    ::close(read_end_);
    ::close(write_end_);
#endif
  }
  stop_watch(const stop_watch&) = delete;
  stop_watch& operator=(const stop_watch&) = delete;

  bool requested() const noexcept { return stdio_stops.requests.load(std::memory_order_relaxed) != start_; }

  // Waits until `fd` has input (or its end, or an error: read() says which), a stop comes, or
  // `timeout_ms` passes (negative: no limit).
  waited wait(int fd, int timeout_ms) const {
    for (;;) {
      if (requested()) return waited::stop;
#ifdef _WIN32
      if (timeout_ms < 0) return waited::input;  // a blocking read; the stop is seen when it returns
      DWORD available = 0;
      const HANDLE h = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
      if (!::PeekNamedPipe(h, nullptr, 0, nullptr, &available, nullptr) || available > 0) return waited::input;
      ::Sleep(static_cast<DWORD>(timeout_ms));
      return waited::timeout;
#else
      pollfd p[2] = {{fd, POLLIN, 0}, {read_end_, POLLIN, 0}};
      const int n = ::poll(p, read_end_ >= 0 ? 2 : 1, timeout_ms);
      if (n < 0) {
        if (errno == EINTR) continue;
        return waited::input;
      }
      if (n == 0) return waited::timeout;
      if (p[0].revents != 0) return requested() ? waited::stop : waited::input;
      // Only the pipe: a byte of a stop counted before this stream began. Emptied; wait on.
      char bytes[64];
      while (::read(read_end_, bytes, sizeof bytes) > 0) {
      }
#endif
    }
  }

 private:
  unsigned start_ = 0;
#ifndef _WIN32
  std::atomic<int>* slot_ = nullptr;
  int read_end_ = -1;
  int write_end_ = -1;
#endif
};

#ifdef _WIN32
inline BOOL WINAPI on_stop_event(DWORD type) {
  if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT) return FALSE;
  if (stdio_stops.signals.fetch_add(1) > 0) ::_exit(130);
  request_stop();
  return TRUE;
}
#else
inline void on_stop_signal(int sig) {
  const int saved = errno;
  if (stdio_stops.signals.fetch_add(1) > 0) ::_exit(128 + sig);
  request_stop();
  errno = saved;
}
#endif

// serve_stdio's catching of SIGINT and SIGTERM (Windows: Ctrl+C, Ctrl+Break) while it serves.
class stop_signals {
 public:
  explicit stop_signals(bool on) {
    if (!on) return;
    stdio_stops.signals.store(0);
#ifdef _WIN32
    caught_ = ::SetConsoleCtrlHandler(&on_stop_event, TRUE) != 0;
#else
    take(SIGINT, int_);
    take(SIGTERM, term_);
#endif
  }
  ~stop_signals() {
#ifdef _WIN32
    if (caught_) ::SetConsoleCtrlHandler(&on_stop_event, FALSE);
#else
    if (int_.caught) ::sigaction(SIGINT, &int_.old, nullptr);
    if (term_.caught) ::sigaction(SIGTERM, &term_.old, nullptr);
#endif
  }
  stop_signals(const stop_signals&) = delete;
  stop_signals& operator=(const stop_signals&) = delete;

 private:
#ifdef _WIN32
  bool caught_ = false;
#else
  struct saved {
    bool caught = false;
    struct sigaction old {};
  };
  // Only a signal at its default action: one the program handles or ignores stays its own (a
  // shell starts background jobs with SIGINT ignored, for one).
  static void take(int sig, saved& s) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) return;
    if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) return;
    struct sigaction mine {};
    mine.sa_handler = &on_stop_signal;
    sigemptyset(&mine.sa_mask);
    mine.sa_flags = SA_RESTART;  // the program's other threads see no EINTR from it
    if (::sigaction(sig, &mine, nullptr) != 0) return;
    s.caught = true;
    s.old = old;
  }
  saved int_, term_;
#endif
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
