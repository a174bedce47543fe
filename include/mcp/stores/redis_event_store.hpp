// 2025-11-25 resumable SSE streams shared through Redis (transport/event_store.hpp says what a
// store is for): a client whose stream broke resumes it through any process that names the same
// Redis and key prefix. Opt-in: nothing else includes this header, and a program that does links
// hiredis (stores/redis.hpp says how).
//
//   mcp::http::options opts;
//   opts.event_store = std::make_shared<mcp::http::redis_event_store>(mcp::redis_options::from_url("redis://127.0.0.1:6379/app:"));
//
// Each stream is two keys: <prefix>sse:<stream> (a hash: its owner, and "end" once its last event
// is written) and <prefix>sse:<stream>:events (a list of "<seq> <SSE text>", the newest
// `max_events` kept). Both expire `keep` after the stream's last write.
#pragma once

#include <mcp/stores/redis.hpp>
#include <mcp/error.hpp>
#include <mcp/transport/event_store.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace http {

// Threads: every member is safe from any thread at once, in any number of processes (each call
// borrows a connection of its own). A Redis that is down or too slow makes a call throw
// mcp::error (event_store_unavailable) within redis_options' timeouts.
class redis_event_store final : public event_store {
 public:
  // Connects lazily: constructing never fails for a Redis that is down.
  explicit redis_event_store(redis_options options, std::chrono::milliseconds keep = std::chrono::minutes(10),
                             std::size_t max_events = 1024)
      : pool_(std::move(options), error_code::event_store_unavailable, "The SSE event store"),
        keep_ms_(std::to_string(std::max<long long>(keep.count(), 1))),
        max_events_(max_events ? max_events : 1) {}

  void open(const std::string& stream, const std::string& owner) override {
    const std::string key = key_of(stream);
    run({{"MULTI"}, {"HSET", key, "owner", owner}, {"PEXPIRE", key, keep_ms_}, {"EXEC"}});
  }

  void append(const std::string& stream, std::uint64_t seq, const std::string& event, bool last) override {
    const std::string key = key_of(stream);
    const std::string events = key + ":events";
    std::vector<std::vector<std::string>> commands{
        {"MULTI"},
        {"RPUSH", events, std::to_string(seq) + " " + event},
        {"LTRIM", events, "-" + std::to_string(max_events_), "-1"},
        {"PEXPIRE", events, keep_ms_},
        {"PEXPIRE", key, keep_ms_}};
    if (last) commands.push_back({"HSET", key, "end", "1"});
    commands.push_back({"EXEC"});
    run(commands);
  }

  std::optional<replay> read(const std::string& stream, std::uint64_t after) override {
    const std::string key = key_of(stream);
    auto replies = run({{"MULTI"}, {"HGETALL", key}, {"LRANGE", key + ":events", "0", "-1"}, {"EXEC"}});
    const redisReply& exec = *replies.back();
    if (exec.type != REDIS_REPLY_ARRAY || exec.elements != 2) throw pool_.unexpected(exec, "EXEC");
    const redisReply& fields = *exec.element[0];
    const redisReply& list = *exec.element[1];
    if (fields.type != REDIS_REPLY_ARRAY || list.type != REDIS_REPLY_ARRAY) throw pool_.unexpected(exec, "EXEC");
    if (fields.elements == 0) return std::nullopt;  // never opened, or expired
    replay out;
    bool opened = false;
    for (std::size_t i = 0; i + 1 < fields.elements; i += 2) {
      const std::string name(fields.element[i]->str, fields.element[i]->len);
      const std::string value(fields.element[i + 1]->str, fields.element[i + 1]->len);
      if (name == "owner") {
        out.owner = value;
        opened = true;
      } else if (name == "end") {
        out.complete = true;
      }
    }
    if (!opened) return std::nullopt;  // not a stream of ours
    for (std::size_t i = 0; i < list.elements && i < max_events_; ++i) {
      const redisReply& item = *list.element[i];
      if (item.type != REDIS_REPLY_STRING) continue;
      std::size_t space = 0;
      std::uint64_t seq = 0;
      for (; space < item.len && space < 19 && item.str[space] >= '0' && item.str[space] <= '9'; ++space)
        seq = seq * 10 + static_cast<std::uint64_t>(item.str[space] - '0');
      if (space == 0 || space >= item.len || item.str[space] != ' ') continue;  // not written by append()
      if (seq <= after || (!out.events.empty() && seq <= out.events.back().first)) continue;  // a retried append
      out.events.emplace_back(seq, std::string(item.str + space + 1, item.len - space - 1));
    }
    return out;
  }

 private:
  std::string key_of(const std::string& stream) const { return pool_.options().prefix + "sse:" + stream; }

  // One MULTI/EXEC round trip. A pooled connection Redis dropped while idle is retried once on a
  // fresh one (a repeated append is told apart by its number when read).
  std::vector<detail::redis_pool::reply> run(const std::vector<std::vector<std::string>>& commands) {
    for (int attempt = 0;; ++attempt) {
      auto c = pool_.borrow(attempt > 0);
      try {
        auto replies = c.pipeline(commands);
        if (replies.back()->type != REDIS_REPLY_ARRAY) throw pool_.unexpected(*replies.back(), "EXEC");
        return replies;
      } catch (const mcp::error&) {
        if (attempt == 0 && c.reused && c.broken()) continue;
        throw;
      }
    }
  }

  detail::redis_pool pool_;
  const std::string keep_ms_;
  const std::size_t max_events_;
};

}  // namespace http
}  // namespace v0
}  // namespace mcp
