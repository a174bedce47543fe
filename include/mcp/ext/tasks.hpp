// Tasks (the io.modelcontextprotocol/tasks extension, SEP-2663, MCP 2026-07-28; and the
// experimental tasks of 2025-11-25): a tools/call that outlives its request. The client gets a
// task id at once and polls tasks/get; the handler runs on a worker thread the SDK owns, and asks
// the client through tasks/update when it needs input. Opt-in: include this header, turn tasks on,
// then give a tool a task mode (core/tool_definition.hpp):
//
//   mcp::enable_tasks(srv);               // or with task_options: a store, a ttl, limits
//   mcp::tool_options o;
//   o.task = mcp::task_mode::optional;    // a task for a client that declares the extension
//   srv.tool("report", "Builds a long report.", [](const report_args& in, mcp::context& ctx) { ... }, o);
//
// The handler is the same for a plain call and a task. In a task, ctx.ask() (and elicit,
// create_message, list_roots) parks it in input_required until tasks/update answers, ctx.progress()
// sets its statusMessage, and ctx.cancelled() turns true on tasks/cancel, on expiry and when the
// server is destroyed. Questions to ask before there is a task go through multi-round input on
// the request: with o.task_begins = mcp::task_start::at_begin_task the handler runs on the request
// until it calls ctx.begin_task(), which answers CreateTaskResult and runs the handler again, as the
// task, with the answers already given (context::begin_task). A client may also follow a task
// without polling: subscriptions/listen with notifications.taskIds brings notifications/tasks.
// Tasks live in memory unless task_options::store says otherwise (ext/task_store.hpp; a folder or
// Redis: stores/).
#pragma once

#include <mcp/core/server.hpp>
#include <mcp/ext/detail/task_service.hpp>
#include <mcp/ext/task_store.hpp>

#include <memory>

namespace mcp {
inline namespace v0 {

// Turns tasks on for `srv`, once, before any tool with a task mode is registered. Task handlers
// run on worker threads the server owns, at most options.max_running; ~server cancels them and
// waits for them, so a task handler must poll ctx.cancelled(). Throws definition_error when `srv`
// has tasks (or another task seam) already.
inline void enable_tasks(server& srv, task_options options = {}) {
  srv.set_task_seam(std::make_shared<detail::task_service>(srv, std::move(options)));
}

}  // namespace v0
}  // namespace mcp
