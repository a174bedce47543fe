// Redis for what several server processes share: where it is (redis_options), and the pool of
// connections the Redis stores are built on (stores/redis_task_store.hpp: tasks;
// stores/redis_replay_guard.hpp: used requestState tokens). Opt-in with them: a program that
// includes this links hiredis (Debian: libhiredis-dev; CMake: mcp::redis_task_store where the SDK
// found hiredis, or pkg-config hiredis).
#pragma once

#include <mcp/error.hpp>

// pkg-config's flags name hiredis's own folder; a plain -lhiredis build finds it under hiredis/.
#if __has_include(<hiredis/hiredis.h>)
#include <hiredis/hiredis.h>
#else
#include <hiredis.h>
#endif

#include <sys/time.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// Where the Redis is and how long to wait for it.
struct redis_options {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string unix_socket;  // when set, used instead of host and port
  std::string password;     // AUTH after connecting, when set
  int database = 0;         // SELECT after connecting, when not 0
  // Every key a store touches starts with it: servers that share a Redis but not their tasks (nor
  // their used requestState tokens) use different prefixes.
  std::string prefix = "mcp:task:";
  // A Redis that does not answer within these is reported as down (mcp::error), never waited on.
  std::chrono::milliseconds connect_timeout{1000};
  std::chrono::milliseconds command_timeout{2000};
  // Idle connections kept for reuse; a call that finds none opens one (closed again when more than
  // this many are idle).
  std::size_t pool_size = 8;
  // A record bigger or deeper than these, read back from Redis, is refused rather than parsed. The
  // depth leaves room for a client's answer as deep as a request may be (128) inside a task record.
  std::size_t max_record_bytes = 16 * 1024 * 1024;
  std::size_t max_record_depth = 160;
  // redis_task_store::update() gives up (mcp::error, task_refused) after this many WATCH conflicts in a row.
  int max_attempts = 200;

  // "redis://HOST[:PORT][/PREFIX]" (an IPv6 HOST in brackets) or "unix:PATH[#PREFIX]" (the prefix
  // as given, e.g. "app1:tasks:").
  // Throws mcp::error (invalid_argument) for anything else.
  static redis_options from_url(std::string_view url) {
    redis_options o;
    auto bad = [&] {
      return mcp::error(error_code::invalid_argument, "not a Redis address: '" + std::string(url) +
                                                          "' (want redis://HOST[:PORT][/PREFIX] or unix:PATH[#PREFIX])");
    };
    if (url.substr(0, 5) == "unix:") {
      std::string_view rest = url.substr(5);
      if (auto hash = rest.find('#'); hash != std::string_view::npos) {
        o.prefix = std::string(rest.substr(hash + 1));
        rest = rest.substr(0, hash);
      }
      if (rest.empty()) throw bad();
      o.unix_socket = std::string(rest);
      return o;
    }
    if (url.substr(0, 8) != "redis://") throw bad();
    std::string_view rest = url.substr(8);
    if (auto slash = rest.find('/'); slash != std::string_view::npos) {
      if (slash + 1 < rest.size()) o.prefix = std::string(rest.substr(slash + 1));
      rest = rest.substr(0, slash);
    }
    // An IPv6 address is in brackets, as in a URL: redis://[::1]:6379/.
    std::string_view host = rest;
    std::string_view port_text;
    if (!rest.empty() && rest.front() == '[') {
      const auto close = rest.find(']');
      if (close == std::string_view::npos) throw bad();
      host = rest.substr(1, close - 1);
      if (close + 1 < rest.size()) {
        if (rest[close + 1] != ':') throw bad();
        port_text = rest.substr(close + 2);
        if (port_text.empty()) throw bad();
      }
    } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
      host = rest.substr(0, colon);
      port_text = rest.substr(colon + 1);
      if (port_text.empty()) throw bad();
    }
    if (!port_text.empty()) {
      if (port_text.size() > 5) throw bad();
      int port = 0;
      for (char c : port_text) {
        if (c < '0' || c > '9') throw bad();
        port = port * 10 + (c - '0');
      }
      if (port == 0 || port > 65535) throw bad();
      o.port = port;
    }
    rest = host;
    if (rest.empty()) throw bad();
    o.host = std::string(rest);
    return o;
  }
};

namespace detail {

// Connections to one Redis, each lent to one call at a time (a WATCH belongs to its connection). A
// connection that failed, or that a call left midway, is closed, and the next borrow() opens a new
// one, so a Redis that restarts is found again. Failures are mcp::error with the pool's error
// code, naming who failed (`what`, e.g. "The task store").
//
// Threads: borrow() is safe from any thread at once; a connection is used by one thread at a time.
class redis_pool {
 public:
  redis_pool(redis_options options, int error_code, std::string what)
      : options_(std::move(options)), error_code_(error_code), what_(std::move(what)) {}
  ~redis_pool() {
    for (redisContext* c : idle_) redisFree(c);
  }
  redis_pool(const redis_pool&) = delete;
  redis_pool& operator=(const redis_pool&) = delete;

  struct reply_free {
    void operator()(redisReply* r) const { freeReplyObject(r); }
  };
  using reply = std::unique_ptr<redisReply, reply_free>;

  // A connection borrowed for one call: back to the pool when the call ends, unless the call left
  // it in a state the next one must not inherit (an error midway may leave replies unread, an
  // exception between WATCH and EXEC a key watched).
  class connection {
   public:
    connection(redis_pool& store, redisContext* c, bool reused) : reused(reused), store_(store), c_(c) {}
    connection(connection&& other) noexcept
        : reused(other.reused), store_(other.store_), c_(std::exchange(other.c_, nullptr)), clean_(other.clean_),
          watching_(other.watching_) {}
    connection(const connection&) = delete;
    connection& operator=(const connection&) = delete;
    connection& operator=(connection&&) = delete;
    ~connection() {
      if (c_) store_.give_back(c_, clean_ && !watching_);
    }
    bool broken() const { return c_ == nullptr || c_->err != 0; }

    reply command(const std::vector<std::string>& args) { return std::move(pipeline({args}).front()); }
    // Sends every command, then reads every reply: one round trip.
    std::vector<reply> pipeline(const std::vector<std::vector<std::string>>& commands) {
      clean_ = false;
      for (const auto& args : commands) append(args);
      std::vector<reply> replies;
      for (const auto& args : commands) {
        replies.push_back(read(args[0].c_str()));
        if (args[0] == "WATCH") watching_ = true;
        if (args[0] == "UNWATCH" || args[0] == "EXEC") watching_ = false;
      }
      clean_ = true;
      return replies;
    }

    const bool reused;  // taken from the pool rather than opened for this call

   private:
    void append(const std::vector<std::string>& args) {
      std::vector<const char*> argv;
      std::vector<std::size_t> lengths;
      for (const auto& a : args) {
        argv.push_back(a.data());
        lengths.push_back(a.size());
      }
      if (redisAppendCommandArgv(c_, static_cast<int>(argv.size()), argv.data(), lengths.data()) != REDIS_OK)
        throw store_.down(c_);
    }
    reply read(const char* what) {
      void* raw = nullptr;
      if (redisGetReply(c_, &raw) != REDIS_OK || raw == nullptr) throw store_.down(c_);
      reply r(static_cast<redisReply*>(raw));
      // An error reply inside EXEC's array is Redis refusing the command (out of memory, a key of
      // another type): a failure of this call, not of the connection.
      if (r->type == REDIS_REPLY_ERROR)
        throw mcp::error(store_.error_code_, std::string("Redis refused ") + what + ": " + std::string(r->str, r->len));
      return r;
    }

    redis_pool& store_;
    redisContext* c_;
    bool clean_ = true;
    bool watching_ = false;
  };

  // `fresh`: a new connection even when idle ones wait (a retry after one of them failed).
  connection borrow(bool fresh = false) {
    if (!fresh) {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        redisContext* c = idle_.back();
        idle_.pop_back();
        return connection(*this, c, true);
      }
    }
    const timeval connect_tv = to_timeval(options_.connect_timeout);
    redisContext* c = options_.unix_socket.empty()
                          ? redisConnectWithTimeout(options_.host.c_str(), options_.port, connect_tv)
                          : redisConnectUnixWithTimeout(options_.unix_socket.c_str(), connect_tv);
    if (c == nullptr) throw mcp::error(error_code_, what_ + " cannot reach Redis at " + where() + ": out of memory");
    if (c->err) {
      mcp::error e(error_code_, what_ + " cannot reach Redis at " + where() + ": " + c->errstr);
      redisFree(c);
      throw e;
    }
    redisSetTimeout(c, to_timeval(options_.command_timeout));
    if (options_.unix_socket.empty()) redisEnableKeepAlive(c);
    {
      std::lock_guard lock(mutex_);
      ++opened_;
    }
    connection opened(*this, c, false);
    if (!options_.password.empty()) opened.command({"AUTH", options_.password});
    if (options_.database != 0) opened.command({"SELECT", std::to_string(options_.database)});
    return opened;
  }

  std::string where() const {
    return options_.unix_socket.empty() ? options_.host + ":" + std::to_string(options_.port) : options_.unix_socket;
  }
  mcp::error down(redisContext* c) const {
    std::string why = c && c->errstr[0] ? c->errstr : "no answer";
    if (c && c->err == REDIS_ERR_IO && why.find("Resource temporarily unavailable") != std::string::npos)
      why = "no answer within " + std::to_string(options_.command_timeout.count()) + " ms";
    return mcp::error(error_code_, what_ + ": its Redis at " + where() + " failed: " + why);
  }
  mcp::error unexpected(const redisReply& r, const char* what) const {
    return mcp::error(error_code_,
                      std::string("Redis answered ") + what + " with a reply of type " + std::to_string(r.type));
  }

  const redis_options& options() const { return options_; }
  // Connections opened so far (a test sees a dropped one replaced).
  std::size_t opened() const {
    std::lock_guard lock(mutex_);
    return opened_;
  }

 private:
  static timeval to_timeval(std::chrono::milliseconds ms) {
    timeval tv{};
    tv.tv_sec = static_cast<decltype(tv.tv_sec)>(ms.count() / 1000);
    tv.tv_usec = static_cast<decltype(tv.tv_usec)>((ms.count() % 1000) * 1000);
    return tv;
  }

  // A connection that failed says the idle ones are likely dead too (Redis restarted, the network
  // dropped): they are all closed, so the next calls do not each find out.
  void give_back(redisContext* c, bool reusable) {
    std::vector<redisContext*> closing{c};
    {
      std::lock_guard lock(mutex_);
      if (!reusable || c->err != 0) {
        closing.insert(closing.end(), idle_.begin(), idle_.end());
        idle_.clear();
      } else if (idle_.size() < options_.pool_size) {
        idle_.push_back(c);
        return;
      }
    }
    for (redisContext* dead : closing) redisFree(dead);
  }

  const redis_options options_;
  const int error_code_;
  const std::string what_;
  mutable std::mutex mutex_;
  std::vector<redisContext*> idle_;  // under mutex_
  std::size_t opened_ = 0;           // under mutex_
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
