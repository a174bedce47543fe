// A request's params as the core carries them from mcp::message to its handler.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

// A tools/call's arguments as the named tool's typed reader read them, while mcp::message read the
// message: one pass over their text where a check and then a read made two (issue #24).
struct registered_tool;  // core/server.hpp

struct decoded_arguments {
  // The tool that read them, kept alive so that no other tool can take its address before the
  // call looks it up again.
  std::shared_ptr<const registered_tool> tool;
  std::shared_ptr<const void> value;  // what it read: its argument type
};

// What mcp::message asks at a tools/call's object "arguments" that follows a string "name".
// Threads: decode may be called from any thread, several at once.
class arguments_decoder {
 public:
  // Reads the object at the start of `text` for the tool `name`: the bytes it took (the object,
  // through its closing brace), with `out` set; 0 when it did not (no such tool, no typed reader,
  // anything the reader does not follow), and the message checks the text as it otherwise does.
  virtual std::size_t decode(std::string_view name, std::string_view text, decoded_arguments& out) const = 0;

 protected:
  ~arguments_decoder() = default;
};

// mcp::message reads a params object's "name" (when a string) and "arguments" apart from the other
// members: a tools/call then needs no map for params at all, which was a fifth of a small call's cost
// on stdio (issue #20). An object "arguments" is kept as its text, checked but not built: a typed
// tool reads it straight into its argument type (validation/detail/typed_reader.hpp), and the tree is
// built from it only for whoever asks for it (issue #24); where the thread that reads the message
// also runs the call, the tool's reader reads it with the message instead (decoded()). rest()
// holds every other member, so it answers for any key but those two; tree() puts them back, once,
// for a handler that reads params whole. What tree() gives equals what reading params whole gives
// (tests/unit/test_tools.cpp, "message::read reads every envelope...").
// Not thread-safe: one request's thread uses it at a time; the const members build nothing.
class request_params {
 public:
  request_params() = default;  // an empty object
  explicit request_params(json whole) : rest_(std::move(whole)), object_(rest_.is_object()) {}

  // False only for params that are not an object.
  bool is_object() const { return object_; }
  // Every member but a set-apart "name" and "arguments" (or params whole when not an object).
  const json& rest() const { return object_ && rest_.is_null() ? empty_object() : rest_; }
  // "name" when it was set apart (it is a string then), else nullptr: look in rest().
  const std::string* name() const { return name_ ? &*name_ : nullptr; }
  // "arguments" when it was set apart (any JSON value), else nullptr: look in rest(). Builds the
  // tree from the kept text on the first call.
  const json* arguments() {
    if (arguments_text_) {
      build(arguments_.emplace());
      arguments_text_.reset();
    }
    return arguments_ ? &*arguments_ : nullptr;
  }
  // The same without building: the tree, or one read from the text into `scratch` (over what it
  // holds: a tree kept from an earlier call keeps its storage, json_reader).
  const json* arguments(json& scratch) const {
    if (arguments_text_) {
      build(scratch);
      return &scratch;
    }
    return arguments_ ? &*arguments_ : nullptr;
  }
  // "arguments" as the client wrote it, when it is an object not built yet; else nullptr.
  const std::string* arguments_text() const { return arguments_text_ ? &*arguments_text_ : nullptr; }
  // "arguments" as a typed tool read them with the message (set after set_arguments_text), while
  // params are as read: whatever sets "name" or "arguments", or hands out params whole for
  // writing, drops them. Else nullptr.
  const decoded_arguments* decoded() const { return decoded_.value ? &decoded_ : nullptr; }
  void set_decoded(decoded_arguments read) { decoded_ = std::move(read); }

  // params whole: the set-apart members go back into the tree on the first call.
  json& tree() {
    decoded_ = {};
    arguments();
    if (object_ && rest_.is_null()) rest_ = json::object();
    if (name_) rest_["name"] = std::move(*name_);
    if (arguments_) rest_["arguments"] = std::move(*arguments_);
    name_.reset();
    arguments_.reset();
    return rest_;
  }
  // A copy of params whole, leaving this as it is.
  json whole() const {
    json copy = rest();
    if (name_) copy["name"] = *name_;
    json scratch;
    if (const json* a = arguments(scratch)) copy["arguments"] = *a;
    return copy;
  }

  // For the reader, member by member; a repeated member keeps its last value, as a whole read does.
  void set_name(std::string_view name) {
    erase("name");
    decoded_ = {};
    name_.emplace(name);
  }
  json& set_arguments() {
    erase("arguments");
    decoded_ = {};
    arguments_text_.reset();
    unchecked_ = false;
    return arguments_.emplace();
  }
  // `text`: an object that json_reader::skip_value accepted at `open` levels within `max_depth`;
  // or, when not `checked`, one json_reader::skip_brackets delimited, to be checked by
  // check_arguments() before anything reads it.
  void set_arguments_text(std::string_view text, std::size_t open, std::size_t max_depth, bool checked = true) {
    erase("arguments");
    decoded_ = {};
    arguments_.reset();
    arguments_text_.emplace(text);
    open_ = open;
    max_depth_ = max_depth;
    unchecked_ = !checked;
  }
  // Lets go of "arguments" (the text, a tree, a value read from them) once the call is done with them.
  void drop_arguments() {
    erase("arguments");
    arguments_text_.reset();
    arguments_.reset();
    decoded_ = {};
    unchecked_ = false;
  }
  // Whether the kept text still waits for check_arguments().
  bool arguments_unchecked() const { return unchecked_; }
  // Checks text kept unchecked, as skip_value would have: false when it is not JSON. Where the
  // tool named in "name" reads it whole (`decoder`), that read is the check, kept for the call.
  bool check_arguments(const arguments_decoder* decoder) {
    if (!unchecked_) return true;
    const std::string_view text = *arguments_text_;
    decoded_arguments read;
    if (decoder && name_ && decoder->decode(*name_, text, read) == text.size()) {
      decoded_ = std::move(read);
    } else {
      json_reader in(text, max_depth_);
      if (!in.skip_value(open_) || !in.at_end()) return false;
    }
    unchecked_ = false;
    return true;
  }
  json& set_member(std::string key) {
    if (key == "name") {  // not a string: the tool that read the arguments is not the one named
      name_.reset();
      decoded_ = {};
    }
    if (rest_.is_null()) rest_ = json::object();
    return rest_[std::move(key)];
  }

 private:
  static const json& empty_object() {
    static const json empty = json::object();
    return empty;
  }
  void build(json& out) const {
    detail::read_json(*arguments_text_, out, max_depth_, open_);  // read before: it can not fail
  }
  void erase(std::string_view key) {
    if (!rest_.is_object()) return;
    auto& members = rest_.get_ref<json::object_t&>();
    if (auto it = members.find(key); it != members.end()) members.erase(it);
  }

  json rest_;  // null while an object params has no member but those set apart
  bool object_ = true;
  std::optional<std::string> name_;
  std::optional<json> arguments_;
  std::optional<std::string> arguments_text_;
  decoded_arguments decoded_;
  std::size_t open_ = 0, max_depth_ = 0;  // where the text was read
  bool unchecked_ = false;                 // see check_arguments
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
