// The engine's seam for tasks: the one point where a tools/call may leave its request and run
// detached (ext/tasks.hpp plugs the tasks extension in here; the engine knows no more of tasks
// than this). server::set_task_seam installs it. Without one, a tools/call always runs on its
// request, a tool with a task mode is refused at registration, and a listen stream's taskIds are
// not honoured.
#pragma once

#include <mcp/core/context.hpp>
#include <mcp/core/identity.hpp>
#include <mcp/core/tool_definition.hpp>
#include <mcp/json/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mcp {
inline namespace v0 {

class server;

namespace detail {
struct registered_tool;  // core/server.hpp
}  // namespace detail

// A tools/call taken from its request, to run later on another thread: the tool, its arguments,
// who called and the request's _meta, as they were. A value: copy it, run it from any thread.
class detached_call {
 public:
  const tool_definition& tool() const;
  // Runs the tool's handler as the request would have, in a context whose client is the
  // request's (without logging: that request has ended), whose asks and progress go to `link`,
  // and whose earlier answers are `carried` (by key). Returns the CallToolResult as plain JSON;
  // with `legacy`, structuredContent in its 2025-era shape. Throws what the handler's request
  // would have answered with a JSON-RPC error (protocol_error), or what the handler threw.
  json run(const std::shared_ptr<detached_link>& link, json carried, bool legacy) const;

 private:
  friend class tool_call;
  std::shared_ptr<const detail::registered_tool> tool_;
  json arguments_;
  std::shared_ptr<const client_state> client_;
  std::shared_ptr<const identity> caller_;
  std::optional<trace_context> header_trace_;
  json params_;  // {"_meta": ...} of the request
};

// A tools/call as the seam sees it, before its tool runs. Valid while the seam's call lasts.
class tool_call {
 public:
  const tool_definition& tool() const;
  context& ctx() const { return ctx_; }
  // The request's params beside "name" and "arguments" (e.g. "task", "_meta").
  const json& params() const;
  // This call detached (its arguments read into a tree now), to run later.
  detached_call detach() const;
  // Lets the handler's ctx.begin_task() end this request: the engine then asks task_seam::begun.
  void allow_begin() const;

 private:
  friend class server;
  tool_call(const server& owner, const std::shared_ptr<const detail::registered_tool>& tool, context& ctx,
            const json& params, std::function<const json&()> arguments)
      : owner_(owner), tool_(tool), ctx_(ctx), params_(params), arguments_(std::move(arguments)) {}
  const server& owner_;
  const std::shared_ptr<const detail::registered_tool>& tool_;
  context& ctx_;
  const json& params_;
  std::function<const json&()> arguments_;  // the arguments as a tree, read when first asked
};

// The seam itself. Threads: take, begun and listen are called from the threads that serve
// requests, several at once; stop once, from ~server, before the server's state goes.
class task_seam {
 public:
  virtual ~task_seam() = default;
  // Before a tools/call's tool runs (found, and the caller may call it): the result to answer
  // instead, or null to let the call run on its request. May throw protocol_error to refuse it.
  virtual json take(const tool_call& call) = 0;
  // The handler of a call that tool_call::allow_begin let begin called ctx.begin_task(): the result
  // to answer with; `carried` holds the answers its earlier rounds used, by key.
  virtual json begun(const tool_call& call, json carried) = 0;
  // subscriptions/listen asked for notifications.taskIds (`wanted`, as sent): the ids to honour,
  // or a protocol_error thrown to refuse the stream. `client_capabilities` are the request's.
  virtual json listen(const json& wanted, const json& client_capabilities, const identity* caller) = 0;
  // A tool with a task mode is being registered (the engine refuses one without a seam): the
  // extension is declared and its methods added by now.
  virtual void tool_added(const tool_definition& tool) = 0;
  // Whether a 2025-11-25 client is told of tasks (capabilities.tasks).
  virtual bool offered() const = 0;
  // The server is going: stop every run, and return when none is left.
  virtual void stop() = 0;
};

}  // namespace v0
}  // namespace mcp
