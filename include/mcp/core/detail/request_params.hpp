// A request's params as the core carries them from mcp::message to its handler.
#pragma once

#include <mcp/json/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

// mcp::message reads a params object's "name" (when a string) and "arguments" apart from the other
// members: a tools/call then needs no map for params at all, which was a fifth of a small call's cost
// on stdio (issue #20). rest() holds every other member, so it answers for any key but those two;
// tree() puts them back, once, for a handler that reads params whole. What tree() gives equals what
// reading params whole gives (tests/unit/test_message.cpp).
// Not thread-safe: one request's thread uses it at a time.
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
  // "arguments" when it was set apart (any JSON value), else nullptr: look in rest().
  const json* arguments() const { return arguments_ ? &*arguments_ : nullptr; }

  // params whole: the set-apart members go back into the tree on the first call.
  json& tree() {
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
    if (arguments_) copy["arguments"] = *arguments_;
    return copy;
  }

  // For the reader, member by member; a repeated member keeps its last value, as a whole read does.
  void set_name(std::string_view name) {
    erase("name");
    name_.emplace(name);
  }
  json& set_arguments() {
    erase("arguments");
    return arguments_.emplace();
  }
  json& set_member(std::string key) {
    if (key == "name") name_.reset();
    if (rest_.is_null()) rest_ = json::object();
    return rest_[std::move(key)];
  }

 private:
  static const json& empty_object() {
    static const json empty = json::object();
    return empty;
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
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
