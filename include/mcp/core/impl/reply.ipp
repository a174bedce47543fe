// Out-of-line bodies of core/detail/reply.hpp, included once from its bottom (or compiled into the
// library in compiled mode, where a typed tool's result builder calls them there instead of
// compiling them, and the result's tree, again in each file that registers a tool).
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL void result_sink::text(std::string text, bool is_error) {
  is_error_ = is_error;
  if (!text_) {
    tool_result r;
    r.content.push_back(text_block(std::move(text)));
    r.is_error = is_error;
    *tree_ = std::move(r).to_json();
    return;
  }
  open_text_block(text);
  *text_ += is_error ? "}],\"isError\":true}" : "}]}";
}

MCP_DECL void result_sink::tree(json result) {
  auto flag = result.find("isError");
  is_error_ = flag != result.end() && flag->is_boolean() && flag->get<bool>();
  add_text_for_structured(result);
  if (legacy_) project_call_result(result, output_schema_);
  if (text_)
    write_json(result, *text_);
  else
    *tree_ = std::move(result);
}

MCP_DECL void result_sink::structured_tree(std::string_view text, std::string_view written, bool wrap) {
  tool_result r;
  r.content.push_back(text_block(std::string(text)));
  json value = raw_json(written);
  r.structured_content = wrap ? json{{"result", std::move(value)}} : std::move(value);
  *tree_ = std::move(r).to_json();  // what project_call_result would do is done: the text block is there
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
