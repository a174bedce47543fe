// Constraints for MCP_STRUCT fields. Each becomes one JSON Schema keyword on the field's schema:
//   MCP_STRUCT(args, (title, "Note title", mcp::min_length(3), mcp::max_length(80)));
// Each knows which field types it fits and says so at compile time. A constraint on a
// std::optional<T> field applies to T. String arguments (pattern, format, title) must outlive the
// program: pass string literals.
#pragma once

#include <mcp/schema/detail/reflect_traits.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

struct constraint_tag {};

template <class T>
inline constexpr bool is_constraint_v = std::is_base_of_v<constraint_tag, T>;

// A type mapped through mcp::json_type takes any constraint: its schema says what it is.
template <class M>
inline constexpr bool fits_number_v = is_number_v<unwrap_optional_t<M>> || has_json_type_v<unwrap_optional_t<M>>;
template <class M>
inline constexpr bool fits_string_v = is_string_v<unwrap_optional_t<M>> || has_json_type_v<unwrap_optional_t<M>>;
template <class M>
inline constexpr bool fits_array_v = is_array_like_v<unwrap_optional_t<M>> || has_json_type_v<unwrap_optional_t<M>>;

template <class N>
constexpr void check_number_argument() {
  static_assert(std::is_arithmetic_v<N> && !std::is_same_v<N, bool>,
                "mcp: numeric constraints (minimum, maximum, multiple_of, ...) take a number");
}

}  // namespace detail

#define MCP_DETAIL_NUMBER_CONSTRAINT(name, keyword)                                                    \
  template <class N>                                                                                   \
  struct name##_t : detail::constraint_tag {                                                           \
    static constexpr const char* key = keyword;                                                        \
    N value;                                                                                           \
    constexpr explicit name##_t(N v) : value(v) {}                                                     \
    template <class M>                                                                                 \
    static constexpr void check() {                                                                    \
      static_assert(detail::fits_number_v<M>,                                                          \
                    "mcp::" #name " applies to numbers; use mcp::min_length/max_length for strings or " \
                    "mcp::min_items/max_items for arrays");                                            \
    }                                                                                                  \
  };                                                                                                   \
  template <class N>                                                                                   \
  constexpr name##_t<N> name(N v) {                                                                    \
    detail::check_number_argument<N>();                                                                \
    return name##_t<N>(v);                                                                             \
  }

MCP_DETAIL_NUMBER_CONSTRAINT(minimum, "minimum")
MCP_DETAIL_NUMBER_CONSTRAINT(maximum, "maximum")
MCP_DETAIL_NUMBER_CONSTRAINT(exclusive_minimum, "exclusiveMinimum")
MCP_DETAIL_NUMBER_CONSTRAINT(exclusive_maximum, "exclusiveMaximum")
MCP_DETAIL_NUMBER_CONSTRAINT(multiple_of, "multipleOf")
#undef MCP_DETAIL_NUMBER_CONSTRAINT

#define MCP_DETAIL_SIZE_CONSTRAINT(name, keyword, fits, message)        \
  struct name##_t : detail::constraint_tag {                            \
    static constexpr const char* key = keyword;                         \
    std::size_t value;                                                  \
    constexpr explicit name##_t(std::size_t v) : value(v) {}            \
    template <class M>                                                  \
    static constexpr void check() {                                     \
      static_assert(detail::fits<M>, message);                          \
    }                                                                   \
  };                                                                    \
  constexpr name##_t name(std::size_t v) { return name##_t(v); }

MCP_DETAIL_SIZE_CONSTRAINT(min_length, "minLength", fits_string_v,
                           "mcp::min_length applies to strings; use mcp::minimum for numbers or "
                           "mcp::min_items for arrays")
MCP_DETAIL_SIZE_CONSTRAINT(max_length, "maxLength", fits_string_v,
                           "mcp::max_length applies to strings; use mcp::maximum for numbers or "
                           "mcp::max_items for arrays")
MCP_DETAIL_SIZE_CONSTRAINT(min_items, "minItems", fits_array_v,
                           "mcp::min_items applies to arrays (std::vector, std::array, std::set); use "
                           "mcp::min_length for strings or mcp::minimum for numbers")
MCP_DETAIL_SIZE_CONSTRAINT(max_items, "maxItems", fits_array_v,
                           "mcp::max_items applies to arrays (std::vector, std::array, std::set); use "
                           "mcp::max_length for strings or mcp::maximum for numbers")
#undef MCP_DETAIL_SIZE_CONSTRAINT

#define MCP_DETAIL_TEXT_CONSTRAINT(name, keyword, check_body)     \
  struct name##_t : detail::constraint_tag {                      \
    static constexpr const char* key = keyword;                   \
    const char* value;                                            \
    constexpr explicit name##_t(const char* v) : value(v) {}      \
    template <class M>                                            \
    static constexpr void check() { check_body }                  \
  };                                                              \
  constexpr name##_t name(const char* v) { return name##_t(v); }

MCP_DETAIL_TEXT_CONSTRAINT(pattern, "pattern",
                           static_assert(detail::fits_string_v<M>,
                                         "mcp::pattern applies to strings (std::string fields)");)
MCP_DETAIL_TEXT_CONSTRAINT(format, "format",
                           static_assert(detail::fits_string_v<M>,
                                         "mcp::format applies to strings (std::string fields)");)
MCP_DETAIL_TEXT_CONSTRAINT(title, "title", )
#undef MCP_DETAIL_TEXT_CONSTRAINT

struct unique_items_t : detail::constraint_tag {
  static constexpr const char* key = "uniqueItems";
  template <class M>
  static constexpr void check() {
    static_assert(detail::fits_array_v<M>,
                  "mcp::unique_items applies to arrays (std::vector, std::array); std::set is unique "
                  "already");
  }
};
constexpr unique_items_t unique_items() { return {}; }

struct deprecated_t : detail::constraint_tag {
  static constexpr const char* key = "deprecated";
  bool value;
  constexpr explicit deprecated_t(bool v) : value(v) {}
  template <class M>
  static constexpr void check() {}
};
constexpr deprecated_t deprecated(bool yes = true) { return deprecated_t(yes); }

// The field's JSON property name, when it is not the member's name: mcp::json_name("dryRun") on a
// member dry_run, or "private" on a member private_. Not a schema keyword.
struct json_name_t : detail::constraint_tag {
  const char* value;
  constexpr explicit json_name_t(const char* v) : value(v) {}
  template <class M>
  static constexpr void check() {}
};
constexpr json_name_t json_name(const char* v) { return json_name_t(v); }

// The field's default (JSON "default"). The field stops being required, and decode fills it in when
// the key is absent. The value is converted to the field's type, so an enum default shows its wire name.
template <class V>
struct default_value_t : detail::constraint_tag {
  V value;
  explicit default_value_t(V v) : value(std::move(v)) {}
  template <class M>
  static constexpr void check() {
    static_assert(std::is_constructible_v<M, const V&>,
                  "mcp::default_value: the value must be convertible to the field's type");
  }
};
template <class V>
default_value_t<std::decay_t<V>> default_value(V&& v) {
  return default_value_t<std::decay_t<V>>(std::forward<V>(v));
}

// Sample values (JSON "examples"), each converted to the field's type.
template <class... Vs>
struct examples_t : detail::constraint_tag {
  std::tuple<Vs...> values;
  explicit examples_t(std::tuple<Vs...> v) : values(std::move(v)) {}
  template <class M>
  static constexpr void check() {
    static_assert((std::is_constructible_v<M, const Vs&> && ...),
                  "mcp::examples: each example must be convertible to the field's type");
  }
};
template <class... Vs>
examples_t<std::decay_t<Vs>...> examples(Vs&&... vs) {
  static_assert(sizeof...(Vs) > 0, "mcp::examples needs at least one example");
  return examples_t<std::decay_t<Vs>...>(std::tuple<std::decay_t<Vs>...>(std::forward<Vs>(vs)...));
}

}  // namespace v0
}  // namespace mcp
