// What MCP_STRUCT and MCP_ENUM expand to: field and enumerator descriptors, built through small
// builders whose static_asserts turn misuse into a message that names the fix.
#pragma once

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/detail/reflect_pp.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>

#include <mcp/error.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {

template <class P>
struct member_pointer_traits {};
template <class C, class M>
struct member_pointer_traits<M C::*> {
  using member = M;
};

template <template <class...> class Tmpl, class T>
struct is_instance_of : std::false_type {};
template <template <class...> class Tmpl, class... Ts>
struct is_instance_of<Tmpl, Tmpl<Ts...>> : std::true_type {};

template <class... Cs>
inline constexpr bool has_default_value_v = (is_instance_of<default_value_t, Cs>::value || ...);

// One reflected data member: JSON name, member pointer, description (may be null) and constraints.
template <class C, class M, class... Cs>
struct field_info {
  using member_type = M;
  static constexpr bool has_default = has_default_value_v<Cs...>;  // declared with mcp::default_value
  const char* name;
  M C::*member;
  const char* description;
  std::tuple<Cs...> constraints;
};

constexpr const char* pick_json_name(const char*, const json_name_t& n) { return n.value; }
template <class C>
constexpr const char* pick_json_name(const char* current, const C&) {
  return current;
}

// The JSON name: the last mcp::json_name among the constraints, else the member's name.
template <class... Cs>
constexpr const char* json_name_among(const char* member_name, const Cs&... cs) {
  const char* name = member_name;
  ((name = pick_json_name(name, cs)), ...);
  return name;
}

// Whether the member that P points to has a type the SDK maps, or is not a data member at all (its
// own message comes from make_field_builder), or is an enum without MCP_ENUM (check_field_type says
// that more precisely). The macros assert it per field, naming the struct and the field.
template <class P, int>
constexpr bool field_type_maps() {
  if constexpr (std::is_member_object_pointer_v<P>) {
    using M = typename member_pointer_traits<P>::member;
    return is_supported_v<M> || std::is_enum_v<unsupported_in_t<M>> || is_char_v<unsupported_in_t<M>>;
  } else {
    return true;
  }
}

// Whether ctx.elicit<T>() can ask for a field of this member pointer's type in a form: a string, a
// number, a bool, an MCP_ENUM, a std::vector or std::set of an MCP_ENUM (multi-select), each
// optionally in std::optional; a type mapped through mcp::json_type is checked when first asked
// (its schema is known at run time only).
template <class P, int>
constexpr bool elicitable_field() {
  if constexpr (std::is_member_object_pointer_v<P>) {
    using U = unwrap_optional_t<typename member_pointer_traits<P>::member>;
    if constexpr (std::is_same_v<U, bool> || is_number_v<U> || is_string_v<U> || is_reflected_enum_v<U> ||
                  has_json_type_v<U>)
      return true;
    else if constexpr (is_vector<U>::value || is_set<U>::value)
      return is_reflected_enum_v<typename U::value_type>;
    else
      return false;
  } else {
    return true;  // not a data member: the field checks say so
  }
}

template <class M>
constexpr void check_field_type() {
  static_assert(!std::is_function_v<M>, "mcp: MCP_STRUCT lists data members only, not member functions");
  using bad = unsupported_in_t<M>;
  static_assert(!std::is_enum_v<bad>,
                "mcp: field type is an enum without MCP_ENUM; declare it with "
                "MCP_ENUM(Enum, (value, \"wire-name\"), ...) before this MCP_STRUCT");
  static_assert(!is_char_v<bad>,
                "mcp: field type not supported: a character type is neither text nor a number to JSON; use "
                "std::string for text, or int for a number");
}

// The initial value of an MCP_STRUCT_DEF member: its mcp::default_value, else value-initialised.
template <class M, class A>
void take_default(M& out, const A& item) {
  if constexpr (is_instance_of<default_value_t, A>::value) out = M(item.value);
}
template <class M, class... A>
M initial_value(const A&... items) {
  if constexpr (has_default_value_v<A...>) {
    M out{};
    (take_default(out, items), ...);
    return out;
  } else {
    return M{};
  }
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
    const char* json = json_name_among(name, constraints...);
    return {json, member, text, {std::move(constraints)...}};
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

// Refuses two fields of one struct with one JSON name (mcp::json_name can make them collide): the
// case the compile-time check (json_name_shared) cannot see, a name known only at run time.
template <class Fields>
Fields checked_names(Fields fields, const char* type_name) {
  std::apply(
      [&](const auto&... f) {
        const char* names[] = {f.name..., nullptr};
        for (std::size_t i = 0; i < sizeof...(f); ++i)
          for (std::size_t j = i + 1; j < sizeof...(f); ++j)
            if (std::string_view(names[i]) == names[j])
              throw error(error_code::invalid_definition, std::string("mcp: MCP_STRUCT(") + type_name +
                                                              "): two fields have the JSON name \"" + names[i] +
                                                              "\"; give one of them another mcp::json_name");
      },
      fields);
  return fields;
}

// --- duplicate JSON names at compile time ------------------------------------------------------
// The macros stringize each field's items, so its JSON name can be read from the declaration's text
// as a constant expression: the literal of the last json_name("...") among its items, else the
// member's name. A text that does not show it plainly (json_name of a variable, a literal with
// escapes) gives an empty name: that field is left to checked_names, at first use.
struct static_json_name {
  std::string_view member;
  std::string_view json;  // empty: not known before run time
};

constexpr bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
constexpr std::size_t skip_spaces(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  return i;
}
// `s[i]` opens a quoted literal: the index after it.
constexpr std::size_t skip_quoted(std::string_view s, std::size_t i) {
  const char quote = s[i++];
  while (i < s.size() && s[i] != quote) i += s[i] == '\\' ? 2 : 1;
  return i + 1;
}
// `s[i]` is the quote of a raw literal R"delim( ... )delim": the index after it.
constexpr std::size_t skip_raw(std::string_view s, std::size_t i) {
  const std::size_t open = s.find('(', i);
  if (open == std::string_view::npos) return s.size();
  const std::string_view delimiter = s.substr(i + 1, open - i - 1);
  for (std::size_t at = s.find(')', open); at != std::string_view::npos; at = s.find(')', at + 1))
    if (s.substr(at + 1, delimiter.size()) == delimiter && s.substr(at + 1 + delimiter.size(), 1) == "\"")
      return at + delimiter.size() + 2;
  return s.size();
}

constexpr static_json_name static_name_of(std::string_view member, std::string_view items) {
  std::string_view name = member;
  for (std::size_t i = 0; i < items.size();) {
    const char c = items[i];
    if (c == '"' || c == '\'') {
      i = skip_quoted(items, i);
    } else if (is_identifier_char(c)) {
      std::size_t end = i;
      while (end < items.size() && is_identifier_char(items[end])) ++end;
      const std::string_view word = items.substr(i, end - i);
      i = end;
      if (i < items.size() && items[i] == '"' && word.back() == 'R') {  // R"(...)", u8R"(...)"
        i = skip_raw(items, i);
      } else if (word == "json_name") {
        std::size_t at = skip_spaces(items, i);
        if (at >= items.size() || items[at] != '(') continue;  // the word alone, not a call
        at = skip_spaces(items, at + 1);
        if (at >= items.size() || items[at] != '"') return {member, {}};
        const std::size_t close = skip_quoted(items, at);
        const std::string_view literal = items.substr(at + 1, close - at - 2);
        const std::size_t after = skip_spaces(items, close);
        if (literal.find('\\') != std::string_view::npos || after >= items.size() || items[after] != ')')
          return {member, {}};
        name = literal;
        i = after;
      }
    } else {
      ++i;
    }
  }
  return {member, name};
}

// Whether an MCP_STRUCT_DEF field's type, as written, names its member unqualified (`visibility` in
// (visibility, visibility, ...) or (std::optional<visibility>, visibility, ...)): inside the struct
// the member hides the type, so the declaration no longer compiles. `::visibility`, `app::visibility`
// and `enum visibility` still name the type there.
constexpr bool type_names_member(std::string_view type, std::string_view member) {
  std::string_view previous;  // the token before: "::", a word, or empty after any other character
  for (std::size_t i = 0; i < type.size();) {
    if (is_identifier_char(type[i])) {
      std::size_t end = i;
      while (end < type.size() && is_identifier_char(type[end])) ++end;
      const std::string_view word = type.substr(i, end - i);
      if (word == member && previous != "::" && previous != "enum" && previous != "struct" && previous != "class" &&
          previous != "union")
        return true;
      previous = word;
      i = end;
    } else if (type[i] == ':' && i + 1 < type.size() && type[i + 1] == ':') {
      previous = "::";
      i += 2;
    } else {
      if (type[i] != ' ' && type[i] != '\t' && type[i] != '\n' && type[i] != '\r') previous = {};
      ++i;
    }
  }
  return false;
}

// Whether the macro that calls it (through MCP_DETAIL_AT_NAMESPACE_SCOPE) stands outside every
// function: __builtin_FUNCTION() is the enclosing function's name there (g++, clang), and empty
// at namespace scope.
constexpr bool at_namespace_scope(const char* function) { return function[0] == '\0'; }

template <class... Names>
constexpr std::array<static_json_name, sizeof...(Names)> static_names(Names... names) {
  return {{names...}};
}

// Whether the field declared as `member` has a JSON name that a field declared before it has too:
// of two fields with one name, the second is reported, once.
template <std::size_t N>
constexpr bool json_name_shared(const std::array<static_json_name, N>& names, std::string_view member) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i].member != member || names[i].json.empty()) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (names[j].json == names[i].json) return true;
  }
  return false;
}

// The reflected data, built once per type (thread-safe statics).
template <class T>
const auto& fields_of() {
  static const auto fields = checked_names(mcp_reflect_fields(type_tag<T>{}), mcp_reflect_name(type_tag<T>{}));
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

// A static_assert per field that names the struct and the field when the SDK cannot map its type.
#define MCP_DETAIL_FIELD_CHECKS(T, ...) \
  MCP_DETAIL_CAT(MCP_DETAIL_FIELD_CHECKS_, MCP_DETAIL_IS_PAREN(MCP_DETAIL_FIRST(__VA_ARGS__)))(T, __VA_ARGS__)
#define MCP_DETAIL_FIELD_CHECKS_0(T, ...)
#define MCP_DETAIL_FIELD_CHECKS_1(T, ...) MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_FIELD_CHECK, T, __VA_ARGS__)
#define MCP_DETAIL_FIELD_CHECK(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_FIELD_CHECK_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_FIELD_CHECK_I(T, member, ...)                                                           \
  static_assert(!::mcp::detail::json_name_shared(mcp_reflect_static_names(::mcp::detail::type_tag<T>{}),  \
                                                 #member),                                                \
                "mcp: MCP_STRUCT(" #T "): field '" #member "' has the same JSON name as another field "   \
                "of " #T " (the member's name, or the one mcp::json_name gives it); give one of them "     \
                "another mcp::json_name(\"...\")");                                                      \
  static_assert(::mcp::detail::field_type_maps<decltype(&T::member), mcp_lazy>(),                         \
                "mcp: field '" #member "' of " #T " has a type the SDK cannot map to JSON: give the type " \
                "a mapping (specialise mcp::json_type<Type> with schema(), encode() and decode()), or "   \
                "declare it with MCP_STRUCT / MCP_ENUM before this macro. Mapped already: bool, "         \
                "integers, float, double, std::string, std::optional, std::vector, std::array, "          \
                "std::set, std::map<std::string, T>, std::variant, std::chrono durations and "            \
                "system_clock time points, mcp::json");

// A static_assert per field, instantiated by ctx.elicit<T>() only, that names the field a form
// cannot carry (elicitable_field is in reflect_traits.hpp).
#define MCP_DETAIL_ELICIT_CHECKS(T, ...) \
  MCP_DETAIL_CAT(MCP_DETAIL_ELICIT_CHECKS_, MCP_DETAIL_IS_PAREN(MCP_DETAIL_FIRST(__VA_ARGS__)))(T, __VA_ARGS__)
#define MCP_DETAIL_ELICIT_CHECKS_0(T, ...)
#define MCP_DETAIL_ELICIT_CHECKS_1(T, ...) MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_ELICIT_CHECK, T, __VA_ARGS__)
#define MCP_DETAIL_ELICIT_CHECK(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_ELICIT_CHECK_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_ELICIT_CHECK_I(T, member, ...)                                                          \
  static_assert(::mcp::detail::elicitable_field<decltype(&T::member), mcp_lazy>(),                        \
                "mcp: ctx.elicit<" #T ">(): field '" #member "' cannot be asked in a form. Elicitation "    \
                "carries a flat object whose fields are each a string, a number, a bool, an MCP_ENUM or a " \
                "std::vector/std::set of an MCP_ENUM (multi-select), optional or not: no nested struct, no " \
                "array of strings or of structs, no map or variant. Ask for the rest in another question.");

// True where the macro stands, unless it is inside a function (compilers without the builtin: true).
#if defined(__GNUC__)
#define MCP_DETAIL_AT_NAMESPACE_SCOPE ::mcp::detail::at_namespace_scope(__builtin_FUNCTION())
#else
#define MCP_DETAIL_AT_NAMESPACE_SCOPE true
#endif
// The first line of MCP_STRUCT, MCP_STRUCT_DEF and MCP_ENUM: inside a function their hooks (functions
// found by argument-dependent lookup) cannot be defined, and the compilers' own errors say only that.
#define MCP_DETAIL_SCOPE_CHECK(macro, T)                                                                 \
  static_assert(MCP_DETAIL_AT_NAMESPACE_SCOPE,                                                          \
                "mcp: " macro "(" #T ") must be used at namespace scope, outside any function (it defines " \
                "functions beside the type): move the type and the macro above the function")

// The items of MCP_STRUCT_DEF: (type, member, "description", constraints...).
#define MCP_DETAIL_DEF_MEMBER(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_MEMBER_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_MEMBER_I(T, type, member, ...) \
  MCP_DETAIL_STRIP(type) member = ::mcp::detail::initial_value<MCP_DETAIL_STRIP(type)>(__VA_ARGS__);
// Before the struct, so that it is the first error: a member named as its type.
#define MCP_DETAIL_DEF_NAME_CHECK(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_NAME_CHECK_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_NAME_CHECK_I(T, type, member, ...)                                                   \
  static_assert(!::mcp::detail::type_names_member(#type, #member),                                         \
                "mcp: MCP_STRUCT_DEF(" #T "): the member '" #member "' is named like its type, which it would " \
                "hide inside the struct: rename the member (e.g. " #member "_) and keep its JSON name with "     \
                "mcp::json_name(\"" #member "\")");
#define MCP_DETAIL_DEF_CHECK(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_CHECK_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_CHECK_I(T, type, member, ...) MCP_DETAIL_FIELD_CHECK_I(T, member, )
#define MCP_DETAIL_DEF_ELICIT_CHECK(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_ELICIT_CHECK_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_ELICIT_CHECK_I(T, type, member, ...) MCP_DETAIL_ELICIT_CHECK_I(T, member, )

// Each field's JSON name as its text shows it (static_name_of), for the checks above.
#define MCP_DETAIL_STATIC_NAME(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_STATIC_NAME_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_STATIC_NAME_I(T, member, ...) ::mcp::detail::static_name_of(#member, #__VA_ARGS__)
#define MCP_DETAIL_STATIC_NAMES(T, ...) \
  MCP_DETAIL_CAT(MCP_DETAIL_STATIC_NAMES_, MCP_DETAIL_IS_PAREN(MCP_DETAIL_FIRST(__VA_ARGS__)))(T, __VA_ARGS__)
#define MCP_DETAIL_STATIC_NAMES_0(T, ...)
#define MCP_DETAIL_STATIC_NAMES_1(T, ...) MCP_DETAIL_FOR_EACH(MCP_DETAIL_STATIC_NAME, T, __VA_ARGS__)
#define MCP_DETAIL_DEF_STATIC_NAME(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_STATIC_NAME_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_STATIC_NAME_I(T, type, member, ...) ::mcp::detail::static_name_of(#member, #__VA_ARGS__)
#define MCP_DETAIL_DEF_FIELD(T, item) MCP_DETAIL_APPLY(MCP_DETAIL_DEF_FIELD_I, (T, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_DEF_FIELD_I(T, type, member, ...) \
  ::mcp::detail::make_field_builder(#member, &T::member)(__VA_ARGS__)

// The expansion of one "(enumerator, "wire-name", description)" item of MCP_ENUM.
#define MCP_DETAIL_ENUMERATOR(E, item) MCP_DETAIL_APPLY(MCP_DETAIL_ENUMERATOR_I, (E, MCP_DETAIL_EXPAND item))
#define MCP_DETAIL_ENUMERATOR_I(E, value, ...) \
  ::mcp::detail::enum_entry_builder<E>{E::value, #value}(__VA_ARGS__)
