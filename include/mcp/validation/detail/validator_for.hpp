// The validator of a reflected type's schema, compiled once per C++ type: typed tools check their
// arguments with it, prompts theirs, ctx.elicit<T>() the client's answer.
#pragma once

#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>

namespace mcp {
inline namespace v0 {
namespace detail {

template <class T>
const validator& validator_for() {
  static const validator v(schema_of<T>());
  return v;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
