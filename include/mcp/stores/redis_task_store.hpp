// A task store in Redis, shared by every server process that names the same Redis and key prefix:
// a task created through one process is read, answered (tasks/update) and cancelled through any
// other, as a load balancer without sticky routing needs. Opt-in: nothing else includes this
// header, and a program that does links hiredis (Debian: libhiredis-dev; CMake: the target
// mcp::redis_task_store where the SDK found hiredis, or pkg-config hiredis; see the README).
//
//   mcp::enable_tasks(srv, {std::make_shared<mcp::redis_task_store>(mcp::redis_options::from_url("redis://127.0.0.1:6379/app:"))});
//
// Each task is one Redis string, its record's JSON, at <prefix><task id>:
//   - create is one SET ... NX PX: an id already taken is refused, and the task is in Redis before
//     create returns (as durable as that Redis is configured to be: appendonly for a restart);
//   - update reads, applies task_record::apply (the one set of rules, here in C++) and writes back
//     under WATCH/MULTI/EXEC, retried when another process or thread changed the task meanwhile;
//   - a task with a ttl carries a Redis expiry at createdAt + ttlMs (PEXPIREAT), so Redis forgets
//     it itself; the record's own expired() is checked on every read as well (clocks differ).
// What comes back from Redis is parsed like untrusted input (size- and depth-limited).
#pragma once

#include <mcp/stores/redis.hpp>
#include <mcp/ext/task_store.hpp>
#include <mcp/error.hpp>
#include <mcp/json/parse.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// Threads: every member is safe from any thread at once, in any number of processes. Each call
// borrows a connection of its own from a small pool (a WATCH belongs to one connection, so calls
// never share one at the same time); a connection that failed is closed, and the next call opens a
// new one, so a Redis that restarts is found again. A Redis that is down or too slow makes the
// call throw mcp::error (task_refused) within connect_timeout + command_timeout or so.
class redis_task_store final : public task_store {
 public:
  using clock = memory_task_store::clock;

  // Connects lazily: constructing never fails for a Redis that is down (the first call says so).
  explicit redis_task_store(redis_options options, clock now = {})
      : pool_(std::move(options), error_code::task_refused, "The task store"), options_(pool_.options()), now_(std::move(now)) {}
  redis_task_store(const redis_task_store&) = delete;
  redis_task_store& operator=(const redis_task_store&) = delete;

  task_record create(task_record task) override {
    check_id(task.id);
    const std::int64_t t = now();
    task.created_at = t;
    task.last_updated_at = t;
    const std::string key = key_of(task.id);
    const std::string text = task.to_json().dump();
    std::vector<std::string> set{"SET", key, text, "NX"};
    if (task.ttl_ms) {
      if (*task.ttl_ms <= 0) throw mcp::error(error_code::task_refused, "A task's ttl must be positive");
      set.push_back("PX");
      set.push_back(std::to_string(*task.ttl_ms));
    }
    // A reused connection may have been dropped by Redis since: one more try on a fresh one. The
    // first SET may have reached Redis all the same, so a refused retry that finds exactly this
    // record there counts as done.
    for (int attempt = 0;; ++attempt) {
      connection c = pool_.borrow(attempt > 0);
      reply r;
      try {
        r = c.command(set);
      } catch (const mcp::error&) {
        if (attempt == 0 && c.reused && c.broken()) continue;
        throw;
      }
      if (r->type == REDIS_REPLY_STATUS) return task;  // OK
      if (r->type != REDIS_REPLY_NIL) throw unexpected(*r, "SET");
      if (attempt > 0) {
        reply mine = c.command({"GET", key});
        if (mine->type == REDIS_REPLY_STRING && std::string_view(mine->str, mine->len) == text) return task;
      }
      throw mcp::error(error_code::task_refused, "A task with the id '" + task.id + "' already exists");
    }
  }

  std::optional<task_record> get(const std::string& task_id) override {
    if (!valid_id(task_id)) return std::nullopt;
    const std::int64_t t = now();
    for (int attempt = 0;; ++attempt) {
      connection c = pool_.borrow(attempt > 0);
      try {
        reply r = c.command({"GET", key_of(task_id)});
        std::optional<task_record> task = record_of(*r, task_id);
        if (task && task->expired(t)) return std::nullopt;  // Redis's own expiry removes it
        return task;
      } catch (const mcp::error&) {
        if (attempt == 0 && c.reused && c.broken()) continue;
        throw;
      }
    }
  }

  update_outcome update(const std::string& task_id, const task_update& change) override {
    if (!valid_id(task_id)) return update_outcome::unknown;
    const std::string key = key_of(task_id);
    std::mt19937 jitter(std::random_device{}());
    bool retried_stale = false;
    bool fresh = false;
    for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
      connection c = pool_.borrow(std::exchange(fresh, false));
      try {
        c.command({"WATCH", key});
        reply current = c.command({"GET", key});
        std::optional<task_record> task = record_of(*current, task_id);
        const std::int64_t t = now();
        if (!task || task->expired(t)) {
          c.command({"UNWATCH"});
          return update_outcome::unknown;
        }
        const update_outcome outcome = task->apply(change, t);
        if (outcome != update_outcome::applied) {
          c.command({"UNWATCH"});
          return outcome;
        }
        // SET drops the key's expiry; PEXPIREAT puts back createdAt + ttlMs (a ttl the update may
        // have changed). One round trip: MULTI, SET, [PEXPIREAT], EXEC pipelined.
        std::vector<std::vector<std::string>> batch{{"MULTI"}, {"SET", key, task->to_json().dump()}};
        if (task->ttl_ms) batch.push_back({"PEXPIREAT", key, std::to_string(task->created_at + *task->ttl_ms)});
        batch.push_back({"EXEC"});
        std::vector<reply> replies = c.pipeline(batch);
        const redisReply& exec = *replies.back();
        if (exec.type == REDIS_REPLY_ARRAY) {
          for (std::size_t i = 0; i < exec.elements; ++i)
            if (exec.element[i]->type == REDIS_REPLY_ERROR)
              throw mcp::error(error_code::task_refused,
                               "Redis refused the task's change: " + std::string(exec.element[i]->str, exec.element[i]->len));
          return update_outcome::applied;
        }
        if (exec.type != REDIS_REPLY_NIL) throw unexpected(exec, "EXEC");
      } catch (const mcp::error&) {
        // A connection Redis dropped while idle fails before EXEC is sent, or with EXEC's answer
        // lost: either way applying the change again is what the caller asked for.
        if (!retried_stale && c.reused && c.broken()) {
          retried_stale = true;
          fresh = true;
          continue;
        }
        throw;
      }
      // Another writer changed the task between GET and EXEC: read it again, after a short,
      // growing, random pause once the conflicts persist.
      if (attempt >= 2) {
        const int cap = std::min(50, 1 << std::min(attempt, 6));
        std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, cap)(jitter)));
      }
    }
    throw mcp::error(error_code::task_refused, "The task '" + task_id + "' changed under " +
                                                   std::to_string(options_.max_attempts) +
                                                   " updates in a row; too much contention in Redis");
  }

  // Redis forgets expired tasks by itself (their keys expire): nothing to do, and nothing counted.
  std::size_t remove_expired() override { return 0; }

  const redis_options& options() const { return options_; }
  // Connections opened so far (a test sees a dropped one replaced).
  std::size_t connections_opened() const { return pool_.opened(); }

 private:
  using connection = detail::redis_pool::connection;
  using reply = detail::redis_pool::reply;

  std::int64_t now() const { return now_ ? now_() : detail::unix_ms_now(); }
  std::string key_of(const std::string& id) const { return options_.prefix + id; }

  // Ids the SDK makes are 32 hex digits; a bigger or stranger one is refused at create and simply
  // unknown elsewhere (a request's taskId is untrusted: it is never sent to Redis).
  static bool valid_id(const std::string& id) {
    if (id.empty() || id.size() > 128) return false;
    for (char c : id)
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_')) return false;
    return true;
  }
  static void check_id(const std::string& id) {
    if (!valid_id(id))
      throw mcp::error(error_code::task_refused, "A task id for the Redis store is 1 to 128 letters, digits, '-' or '_'");
  }

  mcp::error unexpected(const redisReply& r, const char* what) const {
    return mcp::error(error_code::task_refused,
                      std::string("Redis answered ") + what + " with a reply of type " + std::to_string(r.type));
  }

  // nullopt for a nil reply (no such task); the record, checked, for a string.
  std::optional<task_record> record_of(const redisReply& r, const std::string& id) const {
    if (r.type == REDIS_REPLY_NIL) return std::nullopt;
    if (r.type != REDIS_REPLY_STRING) throw unexpected(r, "GET");
    const std::string at = "The record at '" + key_of(id) + "' in Redis ";
    if (r.len > options_.max_record_bytes)
      throw mcp::error(error_code::task_refused, at + "is " + std::to_string(r.len) + " bytes, more than the " +
                                                     std::to_string(options_.max_record_bytes) + " allowed");
    std::string why;
    std::optional<json> doc = parse_json(std::string_view(r.str, r.len), options_.max_record_depth, &why);
    if (!doc) throw mcp::error(error_code::task_refused, at + "is " + why);
    task_record task = task_record::from_json(*doc);
    if (task.id != id) throw mcp::error(error_code::task_refused, at + "holds the task '" + task.id + "'");
    return task;
  }

  detail::redis_pool pool_;
  const redis_options& options_;  // pool_'s
  const clock now_;
};

}  // namespace v0
}  // namespace mcp
