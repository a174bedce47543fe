// Out-of-line bodies of ext/detail/task_engine.hpp. Included once, from its bottom.
#pragma once

#include <mcp/json/detail/writer.hpp>

#include <algorithm>
#include <cmath>
#include <exception>

namespace mcp {
inline namespace v0 {
namespace detail {

namespace task_engine_impl {
// How long a waiting run sleeps between reads of the store when nothing wakes it: a store shared
// with other processes gets answers this way, a wake from this process cuts it short.
constexpr std::chrono::milliseconds reread_interval{250};

inline json stopped_error() {
  return json{{"code", error_code::internal_error}, {"message", "The server stopped before the task finished"}};
}
}  // namespace task_engine_impl

MCP_DECL task_run::task_run(task_engine& engine, std::string id) : engine_(engine), id_(std::move(id)) {}

MCP_DECL void task_run::cancel() {
  cancelled_ = true;
  wake();
}

MCP_DECL void task_run::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  woken_.notify_all();
}

MCP_DECL std::map<std::string, json> task_run::ask(const std::vector<input_request>& requests,
                                                  std::chrono::milliseconds timeout) {
  if (asks_forbidden_)
    throw protocol_error(error_code::invalid_request,
                         "A task of a 2025-11-25 session cannot ask the client for input (that era has no tasks/update); "
                         "call the tool without a task, or from a 2026-07-28 client");
  // Each question goes out under a key this task has never used: the handler's own key when it
  // is fresh, numbered when the handler asks under a key again (a second round of one question).
  std::vector<std::pair<std::string, std::string>> keys;  // the handler's, the wire's
  json questions = json::object();
  {
    std::lock_guard lock(mutex_);
    for (const auto& r : requests) {
      std::string wire = r.key;
      for (int n = 2; keys_used_.count(wire); ++n) wire = r.key + "-" + std::to_string(n);
      keys_used_.insert(wire);
      keys.emplace_back(r.key, wire);
      json params = r.params;
      expand_raw_json(params);  // a typed form's ordered text: the store keeps plain JSON
      questions[wire] = json{{"method", r.method}, {"params", std::move(params)}};
    }
  }
  std::vector<std::string> wire_keys;
  for (const auto& k : keys) wire_keys.push_back(k.second);
  auto give_up = [&](const std::string& why) -> std::map<std::string, json> {
    task_update withdraw;
    withdraw.forget = wire_keys;
    try {
      engine_.update(id_, withdraw);
    } catch (const std::exception&) {
      // the store is failing: the task cannot go on either way
    }
    throw request_timeout(why);
  };

  task_update asking;
  asking.ask = std::move(questions);
  if (cancelled_ || engine_.update(id_, asking) != update_outcome::applied) {
    cancelled_ = true;
    throw request_timeout("The task was cancelled before the client could be asked");
  }
  // A timeout of centuries (milliseconds::max() for "no limit") must not overflow the clock.
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = timeout >= std::chrono::hours(24 * 365 * 100) ? std::chrono::steady_clock::time_point::max()
                                                                      : start + timeout;
  for (;;) {
    std::uint64_t seen;
    {
      std::lock_guard lock(mutex_);
      seen = wakes_;
    }
    if (cancelled_) return give_up("The task was cancelled while it waited for the client's input");
    auto record = engine_.store().get(id_);
    if (!record || is_terminal(record->status)) {
      cancelled_ = true;  // cancelled or expired: the handler should stop
      throw request_timeout("The task ended while it waited for the client's input");
    }
    const bool all = std::all_of(wire_keys.begin(), wire_keys.end(),
                                 [&](const std::string& k) { return record->input_responses.contains(k); });
    if (all) {
      std::map<std::string, json> answers;
      for (const auto& [mine, wire] : keys) answers[mine] = record->input_responses[wire];
      task_update taken;
      taken.forget = wire_keys;
      engine_.update(id_, taken);
      return answers;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return give_up("The client did not answer in time");
    std::unique_lock lock(mutex_);
    woken_.wait_for(lock, std::min<std::chrono::steady_clock::duration>(deadline - now, task_engine_impl::reread_interval),
                    [&] { return wakes_ != seen; });
  }
}

MCP_DECL void task_run::progress(double value, std::optional<double> total, const std::string& message) {
  auto number = [](double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    return json(v).dump();
  };
  task_update update;
  update.status_message = !message.empty() ? message : total ? number(value) + " of " + number(*total) : number(value);
  try {
    engine_.update(id_, update);  // an ended task keeps its last message
  } catch (const std::exception&) {
    // progress is advice: a failing store shows when the task ends
  }
}

MCP_DECL task_engine::task_engine(task_options options, std::function<void(std::string_view)> log,
                                 std::function<void(const std::string&)> changed)
    : store_(options.store ? options.store : std::make_shared<memory_task_store>()),
      options_(std::move(options)),
      log_(std::move(log)),
      changed_(std::move(changed)) {
  if (options_.max_running == 0) options_.max_running = 1;
}

MCP_DECL task_engine::~task_engine() { shutdown(); }

MCP_DECL update_outcome task_engine::update(const std::string& task_id, const task_update& change) {
  const update_outcome outcome = store_->update(task_id, change);
  if (outcome == update_outcome::applied && changed_) changed_(task_id);
  return outcome;
}

MCP_DECL task_record task_engine::start(std::string owner, job work) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) throw protocol_error(error_code::internal_error, "The server is stopping and takes no new tasks");
    if (runs_.size() >= options_.max_running + options_.max_queued)
      throw protocol_error(error_code::internal_error,
                           "The server is busy: it has " + std::to_string(runs_.size()) +
                               " tasks running or waiting to run, its limit. Try again later.");
  }
  const auto now = std::chrono::steady_clock::now();
  bool sweep = false;
  {
    std::lock_guard lock(mutex_);
    if (now >= next_sweep_) {
      next_sweep_ = now + std::chrono::minutes(1);
      sweep = true;
    }
  }
  task_record seed;
  seed.id = new_task_id();
  seed.owner = std::move(owner);
  if (options_.ttl.count() > 0) seed.ttl_ms = options_.ttl.count();
  if (options_.poll_interval.count() > 0) seed.poll_interval_ms = options_.poll_interval.count();
  task_record stored;
  try {
    if (sweep) store_->remove_expired();
    stored = store_->create(std::move(seed));
  } catch (const std::exception& e) {
    // The client learns that, not why: a store's message may name a path or an address.
    if (log_) log_(std::string("a new task could not be stored: ") + e.what());
    throw protocol_error(error_code::internal_error, "The task could not be stored; try again later");
  }
  auto run = std::make_shared<task_run>(*this, stored.id);
  bool queued = false;
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      runs_[stored.id] = run;
      queue_.emplace_back(run, std::move(work));
      queued = true;
      // A thread per task up to max_running; the idle ones are counted so a burst gets enough.
      if (queue_.size() > idle_ && threads_.size() < options_.max_running) threads_.emplace_back([this] { work_loop(); });
    }
  }
  if (!queued) {
    task_update failed;
    failed.status = task_status::failed;
    failed.error = task_engine_impl::stopped_error();
    store_->update(stored.id, failed);
    throw protocol_error(error_code::internal_error, "The server is stopping and takes no new tasks");
  }
  queued_.notify_one();
  return stored;
}

MCP_DECL void task_engine::work_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (stopping_) return;  // shutdown fails what is still queued
    auto [run, work] = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task_update outcome;
    if (!run->cancelled()) {  // a task cancelled while queued never starts
      try {
        outcome = work(run);
      } catch (const std::exception& e) {  // the job maps the handler's failures; this is a bug of the SDK's
        if (log_) log_(std::string("task ") + run->task_id() + " failed: " + e.what());
        outcome.status = task_status::failed;
        outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
      } catch (...) {
        outcome.status = task_status::failed;
        outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
      }
    }
    finish(*run, std::move(outcome));
    lock.lock();
    runs_.erase(run->task_id());
  }
}

MCP_DECL void task_engine::finish(task_run& run, task_update outcome) {
  if (run.cancelled()) {
    // Cancelled by tasks/cancel (the store already says so), by expiry (the store forgot it), or by
    // shutdown (the task did not finish: it failed).
    outcome = task_update{};
    if (stopping()) {
      outcome.status = task_status::failed;
      outcome.error = task_engine_impl::stopped_error();
    } else {
      outcome.status = task_status::cancelled;
    }
  }
  try {
    update(run.task_id(), outcome);  // a task that ended meanwhile keeps its end
  } catch (const std::exception& e) {
    if (log_) log_(std::string("task ") + run.task_id() + ": its outcome could not be stored: " + e.what());
  }
}

MCP_DECL void task_engine::cancel(const std::string& task_id) {
  std::shared_ptr<task_run> run;
  {
    std::lock_guard lock(mutex_);
    auto it = runs_.find(task_id);
    if (it == runs_.end()) return;
    run = it->second;
  }
  run->cancel();
}

MCP_DECL void task_engine::wake(const std::string& task_id) {
  std::shared_ptr<task_run> run;
  {
    std::lock_guard lock(mutex_);
    auto it = runs_.find(task_id);
    if (it == runs_.end()) return;
    run = it->second;
  }
  run->wake();
}

MCP_DECL void task_engine::shutdown() {
  std::deque<std::pair<std::shared_ptr<task_run>, job>> dropped;
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(queue_);
    for (const auto& [id, run] : runs_) run->cancel();
    threads.swap(threads_);
  }
  queued_.notify_all();
  for (const auto& [run, work] : dropped) {
    task_update failed;
    failed.status = task_status::failed;
    failed.error = task_engine_impl::stopped_error();
    try {
      store_->update(run->task_id(), failed);
    } catch (const std::exception&) {
      // stopping anyway; a shared store's task will expire
    }
  }
  for (auto& t : threads) {
    if (t.get_id() == std::this_thread::get_id())
      t.detach();  // a handler that destroyed its own server: the thread ends when it returns
    else if (t.joinable())
      t.join();
  }
}

MCP_DECL bool task_engine::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

MCP_DECL std::size_t task_engine::runs() const {
  std::lock_guard lock(mutex_);
  return runs_.size();
}

MCP_DECL std::size_t task_engine::threads() const {
  std::lock_guard lock(mutex_);
  return threads_.size();
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
