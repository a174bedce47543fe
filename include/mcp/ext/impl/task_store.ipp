// Out-of-line bodies of ext/task_store.hpp: the transition rules, the records' JSON form and the memory
// store. Included once, from the bottom of ext/task_store.hpp.
#pragma once

#include <algorithm>
#include <cstdio>
#include <random>

namespace mcp {
inline namespace v0 {

namespace detail {

MCP_DECL std::string iso8601(std::int64_t unix_ms) {
  // Days since 1970-01-01 to a proleptic Gregorian date, counted in 400-year eras of 146097 days
  // that begin on 1 March, so the leap day falls at the end of an era's year.
  std::int64_t days = unix_ms / 86400000;
  std::int64_t in_day = unix_ms % 86400000;
  if (in_day < 0) {
    in_day += 86400000;
    --days;
  }
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t day_of_era = z - era * 146097;
  const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;
  const std::int64_t day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
  const std::int64_t month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
  const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  char text[96];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(year),
                static_cast<long long>(month), static_cast<long long>(day), static_cast<long long>(in_day / 3600000),
                static_cast<long long>(in_day / 60000 % 60), static_cast<long long>(in_day / 1000 % 60),
                static_cast<long long>(in_day % 1000));
  return text;
}

MCP_DECL std::string new_task_id() {
  // random_device is the operating system's CSPRNG on the platforms the SDK supports; its
  // operator() is not promised to be thread-safe, hence the lock.
  static std::mutex mutex;
  static std::random_device device;
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  std::lock_guard lock(mutex);
  for (int i = 0; i < 4; ++i) {
    std::uint32_t bits = device();
    for (int j = 0; j < 8; ++j, bits >>= 4) id += hex[bits & 0xF];
  }
  return id;
}

MCP_DECL std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace detail

MCP_DECL update_outcome task_record::apply(const task_update& c, std::int64_t now) {
  if (is_terminal(status)) return update_outcome::terminal;
  auto end_inputs = [this] {
    input_requests = json::object();
    input_responses = json::object();
  };
  if (c.cancel) {
    cancel_requested = true;
    status = task_status::cancelled;
    end_inputs();
  } else {
    if (c.ask.is_object())
      for (const auto& [key, question] : c.ask.items()) input_requests[key] = question;
    if (c.ask.is_object() && !c.ask.empty()) status = task_status::input_required;
    if (c.answers.is_object())
      for (const auto& [key, answer] : c.answers.items())
        if (input_requests.contains(key)) {
          input_responses[key] = answer;
          input_requests.erase(key);
        }
    for (const auto& key : c.forget) {
      input_requests.erase(key);
      input_responses.erase(key);
    }
    if (status == task_status::input_required && input_requests.empty()) status = task_status::working;
    if (c.status) switch (*c.status) {
        case task_status::completed:
          status = task_status::completed;
          result = c.result.is_object() ? c.result : json::object();
          end_inputs();
          break;
        case task_status::failed:
          status = task_status::failed;
          error = c.error.is_object() ? c.error : json{{"code", -32603}, {"message", "Internal error"}};
          end_inputs();
          break;
        case task_status::cancelled:
          status = task_status::cancelled;
          end_inputs();
          break;
        case task_status::working:  // a task with questions outstanding stays input_required
        case task_status::input_required:
          break;
      }
  }
  if (c.status_message) status_message = *c.status_message;
  if (c.ttl_ms) ttl_ms = *c.ttl_ms;
  if (c.poll_interval_ms) poll_interval_ms = *c.poll_interval_ms;
  last_updated_at = std::max(now, last_updated_at);
  return update_outcome::applied;
}

namespace detail {
inline json optional_int(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }

// The checks from_json makes: each names the field and what it must be.
inline const json& field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw mcp::error(error_code::task_refused, std::string("task record: \"") + key + "\" is missing");
  return *it;
}
inline std::optional<std::int64_t> optional_int_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer())
    throw mcp::error(error_code::task_refused, std::string("task record: \"") + key + "\" must be an integer or null");
  return it->get<std::int64_t>();
}
inline json object_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return json::object();
  if (!it->is_object()) throw mcp::error(error_code::task_refused, std::string("task record: \"") + key + "\" must be an object");
  return *it;
}
}  // namespace detail

MCP_DECL json task_record::to_json() const {
  return json{{"id", id},
              {"status", to_string(status)},
              {"statusMessage", status_message},
              {"createdAt", created_at},
              {"lastUpdatedAt", last_updated_at},
              {"ttlMs", detail::optional_int(ttl_ms)},
              {"pollIntervalMs", detail::optional_int(poll_interval_ms)},
              {"result", result},
              {"error", error},
              {"inputRequests", input_requests},
              {"inputResponses", input_responses},
              {"cancelRequested", cancel_requested},
              {"owner", owner}};
}

MCP_DECL task_record task_record::from_json(const json& j) {
  if (!j.is_object()) throw mcp::error(error_code::task_refused, "task record: must be a JSON object");
  task_record r;
  const json& id = detail::field(j, "id");
  if (!id.is_string() || id.get_ref<const std::string&>().empty())
    throw mcp::error(error_code::task_refused, "task record: \"id\" must be a non-empty string");
  r.id = id.get<std::string>();
  const json& status = detail::field(j, "status");
  auto parsed = status.is_string() ? parse_task_status(status.get_ref<const std::string&>()) : std::nullopt;
  if (!parsed)
    throw mcp::error(error_code::task_refused,
                "task record: \"status\" must be working, input_required, completed, failed or cancelled");
  r.status = *parsed;
  if (auto m = j.find("statusMessage"); m != j.end() && m->is_string()) r.status_message = m->get<std::string>();
  r.created_at = detail::optional_int_field(j, "createdAt").value_or(0);
  r.last_updated_at = detail::optional_int_field(j, "lastUpdatedAt").value_or(r.created_at);
  r.ttl_ms = detail::optional_int_field(j, "ttlMs");
  r.poll_interval_ms = detail::optional_int_field(j, "pollIntervalMs");
  r.result = j.value("result", json());
  r.error = j.value("error", json());
  r.input_requests = detail::object_field(j, "inputRequests");
  r.input_responses = detail::object_field(j, "inputResponses");
  if (auto c = j.find("cancelRequested"); c != j.end() && c->is_boolean()) r.cancel_requested = c->get<bool>();
  if (auto o = j.find("owner"); o != j.end() && o->is_string()) r.owner = o->get<std::string>();
  return r;
}

MCP_DECL json task_record::summary() const {
  json t{{"taskId", id},
         {"status", to_string(status)},
         {"createdAt", detail::iso8601(created_at)},
         {"lastUpdatedAt", detail::iso8601(last_updated_at)},
         {"ttlMs", detail::optional_int(ttl_ms)}};
  if (!status_message.empty()) t["statusMessage"] = status_message;
  if (poll_interval_ms) t["pollIntervalMs"] = *poll_interval_ms;
  return t;
}

MCP_DECL json task_record::legacy_summary() const {
  json t{{"taskId", id},
         {"status", to_string(status)},
         {"createdAt", detail::iso8601(created_at)},
         {"lastUpdatedAt", detail::iso8601(last_updated_at)},
         {"ttl", detail::optional_int(ttl_ms)}};
  if (!status_message.empty()) t["statusMessage"] = status_message;
  if (poll_interval_ms) t["pollInterval"] = *poll_interval_ms;
  return t;
}

MCP_DECL json task_record::detailed() const {
  json t = summary();
  switch (status) {
    case task_status::input_required: t["inputRequests"] = input_requests; break;
    case task_status::completed: t["result"] = result.is_object() ? result : json::object(); break;
    case task_status::failed: t["error"] = error; break;
    default: break;
  }
  return t;
}

MCP_DECL json task_update::to_json() const {
  json j{{"ask", ask}, {"answers", answers}, {"forget", forget}, {"cancel", cancel}};
  if (status) j["status"] = to_string(*status);
  if (status_message) j["statusMessage"] = *status_message;
  if (!result.is_null()) j["result"] = result;
  if (!error.is_null()) j["error"] = error;
  if (ttl_ms) j["ttlMs"] = detail::optional_int(*ttl_ms);
  if (poll_interval_ms) j["pollIntervalMs"] = *poll_interval_ms;
  return j;
}

MCP_DECL task_update task_update::from_json(const json& j) {
  if (!j.is_object()) throw mcp::error(error_code::task_refused, "task update: must be a JSON object");
  task_update u;
  if (auto s = j.find("status"); s != j.end()) {
    auto parsed = s->is_string() ? parse_task_status(s->get_ref<const std::string&>()) : std::nullopt;
    if (!parsed) throw mcp::error(error_code::task_refused, "task update: \"status\" is not a task status");
    u.status = parsed;
  }
  if (auto m = j.find("statusMessage"); m != j.end() && m->is_string()) u.status_message = m->get<std::string>();
  u.result = j.value("result", json());
  u.error = j.value("error", json());
  u.ask = detail::object_field(j, "ask");
  u.answers = detail::object_field(j, "answers");
  if (auto f = j.find("forget"); f != j.end() && f->is_array())
    for (const auto& k : *f)
      if (k.is_string()) u.forget.push_back(k.get<std::string>());
  if (auto c = j.find("cancel"); c != j.end() && c->is_boolean()) u.cancel = c->get<bool>();
  if (j.contains("ttlMs")) u.ttl_ms = detail::optional_int_field(j, "ttlMs");
  u.poll_interval_ms = detail::optional_int_field(j, "pollIntervalMs");
  return u;
}

MCP_DECL memory_task_store::memory_task_store(std::size_t max_tasks, clock now)
    : max_tasks_(max_tasks == 0 ? 1 : max_tasks), now_(std::move(now)) {}

MCP_DECL std::int64_t memory_task_store::now() const { return now_ ? now_() : detail::unix_ms_now(); }

MCP_DECL std::size_t memory_task_store::remove_expired_locked(std::int64_t now) {
  std::size_t removed = 0;
  for (auto it = tasks_.begin(); it != tasks_.end();)
    if (it->second.expired(now)) {
      it = tasks_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  return removed;
}

MCP_DECL task_record memory_task_store::create(task_record task) {
  if (task.id.empty()) throw mcp::error(error_code::task_refused, "A task needs an id");
  const std::int64_t t = now();
  task.created_at = t;
  task.last_updated_at = t;
  std::lock_guard lock(mutex_);
  if (tasks_.count(task.id)) throw mcp::error(error_code::task_refused, "A task with the id '" + task.id + "' already exists");
  if (tasks_.size() >= max_tasks_) remove_expired_locked(t);
  if (tasks_.size() >= max_tasks_) {  // the ended task updated longest ago makes room
    auto oldest = tasks_.end();
    for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
      if (is_terminal(it->second.status) &&
          (oldest == tasks_.end() || it->second.last_updated_at < oldest->second.last_updated_at))
        oldest = it;
    if (oldest == tasks_.end())
      throw mcp::error(error_code::task_refused, "The server holds " + std::to_string(tasks_.size()) +
                                                " tasks that have not ended, its limit; try again once some have");
    tasks_.erase(oldest);
  }
  return tasks_.emplace(task.id, std::move(task)).first->second;
}

MCP_DECL std::optional<task_record> memory_task_store::get(const std::string& task_id) {
  const std::int64_t t = now();
  std::lock_guard lock(mutex_);
  auto it = tasks_.find(task_id);
  if (it == tasks_.end()) return std::nullopt;
  if (it->second.expired(t)) {
    tasks_.erase(it);
    return std::nullopt;
  }
  return it->second;
}

MCP_DECL update_outcome memory_task_store::update(const std::string& task_id, const task_update& change) {
  const std::int64_t t = now();
  std::lock_guard lock(mutex_);
  auto it = tasks_.find(task_id);
  if (it == tasks_.end()) return update_outcome::unknown;
  if (it->second.expired(t)) {
    tasks_.erase(it);
    return update_outcome::unknown;
  }
  return it->second.apply(change, t);
}

MCP_DECL std::size_t memory_task_store::remove_expired() {
  const std::int64_t t = now();
  std::lock_guard lock(mutex_);
  return remove_expired_locked(t);
}

MCP_DECL std::size_t memory_task_store::size() const {
  std::lock_guard lock(mutex_);
  return tasks_.size();
}

}  // namespace v0
}  // namespace mcp
