// mcp_bench: the load driver of the benchmark. It only speaks JSON-RPC over pipes or HTTP/1.1, so
// it treats our server and the TypeScript one identically. Every measuring command prints one JSON
// object on stdout (tagged with --label and --impl); `report` turns the collected lines into the
// Markdown table and the gnuplot data.
//
//   mcp_bench gen-notes --count N --out PATH
//   mcp_bench stdio --tool add|search|order|order_rt|list [--n N] --mode pipelined|sequential|rate
//                   [--inflight 64] [--rate R] [--seconds S] [--warmup S] [--max-requests M] -- SERVER ARGS...
//   mcp_bench gen-payload --tool order|order_rt|list --n N --out PATH  (the arguments, for wrk_call.lua)
//   mcp_bench http-call --port P --sid SID|- --tool T [--n N]  (one checked call: the answer is right)
//   mcp_bench startup --runs N -- SERVER ARGS...
//   mcp_bench http-init --port P [--wait S]       (prints the Mcp-Session-Id of a fresh session)
//   mcp_bench sessions --port P --pid PID --count N [--connections C]
//   mcp_bench rss --pid PID --seconds S           (peak VmRSS while a load runs elsewhere)
//   mcp_bench free-port                           (a loopback port that was free a moment ago)
//   mcp_bench speed --tool T [--n N] --calls C [--transport stdio|http] -- SERVER ARGS...
//                   (one run of speed_gate.sh: C calls one at a time; HTTP's port goes where ARGS say {port})
//   mcp_bench http-floor --http 127.0.0.1:P [--seconds S]  (a server that does no work: wrk's ceiling)
//   mcp_bench report --in results.jsonl --out results.md --plot throughput.dat [--payload-plot payload.dat]
//                    [--notes TEXT]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using json = nlohmann::json;
using clock_type = std::chrono::steady_clock;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::cerr << "mcp_bench: " << what << "\n";
  std::exit(1);
}

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

// --- command line ------------------------------------------------------------------------------

struct args {
  std::map<std::string, std::string> opts;
  std::vector<std::string> command;  // after "--"

  std::string get(const std::string& name, const std::string& fallback = "") const {
    auto it = opts.find(name);
    return it == opts.end() ? fallback : it->second;
  }
  double number(const std::string& name, double fallback) const {
    auto it = opts.find(name);
    return it == opts.end() ? fallback : std::stod(it->second);
  }
  std::string need(const std::string& name) const {
    auto it = opts.find(name);
    if (it == opts.end()) fail("missing --" + name);
    return it->second;
  }
};

args parse_args(int argc, char** argv, int first) {
  args a;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--") {
      for (++i; i < argc; ++i) a.command.push_back(argv[i]);
      break;
    }
    if (s.rfind("--", 0) != 0 || i + 1 >= argc) fail("bad argument '" + s + "'");
    a.opts[s.substr(2)] = argv[++i];
  }
  return a;
}

json tagged(const args& a, json j) {
  j["label"] = a.get("label");
  j["impl"] = a.get("impl");
  return j;
}

// --- measurements --------------------------------------------------------------------------------

long rss_kb(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return NAN;
  std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p / 100.0 * v.size())) - (p > 0 ? 1 : 0));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}

// --- a server on pipes ---------------------------------------------------------------------------

class child {
 public:
  explicit child(const std::vector<std::string>& argv) {
    if (argv.empty()) fail("no server command after --");
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) fail("pipe failed");
    pid_ = fork();
    if (pid_ < 0) fail("fork failed");
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed driver must not leave servers behind
      dup2(in[0], 0);
      dup2(out[1], 1);
      std::vector<char*> v;
      for (auto& s : argv) v.push_back(const_cast<char*>(s.c_str()));
      v.push_back(nullptr);
      execvp(v[0], v.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    in_ = in[1];
    out_ = out[0];
    // Requests leave without blocking: a driver stuck in write() while the server waits for it to
    // read its replies would measure that deadlock, not the server.
    fcntl(in_, F_SETFL, fcntl(in_, F_GETFL) | O_NONBLOCK);
  }
  ~child() { stop(); }
  child(const child&) = delete;
  child& operator=(const child&) = delete;

  int pid() const { return pid_; }

  // Queues text for the server and writes what the pipe takes now; read_lines writes the rest as
  // the server reads.
  void send(std::string_view text) {
    if (sent_ > 0 && sent_ >= unsent_.size() / 2) {  // compacted now and then, not after each write
      unsent_.erase(0, sent_);
      sent_ = 0;
    }
    unsent_.append(text);
    write_some();
  }
  // Sends text and waits until it has all gone.
  void write_all(std::string_view text) {
    send(text);
    while (sent_ < unsent_.size()) {
      pollfd p{in_, POLLOUT, 0};
      poll(&p, 1, 1000);
      write_some();
    }
  }

  // Calls on_line(std::string_view) for each complete line that arrived within `timeout` (zero:
  // only what is there already); returns how many. No allocation once the buffer has grown: the
  // driver must cost far less than the servers it measures.
  template <class OnLine>
  std::size_t read_lines(clock_type::duration timeout, OnLine&& on_line) {
    pollfd p[2] = {{out_, POLLIN, 0}, {in_, POLLOUT, 0}};
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::max(timeout, clock_type::duration::zero())).count();
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    if (ppoll(p, sent_ == unsent_.size() ? 1 : 2, &ts, nullptr) <= 0) return 0;
    if (p[1].revents) write_some();
    if (!p[0].revents) return 0;
    // buffer_ only grows (zero-filled then, once): resizing it for each read cleared 64 KiB a read,
    // 1.9% of the machine at list N = 10,000 (2026-11-28).
    const std::size_t kept = filled_;
    if (buffer_.size() - kept < 65536) buffer_.resize(kept + 65536);
    ssize_t n = ::read(out_, buffer_.data() + kept, buffer_.size() - kept);
    if (n == 0) fail("the server closed its output (it exited?)");
    if (n < 0) return 0;
    filled_ = kept + static_cast<std::size_t>(n);
    const std::string_view text(buffer_.data(), filled_);
    std::size_t start = 0, count = 0;
    for (std::size_t nl; (nl = text.find('\n', start == 0 ? kept : start)) != std::string_view::npos; start = nl + 1) {
      on_line(text.substr(start, nl - start));
      ++count;
    }
    if (start > 0) {  // the partial line that is left goes to the front
      std::memmove(buffer_.data(), buffer_.data() + start, filled_ - start);
      filled_ -= start;
    }
    return count;
  }

  std::string read_line(double timeout_s) {
    auto start = clock_type::now();
    while (pending_.empty()) {
      if (seconds_since(start) > timeout_s) fail("no reply from the server within " + std::to_string(timeout_s) + " s");
      read_lines(std::chrono::milliseconds(100), [&](std::string_view l) { pending_.emplace_back(l); });
    }
    std::string l = std::move(pending_.front());
    pending_.erase(pending_.begin());
    return l;
  }

  // Closes stdin (the polite end of a stdio server) and waits up to `timeout_s` for the server to
  // exit: its exit status, or -1 when it had to be killed.
  int finish(double timeout_s) {
    if (pid_ <= 0) return -1;
    if (in_ >= 0) close(in_);
    in_ = -1;
    int status = 0;
    for (auto start = clock_type::now(); seconds_since(start) < timeout_s;) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        stop();
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop();
    return -1;
  }

  // Closes stdin (the polite end of a stdio server), then kills what is still there after 3 s.
  void stop() {
    if (pid_ <= 0) return;
    if (in_ >= 0) close(in_);
    in_ = -1;
    for (int i = 0; i < 300; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    if (out_ >= 0) close(out_);
    out_ = -1;
  }

 private:
  void write_some() {
    while (sent_ < unsent_.size()) {
      ssize_t n = ::write(in_, unsent_.data() + sent_, unsent_.size() - sent_);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) fail("the server stopped reading (it exited?)");
      sent_ += static_cast<std::size_t>(n);
    }
    unsent_.clear();
    sent_ = 0;
  }

  int pid_ = -1, in_ = -1, out_ = -1;
  // Requests the pipe did not take yet: those from sent_ on. Erasing what each write() took moved
  // all the rest, megabytes a write for order's largest requests, and made the driver the limit.
  std::string unsent_;
  std::size_t sent_ = 0;
  std::string buffer_;     // bytes read: [0, filled_) holds what no line has taken yet
  std::size_t filled_ = 0;
  std::vector<std::string> pending_;
};

const char* protocol_version = "2025-06-18";

std::string initialize_request(int id) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "initialize"},
              {"params",
               {{"protocolVersion", protocol_version},
                {"capabilities", json::object()},
                {"clientInfo", {{"name", "mcp_bench"}, {"version", "1.0"}}}}}}
      .dump();
}
const char* initialized_notification = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

// The queries of the search benchmark: a mix of common and rarer words of the generated notes.
const char* search_queries[] = {"harbor", "falcon river", "lantern", "copper meadow"};

// The payload-size tools (issue #24): order and order_rt take an order of N items, list(n) returns
// n records. Their arguments are the same bytes on every call, built once.
struct call_spec {
  std::string tool;       // add, search, order, order_rt or list
  long n = 0;             // order: items; list: records
  std::string arguments;  // order, order_rt, list: the JSON text of the arguments
};

// Item i of a generated order: a valid SKU, a quantity in 1..1000, one of the three priorities and
// up to three tags. Both servers must accept every item; the summary is known in advance.
const char* item_priorities[] = {"low", "normal", "high"};
const char* item_tags[] = {"fragile", "gift", "express"};
long item_qty(long i) { return 1 + (i * 37) % 1000; }

std::string payload_arguments(const std::string& tool, long n) {
  if (tool == "list") return "{\"n\":" + std::to_string(n) + "}";
  std::string out = R"({"customer":"ACME Corp","items":[)";
  out.reserve(static_cast<std::size_t>(n) * 80 + 64);
  char item[160];
  for (long i = 0; i < n; ++i) {
    int len = std::snprintf(item, sizeof item, R"(%s{"sku":"%c%c%c-%04ld","qty":%ld,"priority":"%s","tags":[)",
                            i ? "," : "", static_cast<char>('A' + i % 26), static_cast<char>('A' + i / 26 % 26),
                            static_cast<char>('A' + i / 676 % 26), i % 10000, item_qty(i), item_priorities[i % 3]);
    out.append(item, static_cast<std::size_t>(len));
    for (long t = 0; t < i % 4; ++t) {
      if (t) out += ',';
      out += '"';
      out += item_tags[t];
      out += '"';
    }
    out += "]}";
  }
  out += "]}";
  return out;
}

call_spec make_spec(const std::string& tool, long n) {
  call_spec spec{tool, n, {}};
  if (tool == "order" || tool == "order_rt" || tool == "list") {
    if (n < 0) fail("--n must be 0 or more");
    spec.arguments = payload_arguments(tool, n);
  } else if (tool != "add" && tool != "search") {
    fail("--tool add|search|order|order_rt|list");
  }
  return spec;
}

// Appends one tools/call request line (with its newline).
void append_call_request(std::string& out, const call_spec& spec, long id) {
  char digits[24];
  const std::string_view number(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, id).ptr - digits));
  out += R"({"jsonrpc":"2.0","id":)";
  out += number;
  if (spec.tool == "add") {
    out += R"(,"method":"tools/call","params":{"name":"add","arguments":{"a":)";
    out += number;
    out += ",\"b\":0.5}}}\n";
  } else if (spec.tool == "search") {
    out += R"(,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":")";
    out += search_queries[id % 4];
    out += R"(","limit":5}}})";
    out += '\n';
  } else {
    out += R"(,"method":"tools/call","params":{"name":")";
    out += spec.tool;
    out += R"(","arguments":)";
    out += spec.arguments;
    out += "}}\n";
  }
}

std::string call_request(const call_spec& spec, long id) {
  std::string line;
  append_call_request(line, spec, id);
  line.pop_back();
  return line;
}

// The id of a reply, found without parsing the whole line (the driver must stay cheap). Results
// hold no "id" keys of their own, and escaped ones inside text blocks are skipped. (list's records
// do have ids: the rate mode, the one user of this, never runs list.)
long reply_id(std::string_view line) {
  for (std::size_t at = line.find("\"id\":"); at != std::string_view::npos; at = line.find("\"id\":", at + 1)) {
    if (at != 0 && line[at - 1] == '\\') continue;
    long id = -1;
    std::from_chars(line.data() + at + 5, line.data() + line.size(), id);
    return id;
  }
  return -1;
}

// Whether a reply is a JSON-RPC error or an isError result. Searched with glibc's memmem: a reply
// holds a quote every few bytes, and string_view::find, which looks for the first character and
// then compares, stopped at each of them; on list's replies that made the driver slower than our
// server (memchr and this function took most of the driver's core, 2026-11-27). One pass, not one
// per pattern: both patterns hold `rror":`, so every hit of either is a hit of that, checked where
// it stands (two passes took 7.6% of the machine at list N = 10,000 over stdio, 2026-11-28).
bool reply_failed(std::string_view line) {
  static constexpr std::string_view common = "rror\":";
  const auto at = [&](std::size_t pos, std::string_view what) { return line.substr(pos, what.size()) == what; };
  const char* const begin = line.data();
  for (const char* hit = begin; (hit = static_cast<const char*>(memmem(hit, line.size() - (hit - begin), common.data(),
                                                                         common.size()))) != nullptr;
       ++hit) {
    const std::size_t pos = static_cast<std::size_t>(hit - begin);
    if (pos >= 4 && at(pos - 4, "\"isE") && at(pos + common.size(), "true")) return true;  // "isError":true
    if (pos >= 2 && at(pos - 2, "\"e") && at(pos + common.size(), "{")) return true;       // "error":{
  }
  return false;
}

// Checks one reply in full: the answer must be right, not only fast.
json check_reply(const call_spec& spec, long id, const std::string& line) {
  const std::string& tool = spec.tool;
  json r = json::parse(line);
  if (!r.contains("result")) fail("error reply: " + line.substr(0, 400));
  const json& sc = r["result"].value("structuredContent", json());
  if (tool == "add") {
    if (!sc.contains("sum") || std::fabs(sc["sum"].get<double>() - (static_cast<double>(id) + 0.5)) > 1e-9)
      fail("wrong add result: " + line.substr(0, 400));
    return {{"check", "sum ok"}};
  }
  if (tool == "order" || tool == "order_rt") {
    long total = 0, high = 0;
    for (long i = 0; i < spec.n; ++i) {
      total += item_qty(i);
      high += i % 3 == 2;
    }
    if (!sc.is_object() || sc.value("customer", "") != "ACME Corp" || sc.value("item_count", -1L) != spec.n ||
        sc.value("total_quantity", -1L) != total || sc.value("high_priority", -1L) != high)
      fail("wrong " + tool + " result: " + line.substr(0, 400));
    return {{"check", "summary ok"}, {"request_bytes", call_request(spec, id).size()}, {"reply_bytes", line.size()}};
  }
  if (tool == "list") {
    const json& records = sc.is_object() ? sc.value("records", json()) : json();
    if (!records.is_array() || static_cast<long>(records.size()) != spec.n ||
        (spec.n > 0 && (records.back().value("id", -1L) != spec.n - 1 ||
                        records.back().value("email", "") != "user" + std::to_string(spec.n - 1) + "@example.com")))
      fail("wrong list result: " + line.substr(0, 400));
    return {{"check", "records ok"}, {"reply_bytes", line.size()}};
  }
  if (!sc.contains("total_matches") || !sc["notes"].is_array()) fail("bad search result: " + line.substr(0, 400));
  return {{"total_matches", sc["total_matches"]}, {"page", sc["notes"].size()}};
}

void initialize(child& c) {
  c.write_all(initialize_request(0) + "\n");
  std::string reply = c.read_line(30);
  if (reply.find("\"result\"") == std::string::npos) fail("initialize failed: " + reply.substr(0, 400));
  c.write_all(std::string(initialized_notification) + "\n");
}

int cmd_stdio(const args& a) {
  const call_spec tool = make_spec(a.get("tool", "add"), static_cast<long>(a.number("n", 0)));
  const std::string mode = a.get("mode", "pipelined");
  const int inflight = static_cast<int>(a.number("inflight", 64));
  const double seconds = a.number("seconds", 3);
  const double warmup = a.number("warmup", 1);
  const long max_requests = static_cast<long>(a.number("max-requests", 5e6));

  child c(a.command);
  // The rate mode sleeps in poll until the next request is due, often for a few microseconds; with
  // the default 50 us of timer slack it would send late. Set after the fork: the server keeps the default.
  prctl(PR_SET_TIMERSLACK, 1UL);
  initialize(c);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const long idle_kb = rss_kb(c.pid());

  long next_id = 1;
  json check = check_reply(tool, next_id, (c.write_all(call_request(tool, next_id) + "\n"), c.read_line(30)));
  ++next_id;

  std::vector<double> latencies_us;  // sequential and rate modes
  // Rate mode only: how late the driver sent each request, and send to reply.
  std::vector<double> send_lags_us, round_trips_us;
  long peak_kb = idle_kb, errors = 0, done = 0;
  auto sample_rss = [&, last = clock_type::now()]() mutable {
    if (seconds_since(last) < 0.05) return;
    last = clock_type::now();
    peak_kb = std::max(peak_kb, rss_kb(c.pid()));
  };

  // Pipelined: `inflight` requests outstanding at all times; a warm-up phase first (JIT, caches).
  std::string batch;
  auto pipelined = [&](double duration, bool measure) {
    batch.clear();
    for (int i = 0; i < inflight; ++i) append_call_request(batch, tool, next_id++);
    c.write_all(batch);
    long outstanding = inflight, count = 0;
    auto start = clock_type::now();
    bool sending = true;
    while (outstanding > 0) {
      if (sending && (seconds_since(start) >= duration || count >= max_requests)) sending = false;
      batch.clear();
      const std::size_t got = c.read_lines(std::chrono::seconds(1), [&](std::string_view l) {
        --outstanding;
        ++count;
        if (reply_failed(l)) ++errors;
        if (sending) {
          append_call_request(batch, tool, next_id++);
          ++outstanding;
        }
      });
      if (!batch.empty()) c.send(batch);
      if (measure) sample_rss();
      if (got == 0 && seconds_since(start) > duration + 30) fail("replies stopped coming");
    }
    return std::pair<long, double>{count, seconds_since(start)};
  };

  auto sequential = [&](double duration, bool measure) {
    auto start = clock_type::now();
    long count = 0;
    while (seconds_since(start) < duration && count < max_requests) {
      auto t0 = clock_type::now();
      batch.clear();
      append_call_request(batch, tool, next_id++);
      c.write_all(batch);
      std::string l = c.read_line(30);
      double us = seconds_since(t0) * 1e6;
      if (reply_failed(l)) ++errors;
      ++count;
      if (measure) {
        latencies_us.push_back(us);
        sample_rss();
      }
    }
    return std::pair<long, double>{count, seconds_since(start)};
  };

  // Open loop at a fixed rate: latency counts from when a request was due, so a stalled server
  // cannot hide its queue (no coordinated omission). Ids are consecutive, so each request's times
  // live in a ring indexed by id.
  auto at_rate = [&](double duration, double rate, bool measure) {
    struct timing {
      clock_type::time_point due, sent;
      bool open = false;
    };
    constexpr long ring_size = 1 << 17;  // more than may be outstanding at once
    std::vector<timing> ring(ring_size);
    if (measure) {  // growing these while measuring would stall the driver for milliseconds
      const auto expected = static_cast<std::size_t>(rate * duration * 1.1) + 1000;
      for (auto* v : {&latencies_us, &send_lags_us, &round_trips_us}) v->reserve(expected);
    }
    long outstanding = 0;
    auto start = clock_type::now();
    const auto interval = std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(1.0 / rate));
    auto next_due = start;
    long count = 0;
    while (true) {
      const bool sending = seconds_since(start) < duration;
      if (!sending && outstanding == 0) break;
      batch.clear();
      auto now = clock_type::now();
      for (; sending && next_due <= now && !ring[next_id % ring_size].open; next_due += interval) {
        ring[next_id % ring_size] = {next_due, now, true};
        ++outstanding;
        append_call_request(batch, tool, next_id++);
      }
      if (!batch.empty()) c.send(batch);
      // Sleep in poll until the next request is due, or a reply comes. Never spin, and never wake
      // for less than 20 us: the server needs the cores, and what fell due meanwhile leaves in one
      // write (its latency still counts from when it was due).
      constexpr auto shortest = std::chrono::microseconds(20);
      auto wait = sending ? std::clamp<clock_type::duration>(next_due - clock_type::now(), shortest, std::chrono::milliseconds(5))
                          : clock_type::duration(std::chrono::milliseconds(100));
      clock_type::time_point arrived{};
      c.read_lines(wait, [&](std::string_view l) {
        if (arrived == clock_type::time_point{}) arrived = clock_type::now();
        const long id = reply_id(l);
        if (id < 0 || id >= next_id || !ring[id % ring_size].open) return;
        timing& t = ring[id % ring_size];
        t.open = false;
        --outstanding;
        if (reply_failed(l)) ++errors;
        if (measure) {
          latencies_us.push_back(std::chrono::duration<double, std::micro>(arrived - t.due).count());
          send_lags_us.push_back(std::chrono::duration<double, std::micro>(t.sent - t.due).count());
          round_trips_us.push_back(std::chrono::duration<double, std::micro>(arrived - t.sent).count());
        }
        ++count;
      });
      if (measure) sample_rss();
      if (seconds_since(start) > duration + 30) fail("replies stopped coming");
    }
    return std::pair<long, double>{count, seconds_since(start)};
  };

  std::pair<long, double> result;
  if (mode == "pipelined") {
    pipelined(warmup, false);
    result = pipelined(seconds, true);
  } else if (mode == "sequential") {
    pipelined(warmup, false);
    result = sequential(seconds, true);
  } else if (mode == "rate") {
    const double rate = a.number("rate", 1000);
    pipelined(warmup, false);
    result = at_rate(seconds, rate, true);
  } else {
    fail("--mode pipelined|sequential|rate");
  }
  done = result.first;
  json out = tagged(a, {{"tool", tool.tool},
                        {"mode", mode},
                        {"requests", done},
                        {"seconds", result.second},
                        {"rps", done / result.second},
                        {"errors", errors},
                        {"rss_idle_kb", idle_kb},
                        {"rss_peak_kb", peak_kb}});
  out.update(check);
  if (!tool.arguments.empty()) out["n"] = tool.n;
  if (mode == "pipelined") out["inflight"] = inflight;
  if (mode == "rate") out["target_rps"] = a.number("rate", 1000);
  if (!latencies_us.empty()) {
    out["p50_us"] = percentile(latencies_us, 50);
    out["p99_us"] = percentile(latencies_us, 99);
    out["max_us"] = *std::max_element(latencies_us.begin(), latencies_us.end());
  }
  if (!send_lags_us.empty()) {
    out["send_lag_p99_us"] = percentile(send_lags_us, 99);
    out["round_trip_p50_us"] = percentile(round_trips_us, 50);
    out["round_trip_p99_us"] = percentile(round_trips_us, 99);
  }
  c.stop();
  std::cout << out.dump() << std::endl;
  return errors == 0 ? 0 : 1;
}

// Exec to the first answered initialize, `runs` times.
int cmd_startup(const args& a) {
  const int runs = static_cast<int>(a.number("runs", 20));
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto t0 = clock_type::now();
    child c(a.command);
    c.write_all(initialize_request(0) + "\n");
    std::string reply = c.read_line(30);
    ms.push_back(seconds_since(t0) * 1e3);
    if (reply.find("\"result\"") == std::string::npos) fail("initialize failed: " + reply.substr(0, 400));
    c.stop();
  }
  double mean = 0;
  for (double v : ms) mean += v / runs;
  double mn = *std::min_element(ms.begin(), ms.end());
  std::cout << tagged(a, {{"runs", runs}, {"mean_ms", mean}, {"min_ms", mn}, {"p50_ms", percentile(ms, 50)}}).dump()
            << std::endl;
  return 0;
}

// --- a small HTTP/1.1 client ---------------------------------------------------------------------

struct http_response {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

class http_client {
 public:
  // Connects, trying for `wait_s` while the server starts, and for no longer than `alive` says
  // it runs (then connected() is false).
  http_client(int port, double wait_s, const std::function<bool()>& alive = {}) : port_(port) {
    auto start = clock_type::now();
    while ((fd_ = try_connect()) < 0) {
      if (alive && !alive()) return;
      if (seconds_since(start) > wait_s) fail("cannot connect to 127.0.0.1:" + std::to_string(port));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  bool connected() const { return fd_ >= 0; }
  ~http_client() {
    if (fd_ >= 0) close(fd_);
  }
  http_client(const http_client&) = delete;

  http_response post(const std::string& body, const std::vector<std::pair<std::string, std::string>>& headers) {
    std::string req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
                      "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                      "Content-Length: " +
                      std::to_string(body.size()) + "\r\n";
    for (auto& [k, v] : headers) req += k + ": " + v + "\r\n";
    req += "\r\n" + body;
    for (std::size_t done = 0; done < req.size();) {
      ssize_t n = ::send(fd_, req.data() + done, req.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("HTTP send failed");
      done += static_cast<std::size_t>(n);
    }
    return read_response();
  }

 private:
  int try_connect() {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      close(fd);
      return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    timeval tv{30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
  }

  void fill() {
    char chunk[65536];
    ssize_t n;
    do n = ::recv(fd_, chunk, sizeof chunk, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) fail("HTTP connection closed or timed out");
    buf_.append(chunk, static_cast<std::size_t>(n));
  }
  std::string take_line() {
    std::size_t at;
    while ((at = buf_.find("\r\n")) == std::string::npos) fill();
    std::string line = buf_.substr(0, at);
    buf_.erase(0, at + 2);
    return line;
  }
  std::string take(std::size_t n) {
    while (buf_.size() < n) fill();
    std::string out = buf_.substr(0, n);
    buf_.erase(0, n);
    return out;
  }

  http_response read_response() {
    http_response r;
    std::string status = take_line();
    if (status.size() < 12) fail("bad HTTP status line: " + status);
    r.status = std::stoi(status.substr(9, 3));
    for (std::string line; !(line = take_line()).empty();) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon);
      for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      std::size_t v = line.find_first_not_of(' ', colon + 1);
      r.headers[name] = v == std::string::npos ? "" : line.substr(v);
    }
    if (r.headers.count("content-length")) {
      r.body = take(std::stoul(r.headers["content-length"]));
    } else if (r.headers["transfer-encoding"].find("chunked") != std::string::npos) {
      for (;;) {
        std::size_t size = std::stoul(take_line(), nullptr, 16);
        if (size == 0) {
          while (!take_line().empty()) {
          }
          break;
        }
        r.body += take(size);
        take_line();
      }
    } else if (r.status != 202 && r.status != 204) {
      fail("HTTP reply without a length (status " + std::to_string(r.status) + ")");
    }
    return r;
  }

  int port_;
  int fd_ = -1;
  std::string buf_;
};

// One initialize + notifications/initialized; returns the session id ("" in stateless mode).
std::string open_session(http_client& http) {
  http_response r = http.post(initialize_request(1), {});
  if (r.status != 200 || r.body.find("\"result\"") == std::string::npos)
    fail("initialize over HTTP failed: " + std::to_string(r.status) + " " + r.body.substr(0, 300));
  std::string sid = r.headers.count("mcp-session-id") ? r.headers["mcp-session-id"] : "";
  std::vector<std::pair<std::string, std::string>> h{{"MCP-Protocol-Version", protocol_version}};
  if (!sid.empty()) h.emplace_back("Mcp-Session-Id", sid);
  http_response n = http.post(initialized_notification, h);
  if (n.status != 202) fail("notifications/initialized over HTTP got " + std::to_string(n.status));
  return sid;
}

int cmd_http_init(const args& a) {
  http_client http(static_cast<int>(a.number("port", 0)), a.number("wait", 20));
  std::cout << open_session(http) << std::endl;
  return 0;
}

// The arguments of a payload tool, for wrk (wrk_call.lua reads them once).
int cmd_gen_payload(const args& a) {
  const call_spec spec = make_spec(a.need("tool"), static_cast<long>(a.number("n", 0)));
  if (spec.arguments.empty()) fail("gen-payload: --tool order|order_rt|list");
  std::ofstream(a.need("out"), std::ios::binary) << spec.arguments;
  return 0;
}

// The JSON-RPC reply in an answer to a POST: the body itself, or its one SSE event's data.
std::string reply_of(const http_response& r) {
  std::string body = r.body;
  if (!body.empty() && body[0] != '{') {
    const std::size_t data = body.find("data: ");
    if (data == std::string::npos) fail("HTTP reply is neither JSON nor SSE: " + body.substr(0, 300));
    body = body.substr(data + 6, body.find('\n', data) - data - 6);
  }
  if (r.status != 200) fail("HTTP call got " + std::to_string(r.status) + ": " + body.substr(0, 300));
  return body;
}

// One tools/call over HTTP whose answer is checked in full (wrk only counts statuses). The reply
// may be JSON or one SSE event.
int cmd_http_call(const args& a) {
  const call_spec spec = make_spec(a.need("tool"), static_cast<long>(a.number("n", 0)));
  http_client http(static_cast<int>(a.number("port", 0)), a.number("wait", 5));
  std::vector<std::pair<std::string, std::string>> h{{"MCP-Protocol-Version", protocol_version}};
  const std::string sid = a.get("sid", "-");
  if (!sid.empty() && sid != "-") h.emplace_back("Mcp-Session-Id", sid);
  http_response r = http.post(call_request(spec, 7), h);
  std::cout << tagged(a, check_reply(spec, 7, reply_of(r))).dump() << std::endl;
  return 0;
}

int free_port();

// One run of the speed gate (speed_gate.sh), which puts callgrind in SERVER's command. The server
// gets an initialize, then `calls` tools/calls one at a time, each answer awaited and checked in
// full before the next leaves: it reads each request in one piece and does the same work in the
// same order on every run, whatever the scheduling. Then it is ended politely and must exit 0
// (callgrind writes its counts at exit): stdio by the end of its input, HTTP by SIGTERM while the
// one keep-alive connection is still open, so the same side closes it on every run. For HTTP, the
// driver picks a free loopback port and puts it where the command says {port}; if the server exits
// before it listens (the port was taken meanwhile), it tries another, three times in all.
int cmd_speed(const args& a) {
  const call_spec spec = make_spec(a.need("tool"), static_cast<long>(a.number("n", 0)));
  const long calls = static_cast<long>(a.number("calls", 100));
  const double timeout = a.number("timeout", 300);  // for one answer, or for the exit; valgrind is slow
  const std::string transport = a.get("transport", "stdio");
  if (a.command.empty()) fail("speed: no server command after --");
  int status = -1;
  if (transport == "stdio") {
    child c(a.command);
    c.write_all(initialize_request(0) + "\n");
    if (c.read_line(timeout).find("\"result\"") == std::string::npos) fail("initialize failed");
    c.write_all(std::string(initialized_notification) + "\n");
    for (long id = 1; id <= calls; ++id) {
      c.write_all(call_request(spec, id) + "\n");
      check_reply(spec, id, c.read_line(timeout));
    }
    status = c.finish(timeout);
  } else if (transport == "http") {
    for (int attempt = 0;; ++attempt) {
      const std::string port = std::to_string(free_port());
      std::vector<std::string> argv;
      for (std::string s : a.command) {
        for (std::size_t at; (at = s.find("{port}")) != std::string::npos;) s.replace(at, 6, port);
        argv.push_back(s);
      }
      const pid_t pid = fork();
      if (pid < 0) fail("fork failed");
      if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        const int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(2, 1);  // nothing may block on a full pipe
        std::vector<char*> v;
        for (auto& s : argv) v.push_back(const_cast<char*>(s.c_str()));
        v.push_back(nullptr);
        execvp(v[0], v.data());
        _exit(127);
      }
      http_client http(std::stoi(port), timeout, [&] { return waitpid(pid, &status, WNOHANG) != pid; });
      if (!http.connected()) {
        if (attempt < 2) continue;
        fail("the server exited before it listened, three times (exit status " + std::to_string(status) + ")");
      }
      const std::string sid = open_session(http);
      std::vector<std::pair<std::string, std::string>> h{{"MCP-Protocol-Version", protocol_version}};
      if (!sid.empty()) h.emplace_back("Mcp-Session-Id", sid);
      for (long id = 1; id <= calls; ++id) check_reply(spec, id, reply_of(http.post(call_request(spec, id), h)));
      kill(pid, SIGTERM);
      auto start = clock_type::now();
      while (waitpid(pid, &status, WNOHANG) != pid) {
        if (seconds_since(start) > timeout) {
          kill(pid, SIGKILL);
          waitpid(pid, &status, 0);
          fail("the server did not end within " + std::to_string(timeout) + " s of SIGTERM");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      break;
    }
  } else {
    fail("--transport stdio|http");
  }
  if (status != 0) fail("the server exited with status " + std::to_string(status));
  std::cout << tagged(a, {{"tool", spec.tool}, {"n", spec.n}, {"transport", transport}, {"calls", calls}}).dump()
            << std::endl;
  return 0;
}

// Opens `count` sessions over a few keep-alive connections, keeps them, and reads the server's RSS.
int cmd_sessions(const args& a) {
  const int port = static_cast<int>(a.number("port", 0));
  const int pid = std::stoi(a.need("pid"));
  const long count = static_cast<long>(a.number("count", 10000));
  const int connections = static_cast<int>(a.number("connections", 4));
  {
    http_client warm(port, 20);  // one session first, so start-up allocations are not counted
    open_session(warm);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const long before = rss_kb(pid);
  auto start = clock_type::now();
  std::atomic<long> opened{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < connections; ++t)
    threads.emplace_back([&, t] {
      http_client http(port, 5);
      for (long i = t; i < count; i += connections) {
        if (open_session(http).empty()) fail("the server gave no Mcp-Session-Id (stateless?)");
        ++opened;
      }
    });
  for (auto& th : threads) th.join();
  const double took = seconds_since(start);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const long after = rss_kb(pid);
  std::cout << tagged(a, {{"sessions", opened.load()},
                          {"seconds", took},
                          {"rss_before_kb", before},
                          {"rss_after_kb", after},
                          {"bytes_per_session", (after - before) * 1024.0 / std::max(1L, opened.load())}})
                   .dump()
            << std::endl;
  return 0;
}

int cmd_rss(const args& a) {
  const int pid = std::stoi(a.need("pid"));
  const double seconds = a.number("seconds", 5);
  long peak = rss_kb(pid), idle = peak;
  for (auto start = clock_type::now(); seconds_since(start) < seconds;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    peak = std::max(peak, rss_kb(pid));
  }
  std::cout << tagged(a, {{"rss_start_kb", idle}, {"rss_peak_kb", peak}}).dump() << std::endl;
  return 0;
}

int cmd_free_port() {
  std::cout << free_port() << std::endl;
  return 0;
}

int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    fail("cannot find a free port");
  close(fd);
  return ntohs(addr.sin_port);
}

// --- the load generator's ceiling ------------------------------------------------------------------

// An HTTP/1.1 keep-alive server that does no work: every request gets the same bytes an `add` call
// gets from our server, from one thread on epoll with one read and one write per request (the
// least any server on sockets can do). What wrk reaches against it is what wrk itself can drive on
// this machine: a figure to hold the others against. Takes --http HOST:PORT like the benchmark's
// servers, but always binds 127.0.0.1. It ends after --seconds (default 600).
int cmd_http_floor(const args& a) {
  const std::string where = a.need("http");
  const int port = std::atoi(where.c_str() + where.rfind(':') + 1);
  const double lifetime = a.number("seconds", 600);
  static const std::string body =
      R"({"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"{\"sum\":1.5}","type":"text"}],)"
      R"("structuredContent":{"sum":1.5}}})";
  static const std::string reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                                   std::to_string(body.size()) + "\r\n\r\n" + body;
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(listener, 128) != 0)
    fail("http-floor: cannot listen on 127.0.0.1:" + std::to_string(port));
  const int ep = epoll_create1(EPOLL_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = listener;
  epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
  std::map<int, std::string> input;  // per connection: bytes of a request not yet whole
  std::string out;
  char chunk[16384];
  const auto start = clock_type::now();
  epoll_event events[64];
  while (seconds_since(start) < lifetime) {
    const int n = epoll_wait(ep, events, 64, 1000);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == listener) {
        for (int c; (c = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0;) {
          setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          ev.data.fd = c;
          epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
          input[c];
        }
        continue;
      }
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      std::string& in = input[fd];
      if (got > 0) in.append(chunk, static_cast<std::size_t>(got));
      // Count whole requests: a head, then Content-Length bytes of body.
      out.clear();
      std::size_t used = 0;
      for (;;) {
        const std::size_t head_end = in.find("\r\n\r\n", used);
        if (head_end == std::string::npos) break;
        std::size_t length = 0;
        const std::size_t cl = in.find("Content-Length:", used);
        if (cl != std::string::npos && cl < head_end) length = std::strtoul(in.c_str() + cl + 15, nullptr, 10);
        if (in.size() < head_end + 4 + length) break;
        used = head_end + 4 + length;
        out += reply;
      }
      in.erase(0, used);
      bool closed = got <= 0;
      for (std::size_t sent = 0; !closed && sent < out.size();) {  // small replies: the socket takes them
        const ssize_t w = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (w > 0) sent += static_cast<std::size_t>(w);
        else if (w < 0 && errno == EAGAIN) std::this_thread::sleep_for(std::chrono::microseconds(50));
        else if (w < 0 && errno != EINTR) closed = true;
      }
      if (closed) {
        epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
        close(fd);
        input.erase(fd);
      }
    }
  }
  return 0;
}

// --- generated notes -----------------------------------------------------------------------------

int cmd_gen_notes(const args& a) {
  const long count = static_cast<long>(a.number("count", 3000));
  static const char* vocabulary[] = {
      "harbor", "falcon", "river", "lantern", "copper", "meadow", "signal", "budget", "quarter", "design",
      "review", "kernel", "garden", "ticket", "summit", "orbit", "marble", "window", "thread", "socket",
      "ledger", "canvas", "beacon", "forest", "pillar", "engine", "velvet", "crystal", "anchor", "harvest",
      "meeting", "release", "roadmap", "customer", "invoice", "backlog", "sprint", "deploy", "metrics", "outage",
      "the", "a", "of", "and", "to", "in", "for", "with", "on", "about", "we", "should", "next", "week", "plan",
      "notes", "draft", "idea", "follow", "up", "check", "update", "team", "call", "list", "open", "closed"};
  const std::size_t nv = sizeof vocabulary / sizeof *vocabulary;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;  // fixed seed: the same notes on every run
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  json notes = json::array();
  for (long i = 0; i < count; ++i) {
    char title[96];
    std::snprintf(title, sizeof title, "Note %05ld %s %s", i, vocabulary[next() % 40], vocabulary[next() % 40]);
    std::string body = "# " + std::string(title) + "\n\n";
    const std::size_t words = 20 + next() % 160;
    for (std::size_t w = 0; w < words; ++w) {
      // Topic words (the first 40) are rarer than filler, so multi-word queries match a few percent.
      body += next() % 8 == 0 ? vocabulary[next() % 40] : vocabulary[40 + next() % (nv - 40)];
      body += (w % 12 == 11) ? ".\n" : " ";
    }
    notes.push_back({{"title", title},
                     {"body", body},
                     {"visibility", next() % 3 ? "team" : "private"},
                     {"created", "2025-01-01T00:00:00Z"},
                     {"last_modified", "2025-06-01T12:00:00Z"}});
  }
  std::ofstream(a.need("out")) << json{{"notes", notes}}.dump(1) << "\n";
  return 0;
}

// --- the report ----------------------------------------------------------------------------------

std::string fmt(double v, int decimals = 0) {
  if (std::isnan(v)) return "n/a";
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(decimals);
  s << v;
  std::string t = s.str();
  if (decimals == 0 && std::fabs(v) >= 10000) {  // thousands separators for large counts
    for (int i = static_cast<int>(t.size()) - 3; i > (t[0] == '-' ? 1 : 0); i -= 3) t.insert(static_cast<std::size_t>(i), ",");
  }
  return t;
}

int cmd_report(const args& a) {
  // (label, impl) -> its records: one per run, several where the run had rounds (HTTP).
  std::map<std::pair<std::string, std::string>, std::vector<json>> r;
  std::ifstream in(a.need("in"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '{') continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("label")) continue;
    r[{j["label"].get<std::string>(), j.value("impl", "")}].push_back(j);
  }
  auto values = [&](const std::string& label, const std::string& impl, const std::string& field) {
    std::vector<double> v;
    auto it = r.find({label, impl});
    if (it == r.end()) return v;
    for (const json& j : it->second)
      if (j.contains(field) && j[field].is_number()) v.push_back(j[field].get<double>());
    return v;
  };
  // The median of the rounds (the upper middle one for an even count): a real run's figure.
  auto value = [&](const std::string& label, const std::string& impl, const std::string& field) {
    std::vector<double> v = values(label, impl, field);
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };

  std::ostringstream md;
  md << "| Measure | Ours (C++) | TypeScript SDK | Ours / theirs | Target | Met |\n"
     << "|---|---|---|---|---|---|\n";
  // higher: ours/theirs must reach `target`; lower: ours/theirs must not exceed it.
  auto row = [&](const std::string& name, const std::string& label, const std::string& field, double scale,
                 int decimals, const std::string& unit, const char* direction = nullptr, double target = 0,
                 double bound = std::nan("")) {
    double o = value(label, "ours", field) * scale, t = value(label, "ts", field) * scale;
    double ratio = o / t;
    std::string target_text = "", met = "";
    if (direction) {
      bool higher = std::string(direction) == "higher";
      target_text = higher ? "ours/theirs >= " + fmt(target, 0) : "ours/theirs <= " + fmt(target, 2);
      met = std::isnan(ratio) ? "not measured" : ((higher ? ratio >= target : ratio <= target) ? "yes" : "**MISSED**");
      // `bound`: the best ratio this setup allows any server; a miss below it is the setup's.
      if (met == "**MISSED**" && higher && bound < target)
        met += ": the setup allows at most " + fmt(bound, 1) + " (next row)";
    }
    md << "| " << name << " | " << fmt(o, decimals) << unit << " | " << fmt(t, decimals) << unit << " | "
       << (std::isnan(ratio) ? "n/a" : fmt(ratio, ratio < 10 ? 2 : 1)) << " | " << target_text << " | " << met << " |\n";
  };
  auto absolute_row = [&](const std::string& name, const std::string& label, const std::string& field, double limit) {
    double o = value(label, "ours", field), t = value(label, "ts", field);
    std::string met = std::isnan(o) ? "not measured" : (o < limit ? "yes" : "**MISSED**");
    auto o_rate = value(label, "ours", "target_rps"), t_rate = value(label, "ts", "target_rps");
    md << "| " << name << " | " << fmt(o / 1000, 3) << " ms at " << fmt(o_rate) << "/s | " << fmt(t / 1000, 3)
       << " ms at " << fmt(t_rate) << "/s | " << (std::isnan(o / t) ? "n/a" : fmt(o / t, 2)) << " | ours < "
       << fmt(limit / 1000, 0) << " ms | " << met << " |\n";
  };

  md << "| **stdio** | | | | | |\n";
  row("add: pipelined calls/s (64 in flight)", "stdio_add_pipelined", "rps", 1, 0, "", "higher", 8);
  row("add: sequential p50 latency", "stdio_add_sequential", "p50_us", 1, 1, " µs");
  row("add: sequential p99 latency", "stdio_add_sequential", "p99_us", 1, 1, " µs");
  absolute_row("add: p99 latency at half of own peak rate", "stdio_add_half_load", "p99_us", 1000);
  row("search_notes: pipelined calls/s (64 in flight)", "stdio_search_pipelined", "rps", 1, 0, "");
  row("search_notes: sequential p50 latency", "stdio_search_sequential", "p50_us", 1, 1, " µs");
  row("search_notes: sequential p99 latency", "stdio_search_sequential", "p99_us", 1, 1, " µs");
  md << "| **Streamable HTTP** (wrk, keep-alive) | | | | | |\n";
  {
    // What wrk drives against a server that does nothing bounds every server's figure here.
    double ceiling = value("http_floor", "floor", "rps"), t = value("http_session", "ts", "rps");
    double o = value("http_session", "ours", "rps");
    row("session mode: requests/s", "http_session", "rps", 1, 0, "", "higher", 20, ceiling / t);
    md << "| load generator's ceiling: requests/s to a server that does no work | " << fmt(ceiling) << " (ours is "
       << (std::isnan(o / ceiling) ? "n/a" : fmt(100 * o / ceiling, 0) + "%") << " of it) | | "
       << (std::isnan(ceiling / t) ? "n/a" : fmt(ceiling / t, 1)) << " (the most any server could show) | | |\n";
  }
  row("session mode: p50 latency", "http_session", "p50_us", 1, 1, " µs");
  row("session mode: p99 latency", "http_session", "p99_us", 1, 1, " µs");
  row("stateless mode: requests/s", "http_stateless", "rps", 1, 0, "");
  row("stateless mode: p50 latency", "http_stateless", "p50_us", 1, 1, " µs");
  row("stateless mode: p99 latency", "http_stateless", "p99_us", 1, 1, " µs");
  md << "| **Memory** | | | | | |\n";
  row("RSS idle (stdio, after initialize)", "stdio_add_pipelined", "rss_idle_kb", 1.0 / 1024, 1, " MiB", "lower", 0.1);
  row("RSS under load (stdio add, 64 in flight)", "stdio_add_pipelined", "rss_peak_kb", 1.0 / 1024, 1, " MiB");
  row("RSS under load (stdio search_notes)", "stdio_search_pipelined", "rss_peak_kb", 1.0 / 1024, 1, " MiB");
  row("RSS under load (HTTP session mode)", "http_session_rss", "rss_peak_kb", 1.0 / 1024, 1, " MiB");
  row("Memory per open HTTP session", "sessions", "bytes_per_session", 1.0 / 1024, 1, " KiB");
  row("RSS with all sessions open", "sessions", "rss_after_kb", 1.0 / 1024, 1, " MiB");
  md << "| **Start-up** | | | | | |\n";
  row("exec to first answered initialize (mean)", "startup", "mean_ms", 1, 2, " ms");
  row("exec to first answered initialize (min)", "startup", "min_ms", 1, 2, " ms");

  // Compile time: tests/bench/compile_time.sh writes its own table, which run.sh appends.

  // Payload size (issue #24): calls/s of each payload tool at each N, over stdio (pipelined) and
  // HTTP (wrk, one session), and the servers' peak RSS at the largest N. Labels are
  // payload_{stdio,http}_TOOL_N; the rows follow whatever N the run measured.
  const char* payload_tools[] = {"order", "order_rt", "list"};
  std::map<std::string, std::vector<long>> payload_ns;  // tool -> its N, ascending
  for (auto& [key, records] : r)
    for (const json& j : records)
      if (key.first.rfind("payload_stdio_", 0) == 0 && j.contains("n") && j.contains("tool")) {
        auto& ns = payload_ns[j["tool"].get<std::string>()];
        if (std::find(ns.begin(), ns.end(), j["n"].get<long>()) == ns.end()) ns.push_back(j["n"].get<long>());
      }
  for (auto& [tool, ns] : payload_ns) std::sort(ns.begin(), ns.end());
  auto payload_label = [](const char* transport, const std::string& tool, long n) {
    return std::string("payload_") + transport + "_" + tool + "_" + std::to_string(n);
  };
  if (!payload_ns.empty()) {
    md << "\n### Payload size\n\n"
       << "order(customer, items[N]) and order_rt (the same with a run-time JSON Schema in ours) send N order lines "
          "in the arguments; list(n = N) returns N records. Calls/s: stdio pipelined, HTTP by wrk over one session. "
       << "Each figure (calls/s and peak RSS) is the median of "
       << values(payload_label("stdio", payload_ns.begin()->first, payload_ns.begin()->second.front()), "ours", "rps").size()
       << " round(s), each a pass over every point that alternates the servers.\n\n"
       << "| Tool | N | stdio: ours | stdio: TypeScript | stdio: ours / theirs | HTTP: ours | HTTP: TypeScript | "
          "HTTP: ours / theirs | Target | Met |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const char* tool : payload_tools) {
      const double target = std::string(tool) == "order_rt" ? 5 : 10;
      for (long n : payload_ns[tool]) {
        md << "| " << tool << " | " << n;
        std::string met;
        for (const char* transport : {"stdio", "http"}) {
          const std::string label = payload_label(transport, tool, n);
          const double o = value(label, "ours", "rps"), t = value(label, "ts", "rps"), ratio = o / t;
          md << " | " << fmt(o, o < 100 ? 1 : 0) << " | " << fmt(t, t < 100 ? 1 : 0) << " | "
             << (std::isnan(ratio) ? "n/a" : fmt(ratio, ratio < 10 ? 2 : 1));
          met += std::string(met.empty() ? "" : ", ") + (std::string(transport) == "http" ? "HTTP " : "stdio ") +
                 (std::isnan(ratio) ? "not measured" : ratio >= target ? "yes" : "**MISSED**");
        }
        md << " | ours/theirs >= " << fmt(target) << " | " << met << " |\n";
      }
    }
    md << "\n| Peak RSS, stdio pipelined | Ours (C++) | TypeScript SDK | Ours / theirs | Target | Met |\n"
       << "|---|---|---|---|---|---|\n";
    for (const char* tool : payload_tools) {
      if (payload_ns[tool].empty()) continue;
      const long n = payload_ns[tool].back();
      const std::string label = payload_label("stdio", tool, n);
      const double o = value(label, "ours", "rss_peak_kb") / 1024, t = value(label, "ts", "rss_peak_kb") / 1024;
      const double ratio = o / t;
      md << "| " << tool << " at N = " << fmt(static_cast<double>(n)) << " (" << fmt(value(label, "ours", "inflight"))
         << " in flight) | " << fmt(o, 1) << " MiB | " << fmt(t, 1) << " MiB | " << (std::isnan(ratio) ? "n/a" : fmt(ratio, 2))
         << " | ours/theirs <= 0.25 | " << (std::isnan(ratio) ? "not measured" : ratio <= 0.25 ? "yes" : "**MISSED**")
         << " |\n";
    }
  }

  // Both servers must have found the same notes, or the search comparison means nothing.
  double om = value("stdio_search_pipelined", "ours", "total_matches"), tm = value("stdio_search_pipelined", "ts", "total_matches");
  if (!std::isnan(om) && !std::isnan(tm) && om != tm)
    md << "\n**Warning:** search_notes found " << fmt(om) << " matches in ours and " << fmt(tm) << " in TypeScript.\n";
  long errors = 0;
  for (auto& [key, records] : r)
    for (const json& j : records) errors += j.value("errors", 0L);
  if (errors) md << "\n**Warning:** " << errors << " error replies during the runs.\n";
  // Every round of a repeated measure, so a reader sees how far one run's figures move here.
  auto each = [&](const std::string& label, const std::string& impl, const std::string& field, double scale = 1,
                  int decimals = 0, const std::string& unit = "") {
    std::string text;
    for (double v : values(label, impl, field)) text += (text.empty() ? "" : ", ") + fmt(v * scale, decimals) + unit;
    return text.empty() ? std::string("none") : text;
  };
  if (const auto n = values("http_session", "ours", "rps").size(); n > 1)
    md << "\nHTTP requests/s are the median of " << n << " rounds that alternate the servers. Session mode, each round: ours "
       << each("http_session", "ours", "rps") << "; TypeScript " << each("http_session", "ts", "rps")
       << "; no-work server " << each("http_floor", "floor", "rps") << ". Stateless mode: ours "
       << each("http_stateless", "ours", "rps") << "; TypeScript " << each("http_stateless", "ts", "rps") << ".\n";
  if (const auto n = values("stdio_add_half_load", "ours", "p99_us").size(); n > 1)
    md << "\nThe p99 at half of peak is the median of " << n << " runs: ours "
       << each("stdio_add_half_load", "ours", "p99_us", 1e-3, 3, " ms") << "; TypeScript "
       << each("stdio_add_half_load", "ts", "p99_us", 1e-3, 3, " ms") << ".\n";
  if (!a.get("notes").empty()) md << "\n" << a.get("notes") << "\n";
  md << "\nRatios are ours / theirs: above 1 is better for throughput, below 1 is better for latency, memory and time.\n";
  std::ofstream(a.need("out")) << md.str();
  std::cout << md.str();

  // Payload chart data: one row per N, calls/s of each tool and SDK over stdio, then over HTTP.
  if (!a.get("payload-plot").empty()) {
    std::ofstream plot(a.get("payload-plot"));
    std::vector<long> ns;
    for (auto& [tool, tool_ns] : payload_ns)
      for (long n : tool_ns)
        if (std::find(ns.begin(), ns.end(), n) == ns.end()) ns.push_back(n);
    std::sort(ns.begin(), ns.end());
    plot << "# N, then calls/s (NaN: not measured): stdio ours order order_rt list, stdio ts order order_rt list, "
            "HTTP ours ..., HTTP ts ...\n";
    for (long n : ns) {
      plot << n;
      for (const char* transport : {"stdio", "http"})
        for (const char* impl : {"ours", "ts"})
          for (const char* tool : payload_tools) {
            const double v = value(payload_label(transport, tool, n), impl, "rps");
            plot << ' ' << (std::isnan(v) || v <= 0 ? std::string("NaN") : fmt(v, 1));
          }
      plot << "\n";
    }
  }

  if (!a.get("plot").empty()) {
    std::ofstream plot(a.get("plot"));
    plot << "# measure ours ts ceiling (requests/s; 0 = not measured)\n";
    // name, label, and the label of the ceiling that bounds it (wrk against a server that does no work)
    struct bar {
      const char *name, *label, *ceiling;
    };
    const bar bars[] = {{"stdio add", "stdio_add_pipelined", nullptr},
                        {"stdio search_notes", "stdio_search_pipelined", nullptr},
                        {"HTTP session", "http_session", "http_floor"},
                        {"HTTP stateless", "http_stateless", nullptr}};
    for (auto& [name, label, ceiling] : bars) {
      double o = value(label, "ours", "rps"), t = value(label, "ts", "rps");
      double c = ceiling ? value(ceiling, "floor", "rps") : std::nan("");
      plot << '"' << name << "\" " << (std::isnan(o) ? 0 : o) << " " << (std::isnan(t) ? 0 : t) << " "
           << (std::isnan(c) ? 0 : c) << "\n";
    }
  }
  return 0;
}

// The driver's own checks that no server run could show wrong: reply_failed on replies made to
// fool a one-pass scan (patterns cut short, overlapping, at either end, inside strings, repeated).
int cmd_self_check() {
  struct expect {
    std::string line;
    bool failed;
  };
  const std::string ok = R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"fine"}]}})";
  const std::vector<expect> cases = {
      {ok, false},
      {R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}})", true},
      {R"({"result":{"content":[],"isError":true}})", true},
      {R"({"result":{"content":[],"isError":false}})", false},
      {R"("isError":true)", true},
      {R"("error":{)", true},
      {R"("isError":tru)", false},
      {R"(isError":true)", false},
      {R"("error":)", false},
      {R"("error":[{)", false},
      {R"("Error":{)", false},
      {R"("terror":{)", false},
      {R"("xisError":true)", false},
      {R"("xerror":{)", false},
      {R"(rror":{"error":{)", true},
      {R"("isError":false,"error":{)", true},
      {R"("isError":false,"isError":true)", true},
      {R"("isError":"true","error":"{")", false},
      {std::string(100000, 'r') + R"(rror":"isError":true)", true},
      {R"("e)" + std::string(3, '\0') + R"(rror":{)", false},
  };
  int wrong = 0;
  for (const expect& c : cases) {
    if (reply_failed(c.line) != c.failed) {
      std::cerr << "reply_failed(" << c.line.substr(0, 80) << ") should be " << c.failed << "\n";
      ++wrong;
    }
  }
  std::cout << cases.size() - static_cast<std::size_t>(wrong) << " of " << cases.size() << " checks hold\n";
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) fail("usage: mcp_bench gen-notes|gen-payload|stdio|startup|http-init|http-call|sessions|rss|free-port|http-floor|report|self-check|speed "
         "[options] [-- server...]");
  std::signal(SIGPIPE, SIG_IGN);
  std::string cmd = argv[1];
  args a = parse_args(argc, argv, 2);
  if (cmd == "gen-notes") return cmd_gen_notes(a);
  if (cmd == "stdio") return cmd_stdio(a);
  if (cmd == "startup") return cmd_startup(a);
  if (cmd == "http-init") return cmd_http_init(a);
  if (cmd == "http-call") return cmd_http_call(a);
  if (cmd == "gen-payload") return cmd_gen_payload(a);
  if (cmd == "sessions") return cmd_sessions(a);
  if (cmd == "rss") return cmd_rss(a);
  if (cmd == "report") return cmd_report(a);
  if (cmd == "free-port") return cmd_free_port();
  if (cmd == "http-floor") return cmd_http_floor(a);
  if (cmd == "self-check") return cmd_self_check();
  if (cmd == "speed") return cmd_speed(a);
  fail("unknown command '" + cmd + "'");
}
