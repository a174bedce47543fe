// Type traits behind reflection: which types are reflected, and which field types the SDK maps to JSON.
#pragma once

#include <mcp/json/json.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// The argument of the ADL hooks that MCP_STRUCT / MCP_ENUM define in the user's namespace. T's
// namespace is associated with type_tag<T>, so the hooks are found from inside mcp.
template <class T>
struct type_tag {
  using type = T;
};

template <class T, class = void>
struct has_struct_hook : std::false_type {};
template <class T>
struct has_struct_hook<T, std::void_t<decltype(mcp_reflect_name(type_tag<T>{}))>> : std::true_type {};

// MCP_STRUCT_DEF's own hook: every member of T is one of its fields (the macro declared them all).
// MCP_STRUCT maps a struct declared elsewhere, which may hold members it does not name.
template <class T, class = void>
struct has_every_member_hook : std::false_type {};
template <class T>
struct has_every_member_hook<T, std::void_t<decltype(mcp_reflect_every_member(type_tag<T>{}))>> : std::true_type {};

template <class T, class = void>
struct has_enum_hook : std::false_type {};
template <class T>
struct has_enum_hook<T, std::void_t<decltype(mcp_reflect_enum(type_tag<T>{}))>> : std::true_type {};

}  // namespace detail

// True for types declared with MCP_STRUCT (the declaration must be visible where this is asked).
template <class T>
struct is_reflected : detail::has_struct_hook<T> {};
template <class T>
inline constexpr bool is_reflected_v = is_reflected<T>::value;

// True for enums declared with MCP_ENUM.
template <class T>
struct is_reflected_enum : detail::has_enum_hook<T> {};
template <class T>
inline constexpr bool is_reflected_enum_v = is_reflected_enum<T>::value;

// The customization point for types of your own (a UUID, a time, a money amount): specialise
//   template <> struct mcp::json_type<my_type> {
//     static mcp::json schema();                     // its JSON Schema
//     static mcp::json encode(const my_type& value);
//     static my_type decode(const mcp::json& j);      // throw any std::exception to refuse j
//   };
// before the MCP_STRUCT that uses my_type. The field's constraints and description still apply (a
// mcp::pattern on a type whose schema is a string, say). The SDK maps std::chrono's time_point of
// system_clock (an RFC 3339 "date-time" string) and durations (a number of the duration's unit) so.
template <class T, class = void>
struct json_type {
  using unmapped = void;  // no mapping: the primary template
};

namespace detail {

template <class T, class = void>
struct has_json_type : std::true_type {};
template <class T>
struct has_json_type<T, typename json_type<T>::unmapped> : std::false_type {};
template <class T>
inline constexpr bool has_json_type_v = has_json_type<T>::value;

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T, class A> struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T> struct is_std_array : std::false_type {};
template <class T, std::size_t N> struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T> struct is_set : std::false_type {};
template <class T, class C, class A> struct is_set<std::set<T, C, A>> : std::true_type {};
template <class T> struct is_string_map : std::false_type {};
template <class T, class C, class A> struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};
template <class T> struct is_variant : std::false_type {};
template <class... Ts> struct is_variant<std::variant<Ts...>> : std::true_type {};

// Character types are integers to C++ but text to a reader: rather than guess, they are refused.
template <class T>
inline constexpr bool is_char_v = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> ||
#if defined(__cpp_char8_t)
                                  std::is_same_v<T, char8_t> ||
#endif
                                  std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool> && !is_char_v<T>;
template <class T>
inline constexpr bool is_number_v = is_integer_v<T> || std::is_floating_point_v<T>;
template <class T>
inline constexpr bool is_string_v = std::is_same_v<T, std::string>;
template <class T>
inline constexpr bool is_array_like_v = is_vector<T>::value || is_std_array<T>::value || is_set<T>::value;

template <class T> struct unwrap_optional { using type = T; };
template <class T> struct unwrap_optional<std::optional<T>> { using type = T; };
template <class T>
using unwrap_optional_t = typename unwrap_optional<T>::type;

// The innermost type in T that the SDK cannot map (void when all of T maps). Lets a static_assert
// tell an unreflected enum from the other cases.
template <class T>
struct unsupported_in;
template <class T>
using unsupported_in_t = typename unsupported_in<T>::type;

template <class... Ts>
struct first_non_void { using type = void; };
template <class T, class... Ts>
struct first_non_void<T, Ts...> {
  using type = std::conditional_t<std::is_void_v<T>, typename first_non_void<Ts...>::type, T>;
};

template <class T>
struct unsupported_in {
  using type = std::conditional_t<std::is_same_v<T, bool> || is_number_v<T> || is_string_v<T> ||
                                      std::is_same_v<T, json> || is_reflected_v<T> || has_json_type_v<T> ||
                                      is_reflected_enum_v<T>,
                                  void, T>;
};
template <class T> struct unsupported_in<std::optional<T>> : unsupported_in<T> {};
template <class T, class A> struct unsupported_in<std::vector<T, A>> : unsupported_in<T> {};
template <class T, std::size_t N> struct unsupported_in<std::array<T, N>> : unsupported_in<T> {};
template <class T, class C, class A> struct unsupported_in<std::set<T, C, A>> : unsupported_in<T> {};
template <class T, class C, class A>
struct unsupported_in<std::map<std::string, T, C, A>> : unsupported_in<T> {};
template <class... Ts>
struct unsupported_in<std::variant<Ts...>> : first_non_void<unsupported_in_t<Ts>...> {};

template <class T>
inline constexpr bool is_supported_v = std::is_void_v<unsupported_in_t<T>>;

// Gives a type a process-wide identity without RTTI (used to spot recursion while building schemas).
template <class T>
struct type_id {
  static constexpr char anchor = 0;
};
template <class T>
const void* id_of() noexcept {
  return &type_id<T>::anchor;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
