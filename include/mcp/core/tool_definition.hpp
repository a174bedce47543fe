// A tool as the core keeps it: its description (name, schemas, hints), the options a registration
// gives it (tool_options) and the rules its name follows. tools/tool.hpp derives one from a typed
// handler; server::add_tool takes one made by hand.
#pragma once

#include <mcp/config.hpp>
#include <mcp/core/app_link.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/coercion.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

class context;

// Hints about a tool's behaviour for the client (all optional; the spec gives their defaults).
struct annotations {
  std::optional<bool> read_only;
  std::optional<bool> destructive;
  std::optional<bool> idempotent;
  std::optional<bool> open_world;
  // The older spelling of tool_options::title (MCP 2025-03-26), accepted for it: the Tool object
  // carries it as its top-level `title` (see detail::tool_title).
  std::string title;
};

// Whether a tools/call may run as a task (ext/tasks.hpp, the io.modelcontextprotocol/tasks
// extension of 2026-07-28). optional: a task for a request whose client declares the extension,
// a plain call for any other. required: a task, and a request that does not declare the
// extension is refused with -32021 before the handler runs. Only 2026-07-28 requests get tasks: a
// 2025-era session is a client without the extension. The legacy params.task hint of 2025-11-25
// is ignored: the mode decides.
enum class task_mode { forbidden, optional, required };

// Where a task begins. at_call: before the handler runs (it runs only on the worker).
// at_begin_task: the handler runs on the request first, asking through multi-round input, until
// it calls ctx.begin_task() (see context::begin_task).
enum class task_start { at_call, at_begin_task };

// How a structured result's text block is written when nothing more specific is given
// (tool_options::format; tools/render.hpp writes both).
enum class text_format { json, markdown };

// Per-tool options for server::tool() (tools/tool.hpp).
struct tool_options {
  tool_options() = default;
  tool_options(annotations a) : hints(std::move(a)) {}  // NOLINT: srv.tool(..., mcp::annotations{...})

  std::string title;  // for people (a UI); the model reads the name and description
  annotations hints;
  json icons = nullptr;  // Icon[]
  json meta = nullptr;   // _meta of the Tool
  // The MCP App that shows this tool's results (ext/apps.hpp): sent as _meta.ui.
  std::optional<app_link> app;
  // The text block beside a structured result, chosen in this order (detail::chosen_text decides):
  //   1. `render`, this tool's own function of the value the handler returned, as JSON (a list
  //      comes as the list, not as the {"result": [...]} a 2025-era client's structuredContent holds);
  //   2. text_renderer<T>::render, for every tool that returns T (tools/tool.hpp);
  //   3. `format` = text_format::markdown: `Field: value` lines in a fenced block;
  //   4. compact JSON of the structured content (the default; what the spec recommends).
  text_format format = text_format::json;
  std::function<std::string(const json& returned)> render;
  std::optional<coercion> coerce;        // default: the server's policy
  std::optional<bool> validate_output;   // default: the server's policy
  std::size_t text_budget = 0;           // bytes of text before truncation; 0 = no limit
  std::string truncation_hint = "narrow the request to see the rest";
  // Scopes a caller needs for this tool (see tool_definition::scopes).
  std::vector<std::string> scopes;
  // Tasks: whether this tool's calls may outlive their request, and where the task begins.
  task_mode task = task_mode::forbidden;
  task_start task_begins = task_start::at_call;
};

// A tool's schemas given as JSON rather than derived from C++ types.
struct runtime_schema {
  json input;            // must be an object schema
  json output = nullptr; // optional object schema
};

// A tool described by hand, for server::add_tool: what tools/list shows and how tools/call runs it.
struct tool_definition {
  std::string name;
  std::string title;
  std::string description;
  json input_schema;             // an object schema
  json output_schema = nullptr;  // object schema, or null
  annotations hints;
  json icons = nullptr;
  json meta = nullptr;
  // Scopes a caller must have (identity::scopes) to see this tool in tools/list and to call it. A
  // request whose transport authenticated nobody (stdio; HTTP without an auth hook) has no caller
  // and is not checked: require scopes where callers authenticate.
  std::vector<std::string> scopes;
  // Returns a CallToolResult. Argument problems and handler failures are isError results, not
  // throws. Runs concurrently with other handlers, this one included.
  std::function<json(const json& arguments, context&)> invoke;
  // Whether its calls may run as tasks, and where a task begins (core/tool_definition.hpp).
  task_mode task = task_mode::forbidden;
  task_start task_begins = task_start::at_call;

  // The Tool object; a 2025-era client gets an object output schema (see legacy_projection.hpp).
  json to_json(bool stateless = false) const;
};

// Throws definition_error naming the rule a tool name breaks (SEP-986: 1..64 characters of
// [A-Za-z0-9_.-]; 64 rather than 128 so every client's check accepts it).
void check_tool_name(std::string_view name);

namespace detail {

// The one place that decides a tool's title: the Tool object carries it at its top level, as the
// spec has since 2025-06-18. annotations.title is the older spelling of the same thing: used when
// `title` is empty, and never written to the Tool object. Two different titles are a registration
// error rather than a silent choice.
inline std::string tool_title(const std::string& title, const annotations& hints, const std::string& tool_name) {
  if (title.empty()) return hints.title;
  if (!hints.title.empty() && hints.title != title)
    throw definition_error("Tool '" + tool_name + "': title \"" + title + "\" and annotations.title \"" + hints.title +
                           "\" differ; give the title once, as title (annotations.title is its older spelling)");
  return title;
}

// The Tool's _meta: options.meta with the app link merged in (a link given both ways is refused).
inline json tool_meta(const tool_options& options, const std::string& tool_name) {
  if (!options.app) return options.meta;
  json meta = options.meta.is_object() ? options.meta : json::object();
  if (!options.meta.is_null() && !options.meta.is_object())
    throw definition_error("Tool '" + tool_name + "': meta must be a JSON object");
  if (meta.contains("ui") || meta.contains("ui/resourceUri"))
    throw definition_error("Tool '" + tool_name + "': give the app link once, as tool_options::app, not also in meta");
  if (!options.app->model && !options.app->app)
    throw definition_error("Tool '" + tool_name + "': an app link visible to neither the model nor the app hides the tool");
  meta["ui"] = app_link_meta(*options.app);
  if (options.app->legacy_key) meta["ui/resourceUri"] = options.app->resource_uri;
  return meta;
}

}  // namespace detail

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/core/impl/tool_definition.ipp>
#endif
