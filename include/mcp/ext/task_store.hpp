// What a task is (task_record), the one way it changes (task_update, applied by
// task_record::apply) and where tasks live (task_store; memory_task_store is the default). A store
// shared by several processes (stores/file_task_store.hpp, stores/redis_task_store.hpp)
// implements task_store over the same records: they are plain data and serialise with
// to_json/from_json. ext/tasks.hpp turns tasks on.
#pragma once

#include <mcp/config.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

inline constexpr const char* tasks_extension = "io.modelcontextprotocol/tasks";

// completed, failed and cancelled are terminal: nothing leaves them.
enum class task_status { working, input_required, completed, failed, cancelled };

inline const char* to_string(task_status s) {
  switch (s) {
    case task_status::working: return "working";
    case task_status::input_required: return "input_required";
    case task_status::completed: return "completed";
    case task_status::failed: return "failed";
    case task_status::cancelled: return "cancelled";
  }
  return "working";
}
inline std::optional<task_status> parse_task_status(std::string_view s) {
  for (auto v : {task_status::working, task_status::input_required, task_status::completed, task_status::failed,
                 task_status::cancelled})
    if (s == to_string(v)) return v;
  return std::nullopt;
}
inline bool is_terminal(task_status s) {
  return s == task_status::completed || s == task_status::failed || s == task_status::cancelled;
}

// One change to a task, as data (a store may ship it to another process or a script). The store
// applies it atomically with task_record::apply. A value: copy it, read it from any thread.
struct task_update {
  std::optional<task_status> status;  // completed (with result), failed (with error), cancelled, working
  std::optional<std::string> status_message;
  json result = nullptr;  // the CallToolResult, with status completed
  json error = nullptr;   // {code, message, data?}, with status failed
  // Questions the task puts to the client: key → {method, params}. Added to those outstanding;
  // the task is then input_required.
  json ask = json::object();
  // Answers from tasks/update: key → the client's result. Only keys outstanding count (others are
  // ignored, as the spec asks); each answered key moves from inputRequests to the answers kept for
  // the worker. With none left outstanding, the task is working again.
  json answers = json::object();
  // Keys the worker is done with (answered and taken, or given up on): dropped from both the
  // outstanding questions and the kept answers.
  std::vector<std::string> forget;
  bool cancel = false;  // tasks/cancel: cancel_requested, and status cancelled
  std::optional<std::optional<std::int64_t>> ttl_ms;  // a new ttl (nullopt inside: unlimited)
  std::optional<std::int64_t> poll_interval_ms;

  json to_json() const;
  static task_update from_json(const json& j);  // throws mcp::error for a malformed update
};

enum class update_outcome {
  applied,
  terminal,  // the task had already ended: nothing changed
  unknown,   // no such task (never created, or expired)
};

// A task as a store keeps it. Times are milliseconds since the Unix epoch, set by the store. A
// value: a store hands out copies, so one thread's record never changes under another's.
struct task_record {
  std::string id;  // unguessable (128 random bits): knowing it is what lets a client reach the task
  task_status status = task_status::working;
  std::string status_message;
  std::int64_t created_at = 0;
  std::int64_t last_updated_at = 0;
  std::optional<std::int64_t> ttl_ms;  // from created_at; nullopt: kept until the store is told
  std::optional<std::int64_t> poll_interval_ms;
  json result = nullptr;                    // completed
  json error = nullptr;                     // failed
  json input_requests = json::object();     // input_required: key → {method, params}
  json input_responses = json::object();    // answered, not yet taken by the worker
  bool cancel_requested = false;
  // Who created it: the authenticated caller's subject (identity::subject), whom alone the server
  // lets see and steer it; empty when the transport authenticated nobody.
  std::string owner;

  // Past created_at + ttl_ms: the store may forget it.
  bool expired(std::int64_t now) const { return ttl_ms && now >= created_at + *ttl_ms; }
  // Applies `change` as of `now` (the one set of transition rules; every store calls it inside its
  // own lock or transaction). A terminal task is left as it is.
  update_outcome apply(const task_update& change, std::int64_t now);

  json to_json() const;
  static task_record from_json(const json& j);  // throws mcp::error for a malformed record
  // The DetailedTask of tasks/get (2026-07-28): the task's fields, plus inputRequests, result or
  // error as its status has them.
  json detailed() const;
  // The Task fields alone (CreateTaskResult, without resultType).
  json summary() const;
  // The Task of the 2025-11-25 experimental tasks: ttl and pollInterval where 2026-07-28 says
  // ttlMs and pollIntervalMs; tasks/get, tasks/cancel and tasks/list of that era send it.
  json legacy_summary() const;
};

// Where tasks live. Every member may be called from any thread at once (the server calls them
// from request threads and task workers); an implementation locks, or relies on its database.
class task_store {
 public:
  virtual ~task_store() = default;
  // Stores a new task, stamping created_at and last_updated_at with the store's clock, and returns
  // it as stored. When it returns, get() finds it from any thread (and, for a shared store, any
  // process): the server answers CreateTaskResult only after this. Throws mcp::error when the task
  // cannot be kept (the id is taken, the store is full or down).
  virtual task_record create(task_record task) = 0;
  // The task, or nullopt when there is none by that id or it has expired.
  virtual std::optional<task_record> get(const std::string& task_id) = 0;
  // Applies `change` atomically (task_record::apply, with the store's clock).
  virtual update_outcome update(const std::string& task_id, const task_update& change) = 0;
  // Forgets expired tasks; returns how many. The server calls it now and then.
  virtual std::size_t remove_expired() = 0;
};

// The default store: tasks in this process's memory, gone when it exits. At most `max_tasks` at
// once: when full, expired tasks go first, then the oldest ended one; a store full of live tasks
// refuses a new one.
//
// Threads: every member is safe from any thread at once (one mutex).
class memory_task_store final : public task_store {
 public:
  // Milliseconds since the Unix epoch; tests pass their own to step time.
  using clock = std::function<std::int64_t()>;
  explicit memory_task_store(std::size_t max_tasks = 10000, clock now = {});

  task_record create(task_record task) override;
  std::optional<task_record> get(const std::string& task_id) override;
  update_outcome update(const std::string& task_id, const task_update& change) override;
  std::size_t remove_expired() override;
  std::size_t size() const;

 private:
  std::int64_t now() const;
  std::size_t remove_expired_locked(std::int64_t now);

  mutable std::mutex mutex_;
  std::map<std::string, task_record> tasks_;
  std::size_t max_tasks_;
  clock now_;
};

// How a server runs tasks (mcp::enable_tasks).
struct task_options {
  std::shared_ptr<task_store> store;  // null: a memory_task_store
  // How long a task is kept from its creation (ttlMs); zero: unlimited (ttlMs null).
  std::chrono::milliseconds ttl = std::chrono::hours(1);
  // How often a client should poll tasks/get (pollIntervalMs).
  std::chrono::milliseconds poll_interval{500};
  // Task handlers running at once, each on a worker thread of the server's (a task waiting for
  // input holds its thread); more tasks wait in a queue of at most max_queued, beyond which
  // tools/call is refused with an internal error saying the server is busy.
  std::size_t max_running = 16;
  std::size_t max_queued = 256;
};

namespace detail {
// "2026-11-25T16:44:08.123Z" for a time in milliseconds since the Unix epoch (UTC).
std::string iso8601(std::int64_t unix_ms);
// 128 random bits as 32 hex digits.
std::string new_task_id();
std::int64_t unix_ms_now();
}  // namespace detail

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/ext/impl/task_store.ipp>
#endif
