// Out-of-line bodies of transport/stdio.hpp, included once from its bottom.
// The stdio transport's machinery: the line writer and the reader that runs quick calls on its own
// thread. Included by <mcp/transport/stdio.hpp> after stdio_options, which it uses.
#pragma once

#include <mcp/core/connection.hpp>
#include <mcp/core/server.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/transport/detail/fd_io.hpp>
#include <mcp/transport/detail/recent_calls.hpp>
#include <mcp/transport/detail/stdio_stop.hpp>
#include <mcp/transport/detail/thread_pool.hpp>
#include <mcp/transport/detail/watchdog.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace mcp {
inline namespace v0 {

namespace detail {

// A buffer kept per thread for the line being sent: once it has grown, a reply costs no allocation
// and no copy on its way to write().
MCP_DECL std::string& line_buffer() {
  thread_local std::string text;
  text.clear();
  return text;
}

MCP_DECL std::string& serialize_line(const json& message) {
  std::string& text = line_buffer();
  write_json(message, text);
  text.push_back('\n');
  return text;
}

// Writes each message as one line. Threads that send while another is writing only queue their
// line; the writing thread then sends everything queued in one write(), so replies that finish
// together leave together. While held (the reader works through input it already has), lines are
// queued too, and release() writes them in one go: pipelined requests cost one write() per read()
// (or per 32 lines of a big chunk).
// The queue is bounded: when the other side reads too slowly, senders wait for room. One thread is
// kept out of write() and out of that wait: the watchdog's, when it reads in a held serving
// thread's place (keep_out_of_writes). A client may be writing to us without reading; were that
// thread to wait on the client, nobody would read, and both sides would wait for ever. What it
// sends, and what it releases, is written by a thread of the writer's own, started the first time
// it is needed (most connections never need it).
// Threads: send* from any thread; hold, release, finish from the serving thread; release_elsewhere,
// wait_for_room from the thread kept out of writes.
class fd_writer final : public outbound {
 public:
  fd_writer(int fd, std::size_t max_queued) : fd_(fd), max_queued_(max_queued) {}
  fd_writer(const fd_writer&) = delete;
  fd_writer& operator=(const fd_writer&) = delete;
  ~fd_writer() override { stop_background(); }

  void send(const json& message) override { send_line(serialize_line(message)); }
  void send_result(const json& id, json result) override {
    std::string& line = line_buffer();
    write_response(id, result, line);
    line.push_back('\n');
    send_line(line);
  }
  bool takes_text() const override { return true; }
  void send_result_text(const json& id, std::string_view result) override {
    std::string& line = line_buffer();
    write_response_text(id, result, line);
    line.push_back('\n');
    send_line(line);
  }

  void hold() {
    std::lock_guard lock(mutex_);
    held_ = true;
  }
  // May block while the other side does not read; the stdio reader counts that as busy time.
  void release() {
    std::unique_lock lock(mutex_);
    held_ = false;
    if (writing_ || queued_.empty()) return;  // a writing thread takes what is queued along
    writing_ = true;
    write_queued(lock);
  }
  // As release(), but never blocks: the writer's own thread writes what was held.
  void release_elsewhere() {
    std::unique_lock lock(mutex_);
    held_ = false;
    write_elsewhere(lock);
  }
  // From now on, lines that `reader` sends are queued whatever the queue holds, and written by the
  // writer's own thread.
  void keep_out_of_writes(std::thread::id reader) {
    std::lock_guard lock(mutex_);
    kept_out_ = reader;
  }
  // Waits while the queue is full and a write is under way: the thread kept out of writes calls
  // this before it reads more, so that a client that sends without reading is slowed down, not
  // queued for without limit.
  void wait_for_room() {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return has_room(); });
  }
  // Writes what is left and waits until it is written (or the other side went away); the writer's
  // own thread, if started, ends.
  void finish() {
    release();
    {
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] { return broken_ || !writing_; });
    }
    stop_background();
  }

 private:
  void send_line(std::string& line) {
    std::unique_lock lock(mutex_);
    if (std::this_thread::get_id() == kept_out_) {
      if (broken_) return;
      queued_ += line;
      let_go_if_huge(line);
      if (!held_) write_elsewhere(lock);
      return;
    }
    room_.wait(lock, [&] { return has_room(); });
    if (broken_) return;
    if (writing_ || (held_ && queued_.size() < max_queued_)) {
      queued_ += line;
      return;
    }
    writing_ = true;
    if (!queued_.empty()) {  // held lines go first
      queued_ += line;
    } else {
      lock.unlock();
      const bool ok = write_all(line);
      lock.lock();
      if (!ok) broken_ = true;  // the reader went away; there is no one left to tell
    }
    let_go_if_huge(line);
    write_queued(lock);
  }

  bool write_all(const std::string& bytes) const {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      const long long n = fd_write(fd_, p, left);
      if (n <= 0) return false;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return true;
  }

  // With the lock held and writing_ set; clears writing_.
  void write_queued(std::unique_lock<std::mutex>& lock) {
    while (!queued_.empty() && !broken_) {
      sending_.swap(queued_);
      room_.notify_all();
      lock.unlock();
      const bool ok = write_all(sending_);
      sending_.clear();
      if (sending_.capacity() > 2 * max_queued_) std::string().swap(sending_);
      lock.lock();
      if (!ok) broken_ = true;
    }
    queued_.clear();
    writing_ = false;
    room_.notify_all();
  }

  // With the lock held: whether a sender may go on (queue or write) rather than wait.
  bool has_room() const { return broken_ || !writing_ || queued_.size() < max_queued_; }

  // With the lock held: has the writer's own thread write what is queued, unless a thread is
  // writing already (it takes it along).
  void write_elsewhere(std::unique_lock<std::mutex>& lock) {
    if (writing_ || queued_.empty() || broken_) return;
    writing_ = true;
    if (!background_.joinable()) {
      try {
        background_ = std::thread([this] { run_background(); });  // it waits for this lock
      } catch (const std::system_error&) {  // no thread to be had: this one writes, and may wait for the client
        write_queued(lock);
        return;
      }
    }
    background_due_ = true;
    background_cv_.notify_one();
  }

  void run_background() {
    std::unique_lock lock(mutex_);
    for (;;) {
      background_cv_.wait(lock, [&] { return background_due_ || stopping_; });
      if (!background_due_) return;
      background_due_ = false;
      write_queued(lock);
    }
  }

  void stop_background() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    background_cv_.notify_one();
    if (background_.joinable()) background_.join();
  }

  int fd_;
  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable room_;  // room in the queue, or a write over
  std::string queued_;
  std::string sending_;  // the writing thread's batch; keeps its capacity
  bool writing_ = false;
  bool held_ = false;
  bool broken_ = false;
  std::thread::id kept_out_;  // the thread that never writes, once there is one
  std::condition_variable background_cv_;
  bool background_due_ = false;  // the writer's own thread is to write what is queued
  bool stopping_ = false;
  std::thread background_;  // last: it ends before the members it uses
};

// The reading side of a stdio connection. One thread at a time holds the right to read. Normally
// that is the serving thread, and it runs each tool call itself: no hand-off to the pool, no
// wake-up of another thread, one read() per chunk of input and one write() per 32 lines of it. A
// watchdog (watchdog.hpp, shared with HTTP) makes this safe: when a single call, or a write to a
// client that does not read, has held the serving thread for a whole `inline_budget`, the watchdog
// takes the serving thread's stamp and, on its own thread, reads in its place and sends later
// calls to the pool, so ping, cancellation and the client's answers to ctx.ask still get through,
// and a client that writes without reading cannot lock both sides in write(). The serving thread
// takes reading back once it is free again. The watchdog's thread never waits in write(): what it
// sends or releases is written by the fd_writer's own thread (see fd_writer).
// One exception to running calls inline: when calls have lately taken long (recent_calls), longer
// than reading their lines took, and more input already waits, the serving thread passes the call
// to the pool and reads on, so that a pipelining client keeps two cores busy (a client sending one
// call at a time never has input waiting, and keeps the inline road). See worth_sharing.
// The same watchdog keeps the pool's time (thread_pool.hpp: a call past stall_after stops
// counting against workers); while its thread reads in the serving thread's place, it keeps
// time between waits for input (tick_in_place).
// A stop (stdio_stop.hpp: a signal, stop_stdio()) ends input as its end does: whoever reads waits
// in poll() on the input and the stop's pipe, and no line is handled after it.
// Threads: serve() on the thread that serves (it returns at the end of input); nothing else is public.
class stdio_reader {
 public:
  stdio_reader(server& srv, int in_fd, const stdio_options& options, std::shared_ptr<fd_writer> out)
      : in_fd_(in_fd), options_(options), out_(std::move(out)), workers_(std::max<std::size_t>(options.workers, 1)),
        watchdog_(1 + thread_pool::stamps(limits_of(options)), budget_of(options)), busy_(watchdog_[0]),
        pool_(limits_of(options), watchdog_, 1),
        connection_(srv, out_, [this](std::function<void()> job) { execute(std::move(job)); }),
        srv_(srv), chunk_(new char[chunk_size]) {
    connection_.set_transport("pipe");  // OpenTelemetry's network.transport for stdio
  }
  stdio_reader(const stdio_reader&) = delete;
  stdio_reader& operator=(const stdio_reader&) = delete;
  // The watchdog's thread uses everything here (the pool's check() too): it ends first.
  ~stdio_reader() {
    watchdog_.stop();
    watchdog_.join();
    pool_.join();
  }

  // Runs on the calling thread until end of input and the end of in-flight work.
  int serve() {
    serving_thread_ = std::this_thread::get_id();
    watchdog_.start([this] { on_tick(); });
    for (;;) {
      if (read_loop(holder::serving)) {
        end_of_input();
        break;
      }
      std::unique_lock lock(mutex_);
      serving_waiting_ = true;
      serving_cv_.wait(lock, [&] { return holder_ == holder::serving || done_; });
      serving_waiting_ = false;
      lost_ = false;
      if (done_) break;
    }
    watchdog_.join();
    pool_.join();
    out_->finish();
    return 0;
  }

 private:
  static constexpr std::size_t chunk_size = 65536;
  // Most lines whose replies wait for one write().
  static constexpr int lines_per_write = 32;
  // The longest line the core reads in one pass with the call it starts (see receive_here).
  static constexpr std::size_t one_pass_max = 32 * 1024;
  enum class holder { serving, watchdog };

  // How long the serving thread may be busy (in a call or a write) before the watchdog reads.
  static std::chrono::microseconds budget_of(const stdio_options& options) {
    return options.inline_budget.count() > 0 ? options.inline_budget : std::chrono::milliseconds(1);
  }
  static thread_pool::limits limits_of(const stdio_options& options) {
    thread_pool::limits l;
    l.workers = options.workers;
    l.max_threads = options.max_workers;
    l.stall_after = options.stall_after;
    return l;
  }

  // The session's executor.
  void execute(std::function<void()> job) {
    // Only the serving thread, while it reads, runs calls itself; the thread id is checked first
    // because inline_allowed_ and share_next_ belong to that thread.
    if (std::this_thread::get_id() != serving_thread_ || !inline_allowed_) return post(std::move(job));
    inline_allowed_ = false;  // anything the call dispatches itself goes to the pool
    job_ran_ = true;
    if (share_next_ && pooled_.load(std::memory_order_relaxed) < workers_) return post(std::move(job));
    busy_.enter();
    if (timing_line_) {
      const auto start = std::chrono::steady_clock::now();
      job();
      inline_job_ = std::chrono::steady_clock::now() - start;
      calls_.note(inline_job_);
    } else {
      job();
    }
    if (!busy_.leave()) lost_ = true;
  }

  void post(std::function<void()> job) {
    pooled_.fetch_add(1, std::memory_order_relaxed);
    pool_.post([this, job = std::move(job)] {
      const auto start = std::chrono::steady_clock::now();
      job();
      calls_.note(std::chrono::steady_clock::now() - start);
      pooled_.fetch_sub(1, std::memory_order_relaxed);
    });
  }

  // Whether the next call may go to the pool: calls have lately taken long, longer than the
  // reading thread's own work on a call's line (reading and checking it), and more input waits.
  bool worth_sharing() const {
    return !rest_.empty() && calls_.long_lately() && calls_.average_ns() > recent_line_ns_;
  }

  // Reads and handles lines while this thread holds the right to read. True at end of input;
  // false when the right went to the other thread.
  bool read_loop(holder me) {
    for (;;) {
      if (me == holder::watchdog) {
        std::lock_guard lock(mutex_);
        if (serving_waiting_) {  // its call is over: reading goes back to the serving thread
          holder_ = holder::serving;
          serving_cv_.notify_one();
          return false;
        }
      }
      if (rest_.empty()) {
        if (me == holder::watchdog) out_->wait_for_room();
        if (!fill(me)) return true;
      }
      if (me == holder::watchdog) {
        if (!drain(me)) return false;
        continue;
      }
      // Replies to the lines of this chunk leave together, once it is done (or handed over), in
      // writes of at most lines_per_write replies.
      out_->hold();
      bool kept = false;
      try {
        kept = drain(me);
      } catch (...) {
        out_->release();
        throw;
      }
      if (!kept) {
        out_->release();
        return false;
      }
      if (!flush()) return false;
    }
  }

  // Writes what the chunk's lines produced. A write blocks while the client does not read, and a
  // client may be blocked writing to us meanwhile: past the budget the watchdog reads in our place,
  // as for a long call. False when it did.
  bool flush() {
    held_lines_ = 0;
    busy_.enter();
    out_->release();
    if (busy_.leave()) return true;
    lost_ = true;
    return false;
  }

  // Reads the next chunk into rest_. False at end of input (or a read error).
  bool fill(holder me) {
    if (at_end_) return false;
    // Retired chunks may back rest_ or a line on the serving thread's stack until the serving
    // thread, out of any call, holds the right to read again with nothing left to read: only then
    // can no view point into them.
    if (me == holder::serving) retired_chunks_.clear();
    // The serving thread waits as long as the input takes (the watchdog keeps time); the watchdog's
    // own thread keeps time itself between waits of one budget.
    const int wait_ms = me == holder::watchdog ? tick_ms() : -1;
    for (;;) {
      const stop_watch::waited w = stop_.wait(in_fd_, wait_ms);
      if (w == stop_watch::waited::input) break;
      if (w == stop_watch::waited::stop) return stop_reading();
      tick_in_place();
    }
    const long long n = fd_read(in_fd_, chunk_.get(), chunk_size);
    if (n > 0 && stop_.requested()) return stop_reading();  // Windows: a stop that came during the read
    if (n <= 0) {
      at_end_ = true;
      if (skipping_ || partial_.empty()) return false;
      // A last message without its newline is still a message.
      last_line_ = std::move(partial_);
      partial_.clear();
      last_line_.push_back('\n');
      rest_ = last_line_;
      return true;
    }
    rest_ = std::string_view(chunk_.get(), static_cast<std::size_t>(n));
    return true;
  }

  // A stop: nothing more is read or handled, a line not yet whole included. False, as fill() at
  // end of input.
  bool stop_reading() {
    at_end_ = true;
    rest_ = {};
    partial_.clear();
    skipping_ = false;
    return false;
  }

  int tick_ms() const { return static_cast<int>(std::max<long long>(1, watchdog_.budget().count() / 1000)); }

  // On the watchdog's thread, while it is not ticking (it reads in the serving thread's place, or
  // waits out the end): one tick's worth of its work that does not read.
  void tick_in_place() {
    watchdog_.advance();
    pool_.check();
  }

  // Handles every complete line in rest_ and keeps an incomplete one in partial_. False when the
  // serving thread lost the right to read during a call.
  bool drain(holder me) {
    while (!rest_.empty()) {
      if (stop_.requested()) {  // the lines read with it are not handled either
        stop_reading();
        return true;
      }
      auto nl = rest_.find('\n');
      if (skipping_) {  // inside a line that was too long: drop bytes until its newline
        if (nl == std::string_view::npos) {
          rest_ = {};
          break;
        }
        skipping_ = false;
        rest_.remove_prefix(nl + 1);
        continue;
      }
      if (nl == std::string_view::npos) {
        if (partial_.size() + rest_.size() > options_.max_message_bytes) {
          partial_.clear();
          partial_.shrink_to_fit();
          skipping_ = true;
          refuse_long_line();
        } else {
          partial_.append(rest_);
        }
        rest_ = {};
        break;
      }
      std::string_view line = rest_.substr(0, nl);
      rest_.remove_prefix(nl + 1);  // before handling: whoever reads next starts after this line
      if (partial_.size() + line.size() > options_.max_message_bytes) {
        partial_.clear();
        refuse_long_line();
        continue;
      }
      std::string joined;  // on this thread's stack: the other thread may read on meanwhile
      if (!partial_.empty()) {
        joined = std::move(partial_);
        partial_.clear();
        joined.append(line);
        line = joined;
      }
      if (!handle_line(line, me)) return false;
    }
    return true;
  }

  bool handle_line(std::string_view line, holder me) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) return true;
    if (me != holder::serving) {
      receive_elsewhere(line);
      return true;
    }
    inline_allowed_ = options_.inline_budget.count() > 0;  // the serving thread's own flags
    share_next_ = worth_sharing();
    // One line in timed_every is timed, with its call if run here (four clock reads: 3% of a small
    // call's cost); pooled calls are all timed.
    timing_line_ = ++lines_seen_ % recent_calls::timed_every == 0;
    if (!timing_line_) {
      receive_here(line);
    } else {
      job_ran_ = false;
      inline_job_ = {};
      const auto start = std::chrono::steady_clock::now();
      receive_here(line);
      if (job_ran_) {  // the reading thread's own share of a call's line, its call (if run here) left out
        const long long own = recent_calls::nanoseconds(std::chrono::steady_clock::now() - start - inline_job_);
        recent_line_ns_ = recent_calls::averaged(recent_line_ns_, own);
      }
    }
    inline_allowed_ = false;
    if (lost_) return false;
    if (++held_lines_ < lines_per_write) return true;
    // A big chunk's first replies leave before its last lines are handled, so the client reads
    // and sends more while we work on: both sides stay busy (a pipelining client at 64 in flight
    // got 30% more calls through than with one write per chunk).
    if (!flush()) return false;
    out_->hold();
    return true;
  }

  // A line on the serving thread. A request this thread will run itself is said to run here
  // (connection::runs::here): the core reads what its handler needs in the same pass as the line,
  // where two passes cost a fifth more (order at N = 100: 98% of the work was on this thread, a
  // fifth of it the second pass; the speed gate's order workload rises 16% without it). A request
  // that may go to the pool, or on a line over one_pass_max, runs elsewhere: reading a long line
  // whole here would take that work from the pool's core (measured: order at N = 10,000 ran 40%
  // slower).
  void receive_here(std::string_view line) {
    if (inline_allowed_ && !share_next_ && line.size() <= one_pass_max)
      connection_.receive(line, nullptr, connection::runs::here);
    else
      receive_elsewhere(line);
  }
  void receive_elsewhere(std::string_view line) { connection_.receive(line); }

  void refuse_long_line() {
    out_->send(jsonrpc::error(nullptr, error_code::invalid_request,
                              "Invalid request: message longer than the limit of " +
                                  std::to_string(options_.max_message_bytes) + " bytes; it was skipped"));
  }

  // Listen streams end at once (nothing more can be asked for them); other in-flight requests get
  // the grace period, then whatever is left is cancelled and named on stderr, and so again every
  // report_every while any has not returned: a handler that ignores its cancellation keeps the
  // process alive, and whoever waits for it should know which one.
  void end_of_input() {
    using clock = std::chrono::steady_clock;
    const bool stopped = stop_.requested();
    if (stopped) {
      const std::size_t n = connection_.requests_in_flight();
      log_diagnostic(srv_.options(), "stdio: stop requested (a signal, or stop_stdio()): no more input is read" +
                                         (n == 0 ? std::string()
                                                 : "; " + std::to_string(n) + " request" + (n == 1 ? "" : "s") +
                                                       " in flight get" + (n == 1 ? "s" : "") + " up to " +
                                                       seconds(options_.shutdown_grace) + " to finish"));
    }
    connection_.end_listen_streams();
    const auto deadline = clock::now() + options_.shutdown_grace;
    wait_for_requests([&] { return clock::now() < deadline; });
    if (const std::size_t n = connection_.requests_in_flight(); n > 0)
      log_diagnostic(srv_.options(), "stdio: " + std::to_string(n) + (n == 1 ? " request" : " requests") +
                                         " still running " + seconds(options_.shutdown_grace) + " after " +
                                         (stopped ? "the stop" : "the end of input") + ", cancelled now; serving ends once " +
                                         (n == 1 ? "it returns: " : "they return: ") + describe_in_flight());
    connection_.close();
    auto next_report = clock::now() + report_every;
    wait_for_requests([&] {
      if (clock::now() >= next_report) {
        next_report += report_every;
        if (connection_.requests_in_flight() > 0)
          log_diagnostic(srv_.options(), "stdio: still waiting for cancelled requests to return: " + describe_in_flight());
      }
      return true;
    });
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    serving_cv_.notify_all();
    watchdog_.stop();
  }

  static constexpr std::chrono::seconds report_every{10};

  // Waits while requests are in flight and go_on() says so. On the watchdog's thread (it met the
  // end while reading), it keeps the pool's time meanwhile: calls queued behind stalled ones must
  // still get threads during the grace.
  template <class GoOn>
  void wait_for_requests(GoOn go_on) {
    const bool keep_time = std::this_thread::get_id() != serving_thread_;
    const auto step = keep_time ? std::chrono::milliseconds(tick_ms()) : std::chrono::milliseconds(5);
    while (connection_.requests_in_flight() > 0 && go_on()) {
      std::this_thread::sleep_for(step);
      if (keep_time) tick_in_place();
    }
  }

  // "tool 'hold' (running 10.4 s), resources/read (running 10.1 s)"
  std::string describe_in_flight() const {
    const std::vector<request_in_flight> all = connection_.in_flight();
    std::string text;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > 0) text += ", ";
      text += all[i].what;
      text += " (running " + seconds(all[i].age) + ")";
    }
    return text;
  }

  static std::string seconds(std::chrono::milliseconds d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(d.count()) / 1000.0);
    return text;
  }

  // Once per budget, on the watchdog's thread. When one call (or write) has held the serving thread
  // for a whole budget, reads in its place until it is free again. The chunk the serving thread was
  // reading from stays alive (retired) while that call is still on its stack.
  void on_tick() {
    {
      std::lock_guard lock(mutex_);
      // holder_ changes with the take, under the lock: a serving thread that finds its stamp taken
      // and then waits for the lock sees that reading is no longer its own.
      if (done_) return;
    }
    pool_.check();
    {
      std::lock_guard lock(mutex_);
      if (done_ || !watchdog_.take(busy_)) return;
      holder_ = holder::watchdog;
    }
    // Not the previous retired chunk's place: rest_ may still point into it, when the serving
    // thread took reading back in the middle of a chunk the watchdog had begun (seen under ASan).
    retired_chunks_.push_back(std::move(chunk_));
    chunk_.reset(new char[chunk_size]);
    // What the serving thread held back goes now (the long call may be waiting on it), written by
    // the writer's own thread: this one must go on reading whatever the client does.
    out_->keep_out_of_writes(std::this_thread::get_id());
    out_->release_elsewhere();
    if (read_loop(holder::watchdog)) end_of_input();
  }

  int in_fd_;
  const stdio_options& options_;
  std::shared_ptr<fd_writer> out_;
  const std::size_t workers_;
  std::atomic<std::size_t> pooled_{0};         // calls posted to the pool and not yet finished
  recent_calls calls_;  // all calls, inline and pooled
  // Stamp 0 is the serving thread's (busy_), the rest the pool's. Its thread, which runs on_tick,
  // is stopped first (the destructor, or serve()).
  watchdog watchdog_;
  watchdog::stamp& busy_;  // the serving thread's: held while it runs a call or writes
  thread_pool pool_;
  connection connection_;
  server& srv_;
  stop_watch stop_;

  // Owned by whichever thread holds the right to read.
  std::unique_ptr<char[]> chunk_;
  std::vector<std::unique_ptr<char[]>> retired_chunks_;
  std::string_view rest_;  // read but not yet handled
  std::string partial_;    // the start of a line whose newline has not arrived yet
  std::string last_line_;
  bool skipping_ = false;
  bool at_end_ = false;

  // The serving thread's own.
  std::thread::id serving_thread_;
  bool inline_allowed_ = false;
  bool share_next_ = false;  // the line being handled may go to the pool (see worth_sharing)
  bool job_ran_ = false;     // the line being handled gave the executor a call
  std::chrono::steady_clock::duration inline_job_{};  // how long that call ran here
  long long recent_line_ns_ = 0;  // a running average of the reading thread's own work on a call's line
  bool timing_line_ = false;      // the line being handled is timed, with its call if run here
  unsigned lines_seen_ = 0;
  bool lost_ = false;
  int held_lines_ = 0;  // lines handled since the last write

  std::mutex mutex_;  // guards what follows
  std::condition_variable serving_cv_;
  holder holder_ = holder::serving;
  bool serving_waiting_ = false;
  bool done_ = false;
};

}  // namespace detail

MCP_DECL int serve_stream(server& srv, int in_fd, int out_fd, stdio_options options) {
  detail::stdio_reader reader(srv, in_fd, options, std::make_shared<detail::fd_writer>(out_fd, options.max_queued_output));
  return reader.serve();
}

MCP_DECL int serve_stdio(server& srv, stdio_options options) {
  detail::stop_signals caught(options.catch_signals);
  detail::prepare_stdio();
  return serve_stream(srv, detail::stdin_fd, detail::stdout_fd, options);
}

MCP_DECL void stop_stdio() noexcept { detail::request_stop(); }

}  // namespace v0
}  // namespace mcp
