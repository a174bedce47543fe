// What MCP_STRUCT and MCP_ENUM expand to: field and enumerator descriptors, built through small
// builders whose static_asserts turn misuse into a message that names the fix.
#pragma once

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/detail/reflect_pp.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

// One reflected data member: name, member pointer, description (may be null) and constraints.
template <class C, class M, class... Cs>
struct field_info {
  using member_type = M;
  const char* name;
  M C::*member;
  const char* description;
  std::tuple<Cs...> constraints;
};

template <template <class...> class Tmpl, class T>
struct is_instance_of : std::false_type {};
template <template <class...> class Tmpl, class... Ts>
struct is_instance_of<Tmpl, Tmpl<Ts...>> : std::true_type {};

template <class... Cs>
inline constexpr bool has_default_value_v = (is_instance_of<default_value_t, Cs>::value || ...);

template <class M>
constexpr void check_field_type() {
  static_assert(!std::is_function_v<M>, "mcp: MCP_STRUCT lists data members only, not member functions");
  using bad = unsupported_in_t<M>;
  static_assert(!std::is_enum_v<bad>,
                "mcp: field type is an enum without MCP_ENUM; declare it with "
                "MCP_ENUM(Enum, (value, \"wire-name\"), ...) before this MCP_STRUCT");
  static_assert(std::is_enum_v<bad> || std::is_void_v<bad>,
                "mcp: field type not supported; supported types are bool, integers, float, double, "
                "std::string, std::optional, std::vector, std::array, std::set, "
                "std::map<std::string, T>, std::variant and mcp::json; declare your own structs with "
                "MCP_STRUCT and enums with MCP_ENUM, before the MCP_STRUCT that uses them");
}

template <class C, class M>
struct field_builder {
  const char* name;
  M C::*member;

  field_info<C, M> operator()() const {
    check_field_type<M>();
    return {name, member, nullptr, {}};
  }

  template <class D, class... Cs>
  field_info<C, M, Cs...> operator()(D description, Cs... constraints) const {
    static_assert(std::is_convertible_v<D, const char*>,
                  "mcp: a field is written (member, \"description\", constraints...): the second item "
                  "must be the description, a string literal");
    static_assert((is_constraint_v<Cs> && ...),
                  "mcp: after the description a field takes only mcp:: constraints, e.g. "
                  "mcp::minimum(1), mcp::max_length(80)");
    check_field_type<M>();
    if constexpr ((is_constraint_v<Cs> && ...)) (Cs::template check<M>(), ...);
    const char* text = nullptr;
    if constexpr (std::is_convertible_v<D, const char*>) text = description;  // else: asserted above
    return {name, member, text, {std::move(constraints)...}};
  }
};

template <class C, class M>
constexpr field_builder<C, M> make_field_builder(const char* name, M C::*member) {
  return {name, member};
}
// Takes anything, so that a misuse reports only its static_assert.
struct ignored_field {
  template <class... A>
  constexpr int operator()(const A&...) const {
    return 0;
  }
};
template <class P>
constexpr ignored_field make_field_builder(const char*, P) {
  static_assert(sizeof(P) == 0, "mcp: MCP_STRUCT lists non-static data members only");
  return {};
}

template <class E>
struct enum_entry {
  E value;
  const char* wire;         // the JSON string
  const char* description;  // may be null
};

template <class E>
struct enum_entry_builder {
  E value;
  const char* identifier;

  constexpr enum_entry<E> operator()() const { return {value, identifier, nullptr}; }
  constexpr enum_entry<E> operator()(const char* wire, const char* description = nullptr) const {
    return {value, wire, description};
  }
};

template <class E, std::size_t N>
struct enum_table {
  const char* name;
  std::array<enum_entry<E>, N> entries;
};

template <class E, class... Entries>
constexpr enum_table<E, sizeof...(Entries)> make_enum_table(const char* name, Entries... entries) {
  return {name, {{entries...}}};
}

// The reflected data, built once per type (thread-safe statics).
template <class T>
const auto& fields_of() {
  static const auto fields = mcp_reflect_fields(type_tag<T>{});
  return fields;
}
template <class T>
const auto& enum_table_of() {
  static constexpr auto table = mcp_reflect_enum(type_tag<T>{});
  return table;
}
template <class T>
const char* struct_name_of() {
  return mcp_reflect_name(type_tag<T>{});
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp

// The expansion of one "(member, description, constraints...)" item of MCP_STRUCT.
#define MCP_DETAIL_FIELD(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_FIELD_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_FIELD_I(T, member, ...) \
  ::mcp::detail::make_field_builder(#member, &T::member)(__VA_ARGS__)
#define MCP_DETAIL_FIELDS(T, ...) \
  MCP_DETAIL_CAT(MCP_DETAIL_FIELDS_, MCP_DETAIL_IS_PAREN(MCP_DETAIL_FIRST(__VA_ARGS__)))(T, __VA_ARGS__)
#define MCP_DETAIL_FIELDS_0(T, ...)
#define MCP_DETAIL_FIELDS_1(T, ...) MCP_DETAIL_FOR_EACH(MCP_DETAIL_FIELD, T, __VA_ARGS__)

// The expansion of one "(enumerator, "wire-name", description)" item of MCP_ENUM.
#define MCP_DETAIL_ENUMERATOR(E, item) MCP_DETAIL_APPLY(MCP_DETAIL_ENUMERATOR_I, (E, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_ENUMERATOR_I(E, value, ...) \
  ::mcp::detail::enum_entry_builder<E>{E::value, #value}(__VA_ARGS__)
