// A task store that survives a restart: one JSON file per task in a folder, each written whole
// with mcp::replace_file, so a kill at any moment leaves every task as it was before the change or
// after it. For one server process at a time (a store shared by processes needs a database: the
// Redis store).
//
//   mcp::enable_tasks(srv, {std::make_shared<mcp::file_task_store>("/var/lib/app/tasks")});
//
// A task that was working or waiting for input when the process stopped has lost its handler: the
// store reopens it as failed, saying so, rather than leave a client polling a task nobody runs.
#pragma once

#include <mcp/stores/durable_file.hpp>
#include <mcp/ext/task_store.hpp>
#include <mcp/error.hpp>
#include <mcp/json/parse.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// Threads: every member is safe from any thread at once (one mutex; a change is on disk before
// the call returns and before any other thread sees it).
class file_task_store final : public task_store {
 public:
  using clock = memory_task_store::clock;

  // Opens `folder` (making it when it does not exist; its parent must) and reads the tasks in it.
  // Throws mcp::error when the folder cannot be made or listed. Files that are not task records
  // are left alone (unreadable()).
  explicit file_task_store(std::filesystem::path folder, std::size_t max_tasks = 10000, clock now = {})
      : folder_(std::move(folder)), max_tasks_(max_tasks == 0 ? 1 : max_tasks), now_(std::move(now)) {
    std::error_code ec;
    // One level only: a mistyped path must not grow a tree of folders somewhere unexpected.
    std::filesystem::create_directory(folder_, ec);
    if (ec) throw mcp::error(error_code::task_refused, "cannot make the task folder '" + folder_.string() + "': " + ec.message());
    load();
  }

  task_record create(task_record task) override {
    check_id(task.id);
    const std::int64_t t = now();
    task.created_at = t;
    task.last_updated_at = t;
    std::lock_guard lock(mutex_);
    if (tasks_.count(task.id)) throw mcp::error(error_code::task_refused, "A task with the id '" + task.id + "' already exists");
    if (tasks_.size() >= max_tasks_) remove_expired_locked(t);
    if (tasks_.size() >= max_tasks_) make_room_locked();
    save(task);
    return tasks_.emplace(task.id, std::move(task)).first->second;
  }

  std::optional<task_record> get(const std::string& task_id) override {
    const std::int64_t t = now();
    std::lock_guard lock(mutex_);
    auto it = tasks_.find(task_id);
    if (it == tasks_.end()) return std::nullopt;
    if (it->second.expired(t)) {
      erase_locked(it);
      return std::nullopt;
    }
    return it->second;
  }

  update_outcome update(const std::string& task_id, const task_update& change) override {
    const std::int64_t t = now();
    std::lock_guard lock(mutex_);
    auto it = tasks_.find(task_id);
    if (it == tasks_.end()) return update_outcome::unknown;
    if (it->second.expired(t)) {
      erase_locked(it);
      return update_outcome::unknown;
    }
    task_record changed = it->second;  // memory changes only once the disk has the change
    update_outcome outcome = changed.apply(change, t);
    if (outcome != update_outcome::applied) return outcome;
    save(changed);
    it->second = std::move(changed);
    return outcome;
  }

  std::size_t remove_expired() override {
    const std::int64_t t = now();
    std::lock_guard lock(mutex_);
    return remove_expired_locked(t);
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return tasks_.size();
  }
  const std::filesystem::path& folder() const { return folder_; }
  // The files of the folder that could not be read as task records when it was opened, each with
  // the reason; they stay where they are for someone to look at.
  const std::vector<std::string>& unreadable() const { return unreadable_; }

 private:
  // A task file's name is its id: ids the SDK makes are 32 hex digits; anything else that could
  // name another file (a '/', "..", a drive) is refused.
  static void check_id(const std::string& id) {
    bool ok = !id.empty() && id.size() <= 128;
    for (char c : id) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_');
    if (!ok) throw mcp::error(error_code::task_refused, "A task id for a file store is 1 to 128 letters, digits, '-' or '_'");
  }
  std::string path_of(const std::string& id) const { return (folder_ / (id + ".json")).string(); }
  std::int64_t now() const { return now_ ? now_() : detail::unix_ms_now(); }

  void save(const task_record& task) const {
    std::string problem = replace_file(path_of(task.id), task.to_json().dump());
    if (!problem.empty()) throw mcp::error(error_code::task_refused, "The task store cannot keep the task: " + problem);
  }

  void erase_locked(std::map<std::string, task_record>::iterator it) {
    std::error_code ignored;  // a file that cannot be removed is read again, and dropped again, after a restart
    std::filesystem::remove(path_of(it->first), ignored);
    tasks_.erase(it);
  }

  std::size_t remove_expired_locked(std::int64_t t) {
    std::size_t removed = 0;
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      auto next = std::next(it);
      if (it->second.expired(t)) {
        erase_locked(it);
        ++removed;
      }
      it = next;
    }
    return removed;
  }

  void make_room_locked() {  // the ended task updated longest ago goes; live ones never do
    auto oldest = tasks_.end();
    for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
      if (is_terminal(it->second.status) &&
          (oldest == tasks_.end() || it->second.last_updated_at < oldest->second.last_updated_at))
        oldest = it;
    if (oldest == tasks_.end())
      throw mcp::error(error_code::task_refused, "The server holds " + std::to_string(tasks_.size()) +
                                                    " tasks that have not ended, its limit; try again once some have");
    erase_locked(oldest);
  }

  void load() {
    std::error_code ec;
    std::filesystem::directory_iterator entries(folder_, ec);
    if (ec) throw mcp::error(error_code::task_refused, "cannot list the task folder '" + folder_.string() + "': " + ec.message());
    const std::int64_t t = now();
    for (const auto& entry : entries) {
      const std::filesystem::path& p = entry.path();
      if (p.extension() != ".json") continue;  // the .tmp of a write a kill cut short, or someone else's
      std::string why;
      std::optional<std::string> text = read_file(p.string());
      std::optional<json> doc = text ? parse_json(*text, 64, &why) : std::nullopt;
      if (!text) why = "cannot be read";
      std::optional<task_record> task;
      if (doc) try {
          task = task_record::from_json(*doc);
          if (task->id + ".json" != p.filename().string()) {
            why = "holds the task '" + task->id + "', not the one its name says";
            task.reset();
          }
        } catch (const mcp::error& e) {
          why = e.what();
        }
      if (!task) {
        unreadable_.push_back(p.string() + ": " + why);
        continue;
      }
      if (task->expired(t)) {
        std::filesystem::remove(p, ec);
        continue;
      }
      if (!is_terminal(task->status)) {  // its handler ran in the process that stopped
        task_update lost;
        lost.status = task_status::failed;
        lost.error = {{"code", -32603}, {"message", "The server stopped while this task was running; call the tool again"}};
        lost.status_message = "The server stopped while this task was running";
        task->apply(lost, t);
        save(*task);
      }
      tasks_.emplace(task->id, std::move(*task));
    }
  }

  const std::filesystem::path folder_;
  const std::size_t max_tasks_;
  const clock now_;
  mutable std::mutex mutex_;
  std::map<std::string, task_record> tasks_;
  std::vector<std::string> unreadable_;
};

}  // namespace v0
}  // namespace mcp
