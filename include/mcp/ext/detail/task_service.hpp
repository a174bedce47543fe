// The tasks extension on the engine's task seam (core/task_seam.hpp): a tools/call that becomes a
// task, the task's run on a worker, tasks/get, tasks/update and tasks/cancel (and the 2025-11-25
// experimental tasks/get, tasks/cancel, tasks/result, tasks/list), and notifications/tasks to the
// listen streams that asked for them.
#pragma once

#include <mcp/config.hpp>
#include <mcp/core/server.hpp>
#include <mcp/core/task_seam.hpp>
#include <mcp/ext/detail/task_engine.hpp>
#include <mcp/ext/task_store.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Threads: as task_seam says; every member is safe from any thread at once.
class task_service final : public task_seam {
 public:
  task_service(server& srv, task_options options);

  json take(const tool_call& call) override;
  json begun(const tool_call& call, json carried) override;
  json listen(const json& wanted, const json& client_capabilities, const identity* caller) override;
  void tool_added(const tool_definition& tool) override;
  bool offered() const override { return offered_.load(); }
  void stop() override { engine_.shutdown(); }

  // Runs queued or running in this process, and the worker threads started for them.
  std::size_t runs() const { return engine_.runs(); }
  std::size_t threads() const { return engine_.threads(); }

 private:
  // A tools/call that becomes a task: its CreateTaskResult. `legacy`: a task-augmented call of a
  // 2025-11-25 session (CreateTaskResult {task}, tasks/result, tasks/list; no input while it runs).
  json start(const tool_call& call, json carried, bool legacy);
  task_update run(const detached_call& call, const std::shared_ptr<task_run>& run, json carried, bool legacy) const;
  void changed(const std::string& task_id);
  json method(context& ctx, const json& params, const std::string& name);
  json legacy_method(context& ctx, const json& params, const std::string& name);
  // Whom a task belongs to: the authenticated caller, else (2025-11-25) the session, else nobody.
  static std::string owner_of(const context& ctx, bool legacy);
  protocol_error store_failure(const std::exception& e) const;
  void log(std::string_view text) const;

  server& srv_;
  std::atomic<bool> offered_{false};  // a tool with a task mode is registered
  std::once_flag methods_;
  // The 2025-11-25 tasks of each owner (owner_of), newest last, for tasks/list: the store has no
  // listing, and sessions of that era live in this process anyway.
  std::mutex legacy_mutex_;
  std::map<std::string, std::vector<std::string>> legacy_tasks_;
  // Last: its workers use the rest, so it goes first.
  task_engine engine_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/ext/impl/task_service.ipp>
#endif
