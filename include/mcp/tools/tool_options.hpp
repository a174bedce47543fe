// Per-tool options for server::tool().
#pragma once

#include <mcp/core/app_link.hpp>
#include <mcp/core/tool_definition.hpp>
#include <mcp/error.hpp>
#include <mcp/validation/coercion.hpp>
#include <mcp/json/json.hpp>
#include <mcp/tools/render.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

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

namespace detail {

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
