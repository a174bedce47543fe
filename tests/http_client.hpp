// A small blocking HTTP/1.1 client over POSIX sockets, for tests of the HTTP transport: send raw
// bytes, read responses (Content-Length, chunked, or until close; 1xx interim heads noted) and
// the SSE events in their bodies, each read bounded by a timeout. Loopback only.
#pragma once

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace test {

// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0, read back, released).
inline unsigned short free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot find a free port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct header {
  std::string name, value;
};

// One request's bytes, Host 127.0.0.1; Content-Length for a body (and always for POST).
inline std::string http_request(const std::string& method, const std::string& target, const std::string& body,
                                const std::vector<header>& headers) {
  std::string out = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (const auto& h : headers) out += h.name + ": " + h.value + "\r\n";
  if (!body.empty() || method == "POST") out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  out += "\r\n" + body;
  return out;
}

struct sse_event {
  std::string id, event, data;
  std::optional<int> retry;
  bool has_id = false;
};

// The events of an SSE body (whole events only: a trailing unfinished one is left out).
inline std::vector<sse_event> parse_sse(std::string_view body) {
  std::vector<sse_event> out;
  sse_event cur;
  bool any = false;
  bool has_data = false;
  std::size_t pos = 0;
  while (pos < body.size()) {
    const auto nl = body.find('\n', pos);
    if (nl == std::string_view::npos) break;
    std::string_view line = body.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (any) out.push_back(std::move(cur));
      cur = sse_event{};
      any = false;
      has_data = false;
      continue;
    }
    if (line.front() == ':') continue;
    const auto colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    any = true;
    if (name == "id") {
      cur.id = std::string(value);
      cur.has_id = true;
    } else if (name == "event") {
      cur.event = std::string(value);
    } else if (name == "data") {
      if (has_data) cur.data += '\n';
      cur.data += std::string(value);
      has_data = true;
    } else if (name == "retry") {
      cur.retry = std::stoi(std::string(value));
    }
  }
  return out;
}

struct http_response {
  int status = 0;                // 0: no head arrived
  std::vector<int> interim;      // 1xx statuses seen before it
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;              // decoded
  bool complete = false;         // the body ended as its framing says

  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (n.size() != name.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < n.size() && same; ++i)
        same = std::tolower(static_cast<unsigned char>(n[i])) == std::tolower(static_cast<unsigned char>(name[i]));
      if (same) return v;
    }
    return std::nullopt;
  }
  std::vector<sse_event> events() const { return parse_sse(body); }
};

class http_connection {
 public:
  // `receive_buffer` (bytes, before connecting: it sets the window the server sees): a client
  // whose kernel takes little of an answer it does not read, so the server really holds the rest.
  explicit http_connection(unsigned short port, int receive_buffer = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    if (receive_buffer > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      throw std::runtime_error("connect to 127.0.0.1:" + std::to_string(port) + " failed");
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  // A Unix domain socket at `path`.
  explicit http_connection(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw std::runtime_error("socket path too long: " + path);
    path.copy(addr.sun_path, path.size());
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      throw std::runtime_error("connect to " + path + " failed");
    }
  }
  ~http_connection() {
    if (fd_ >= 0) ::close(fd_);
  }
  http_connection(const http_connection&) = delete;
  http_connection& operator=(const http_connection&) = delete;

  void send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("send failed");
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }
  // Closes with a reset instead of a FIN.
  void reset() {
    linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    ::close(fd_);
    fd_ = -1;
  }

  // Reads until the current response ends, `until` holds for what arrived so far, or the timeout.
  // A response cut short keeps its state: the next read() goes on with it.
  http_response read(std::chrono::milliseconds timeout = std::chrono::seconds(5),
                     const std::function<bool(const http_response&)>& until = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      decode();
      if (cur_.complete) {
        http_response done = std::move(cur_);
        cur_ = http_response{};
        framing_ = framing::unknown;
        return done;
      }
      if (until && cur_.status != 0 && until(cur_)) return cur_;
      if (peer_closed_) {
        if (framing_ == framing::until_close && cur_.status != 0) {
          cur_.complete = true;
          continue;
        }
        return cur_;
      }
      if (!receive(deadline)) return cur_;
    }
  }

  // Reads until `n` SSE events are in the current response's body (or it ends, or time is up).
  http_response read_events(std::size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    return read(timeout, [n](const http_response& r) { return r.events().size() >= n; });
  }

  // True when the server closes the connection within the timeout (what arrives meanwhile is kept).
  bool wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!peer_closed_)
      if (!receive(deadline)) return peer_closed_;
    return true;
  }

  const std::string& unread() const { return buf_; }

  // Takes at most `max_bytes` off the socket (a client that reads slowly), kept for read().
  // How many arrived: 0 when none did within the timeout or the server closed.
  std::size_t receive_some(std::size_t max_bytes, std::chrono::milliseconds timeout) {
    if (peer_closed_) return 0;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return 0;
    char chunk[65536];
    const ssize_t n = ::recv(fd_, chunk, std::min(max_bytes, sizeof chunk), 0);
    if (n <= 0) {
      peer_closed_ = true;
      return 0;
    }
    buf_.append(chunk, static_cast<std::size_t>(n));
    return static_cast<std::size_t>(n);
  }

 private:
  enum class framing { unknown, length, chunked, until_close, none };

  bool receive(std::chrono::steady_clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      peer_closed_ = true;
      return true;
    }
    buf_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  // Moves what buf_ holds into cur_.
  void decode() {
    for (;;) {
      if (framing_ == framing::unknown) {
        const auto end = buf_.find("\r\n\r\n");
        if (end == std::string::npos) return;
        const std::string head = buf_.substr(0, end);
        buf_.erase(0, end + 4);
        const int status = std::stoi(head.substr(9, 3));
        if (status >= 100 && status < 200) {
          cur_.interim.push_back(status);
          continue;
        }
        cur_.status = status;
        std::size_t pos = head.find("\r\n");
        while (pos != std::string::npos) {
          const auto next = head.find("\r\n", pos + 2);
          const std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
          const auto colon = line.find(':');
          std::string value = line.substr(colon + 1);
          while (!value.empty() && value.front() == ' ') value.erase(0, 1);
          cur_.headers.emplace_back(line.substr(0, colon), value);
          pos = next;
        }
        if (status == 204 || status == 304) {
          framing_ = framing::none;
        } else if (auto te = cur_.header("Transfer-Encoding"); te && te->find("chunked") != std::string::npos) {
          framing_ = framing::chunked;
          remaining_ = 0;
          in_chunk_ = false;
        } else if (auto cl = cur_.header("Content-Length")) {
          framing_ = framing::length;
          remaining_ = std::stoull(*cl);
        } else {
          framing_ = framing::until_close;
        }
      }
      switch (framing_) {
        case framing::none:
          cur_.complete = true;
          return;
        case framing::length: {
          const auto take = std::min(remaining_, buf_.size());
          cur_.body.append(buf_, 0, take);
          buf_.erase(0, take);
          remaining_ -= take;
          if (remaining_ == 0) cur_.complete = true;
          return;
        }
        case framing::until_close:
          cur_.body += buf_;
          buf_.clear();
          return;
        case framing::chunked:
          if (!decode_chunks()) return;
          cur_.complete = true;
          return;
        case framing::unknown:
          return;
      }
    }
  }

  // True once the last chunk (and its trailer) is in.
  bool decode_chunks() {
    for (;;) {
      if (in_chunk_) {
        const auto take = std::min(remaining_, buf_.size());
        cur_.body.append(buf_, 0, take);
        buf_.erase(0, take);
        remaining_ -= take;
        if (remaining_ > 0 || buf_.size() < 2) return false;
        buf_.erase(0, 2);  // CRLF after the data
        in_chunk_ = false;
      }
      const auto nl = buf_.find("\r\n");
      if (nl == std::string::npos) return false;
      const std::size_t size = std::stoul(buf_.substr(0, nl), nullptr, 16);
      if (size == 0) {  // no trailers from our server: "0" CRLF CRLF
        if (buf_.size() < nl + 4) return false;
        buf_.erase(0, nl + 4);
        return true;
      }
      buf_.erase(0, nl + 2);
      remaining_ = size;
      in_chunk_ = true;
    }
  }

  int fd_ = -1;
  std::string buf_;
  http_response cur_;
  framing framing_ = framing::unknown;
  std::size_t remaining_ = 0;
  bool in_chunk_ = false;
  bool peer_closed_ = false;
};

// A connection to a server process still starting: tries for up to 5 s; null if it never listened.
inline std::unique_ptr<http_connection> connect_when_listening(unsigned short port) {
  for (int i = 0; i < 250; ++i) {
    try {
      return std::make_unique<http_connection>(port);
    } catch (const std::runtime_error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  return nullptr;
}

}  // namespace test
