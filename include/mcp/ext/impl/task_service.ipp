// Out-of-line bodies of ext/detail/task_service.hpp, included once from its bottom (or compiled
// into the library in compiled mode).
#pragma once

#include <mcp/core/paging.hpp>
#include <mcp/json/detail/writer.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL task_service::task_service(server& srv, task_options options)
    : srv_(srv),
      // No thread starts before the first task.
      engine_(std::move(options), [this](std::string_view text) { log(text); },
              [this](const std::string& task_id) { changed(task_id); }) {}

MCP_DECL void task_service::log(std::string_view text) const { log_diagnostic(srv_.options(), text); }

// A store's failure as the client sees it: that it failed, not where (a file's path or a database's
// address stay in the server's log).
MCP_DECL protocol_error task_service::store_failure(const std::exception& e) const {
  log(std::string("the task store failed: ") + e.what());
  return protocol_error(error_code::internal_error, "The task store failed; try again later");
}

MCP_DECL std::string task_service::owner_of(const context& ctx, bool legacy) {
  if (ctx.caller()) return ctx.caller()->subject;
  if (legacy) return ctx.session_key();
  return {};
}

MCP_DECL void task_service::tool_added(const tool_definition&) {
  // A server with task tools declares the extension (never the 2025 capabilities.tasks: offered()).
  std::call_once(methods_, [this] {
    srv_.extension(tasks_extension);
    for (const char* name : {"tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list"}) {
      method_handler h;
      h.call = [this, name = std::string(name)](context& ctx, const json& params) {
        return ctx.client().stateless ? method(ctx, params, name) : legacy_method(ctx, params, name);
      };
      h.slow = true;  // a store may be a database away, and tasks/result waits: not on the reading thread
      srv_.method(name, std::move(h));
    }
  });
  offered_ = true;
}

MCP_DECL json task_service::take(const tool_call& call) {
  const tool_definition& tool = call.tool();
  context& ctx = call.ctx();
  if (!ctx.client().stateless) {
    // 2025-11-25: the client asks for a task with params.task, where the tool allows one.
    const json& rest = call.params();
    auto hint = rest.find("task");
    const bool asked = hint != rest.end() && hint->is_object();
    if (tool.task == task_mode::required && !asked)
      throw protocol_error(error_code::method_not_found,
                           "The tool '" + tool.name + "' runs only as a task: call it with params.task (its execution.taskSupport "
                           "is \"required\")");
    if (asked && tool.task == task_mode::forbidden && offered())
      throw protocol_error(error_code::method_not_found,
                           "The tool '" + tool.name + "' does not run as a task: call it without params.task");
    if (asked && tool.task != task_mode::forbidden) return start(call, json::object(), true);
    return nullptr;
  }
  if (tool.task == task_mode::forbidden) return nullptr;
  // Only a 2026-07-28 request that declares the extension gets a task; the mode, not the legacy
  // params.task hint, decides.
  const bool declared = ctx.client_supports_extension(tasks_extension);
  if (!declared && tool.task == task_mode::required)
    throw protocol_error(error_code::missing_required_client_capability,
                         "Missing required client capability: the tool '" + tool.name +
                             "' runs only as a task, which needs a 2026-07-28 request that declares the " +
                             tasks_extension + " extension in its client capabilities",
                         json{{"requiredCapabilities", {{"extensions", {{tasks_extension, json::object()}}}}}});
  if (declared && tool.task_begins == task_start::at_call) return start(call, json::object(), false);
  if (declared) call.allow_begin();
  return nullptr;
}

MCP_DECL json task_service::begun(const tool_call& call, json carried) { return start(call, std::move(carried), false); }

MCP_DECL json task_service::start(const tool_call& call, json carried, bool legacy) {
  const std::string owner = owner_of(call.ctx(), legacy);
  task_record task = engine_.start(
      owner, [this, detached = call.detach(), carried = std::move(carried), legacy](const std::shared_ptr<task_run>& r) {
        return run(detached, r, carried, legacy);
      });
  if (legacy) {
    {
      std::lock_guard lock(legacy_mutex_);
      auto& ids = legacy_tasks_[owner];
      ids.push_back(task.id);
      // Ended and forgotten tasks are dropped from the list when it is read; this bounds the rest.
      if (ids.size() > engine_.options().max_queued + engine_.options().max_running + 1000) ids.erase(ids.begin());
    }
    return json{{"task", task.legacy_summary()}};
  }
  json result = task.summary();
  result["resultType"] = "task";
  return result;
}

MCP_DECL task_update task_service::run(const detached_call& call, const std::shared_ptr<task_run>& r, json carried,
                                       bool legacy) const {
  if (legacy) r->forbid_asks();
  task_update outcome;
  try {
    json result = call.run(r, std::move(carried), legacy);
    if (!legacy) result["resultType"] = "complete";  // the result as the request would have had it
    outcome.status = task_status::completed;  // a tool error (isError) too: the tool ran to its end
    outcome.result = std::move(result);
  } catch (const protocol_error& e) {
    outcome.status = task_status::failed;
    outcome.error = json{{"code", e.code()}, {"message", e.what()}};
    if (!e.data().is_null()) outcome.error["data"] = e.data();
    outcome.status_message = e.what();
  } catch (const std::exception& e) {
    log("task " + r->id() + " of tool '" + call.tool().name + "' failed: " + e.what());
    outcome.status = task_status::failed;
    outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
  } catch (...) {
    log("task " + r->id() + " of tool '" + call.tool().name + "' threw an exception that is not a std::exception");
    outcome.status = task_status::failed;
    outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
  }
  return outcome;
}

// notifications/tasks (the task as tasks/get shows it) to the listen streams that asked for it.
// The store is read under the streams' lock, so the last notification posted shows a state at
// least as new as the last change: concurrent changes cannot leave a stale one last.
MCP_DECL void task_service::changed(const std::string& task_id) {
  srv_.notify_listen_streams("taskIds", json(task_id), "notifications/tasks", [&]() -> std::optional<json> {
    std::optional<task_record> task;
    try {
      task = engine_.store().get(task_id);
    } catch (const std::exception& e) {
      log("task " + task_id + ": the store failed while notifying: " + e.what());
    }
    if (!task) return std::nullopt;
    return task->detailed();
  });
}

MCP_DECL json task_service::listen(const json& wanted, const json& client_capabilities, const identity* caller) {
  auto ext = client_capabilities.find("extensions");
  if (ext == client_capabilities.end() || !ext->is_object() || !ext->contains(tasks_extension))
    throw protocol_error(error_code::missing_required_client_capability,
                         std::string("Missing required client capability: notifications of tasks need the ") +
                             tasks_extension + " extension declared in the request's client capabilities",
                         json{{"requiredCapabilities", {{"extensions", {{tasks_extension, json::object()}}}}}});
  if (!wanted.is_array())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"notifications.taskIds\" must be an array of task ids");
  // The tasks that exist and are the caller's to see; the acknowledgement says which.
  json ids = json::array();
  for (const auto& id : wanted) {
    if (!id.is_string() || ids.size() >= 1000) continue;
    std::optional<task_record> task;
    try {
      task = engine_.store().get(id.get<std::string>());
    } catch (const std::exception&) {
    }
    if (task && (task->owner.empty() || (caller && caller->subject == task->owner))) ids.push_back(id);
  }
  return ids;
}

MCP_DECL json task_service::method(context& ctx, const json& params, const std::string& method) {
  // The order the spec sets: the method exists (dispatch got here), the request declares the
  // extension (-32021), the task exists (-32602).
  if (method == "tasks/result" || method == "tasks/list")
    throw protocol_error(error_code::method_not_found,
                         "Method not found: '" + method + "' is of the 2025-11-25 experimental tasks; the " +
                             std::string(tasks_extension) + " extension has tasks/get, tasks/update and tasks/cancel");
  if (!ctx.client_supports_extension(tasks_extension))
    throw protocol_error(error_code::missing_required_client_capability,
                         "Missing required client capability: '" + method + "' needs the " + tasks_extension +
                             " extension declared in the request's client capabilities",
                         json{{"requiredCapabilities", {{"extensions", {{tasks_extension, json::object()}}}}}});
  auto id_field = params.find("taskId");
  if (id_field == params.end() || !id_field->is_string())
    throw protocol_error(error_code::invalid_params,
                         "Invalid params: \"taskId\" must be a string, the id a CreateTaskResult gave");
  const std::string& id = id_field->get_ref<const std::string&>();
  auto unknown = [&] {
    const std::string shown = id.size() > 64 ? id.substr(0, 64) + "..." : id;  // an id of megabytes is not echoed
    return protocol_error(error_code::invalid_params,
                          "Invalid params: no task has the id '" + shown + "' (it never existed, or it expired)");
  };
  task_store& store = engine_.store();
  // A task created by an authenticated caller is that caller's: to anyone else it does not exist.
  auto read = [&] {
    std::optional<task_record> task;
    try {
      task = store.get(id);
    } catch (const std::exception& e) {
      throw store_failure(e);
    }
    if (!task || (!task->owner.empty() && (!ctx.caller() || ctx.caller()->subject != task->owner))) throw unknown();
    return *task;
  };
  auto write = [&](const task_update& change) {
    try {
      return engine_.update(id, change);
    } catch (const std::exception& e) {
      throw store_failure(e);
    }
  };

  if (method == "tasks/get") return read().detailed();
  if (method == "tasks/cancel") {
    read();
    task_update cancel;
    cancel.cancel = true;
    if (write(cancel) == update_outcome::unknown) throw unknown();
    engine_.cancel(id);  // idempotent: on an ended task it changes nothing, and the ack is the same
    return json::object();
  }
  // tasks/update
  auto responses = params.find("inputResponses");
  if (responses == params.end() || !responses->is_object())
    throw protocol_error(error_code::invalid_params,
                         "Invalid params: \"inputResponses\" must be an object of answers by the keys of inputRequests");
  const task_record task = read();
  // Answers to questions not outstanding, and answers of the wrong shape, are ignored as the spec
  // asks: the question stays open.
  task_update answers;
  for (const auto& [key, answer] : responses->items()) {
    auto asked = task.input_requests.find(key);
    if (asked == task.input_requests.end() || !asked->is_object()) continue;
    input_request question{key, asked->value("method", std::string()), asked->value("params", json::object())};
    if (detail::answers(question, answer)) answers.answers[key] = answer;
  }
  if (!answers.answers.empty()) {
    if (write(answers) == update_outcome::unknown) throw unknown();
    engine_.wake(id);
  }
  return json::object();
}


MCP_DECL json task_service::legacy_method(context& ctx, const json& params, const std::string& method) {
  if (method == "tasks/update")
    throw protocol_error(error_code::method_not_found,
                         "Method not found: tasks/update belongs to the " + std::string(tasks_extension) +
                             " extension of 2026-07-28; a 2025-11-25 task takes no input");
  task_store& store = engine_.store();
  const std::string owner = owner_of(ctx, true);
  auto fetch = [&](const std::string& id) {
    std::optional<task_record> task;
    try {
      task = store.get(id);
    } catch (const std::exception& e) {
      throw store_failure(e);
    }
    if (task && !task->owner.empty() && task->owner != owner) task.reset();  // another session's or caller's
    return task;
  };

  if (method == "tasks/list") {
    std::vector<std::string> ids;
    {
      std::lock_guard lock(legacy_mutex_);
      auto it = legacy_tasks_.find(owner);
      if (it != legacy_tasks_.end()) ids = it->second;
    }
    std::vector<json> listed;
    std::vector<std::string> kept;
    for (const auto& id : ids)
      if (auto task = fetch(id)) {
        listed.push_back(task->legacy_summary());
        kept.push_back(id);
      }
    if (kept.size() != ids.size()) {  // forget what expired, keeping what was added meanwhile
      std::lock_guard lock(legacy_mutex_);
      auto& now = legacy_tasks_[owner];
      std::vector<std::string> fresh(now.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), now.size())), now.end());
      now = kept;
      now.insert(now.end(), fresh.begin(), fresh.end());
    }
    page_window page = requested_page(params, listed.size(), srv_.options().page_size, "tasks/list");
    json result{{"tasks", json::array()}};
    for (std::size_t i = page.begin; i < page.end; ++i) result["tasks"].push_back(std::move(listed[i]));
    if (page.next_cursor) result["nextCursor"] = *page.next_cursor;
    return result;
  }

  auto id_field = params.find("taskId");
  if (id_field == params.end() || !id_field->is_string())
    throw protocol_error(error_code::invalid_params,
                         "Invalid params: \"taskId\" must be a string, the id a CreateTaskResult gave");
  const std::string& id = id_field->get_ref<const std::string&>();
  auto read = [&] {
    std::optional<task_record> task = fetch(id);
    if (!task) {
      const std::string shown = id.size() > 64 ? id.substr(0, 64) + "..." : id;
      throw protocol_error(error_code::invalid_params,
                           "Invalid params: no task has the id '" + shown + "' (it never existed, or it expired)");
    }
    return *task;
  };

  if (method == "tasks/get") return read().legacy_summary();
  if (method == "tasks/cancel") {
    const task_record task = read();
    if (is_terminal(task.status))
      throw protocol_error(error_code::invalid_params, "Invalid params: the task has already ended (" +
                                                           std::string(to_string(task.status)) + "); there is nothing to cancel");
    task_update cancel;
    cancel.cancel = true;
    try {
      engine_.update(id, cancel);
    } catch (const std::exception& e) {
      throw store_failure(e);
    }
    engine_.cancel(id);
    return read().legacy_summary();
  }
  // tasks/result: waits until the task has ended, then answers as the call itself would have.
  task_record task = read();
  while (!is_terminal(task.status)) {
    if (ctx.cancelled()) throw protocol_error(error_code::internal_error, "Request cancelled");  // never sent: a cancelled request gets no reply
    if (engine_.stopping()) throw protocol_error(error_code::internal_error, "The server is stopping");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task = read();
  }
  const json related{{"io.modelcontextprotocol/related-task", {{"taskId", id}}}};
  if (task.status == task_status::completed) {
    json result = task.result.is_object() ? task.result : json::object();
    result.erase("resultType");
    result["_meta"].update(related);
    return result;
  }
  if (task.status == task_status::failed) {
    const json& e = task.error;
    throw protocol_error(e.value("code", static_cast<int>(error_code::internal_error)),
                         e.value("message", std::string("Internal error")), e.value("data", json()));
  }
  throw protocol_error(error_code::internal_error, "The task was cancelled (tasks/cancel) before it ended: it has no result",
                       json{{"taskId", id}});
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
