// soak: many HTTP clients calling tools on the notes server (--http) for a while, plus bursts of
// pipelined calls against the notes server over stdio, with the HTTP server's VmRSS sampled over
// time. Every request must succeed; the exit code is 1 otherwise. It reports figures, it does not
// time anything against a bound.
//
//   soak --notes PATH [--seconds 60] [--clients 200] [--warmup S] [--sample S]
//        [--write-every N] [--burst-every S] [--burst-calls N]
//
// Output: "soak: rss ..." lines after the warm-up, then one "soak: summary ..." line.
#include "http_client.hpp"
#include "subprocess.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using json = nlohmann::json;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

struct settings {
  std::string notes;
  int seconds = 60;
  int clients = 200;
  double warmup = -1;       // default: a quarter of the run, at most 10 s
  double sample = -1;       // default: about 12 samples, at least one a second
  int write_every = 100;    // one call in this many per client is update_note (an fsync'd write)
  double burst_every = 2;   // seconds between stdio bursts
  int burst_calls = 200;    // pipelined tools/call per burst
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "soak: " << problem
            << "\nusage: soak --notes PATH [--seconds 60] [--clients 200] [--warmup S] [--sample S]"
               " [--write-every N] [--burst-every S] [--burst-calls N]\n";
  std::exit(2);
}

settings parse(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) usage("missing value after " + arg);
    const std::string value = argv[++i];
    try {
      if (arg == "--notes") s.notes = value;
      else if (arg == "--seconds") s.seconds = std::stoi(value);
      else if (arg == "--clients") s.clients = std::stoi(value);
      else if (arg == "--warmup") s.warmup = std::stod(value);
      else if (arg == "--sample") s.sample = std::stod(value);
      else if (arg == "--write-every") s.write_every = std::stoi(value);
      else if (arg == "--burst-every") s.burst_every = std::stod(value);
      else if (arg == "--burst-calls") s.burst_calls = std::stoi(value);
      else usage("unknown argument " + arg);
    } catch (const std::logic_error&) {
      usage("bad value for " + arg + ": " + value);
    }
  }
  if (s.notes.empty()) usage("--notes is required");
  if (s.seconds < 1 || s.clients < 1 || s.write_every < 1 || s.burst_calls < 1 || s.burst_every <= 0)
    usage("values must be positive");
  if (s.warmup < 0) s.warmup = std::min(10.0, s.seconds / 4.0);
  if (s.sample <= 0) s.sample = std::max(1.0, (s.seconds - s.warmup) / 12.0);
  return s;
}

long rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

double mib(long kib) { return static_cast<double>(kib) / 1024.0; }

using test::free_port;

// Failures are counted everywhere; the first few are described on stderr.
struct tally {
  std::atomic<long long> requests{0};
  std::atomic<long long> failures{0};
  std::mutex mutex;
  int described = 0;

  void fail(const std::string& what) {
    ++failures;
    std::lock_guard lock(mutex);
    if (described++ < 10) std::cerr << "soak: failure: " << what.substr(0, 400) << "\n";
  }
};

json rpc(long long id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json init_params() {
  return {{"protocolVersion", "2025-11-25"},
          {"capabilities", json::object()},
          {"clientInfo", {{"name", "soak"}, {"version", "1"}}}};
}

const int seeded_notes = 20;
std::string note_title(int k) { return "soak note " + std::to_string(k); }

// The k-th call of a client: mostly reads, now and then a write.
json tool_call(long long k, int write_every, int client) {
  const int note = static_cast<int>((k + client) % seeded_notes);
  if (k % write_every == write_every - 1)
    return {{"name", "update_note"},
            {"arguments", {{"title", note_title(note)}, {"body", "soak body, rewritten by client " + std::to_string(client)}}}};
  if (k % 2 == 0) return {{"name", "search_notes"}, {"arguments", {{"query", "soak"}, {"limit", 5}}}};
  return {{"name", "read_note"}, {"arguments", {{"title", note_title(note)}}}};
}

// Empty when `reply` is a successful tools/call answer to `id`, else what is wrong with it.
std::string check_call_reply(const json& reply, long long id) {
  if (!reply.is_object()) return "not a JSON object";
  if (reply.value("id", json()) != id) return "wrong id: " + reply.dump();
  if (!reply.contains("result")) return "error reply: " + reply.dump();
  if (reply["result"].value("isError", false)) return "isError result: " + reply.dump();
  return {};
}

// One HTTP client: one session on one keep-alive connection, calling tools back to back.
class http_client {
 public:
  http_client(unsigned short port, int index, const settings& s, tally& t) : port_(port), index_(index), s_(s), t_(t) {}

  void run(const std::atomic<bool>& stop) {
    long long k = 0;
    while (!stop) {
      try {
        if (!conn_) connect();
        const long long id = ++next_id_;
        const auto r = post(rpc(id, "tools/call", tool_call(k++, s_.write_every, index_)));
        ++t_.requests;
        if (r.status != 200 || !r.complete) {
          t_.fail("HTTP client " + std::to_string(index_) + ": status " + std::to_string(r.status) +
                  (r.complete ? "" : " (incomplete)") + " " + r.body);
          conn_.reset();
          continue;
        }
        const json reply = json::parse(r.body, nullptr, false);
        if (auto problem = check_call_reply(reply, id); !problem.empty())
          t_.fail("HTTP client " + std::to_string(index_) + ": " + problem);
      } catch (const std::exception& e) {
        t_.fail("HTTP client " + std::to_string(index_) + ": " + e.what());
        conn_.reset();
        std::this_thread::sleep_for(100ms);
      }
    }
  }

 private:
  std::string request(const json& body) const {
    std::string out = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                      "Content-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\n";
    if (!session_.empty()) out += "Mcp-Session-Id: " + session_ + "\r\n";
    const std::string text = body.dump();
    out += "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
    return out;
  }
  test::http_response post(const json& body) {
    conn_->send(request(body));
    return conn_->read(30s);
  }
  // A fresh connection; a session too, the first time.
  void connect() {
    conn_ = std::make_unique<test::http_connection>(port_);
    if (!session_.empty()) return;
    const auto r = post(rpc(++next_id_, "initialize", init_params()));
    if (r.status != 200 || !r.header("Mcp-Session-Id")) throw std::runtime_error("initialize failed: " + r.body);
    session_ = *r.header("Mcp-Session-Id");
    if (post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status != 202)
      throw std::runtime_error("notifications/initialized was not accepted");
  }

  unsigned short port_;
  int index_;
  const settings& s_;
  tally& t_;
  std::unique_ptr<test::http_connection> conn_;
  std::string session_;
  long long next_id_ = 0;
};

// One burst: a fresh stdio server, initialize, `calls` pipelined tools/call, end of input, exit 0.
void stdio_burst(const settings& s, const std::string& store, tally& t) {
  test::subprocess notes({s.notes, "--store", store});
  notes.write_line(rpc(0, "initialize", init_params()).dump());
  notes.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  std::string batch;
  for (int i = 1; i <= s.burst_calls; ++i) {
    const json params = i % 2 ? json{{"name", "search_notes"}, {"arguments", {{"query", "stdio"}}}}
                              : json{{"name", "read_note"}, {"arguments", {{"title", "stdio note"}}}};
    batch += rpc(i, "tools/call", params).dump() + "\n";
  }
  notes.write(batch);
  std::vector<bool> seen(static_cast<std::size_t>(s.burst_calls) + 1, false);
  for (int n = 0; n <= s.burst_calls; ++n) {
    const auto line = notes.read_line(30s);
    if (!line) {
      t.fail("stdio burst: no reply after " + std::to_string(n) + " lines; stderr: " + notes.stderr_text());
      return;
    }
    const json reply = json::parse(*line, nullptr, false);
    const long long id = reply.is_object() ? reply.value("id", -1LL) : -1;
    if (id < 0 || id > s.burst_calls || seen[static_cast<std::size_t>(id)]) {
      t.fail("stdio burst: unexpected line: " + *line);
      continue;
    }
    seen[static_cast<std::size_t>(id)] = true;
    if (id == 0) {
      if (!reply.contains("result")) t.fail("stdio burst: initialize failed: " + *line);
      continue;
    }
    ++t.requests;
    if (auto problem = check_call_reply(reply, id); !problem.empty()) t.fail("stdio burst: " + problem);
  }
  notes.close_stdin();
  const auto code = notes.wait(30s);
  if (code != 0) t.fail("stdio burst: the server exited with " + (code ? std::to_string(*code) : std::string("nothing")));
}

// A scratch folder, removed at the end.
struct temp_dir {
  std::string path;
  temp_dir() {
    char tmpl[] = "/tmp/mcp-soak-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~temp_dir() {
    for (const char* name : {"/http.json", "/stdio.json"}) std::remove((path + name).c_str());
    ::rmdir(path.c_str());
  }
};

}  // namespace

int main(int argc, char** argv) {
  const settings s = parse(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  temp_dir dir;
  const unsigned short port = free_port();
  test::subprocess server({s.notes, "--store", dir.path + "/http.json", "--http", "127.0.0.1:" + std::to_string(port)});

  tally http, stdio;
  int setup_failures = 0;
  // Wait for the listener, then seed the notes every client reads.
  {
    std::unique_ptr<test::http_connection> probe;
    for (int i = 0; i < 500 && !probe; ++i) {
      try {
        probe = std::make_unique<test::http_connection>(port);
      } catch (const std::runtime_error&) {
        std::this_thread::sleep_for(20ms);
      }
    }
    if (!probe) {
      std::cerr << "soak: the notes server did not listen on 127.0.0.1:" << port << "; stderr: " << server.stderr_text() << "\n";
      return 1;
    }
  }
  {
    auto send = [&](test::http_connection& c, const std::string& session, const json& body) {
      const std::string text = body.dump();
      c.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
             "Content-Type: application/json\r\n" +
             (session.empty() ? std::string() : "Mcp-Session-Id: " + session + "\r\n") +
             "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text);
      return c.read(30s);
    };
    test::http_connection c(port);
    const auto init = send(c, "", rpc(0, "initialize", init_params()));
    const std::string session = init.header("Mcp-Session-Id").value_or("");
    send(c, session, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    for (int k = 0; k < seeded_notes; ++k) {
      const auto r = send(c, session, rpc(k + 1, "tools/call", {{"name", "create_note"},
                                                               {"arguments", {{"title", note_title(k)}, {"body", "soak seed"}}}}));
      if (r.status != 200 || !check_call_reply(json::parse(r.body, nullptr, false), k + 1).empty()) {
        std::cerr << "soak: seeding failed: " << r.status << " " << r.body << "\n";
        ++setup_failures;
      }
    }
  }
  {  // the stdio store gets one note of its own
    test::subprocess notes({s.notes, "--store", dir.path + "/stdio.json"});
    notes.write_line(rpc(0, "initialize", init_params()).dump());
    notes.write_line(rpc(1, "tools/call", {{"name", "create_note"}, {"arguments", {{"title", "stdio note"}, {"body", "stdio"}}}}).dump());
    notes.close_stdin();
    notes.read_line(30s);
    const auto created = notes.read_line(30s);
    if (!created || !check_call_reply(json::parse(*created, nullptr, false), 1).empty()) {
      std::cerr << "soak: seeding the stdio store failed\n";
      ++setup_failures;
    }
    notes.wait(30s);
  }

  std::cout << "soak: " << s.clients << " HTTP clients for " << s.seconds << " s against notes --http (pid "
            << server.pid() << "), stdio bursts of " << s.burst_calls << " calls every " << s.burst_every
            << " s; warm-up " << s.warmup << " s" << std::endl;
  std::atomic<bool> stop{false};
  const auto start = clock_type::now();
  std::vector<std::unique_ptr<http_client>> clients;
  std::vector<std::thread> threads;
  for (int i = 0; i < s.clients; ++i) {
    clients.push_back(std::make_unique<http_client>(port, i, s, http));
    threads.emplace_back([&c = *clients.back(), &stop] { c.run(stop); });
  }
  long long bursts = 0;
  std::thread burster([&] {
    auto next = clock_type::now();
    while (!stop) {
      if (clock_type::now() >= next) {
        stdio_burst(s, dir.path + "/stdio.json", stdio);
        ++bursts;
        next += std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(s.burst_every));
      }
      std::this_thread::sleep_for(20ms);
    }
  });

  // Samples VmRSS of the HTTP server; the first after the warm-up is the baseline.
  const auto seconds_since_start = [&] { return std::chrono::duration<double>(clock_type::now() - start).count(); };
  long rss_warm = -1, rss_end = -1, rss_peak = -1;
  long long requests_warm = 0;
  double next_sample = s.warmup;
  while (seconds_since_start() < s.seconds) {
    std::this_thread::sleep_for(50ms);
    server.stderr_text();  // keep its stderr pipe from filling up
    const double t = seconds_since_start();
    if (t < next_sample) continue;
    const long rss = rss_kib(server.pid());
    if (rss_warm < 0) {
      rss_warm = rss;
      requests_warm = http.requests;
    }
    rss_peak = std::max(rss_peak, rss);
    std::printf("soak: rss t=%5.1f s VmRSS %.1f MiB, HTTP requests %lld, failed %lld\n", t, mib(rss),
                static_cast<long long>(http.requests), static_cast<long long>(http.failures + stdio.failures));
    std::fflush(stdout);
    next_sample += s.sample;
  }
  stop = true;
  for (auto& th : threads) th.join();
  burster.join();
  const double elapsed = seconds_since_start();
  rss_end = rss_kib(server.pid());
  rss_peak = std::max(rss_peak, rss_end);
  if (rss_warm < 0) rss_warm = rss_end;

  server.signal(SIGTERM);
  const auto code = server.wait(30s);
  if (code != 0) {
    std::cerr << "soak: the HTTP server exited with " << (code ? std::to_string(*code) : std::string("nothing"))
              << "; stderr: " << server.stderr_text() << "\n";
    ++setup_failures;
  }

  const long long failed = http.failures + stdio.failures + setup_failures;
  const double measured = std::max(elapsed - s.warmup, 1e-9);
  std::printf("soak: summary: %.0f s, %d HTTP clients: %lld requests (%.0f/s after warm-up), %lld failed; "
              "stdio: %lld bursts, %lld requests, %lld failed; server VmRSS %.1f MiB at warm-up, %.1f MiB at end "
              "(peak %.1f MiB)%s\n",
              elapsed, s.clients, static_cast<long long>(http.requests),
              static_cast<double>(http.requests - requests_warm) / measured, static_cast<long long>(http.failures),
              bursts, static_cast<long long>(stdio.requests), static_cast<long long>(stdio.failures), mib(rss_warm),
              mib(rss_end), mib(rss_peak), failed ? " - FAILED" : "");
  return failed ? 1 : 0;
}
