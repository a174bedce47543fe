// Reading and writing a file descriptor, the same on POSIX and on Windows, where the C runtime's
// descriptors 0 and 1 are used in binary mode (text mode would turn each "\n" into "\r\n" and stop
// reading at a Ctrl-Z byte).
#pragma once

#include <cerrno>
#include <climits>
#include <cstddef>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#else
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#endif

namespace mcp {
inline namespace v0 {
namespace detail {

inline constexpr int stdin_fd = 0;
inline constexpr int stdout_fd = 1;

// Bytes read (at most `size`), 0 at end of input, negative on an error. An interrupted call is retried.
inline long long fd_read(int fd, char* buffer, std::size_t size) {
  long long n;
#ifdef _WIN32
  do n = ::_read(fd, buffer, static_cast<unsigned>(size > INT_MAX ? INT_MAX : size));
#else
  do n = ::read(fd, buffer, size);
#endif
  while (n < 0 && errno == EINTR);
  return n;
}

// Bytes written (at most `size`), negative on an error. An interrupted call is retried.
inline long long fd_write(int fd, const char* bytes, std::size_t size) {
  long long n;
#ifdef _WIN32
  do n = ::_write(fd, bytes, static_cast<unsigned>(size > INT_MAX ? INT_MAX : size));
#else
  do n = ::write(fd, bytes, size);
#endif
  while (n < 0 && errno == EINTR);
  return n;
}

// Asks for a pipe of 1 MiB (Linux's default limit for a process; the usual pipe holds 64 KiB), so
// that a reply of a few hundred kilobytes goes into the pipe at once and the next call starts
// while the client reads it, instead of waiting in write() for the client to drain 64 KiB at a
// time. Nothing changes where `fd` is not a pipe or the system says no.
inline void widen_pipe(int fd) {
#if defined(F_SETPIPE_SZ)
  ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
  (void)fd;
#endif
}

// Makes the process's stdin and stdout fit for protocol bytes: binary mode on Windows; on POSIX, a
// client that closes our stdout must not kill us with SIGPIPE mid-write (the write fails instead).
inline void prepare_stdio() {
#ifdef _WIN32
  ::_setmode(stdin_fd, _O_BINARY);
  ::_setmode(stdout_fd, _O_BINARY);
#else
  std::signal(SIGPIPE, SIG_IGN);
  widen_pipe(stdout_fd);
  widen_pipe(stdin_fd);
#endif
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
