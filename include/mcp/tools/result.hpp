// mcp::result<T>: a tool handler's answer that is either a value or a tool_error for the model.
#pragma once

#include <mcp/core/content.hpp>

#include <utility>
#include <variant>

namespace mcp {
inline namespace v0 {

template <class T>
class result {
 public:
  result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  result(tool_error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  template <class U, std::enable_if_t<std::is_constructible_v<T, U&&> && !std::is_same_v<std::decay_t<U>, tool_error> &&
                                          !std::is_same_v<std::decay_t<U>, result>,
                                      int> = 0>
  result(U&& value) : v_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  const tool_error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, tool_error> v_;
};

}  // namespace v0
}  // namespace mcp
