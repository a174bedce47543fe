// Stopping a stdio server: hosts send SIGTERM (Gemini CLI) or SIGINT (Claude Code) to the process
// they started, and close its input. Over real pipes to a child process (hold_server.cpp,
// served by serve_stdio): the first signal ends input, the call in flight answers, the process
// exits 0; a second ends it at once; calls that outlast the grace are named on stderr. In-process:
// stop_stdio() for programs that keep their own signal handlers.
#include "catch.hpp"
#include "subprocess.hpp"

#include <mcp/core/server.hpp>
#include <mcp/transport/stdio.hpp>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <future>
#include <mutex>
#include <regex>
#include <string>
#include <thread>

#include <poll.h>
#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace test_stdio_stop {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

const json init_params = {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "test"}, {"version", "1"}}}};

json call(long long id, const std::string& tool, json args = json::object()) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
}

}  // namespace

#ifdef MCP_HOLD_SERVER_BINARY

namespace {

std::string scratch_dir(const std::string& name) {
  std::string dir = std::string(MCP_TEST_BINARY_DIR) + "/scratch-" + name + "-" + std::to_string(getpid());
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return dir;
}

// Lets the hold call named `name` return.
void release(const std::string& dir, const std::string& name) { std::ofstream(dir + "/" + name) << "go\n"; }

// The hold server, initialized; it lets every hold call go when the test leaves.
struct hold_server {
  std::string dir;
  test::subprocess proc;

  hold_server(const std::string& name, std::vector<std::string> extra = {})
      : dir(scratch_dir(name)), proc(argv(dir, std::move(extra))) {
    proc.write_line(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}}.dump());
    auto line = proc.read_line();
    REQUIRE(line);
    REQUIRE(json::parse(*line)["id"] == 1);
    proc.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }
  ~hold_server() {
    for (const char* name : {"a", "b", "c"}) release(dir, name);
  }
  // Waits until stderr holds `text`; what it holds then.
  std::string wait_for_stderr(const std::string& text, std::chrono::milliseconds limit = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      std::string err = proc.stderr_text();
      if (err.find(text) != std::string::npos) return err;
      if (std::chrono::steady_clock::now() > deadline) {
        INFO("stderr so far:\n" << err);
        FAIL("'" << text << "' never came on stderr");
      }
      std::this_thread::sleep_for(5ms);
    }
  }
  void hold(long long id, const std::string& name) {
    proc.write_line(call(id, "hold", {{"name", name}}).dump());
    wait_for_stderr("hold " + name + " started");
  }

 private:
  static std::vector<std::string> argv(const std::string& dir, std::vector<std::string> extra) {
    std::vector<std::string> a = {MCP_HOLD_SERVER_BINARY, "--dir", dir};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
};

}  // namespace

TEST_CASE("stdio stop: the first SIGTERM or SIGINT ends input; the call in flight answers, then exit 0") {
  const int sig = GENERATE(SIGTERM, SIGINT);
  // The call on the reading thread (the watchdog waits for input in its place), or on the pool
  // (the reading thread itself waits for input).
  const bool on_pool = GENERATE(false, true);
  INFO("signal " << sig << (on_pool ? ", the call on the pool" : ", the call on the reading thread"));
  hold_server s(sig == SIGTERM ? "stop-term" : "stop-int",
                on_pool ? std::vector<std::string>{"--on-pool"} : std::vector<std::string>{});
  s.hold(2, "a");
  s.proc.signal(sig);
  // Seen with no input after it: the reader, blocked waiting for input, was woken.
  s.wait_for_stderr("stop requested");
  s.proc.write_line(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}.dump());  // never read
  release(s.dir, "a");
  auto line = s.proc.read_line();
  REQUIRE(line);
  json answer = json::parse(*line);
  CHECK(answer["id"] == 2);
  CHECK(answer["result"]["content"][0]["text"] == "released a");
  CHECK_FALSE(s.proc.read_line(2s));  // end of output: the ping was not answered
  CHECK(s.proc.wait() == 0);
  CHECK(s.proc.killed_by() == 0);
}

TEST_CASE("stdio stop: a second signal ends the process at once, with 128 + the signal") {
  hold_server s("stop-twice", {"--grace-ms", "600000"});
  s.hold(2, "a");
  s.proc.signal(SIGTERM);
  s.wait_for_stderr("stop requested");
  s.proc.signal(SIGINT);
  // The call still holds, and the grace is ten minutes: only the second signal can end it.
  const auto status = s.proc.wait(10s);
  REQUIRE(status);
  CHECK(*status == 128 + SIGINT);
  CHECK(s.proc.killed_by() == 0);  // an exit of its own, not the signal's default action
}

TEST_CASE("stdio stop: catch_signals = false leaves SIGTERM to the program") {
  hold_server s("stop-off", {"--no-signals"});
  s.hold(2, "a");
  s.proc.signal(SIGTERM);
  REQUIRE(s.proc.wait(10s));
  CHECK(s.proc.killed_by() == SIGTERM);
}

TEST_CASE("stdio stop: calls still running when the grace after end of input is over are named on stderr") {
  hold_server s("stop-grace", {"--grace-ms", "300"});
  s.hold(2, "b");
  s.proc.close_stdin();
  const std::string err = s.wait_for_stderr("still running");
  INFO(err);
  // "stdio: 1 request still running 0.3 s after the end of input, ...: tool 'hold' (running 0.3 s)"
  std::smatch m;
  REQUIRE(std::regex_search(
      err, m, std::regex(R"(1 request still running 0\.3 s after the end of input[^\n]*: tool 'hold' \(running ([0-9.]+) s\))")));
  CHECK(std::stod(m[1]) >= 0.25);  // it arrived before the grace began
  // Cancelled, it runs on (it never looks): serving ends when it returns, and it is not answered.
  CHECK_FALSE(s.proc.wait(200ms));
  release(s.dir, "b");
  CHECK(s.proc.wait(10s) == 0);
  CHECK_FALSE(s.proc.read_line(200ms));
}

#endif  // MCP_HOLD_SERVER_BINARY

namespace {

// A server whose test/hold method (a slow one, as tools are) waits until the test lets it go.
struct held_method {
  std::mutex mutex;
  std::condition_variable changed;
  bool started = false, released = false;

  void add_to(mcp::server& srv) {
    srv.method("test/hold", {[this](mcp::context&, const json&) {
                               std::unique_lock lock(mutex);
                               started = true;
                               changed.notify_all();
                               changed.wait(lock, [&] { return released; });
                               return json{{"held", true}};
                             },
                             true});
  }
  bool wait_started() {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, 10s, [&] { return started; });
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

// Reads one line from `fd`; nullopt at end of output or after `timeout`.
std::optional<std::string> read_line(int fd, std::string& pending, std::chrono::milliseconds timeout = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto nl = pending.find('\n'); nl != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
    char chunk[4096];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    pending.append(chunk, static_cast<std::size_t>(n));
  }
}

void write_line(int fd, const json& message) {
  const std::string line = message.dump() + "\n";
  REQUIRE(::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
}

// serve_stream on two pipes, in a thread of its own. Leaving the scope (a failed REQUIRE too) lets
// the held call go and ends the input before it waits for serve_stream to return.
struct stream {
  held_method& held;
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  std::future<int> served;
  std::string pending;

  stream(mcp::server& srv, held_method& h, mcp::stdio_options options) : held(h) {
    REQUIRE(pipe(in) == 0);
    REQUIRE(pipe(out) == 0);
    served = std::async(std::launch::async, [this, &srv, options] {
      const int rc = mcp::serve_stream(srv, in[0], out[1], options);
      close(out[1]);
      return rc;
    });
  }
  ~stream() {
    held.release();
    close_input();
    if (served.valid()) served.wait();
    close(in[0]);
    close(out[0]);
  }
  void close_input() {
    if (in[1] >= 0) close(in[1]);
    in[1] = -1;
  }
  void send(const json& message) { write_line(in[1], message); }
  std::optional<std::string> read(std::chrono::milliseconds timeout = 10s) { return read_line(out[0], pending, timeout); }
};

}  // namespace

TEST_CASE("stdio stop: stop_stdio() ends serve_stream as end of input; a later serve_stream is not stopped") {
  // What the server logs, to wait for the stop to be seen with no input after it.
  std::mutex log_mutex;
  std::condition_variable logged;
  std::string log;
  mcp::server_options logging;
  logging.log_sink = [&](std::string_view text) {
    std::lock_guard lock(log_mutex);
    log.append(text).push_back('\n');
    logged.notify_all();
  };
  mcp::server srv({"stop", "1.0"}, logging);
  held_method held;
  held.add_to(srv);
  mcp::stdio_options options;
  // The call on the reading thread (the watchdog then waits for input in its place), or on the pool.
  const bool on_pool = GENERATE(false, true);
  INFO((on_pool ? "the call on the pool" : "the call on the reading thread"));
  if (on_pool) options.inline_budget = std::chrono::microseconds(0);
  {
    stream s(srv, held, options);
    s.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
    REQUIRE(s.read());
    s.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    s.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "test/hold"}});
    REQUIRE(held.wait_started());
    mcp::stop_stdio();
    {
      // Whichever thread waits for input (the reading one, or the watchdog in its place) was woken.
      std::unique_lock lock(log_mutex);
      INFO(log);
      REQUIRE(logged.wait_for(lock, 10s, [&] { return log.find("stop requested") != std::string::npos; }));
    }
    s.send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}});  // after the stop: not read
    held.release();
    auto line = s.read();
    REQUIRE(line);
    CHECK(json::parse(*line)["id"] == 2);
    REQUIRE(s.served.wait_for(10s) == std::future_status::ready);
    CHECK(s.served.get() == 0);
    CHECK_FALSE(s.read(200ms));
  }
  // The stop was for the streams serving then.
  stream later(srv, held, options);
  later.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}});
  auto line = later.read();
  REQUIRE(line);
  CHECK(json::parse(*line)["id"] == 1);
  later.close_input();
  REQUIRE(later.served.wait_for(10s) == std::future_status::ready);
  CHECK(later.served.get() == 0);
}

}  // namespace test_stdio_stop
