// A transport of your own, with public headers only: newline-delimited JSON over a socketpair
// (stand-in for a pipe, a WebSocket library, a message bus). The server side is all a transport
// is: read whole messages and hand each to an mcp::connection; write what comes back, one message
// at a time, through an mcp::outbound. The client side, in the same program, drives it and checks
// the answer; the program exits 0 when the tool call came back right.
#include <mcp/mcp.hpp>
#include <mcp/transport/transport.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

struct add_args {
  int a = 0;
  int b = 0;
};
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

namespace {

bool write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// One line at a time from a file descriptor; false at the end.
class line_reader {
 public:
  explicit line_reader(int fd) : fd_(fd) {}
  bool next(std::string& line) {
    for (;;) {
      const auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return true;
      }
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  int fd_;
  std::string buffer_;
};

// The transport's sending half: each message whole, one line each. The core calls send() from
// several threads at once, hence the lock.
class line_outbound final : public mcp::outbound {
 public:
  explicit line_outbound(int fd) : fd_(fd) {}
  void send(const mcp::json& message) override {
    std::lock_guard lock(mutex_);
    write_all(fd_, message.dump() + "\n");
  }

 private:
  int fd_;
  std::mutex mutex_;
};

// The transport's receiving half: every line is one message for the connection.
void serve_lines(mcp::server& srv, int fd) {
  mcp::connection conn(srv, std::make_shared<line_outbound>(fd));
  line_reader in(fd);
  for (std::string line; in.next(line);) conn.receive(line);
  conn.finish(std::chrono::seconds(5));  // end of input: let requests in flight answer
}

}  // namespace

int main() {
  mcp::server srv({.name = "custom-transport", .version = "1.0.0"});
  srv.tool("add", "Add two integers.", [](const add_args& in) { return std::to_string(in.a + in.b); });

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 1;
  std::thread server([&] { serve_lines(srv, fds[1]); });

  // The client: initialize, then one tool call; every answer is one line.
  const int client = fds[0];
  write_all(client, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                    R"("capabilities":{},"clientInfo":{"name":"line-client","version":"1"}}})" "\n");
  write_all(client, R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n");
  write_all(client, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":40}}})" "\n");
  line_reader replies(client);
  int status = 1;
  for (std::string line; replies.next(line);) {
    std::cout << line << "\n";
    const mcp::json reply = mcp::json::parse(line);
    if (reply.value("id", 0) != 2) continue;
    status = reply["result"]["content"][0]["text"] == "42" ? 0 : 1;
    break;
  }
  ::shutdown(client, SHUT_WR);  // end of input for the server
  server.join();
  ::close(fds[0]);
  ::close(fds[1]);
  std::cout << (status == 0 ? "custom transport: the tool answered 42\n" : "custom transport: wrong answer\n");
  return status;
}
