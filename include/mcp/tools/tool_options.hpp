// Per-tool options for server::tool().
#pragma once

#include <mcp/schema/coercion.hpp>
#include <mcp/json/json.hpp>
#include <mcp/tools/render.hpp>

#include <functional>
#include <optional>
#include <string>

namespace mcp {
inline namespace v0 {

// Hints about a tool's behaviour for the client (all optional; the spec gives their defaults).
struct annotations {
  std::optional<bool> read_only;
  std::optional<bool> destructive;
  std::optional<bool> idempotent;
  std::optional<bool> open_world;
  std::string title;
};

struct tool_options {
  tool_options() = default;
  tool_options(annotations a) : hints(std::move(a)) {}  // NOLINT: srv.tool(..., mcp::annotations{...})

  std::string title;
  annotations hints;
  json icons = nullptr;  // Icon[]
  json meta = nullptr;   // _meta of the Tool
  // How the text block renders a structured result; `render` overrides both formats.
  text_format format = text_format::json;
  std::function<std::string(const json& structured)> render;
  std::optional<coercion> coerce;        // default: the server's policy
  std::optional<bool> validate_output;   // default: the server's policy
  std::size_t text_budget = 0;           // bytes of text before truncation; 0 = no limit
  std::string truncation_hint = "narrow the request to see the rest";
};

}  // namespace v0
}  // namespace mcp
