// How a server runs tasks (ext/tasks.hpp): the worker threads that run task handlers, the runs
// alive in this process (their cancellation), and how a task's ctx.ask() parks it in
// input_required until tasks/update brings the answers. The store holds the truth; this holds
// only what cannot leave the process (threads, waits, cancellation flags), so a shared store
// works with several processes: a waiting worker reads the store, and a wake from this process
// only makes it read sooner. What a store shared by processes does not carry across them: a
// tasks/cancel answered by another process reaches a running handler's ctx.cancelled() only once
// it next waits for input (the store already says cancelled, and its outcome is dropped).
#pragma once

#include <mcp/config.hpp>
#include <mcp/core/context.hpp>
#include <mcp/ext/task_store.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

class task_engine;

// One task's run in this process, from queued to finished. Its ask() runs on the task's threads;
// the engine wakes and cancels it from any thread.
class task_run final : public detached_link {
 public:
  task_run(task_engine& engine, std::string id);
  const std::string& id() const override { return id_; }
  const std::string& task_id() const { return id_; }
  // By tasks/cancel, expiry or shutdown; the handler sees it as ctx.cancelled().
  bool cancelled() const override { return cancelled_.load(); }
  std::map<std::string, json> ask(const std::vector<input_request>& requests,
                                  std::chrono::milliseconds timeout) override;
  void progress(double value, std::optional<double> total, const std::string& message) override;

  // A 2025-11-25 task has no tasks/update to bring answers: its ctx.ask() fails the task, saying so.
  void forbid_asks() { asks_forbidden_ = true; }

  void cancel();
  void wake();

 private:
  task_engine& engine_;
  std::string id_;
  std::atomic<bool> cancelled_{false};
  std::mutex mutex_;
  std::condition_variable woken_;
  std::uint64_t wakes_ = 0;           // under mutex_: a wake between a read of the store and the wait is not lost
  std::set<std::string> keys_used_;   // under mutex_: keys are never reused within a task
  bool asks_forbidden_ = false;       // set before the run starts, read by its own thread
};

// The server's tasks: the store, the worker threads and the runs in this process.
//
// Threads: every member is safe from any thread at once, except that the destructor (which stops
// and joins the workers) must not run on a worker.
class task_engine {
 public:
  // A task's work: runs on a worker, returns the outcome to store (completed or failed).
  using job = std::function<task_update(const std::shared_ptr<task_run>&)>;

  // `changed` is called with a task's id after each change this process makes to it (for
  // notifications/tasks), on the thread that made it, with no lock held.
  task_engine(task_options options, std::function<void(std::string_view)> log,
              std::function<void(const std::string&)> changed = {});
  ~task_engine();
  task_engine(const task_engine&) = delete;
  task_engine& operator=(const task_engine&) = delete;

  task_store& store() { return *store_; }
  const task_options& options() const { return options_; }

  // Stores a new working task of `owner` (task_record::owner) and queues `work` for it; returns
  // the task as stored (so a
  // tasks/get finds it before the caller answers). Throws protocol_error (-32603) when the server
  // is stopping, has as many tasks running and queued as it allows, or the store refuses.
  task_record start(std::string owner, job work);
  // This process's part of tasks/cancel (the store already says cancelled): the run's context
  // sees cancelled(), and a run waiting for input stops waiting.
  void cancel(const std::string& task_id);
  // A run waiting for input reads the store now (tasks/update delivered answers).
  void wake(const std::string& task_id);
  // Stops: queued tasks fail ("the server stopped"), running ones are cancelled, workers joined.
  void shutdown();
  bool stopping() const;
  // Applies `change` to the store and tells `changed` when it was applied.
  update_outcome update(const std::string& task_id, const task_update& change);
  // Runs queued or running here (for tests and metrics).
  std::size_t runs() const;
  std::size_t threads() const;

 private:
  void work_loop();
  void finish(task_run& run, task_update outcome);

  std::shared_ptr<task_store> store_;
  task_options options_;
  std::function<void(std::string_view)> log_;
  std::function<void(const std::string&)> changed_;
  mutable std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<std::pair<std::shared_ptr<task_run>, job>> queue_;
  std::map<std::string, std::shared_ptr<task_run>> runs_;  // queued or running here, by task id
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point next_sweep_{};
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/ext/impl/task_engine.ipp>
#endif
