// Files that survive a kill at any moment: replace_file writes a whole file so that whoever reads
// it afterwards finds the old content or the new, never a torn mix. The file task store keeps its
// tasks this way; so can a server's own data (examples/notes keeps its notes with it).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace mcp {
inline namespace v0 {

// Replaces the file at `path` with `text`: a temporary file beside it (path + ".tmp") written and
// flushed to disk, then renamed over it (on POSIX the folder is flushed too, which makes the rename
// itself durable). Returns what went wrong, or an empty string. Not for two writers of one path
// at once: they share the temporary file.
inline std::string replace_file(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
#ifdef _WIN32
  HANDLE h = ::CreateFileA(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return "cannot write '" + tmp + "' (Windows error " + std::to_string(::GetLastError()) + ")";
  std::size_t done = 0;
  bool ok = true;
  while (ok && done < text.size()) {
    DWORD n = 0;
    const auto chunk = static_cast<DWORD>(std::min<std::size_t>(text.size() - done, 1u << 30));
    ok = ::WriteFile(h, text.data() + done, chunk, &n, nullptr) && n > 0;
    done += n;
  }
  ok = ok && ::FlushFileBuffers(h);
  const DWORD error = ok ? 0 : ::GetLastError();
  ::CloseHandle(h);
  if (!ok) return "cannot write '" + tmp + "' (Windows error " + std::to_string(error) + ")";
  if (!::MoveFileExA(tmp.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    return "cannot replace '" + path + "' (Windows error " + std::to_string(::GetLastError()) + ")";
  return {};
#else
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot write '" + tmp + "': " + std::strerror(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string err = std::strerror(errno);
      ::close(fd);
      return "cannot write '" + tmp + "': " + err;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    std::string err = std::strerror(errno);
    ::close(fd);
    return "cannot flush '" + tmp + "': " + err;
  }
  if (::close(fd) != 0) return "cannot flush '" + tmp + "': " + std::strerror(errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return "cannot replace '" + path + "': " + std::strerror(errno);
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return {};
#endif
}

// The whole content of the file at `path`, or nullopt when it cannot be opened.
inline std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(s).str();
}

}  // namespace v0
}  // namespace mcp
