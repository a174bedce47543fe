// Out-of-line bodies of tools/detail/call_result.hpp, included once from its bottom (or compiled into the library in
// compiled mode, so that a file registering a typed tool calls them there rather than compiling
// them again).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL std::string budgeted(std::string text, const pipeline_settings& s) {
  if (s.text_budget == 0 || text.size() <= s.text_budget) return text;
  return truncate_text(text, s.text_budget, s.truncation_hint);
}

MCP_DECL void prepend_pointer_token(std::string& pointer, std::string_view token) {
  std::string front;
  append_pointer_token(front, token);
  pointer.insert(0, front);
}

MCP_DECL bool non_finite_in_json(const json& v, std::string& pointer) {
  if (v.is_number_float()) return !std::isfinite(v.get<double>());
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (non_finite_in_json(v[i], pointer)) {
        prepend_pointer_token(pointer, std::to_string(i));
        return true;
      }
    }
  } else if (v.is_object()) {
    for (const auto& [key, item] : v.items()) {
      if (non_finite_in_json(item, pointer)) {
        prepend_pointer_token(pointer, key);
        return true;
      }
    }
  }
  return false;
}

MCP_DECL void broken_result(const pipeline_settings& s, const std::vector<violation>& problems, result_sink& sink) {
  log_for(s, "tool '" + s.tool_name + "' returned a result that breaks its own output schema " + violation_list(problems) +
                 "\nThe client was sent an isError result instead.");
  sink.text("Tool '" + s.tool_name +
                "' produced a result that does not match its declared output schema. This is a bug in the server, not "
                "in your call; the details were logged.",
            true);
}

MCP_DECL std::string markdown_text(const json& value, const pipeline_settings& s) {
  return render_markdown(value, s.display_schema);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
