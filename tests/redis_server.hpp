// A throwaway redis-server for tests: started on 127.0.0.1 on a free port, its data and log in a
// fresh temporary folder, no persistence, killed and reaped when it goes out of scope. The tests
// stop it, freeze it (SIGSTOP) and start it again on the same port to see what a store does then.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http_client.hpp"  // test::free_port

namespace test {

// The redis-server program on PATH (or in the sbin folders Debian uses), or nullopt.
inline std::optional<std::string> find_redis_server() {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/bin:/usr/sbin:/usr/local/bin:/usr/local/sbin";
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = path.substr(start, end - start);
    if (!dir.empty()) {
      const std::string candidate = dir + "/redis-server";
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

inline bool can_connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}

class redis_server {
 public:
  explicit redis_server(std::string program) : program_(std::move(program)) {
    static int count = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("mcp-redis-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = free_port();
      if (start()) return;
    }
    throw std::runtime_error("redis-server did not start; see " + (dir_ / "redis.log").string());
  }
  ~redis_server() {
    kill();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  redis_server(const redis_server&) = delete;
  redis_server& operator=(const redis_server&) = delete;

  int port() const { return port_; }
  bool running() const { return pid_ > 0; }

  // Gone at once, as a crash or a lost host looks to a client.
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);  // a frozen one too
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // There, but answering nothing (its connections stay open).
  void freeze() { ::kill(pid_, SIGSTOP); }
  void thaw() { ::kill(pid_, SIGCONT); }
  // Again on the same port, empty.
  void restart() {
    kill();
    for (int attempt = 0; attempt < 20; ++attempt) {
      if (start()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw std::runtime_error("redis-server did not start again on port " + std::to_string(port_));
  }

 private:
  bool start() {
    const std::string log = (dir_ / "redis.log").string();
    std::vector<std::string> argv{program_, "--bind", "127.0.0.1", "--port", std::to_string(port_), "--save", "",
                                  "--appendonly", "no", "--dir", dir_.string(), "--logfile", log,
                                  "--daemonize", "no", "--protected-mode", "yes"};
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         std::chrono::steady_clock::now() < deadline;) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {  // exited: the port was taken, say
        pid_ = -1;
        return false;
      }
      if (can_connect(port_)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill();
    return false;
  }

  std::string program_;
  std::filesystem::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace test
