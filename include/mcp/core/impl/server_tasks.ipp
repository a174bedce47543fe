// The server's side of tasks (core/tasks.hpp, SEP-2663): a tools/call that becomes a task, the
// task's run on a worker, and tasks/get, tasks/update and tasks/cancel. Included once, from the
// bottom of core/server.hpp.
#pragma once

#include <mcp/json/detail/writer.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mcp {
inline namespace v0 {

// A store's failure as the client sees it: that it failed, not where (a file's path or a database's
// address stay in the server's log).
MCP_DECL protocol_error server::task_store_failure(const std::exception& e) const {
  log_diagnostic(std::string("the task store failed: ") + e.what());
  return protocol_error(error_code::internal_error, "The task store failed; try again later");
}

MCP_DECL std::string server::task_owner(const context& ctx, bool legacy) {
  if (ctx.caller()) return ctx.caller()->subject;
  if (legacy && ctx.session_) return ctx.session_->task_owner();
  return {};
}

MCP_DECL json server::start_task(const std::shared_ptr<const detail::registered_tool>& tool, const json& arguments,
                                 context& ctx, json carried, bool legacy) const {
  auto client = std::make_shared<client_state>(ctx.client());
  client->logging = false;  // the request that could carry logs has ended
  json params{{"_meta", ctx.meta()}};
  detail::message_origin origin = ctx.request_->origin;
  const std::string owner = task_owner(ctx, legacy);
  task_record task = tasks_->start(
      owner,
      [this, tool, arguments, client = std::shared_ptr<const client_state>(std::move(client)), params = std::move(params),
       origin = std::move(origin), carried = std::move(carried), legacy](const std::shared_ptr<detail::task_run>& run) {
        return run_task(*tool, arguments, client, origin, params, carried, run, legacy);
      });
  if (legacy) {
    {
      std::lock_guard lock(legacy_tasks_mutex_);
      auto& ids = legacy_tasks_[owner];
      ids.push_back(task.id);
      // Ended and forgotten tasks are dropped from the list when it is read; this bounds the rest.
      if (ids.size() > tasks_->options().max_queued + tasks_->options().max_running + 1000) ids.erase(ids.begin());
    }
    return json{{"task", task.legacy_summary()}};
  }
  json result = task.summary();
  result["resultType"] = "task";
  return result;
}

MCP_DECL task_update server::run_task(const detail::registered_tool& tool, const json& arguments,
                                      std::shared_ptr<const client_state> client,
                                      const detail::message_origin& origin, const json& params, json carried,
                                      const std::shared_ptr<detail::task_run>& run, bool legacy) const {
  static const auto nowhere = std::make_shared<detail::discard_outbound>();
  if (legacy) run->forbid_asks();
  run->state()->origin = origin;
  auto round = std::make_shared<detail::input_round>();
  round->carried = std::move(carried);  // answers given before ctx.begin_task(), by their keys
  context ctx(nullptr, run->state(), nowhere, std::move(client), round);
  ctx.task_ = run;
  ctx.set_meta(params);

  task_update outcome;
  json result;
  const auto start = std::chrono::steady_clock::now();
  try {
    detail::result_sink sink(result, tool.def.output_schema, legacy);  // legacy: 2025's structuredContent shape
    tool.run(arguments, ctx, sink);
    tool.stats->record_call(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start), sink.is_error());
    detail::expand_raw_json(result);  // stores keep plain JSON
    if (!legacy) result["resultType"] = "complete";  // the result as the request would have had it
    outcome.status = task_status::completed;  // a tool error (isError) too: the tool ran to its end
    outcome.result = std::move(result);
  } catch (const protocol_error& e) {
    outcome.status = task_status::failed;
    outcome.error = json{{"code", e.code()}, {"message", e.what()}};
    if (!e.data().is_null()) outcome.error["data"] = e.data();
    outcome.status_message = e.what();
  } catch (const std::exception& e) {
    log_diagnostic("task " + run->task_id() + " of tool '" + tool.def.name + "' failed: " + e.what());
    outcome.status = task_status::failed;
    outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
  } catch (...) {
    log_diagnostic("task " + run->task_id() + " of tool '" + tool.def.name + "' threw an exception that is not a std::exception");
    outcome.status = task_status::failed;
    outcome.error = json{{"code", error_code::internal_error}, {"message", "Internal error"}};
  }
  return outcome;
}

MCP_DECL void server::task_changed(const std::string& task_id) {
  auto listens = [&task_id](const listener& l) {
    auto ids = l.honored.find("taskIds");
    if (ids == l.honored.end()) return false;
    for (const auto& id : *ids)
      if (id.get_ref<const std::string&>() == task_id) return true;
    return false;
  };
  std::vector<std::shared_ptr<detail::ordered_sender>> to_flush;
  {
    // The store is read under the lock, so the last notification posted shows a state at least as
    // new as the last change: concurrent changes cannot leave a stale one last.
    std::lock_guard lock(listeners_mutex_);
    if (std::none_of(listeners_.begin(), listeners_.end(), listens)) return;
    prune_listeners();
    std::optional<task_record> task;
    try {
      task = tasks_->store().get(task_id);
    } catch (const std::exception& e) {
      log_diagnostic("task " + task_id + ": the store failed while notifying: " + e.what());
    }
    if (!task) return;
    const json detailed = task->detailed();
    for (const auto& l : listeners_) {
      if (!listens(l)) continue;
      json params = detailed;
      params["_meta"][detail::meta_subscription_id] = l.id;
      l.out->post(jsonrpc::notification("notifications/tasks", std::move(params)));
      to_flush.push_back(l.out);
    }
  }
  for (const auto& out : to_flush) out->flush();
}

MCP_DECL void server::install_task_methods() {
  if (task_methods_) return;
  task_methods_ = true;
  for (const char* name : {"tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list"})
    methods_[name] = std::make_shared<const detail::method_entry>(detail::method_entry{
        [this, method = std::string(name)](context& ctx, detail::request_params& p, detail::reply& out) {
          out.tree() = ctx.client().stateless ? task_method(ctx, p.tree(), method) : legacy_task_method(ctx, p.tree(), method);
        },
        true});  // a store may be a database away, and tasks/result waits: not on the reading thread
}

MCP_DECL json server::task_method(context& ctx, const json& params, const std::string& method) const {
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
  task_store& store = tasks_->store();
  // A task created by an authenticated caller is that caller's: to anyone else it does not exist.
  auto read = [&] {
    std::optional<task_record> task;
    try {
      task = store.get(id);
    } catch (const std::exception& e) {
      throw task_store_failure(e);
    }
    if (!task || (!task->owner.empty() && (!ctx.caller() || ctx.caller()->subject != task->owner))) throw unknown();
    return *task;
  };
  auto write = [&](const task_update& change) {
    try {
      return tasks_->update(id, change);
    } catch (const std::exception& e) {
      throw task_store_failure(e);
    }
  };

  if (method == "tasks/get") return read().detailed();
  if (method == "tasks/cancel") {
    read();
    task_update cancel;
    cancel.cancel = true;
    if (write(cancel) == update_outcome::unknown) throw unknown();
    tasks_->cancel(id);  // idempotent: on an ended task it changes nothing, and the ack is the same
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
    tasks_->wake(id);
  }
  return json::object();
}


MCP_DECL json server::legacy_task_method(context& ctx, const json& params, const std::string& method) const {
  if (method == "tasks/update")
    throw protocol_error(error_code::method_not_found,
                         "Method not found: tasks/update belongs to the " + std::string(tasks_extension) +
                             " extension of 2026-07-28; a 2025-11-25 task takes no input");
  task_store& store = tasks_->store();
  const std::string owner = task_owner(ctx, true);
  auto fetch = [&](const std::string& id) {
    std::optional<task_record> task;
    try {
      task = store.get(id);
    } catch (const std::exception& e) {
      throw task_store_failure(e);
    }
    if (task && !task->owner.empty() && task->owner != owner) task.reset();  // another session's or caller's
    return task;
  };

  if (method == "tasks/list") {
    std::vector<std::string> ids;
    {
      std::lock_guard lock(legacy_tasks_mutex_);
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
      std::lock_guard lock(legacy_tasks_mutex_);
      auto& now = legacy_tasks_[owner];
      std::vector<std::string> fresh(now.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), now.size())), now.end());
      now = kept;
      now.insert(now.end(), fresh.begin(), fresh.end());
    }
    page_window page = requested_page(params, listed.size(), options_.page_size, "tasks/list");
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
      tasks_->update(id, cancel);
    } catch (const std::exception& e) {
      throw task_store_failure(e);
    }
    tasks_->cancel(id);
    return read().legacy_summary();
  }
  // tasks/result: waits until the task has ended, then answers as the call itself would have.
  task_record task = read();
  while (!is_terminal(task.status)) {
    if (ctx.cancelled()) throw protocol_error(error_code::internal_error, "Request cancelled");  // never sent: a cancelled request gets no reply
    if (tasks_->stopping()) throw protocol_error(error_code::internal_error, "The server is stopping");
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

}  // namespace v0
}  // namespace mcp
