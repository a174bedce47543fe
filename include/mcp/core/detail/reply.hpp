// Where a request's answer is built on its way to the outbound. Every request's handler answers
// into a `reply`: a result tree, or, where the outbound writes text (outbound::takes_text) and the
// client is of the 2025 era, the result written as JSON text. A tools/call result is built
// through a `result_sink` over that reply: one result builder (tools/detail/call_result.hpp), two
// sinks. Both sinks give the bytes of one CallToolResult; tests/unit/test_tools.cpp compares them
// for every kind of answer a tool can give.
#pragma once

#include <mcp/config.hpp>
#include <mcp/core/content.hpp>
#include <mcp/core/detail/legacy_projection.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

using namespace std::string_view_literals;  // literals appended without strlen

// One request's answer. Lives on the stack of the thread that runs the handler.
class reply {
 public:
  explicit reply(bool text_allowed) : text_allowed_(text_allowed) {}
  reply(const reply&) = delete;
  reply& operator=(const reply&) = delete;

  // Whether the answer may be written as text (text()); otherwise it is tree().
  bool text_allowed() const { return text_allowed_; }
  json& tree() { return tree_; }
  std::string& text() {
    as_text_ = true;
    return text_.value;
  }
  bool is_text() const { return as_text_; }
  // Forgets a partial answer (the handler threw after starting one).
  void clear() {
    tree_ = nullptr;
    text_.value.clear();
    as_text_ = false;
    tool_error_ = false;
  }
  // Whether the answer is a tools/call result with isError (for middleware's outcome).
  bool tool_error() const { return tool_error_; }
  void set_tool_error(bool is_error) { tool_error_ = is_error; }

 private:
  bool text_allowed_;
  bool as_text_ = false;
  bool tool_error_ = false;
  json tree_;
  reused_string text_;  // the thread's buffer: a result written as text costs no allocation
};

// A CallToolResult in the making, as a tree or as the JSON text a 2025-era client receives.
// Whatever goes in, the text sink writes the bytes that write_json gives for the tree sink's
// result (for the same client era): each member below says how it keeps to that.
class result_sink {
 public:
  // Into a tree. `legacy`: for a 2025-era client, whose structuredContent must be an object
  // (project_call_result); a 2026-07-28 one gets any value.
  result_sink(json& tree, const json& output_schema, bool legacy)
      : tree_(&tree), output_schema_(output_schema), legacy_(legacy) {}
  // Appended to `text`, always for a 2025-era client.
  result_sink(std::string& text, const json& output_schema)
      : text_(&text), start_(text.size()), output_schema_(output_schema), legacy_(true) {}

  bool writes_text() const { return text_ != nullptr; }
  bool is_error() const { return is_error_; }

  // A result of one text block.
  void text(std::string text, bool is_error = false);

  // Any result as a tree, as a handler built it (a tool_result, a runtime-schema tool's answer).
  void tree(json result);

  // A result of one text block and structured content: `written`, the JSON text of any value
  // (write_encoded's, members in declaration order). The tree sink keeps that text as a raw_json
  // node (writer.hpp), so both sinks write the same bytes. `as_object`: the value is an object and
  // the output schema an object schema (a struct's always is), as a 2025-era client needs them;
  // otherwise that client gets {"result": value} (see project_call_result).
  void structured(std::string_view text, std::string_view written, bool as_object) {
    write_structured(text, false, written, as_object);
  }
  // structured() whose text block is `written` itself, an object's JSON text as write_encoded wrote it.
  void structured_as_text(std::string_view written) { write_structured(written, true, written, true); }

  // Forgets what was written (the pipeline failed after starting a result).
  void reset() {
    is_error_ = false;
    if (text_)
      text_->resize(start_);
    else
      *tree_ = nullptr;
  }

 private:
  // `text_is_json`: the text is JSON this library wrote, which the text sink escapes eight bytes at
  // a time (write_compact_json_as_string gives write_json_string's bytes for it).
  void write_structured(std::string_view text, bool text_is_json, std::string_view written, bool as_object) {
    is_error_ = false;
    const bool wrap = legacy_ && !as_object;
    if (!text_) return structured_tree(text, written, wrap);
    open_text_block(text, text_is_json);
    *text_ += "}],\"structuredContent\":"sv;
    if (wrap) *text_ += "{\"result\":"sv;
    *text_ += written;
    if (wrap) *text_ += '}';
    *text_ += '}';
  }

  // {"content":[{"text":...,"type":"text"  (members in the order a json object keeps them)
  void open_text_block(std::string_view text, bool text_is_json = false) {
    *text_ += "{\"content\":[{\"text\":"sv;
    if (text_is_json)
      write_compact_json_as_string(text, *text_);
    else
      write_json_string(text, *text_);
    *text_ += ",\"type\":\"text\""sv;
  }
  // Apart from write_structured(), which stays small enough for the compiler to inline its appends.
  void structured_tree(std::string_view text, std::string_view written, bool wrap);

  json* tree_ = nullptr;
  std::string* text_ = nullptr;
  std::size_t start_ = 0;
  const json& output_schema_;
  bool legacy_;
  bool is_error_ = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/core/impl/reply.ipp>
#endif
