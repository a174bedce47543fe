// A child process on real pipes, for tests that drive built servers: write lines to its stdin,
// read lines from its stdout with a deadline, close stdin, collect the exit code. Stopped and
// reaped when it goes out of scope, so no test leaves a server behind.
#pragma once

#include <chrono>
#include <csignal>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace test {

class subprocess {
 public:
  explicit subprocess(std::vector<std::string> argv, std::vector<std::string> env = {}) {
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(err[1], 2);
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
      for (auto& e : env) putenv(e.data());
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
    fcntl(err_, F_SETFL, O_NONBLOCK);
  }
  ~subprocess() {
    close_stdin();
    if (pid_ > 0 && !exit_code_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) close(out_);
    if (err_ >= 0) close(err_);
  }
  subprocess(const subprocess&) = delete;
  subprocess& operator=(const subprocess&) = delete;

  void write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) throw std::runtime_error("write to child failed");
      done += static_cast<std::size_t>(n);
    }
  }
  void write_line(const std::string& line) { write(line + "\n"); }
  void close_stdin() {
    if (in_ >= 0) close(in_);
    in_ = -1;
  }

  // The next line from stdout, without its newline; nullopt at end of output or after the timeout.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
      char chunk[65536];
      ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Waits for the child to exit; nullopt if it did not within the timeout. A child a signal ended
  // gets 128 + the signal, as a shell reports it; killed_by() tells it from an exit with that status.
  std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!exit_code_) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (WIFSIGNALED(status)) killed_by_ = WTERMSIG(status);
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      usleep(2000);
    }
    return exit_code_;
  }
  void signal(int sig) { kill(pid_, sig); }
  // After wait(): the signal that ended the child, 0 when it exited by itself.
  int killed_by() const { return killed_by_; }
  // Our ends of the child's stdin and stdout pipes (a pipe's size is the same seen from either end).
  int stdin_pipe() const { return in_; }
  int stdout_pipe() const { return out_; }
  pid_t pid() const { return pid_; }

  // What the child wrote to stderr so far.
  std::string stderr_text() {
    char chunk[4096];
    ssize_t n;
    while ((n = ::read(err_, chunk, sizeof chunk)) > 0) err_text_.append(chunk, static_cast<std::size_t>(n));
    return err_text_;
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string buffer_, err_text_;
  std::optional<int> exit_code_;
  int killed_by_ = 0;
};

}  // namespace test
