// mcp::result<T>: a tool handler's answer that is either a value or a tool_error for the model.
#pragma once

#include <mcp/core/content.hpp>

#include <type_traits>
#include <utility>
#include <variant>

namespace mcp {
inline namespace v0 {

template <class T>
class result {
 public:
  result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  result(tool_error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  // Not for a tool_error (nor a class derived from it): it converts to T only to fail with a message.
  template <class U, std::enable_if_t<std::conjunction_v<std::negation<std::is_base_of<tool_error, std::decay_t<U>>>,
                                                         std::negation<std::is_same<std::decay_t<U>, result>>,
                                                         std::is_constructible<T, U&&>>,
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
