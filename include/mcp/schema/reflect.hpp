// Reflection: declare a struct or enum once, get its JSON mapping (and, via <mcp/schema/schema.hpp>, which
// this header includes, its JSON Schema).
//
//   enum class visibility { private_, team };
//   MCP_ENUM(visibility, (private_, "private"), (team, "team", "Everyone on the team"));
//
//   MCP_STRUCT_DEF(create_note_args,                      // defines the struct: each field once
//     (std::string, title, "Unique title for the note", mcp::min_length(3)),
//     (visibility, vis, "Who can see the note", mcp::default_value(visibility::team)),
//     (bool, dry_run, "Only check", mcp::default_value(false), mcp::json_name("dryRun")),
//     (std::optional<int>, limit, "Max results", mcp::minimum(1), mcp::maximum(50)));
//
//   struct point { double x, y; };                        // a type declared elsewhere
//   MCP_STRUCT(point, (x, "Abscissa"), (y, "Ordinate"));
//
// The macros go at namespace scope, in the namespace of the type (a static_assert says so
// otherwise), after the declarations of the types its fields use. An MCP_STRUCT field is written
// (member, "description", constraints...); an MCP_STRUCT_DEF field (type, member, "description",
// constraints...); an enumerator (value, "wire-name", "description") with the last two optional.
// For private members put MCP_STRUCT_FRIEND(Type); inside the class. Types of your own map
// through mcp::json_type (reflect_traits.hpp).
//
// Required fields, the one rule: a field is required unless it is a std::optional or has a declared
// default (mcp::default_value(...) among its constraints; MCP_STRUCT_DEF's fields declare it there
// too). A C++ member initializer alone declares nothing: `bool dry_run = false;` with a plain
// MCP_STRUCT entry is a required field, and so is `int limit = 10;`. Give it
// mcp::default_value(false) (or use MCP_STRUCT_DEF) to make it optional with that default.
//
// JSON names: a field's property is called as its member unless mcp::json_name("dryRun") says
// otherwise; that is also how a property gets a name C++ cannot use (private, default, the type's
// own name). Two fields of one struct with the same JSON name do not compile (a static_assert names
// the struct and both fields) where the macro shows the names, a member's name or a literal in
// mcp::json_name("..."); a name known only at run time is checked when the struct is first used
// (schema_of, encode, decode: at a tool's registration), with an mcp::error naming it.
//
// Decoding is as strict as the schema: unknown properties, unknown enum strings, wrong types,
// non-integral or out-of-range integers and duplicate set items throw mcp::decode_error with the
// JSON Pointer of the bad value. Absent non-required fields keep T{}'s value (or mcp::default_value's).
// Constraints (min_length, pattern, ...) are not re-checked here: validate against schema_of<T>() first.
// A std::variant takes the first alternative that accepts the value, numbers going first to the
// alternatives of their own kind (5 to an integer, 5.0 to a double): see decode_variant.
#pragma once

#include <mcp/config.hpp>
#include <mcp/error.hpp>
#include <mcp/schema/constraints.hpp>
#include <mcp/json/detail/pointer.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/schema/detail/reflect_field.hpp>
#include <mcp/schema/detail/reflect_pp.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/detail/json_type_chrono.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

// Declares the fields of struct T: MCP_STRUCT(T, (member, "description", constraints...), ...).
// For types declared elsewhere (or with private members); MCP_STRUCT_DEF declares a new one in one place.
#define MCP_STRUCT(T, ...)                                                                             \
  MCP_DETAIL_SCOPE_CHECK("MCP_STRUCT", T);                                                             \
  MCP_DETAIL_STRUCT_HOOKS(T, MCP_DETAIL_FIELD_CHECKS(T, __VA_ARGS__), MCP_DETAIL_ELICIT_CHECKS(T, __VA_ARGS__), \
                          (MCP_DETAIL_STATIC_NAMES(T, __VA_ARGS__)),                                   \
                          MCP_DETAIL_FIELDS(T, __VA_ARGS__))

// Defines struct T and its reflection together, one field per item:
//   MCP_STRUCT_DEF(T, (type, member, "description", constraints...), ...);
// A field's mcp::default_value(v) is both the member's initial value and its declared default. A
// type with a comma goes in parentheses: ((std::map<std::string, int>), counts, "Counts").
#define MCP_STRUCT_DEF(T, ...)                                                          \
  MCP_DETAIL_SCOPE_CHECK("MCP_STRUCT_DEF", T);                                          \
  MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_DEF_NAME_CHECK, T, __VA_ARGS__)                    \
  struct T {                                                                            \
    MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_DEF_MEMBER, T, __VA_ARGS__)                      \
  };                                                                                    \
  inline constexpr bool mcp_reflect_every_member(::mcp::detail::type_tag<T>) noexcept { \
    return true;                                                                        \
  }                                                                                     \
  MCP_DETAIL_STRUCT_HOOKS(T, MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_DEF_CHECK, T, __VA_ARGS__), \
                          MCP_DETAIL_FOR_EACH_SEQ(MCP_DETAIL_DEF_ELICIT_CHECK, T, __VA_ARGS__), \
                          (MCP_DETAIL_FOR_EACH(MCP_DETAIL_DEF_STATIC_NAME, T, __VA_ARGS__)), \
                          MCP_DETAIL_FOR_EACH(MCP_DETAIL_DEF_FIELD, T, __VA_ARGS__))

// The hooks both forms define. The last declaration is repeated so that the macro takes a trailing
// semicolon; the static_assert before it catches a macro written outside T's namespace, where the
// SDK's lookup (ADL) cannot find the hooks. The per-field checks are a template (instantiated at the
// end of the file), so that the types of mutually recursive structs are all declared by then.
// The elicitation checks are instantiated only by ctx.elicit<T>() (core/elicitation.hpp).
#define MCP_DETAIL_STRUCT_HOOKS(T, checks, elicit_checks, names, ...)                             \
  inline constexpr const char* mcp_reflect_name(::mcp::detail::type_tag<T>) noexcept { return #T; } \
  inline constexpr auto mcp_reflect_static_names(::mcp::detail::type_tag<T>) {                     \
    return ::mcp::detail::static_names names;                                                      \
  }                                                                                                \
  inline auto mcp_reflect_fields(::mcp::detail::type_tag<T>) {                                     \
    static_assert(::std::is_class<T>::value, "mcp: MCP_STRUCT needs a struct or class type");     \
    return ::std::make_tuple(__VA_ARGS__);                                                         \
  }                                                                                                \
  template <int mcp_lazy>                                                                          \
  void mcp_reflect_check(::mcp::detail::type_tag<T>) {                                             \
    checks                                                                                         \
  }                                                                                                \
  [[maybe_unused]] inline void mcp_reflect_check_now(::mcp::detail::type_tag<T>) {                 \
    mcp_reflect_check<0>(::mcp::detail::type_tag<T>{});                                            \
  }                                                                                                \
  template <int mcp_lazy>                                                                          \
  void mcp_reflect_elicit_check(::mcp::detail::type_tag<T>) {                                      \
    elicit_checks                                                                                  \
  }                                                                                                \
  static_assert(::mcp::is_reflected_v<T>,                                                          \
                "mcp: MCP_STRUCT(" #T ") must be written in the namespace that declares " #T       \
                ", after the type (the SDK finds it by argument-dependent lookup): close this "    \
                "namespace and reopen " #T "'s around the macro");                                 \
  inline constexpr const char* mcp_reflect_name(::mcp::detail::type_tag<T>) noexcept

// Inside the body of a class with private fields: lets the MCP_STRUCT outside the class read them.
#define MCP_STRUCT_FRIEND(T)                                  \
  friend auto mcp_reflect_fields(::mcp::detail::type_tag<T>); \
  template <int mcp_lazy>                                     \
  friend void mcp_reflect_check(::mcp::detail::type_tag<T>);  \
  template <int mcp_lazy>                                     \
  friend void mcp_reflect_elicit_check(::mcp::detail::type_tag<T>)

// Declares the JSON names of enum E: MCP_ENUM(E, (enumerator, "wire-name", "description"), ...).
#define MCP_ENUM(E, ...)                                                                        \
  MCP_DETAIL_SCOPE_CHECK("MCP_ENUM", E);                                                       \
  inline constexpr auto mcp_reflect_enum(::mcp::detail::type_tag<E>) {                         \
    static_assert(::std::is_enum<E>::value, "mcp: MCP_ENUM needs an enum type");               \
    return ::mcp::detail::make_enum_table<E>(                                                  \
        #E, MCP_DETAIL_FOR_EACH(MCP_DETAIL_ENUMERATOR, E, __VA_ARGS__));                       \
  }                                                                                            \
  static_assert(::mcp::is_reflected_enum_v<E>,                                                 \
                "mcp: MCP_ENUM(" #E ") must be written in the namespace that declares " #E     \
                ", after the enum (the SDK finds it by argument-dependent lookup): close this " \
                "namespace and reopen " #E "'s around the macro");                             \
  inline constexpr auto mcp_reflect_enum(::mcp::detail::type_tag<E>)

namespace mcp {
inline namespace v0 {

// Thrown by decode: `pointer` locates the bad value (JSON Pointer, "" for the whole document) and
// `reason` says what is wrong with it; what() gives both.
struct decode_error : error {
  decode_error(std::string pointer_, std::string reason_);
  std::string pointer;
  std::string reason;
};

namespace detail {

template <class>
inline constexpr bool dependent_false_v = false;

// Where the decoder is, as a chain of stack frames; turned into a string only when reporting.
struct json_path {
  const json_path* parent;
  std::string_view key;  // the member name, when index == npos
  std::size_t index;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

void append_pointer(std::string& out, const json_path* at);

std::string pointer_of(const json_path* at);

[[noreturn]] void fail(const json_path* at, std::string reason);

template <class Tuple, class F, std::size_t... I>
void for_each_field_impl(const Tuple& fields, F& fn, std::index_sequence<I...>) {
  (fn(std::get<I>(fields), std::integral_constant<std::size_t, I>{}), ...);
}
// Calls fn(field, index) for each field, in declaration order.
template <class Tuple, class F>
void for_each_field(const Tuple& fields, F&& fn) {
  for_each_field_impl(fields, fn, std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

template <class T>
void encode_into(json& out, const T& value);

template <class T>
const char* enum_wire_name(T value) {
  for (const auto& e : enum_table_of<T>().entries)
    if (e.value == value) return e.wire;
  throw error(error_code::invalid_argument, std::string("mcp: a value of enum ") + enum_table_of<T>().name +
                                                " has no MCP_ENUM entry: " +
                                                std::to_string(static_cast<std::underlying_type_t<T>>(value)));
}

template <class T>
void encode_struct(json& out, const T& value) {
  out = json::object();
  for_each_field(fields_of<T>(), [&](const auto& f, auto) {
    const auto& member = value.*f.member;
    using M = typename std::decay_t<decltype(f)>::member_type;
    if constexpr (is_optional<M>::value) {
      if (!member) return;  // absent optionals are left out, not sent as null
    }
    encode_into(out[f.name], member);
  });
}

template <class T>
void encode_into(json& out, const T& value) {
  if constexpr (has_json_type_v<T>) {
    out = json_type<T>::encode(value);
  } else if constexpr (std::is_same_v<T, bool> || is_number_v<T> || is_string_v<T> || std::is_same_v<T, json>) {
    out = value;
  } else if constexpr (is_optional<T>::value) {
    if (value)
      encode_into(out, *value);
    else
      out = nullptr;
  } else if constexpr (is_array_like_v<T>) {
    out = json::array();
    auto& items = out.get_ref<json::array_t&>();
    items.reserve(std::size(value));
    for (const auto& item : value) {
      items.emplace_back();
      // The cast turns std::vector<bool>'s proxy into a bool.
      encode_into(items.back(), static_cast<const typename T::value_type&>(item));
    }
  } else if constexpr (is_string_map<T>::value) {
    out = json::object();
    for (const auto& [key, item] : value) encode_into(out[key], item);
  } else if constexpr (is_variant<T>::value) {
    std::visit([&](const auto& alternative) { encode_into(out, alternative); }, value);
  } else if constexpr (is_reflected_enum_v<T>) {
    out = enum_wire_name(value);
  } else if constexpr (is_reflected_v<T>) {
    encode_struct(out, value);
  } else {
    static_assert(dependent_false_v<T>,
                  "mcp::encode: type not supported; supported types are bool, integers, float, double, "
                  "std::string, std::optional, std::vector, std::array, std::set, "
                  "std::map<std::string, T>, std::variant, mcp::json and types declared with "
                  "MCP_STRUCT/MCP_ENUM");
  }
}

// The rule of "Required fields" above, from the field's type alone: nothing is compared.
template <class Tuple, std::size_t... I>
constexpr auto required_flags(std::index_sequence<I...>) {
  return std::array<bool, sizeof...(I)>{
      {!(is_optional<typename std::tuple_element_t<I, Tuple>::member_type>::value ||
         std::tuple_element_t<I, Tuple>::has_default)...}};
}

// Which fields of T are required.
template <class T>
const auto& required_of() {
  using fields = std::decay_t<decltype(fields_of<T>())>;
  static constexpr auto required = required_flags<fields>(std::make_index_sequence<std::tuple_size_v<fields>>{});
  return required;
}

template <class T>
void decode_into(const json& j, T& out, const json_path* at);

template <class I>
void decode_integer(const json& j, I& out, const json_path* at) {
  using limits = std::numeric_limits<I>;
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v <= static_cast<std::uint64_t>(limits::max())) {
      out = static_cast<I>(v);
      return;
    }
  } else if (j.is_number_integer()) {
    const auto v = j.get<std::int64_t>();
    const bool fits = v < 0 ? (limits::is_signed && v >= static_cast<std::int64_t>(limits::min()))
                            : static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(limits::max());
    if (fits) {
      out = static_cast<I>(v);
      return;
    }
  } else if (j.is_number_float()) {
    // 5.0 is an integer to JSON Schema; 5.5 is not.
    const double d = j.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d)
      fail(at, "expected an integer, got " + describe_value(j) + " (not a whole number)");
    const double high = std::ldexp(1.0, limits::digits);  // exact: a power of two
    const double low = limits::is_signed ? -high : 0.0;
    if (d >= low && d < high) {
      out = static_cast<I>(d);
      return;
    }
  } else {
    fail(at, "expected an integer, got " + describe_value(j));
  }
  fail(at, "integer " + to_json_text(j) + " is out of range [" + std::to_string(limits::min()) + ", " +
               std::to_string(limits::max()) + "]");
}

template <class F>
void decode_float(const json& j, F& out, const json_path* at) {
  if (!j.is_number()) fail(at, "expected a number, got " + describe_value(j));
  const double d = j.get<double>();
  if (std::isfinite(d) && std::fabs(d) > static_cast<double>(std::numeric_limits<F>::max()))
    fail(at, "number " + j.dump() + " is out of range for this field");
  out = static_cast<F>(d);
}

template <class E>
std::string enum_choices() {
  std::string out;
  for (const auto& e : enum_table_of<E>().entries) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += e.wire;
    out += '"';
  }
  return out;
}

// The value whose wire name is `text`; false when none is. decode_enum's, and typed_reader's.
template <class E>
bool enum_from_wire(std::string_view text, E& out) {
  for (const auto& e : enum_table_of<E>().entries) {
    if (text == e.wire) {
      out = e.value;
      return true;
    }
  }
  return false;
}

template <class E>
void decode_enum(const json& j, E& out, const json_path* at) {
  if (!j.is_string()) fail(at, "expected one of " + enum_choices<E>() + ", got " + describe_value(j));
  if (!enum_from_wire(j.get_ref<const std::string&>(), out))
    fail(at, "unknown value " + j.dump() + "; expected one of " + enum_choices<E>());
}

template <class M, class C>
void assign_if_default(M& out, const C& constraint) {
  if constexpr (is_instance_of<default_value_t, C>::value) out = M(constraint.value);
}

template <class Fields>
std::string field_names(const Fields& fields) {
  std::string out;
  for_each_field(fields, [&](const auto& f, auto) {
    if (!out.empty()) out += ", ";
    out += f.name;
  });
  return out.empty() ? "no properties" : out;
}

template <class Fields>
[[noreturn]] void fail_unknown_property(const json& j, const Fields& fields, const json_path* at) {
  for (const auto& item : j.items()) {
    bool known = false;
    for_each_field(fields, [&](const auto& f, auto) { known = known || item.key() == f.name; });
    if (!known) {
      const json_path here{at, item.key(), json_path::npos};
      fail(&here, "unknown property \"" + item.key() + "\"; expected " + field_names(fields));
    }
  }
  fail(at, "unknown property");  // unreachable: the caller counted one
}

template <class T>
void decode_struct(const json& j, T& out, const json_path* at) {
  if (!j.is_object()) fail(at, "expected an object, got " + describe_value(j));
  const auto& fields = fields_of<T>();
  const auto& required = required_of<T>();
  std::size_t matched = 0;
  for_each_field(fields, [&](const auto& f, auto index) {
    const auto it = j.find(std::string_view(f.name));
    if (it == j.end()) {
      if (required[index]) {
        const json_path here{at, f.name, json_path::npos};
        fail(&here, std::string("missing required property \"") + f.name + "\"");
      }
      std::apply([&](const auto&... c) { (assign_if_default(out.*f.member, c), ...); }, f.constraints);
      return;
    }
    ++matched;
    const json_path here{at, f.name, json_path::npos};
    decode_into(*it, out.*f.member, &here);
  });
  if (matched != j.size()) fail_unknown_property(j, fields, at);
}

// A type mapped through mcp::json_type: its decode refuses a value by throwing.
template <class T>
void decode_mapped(const json& j, T& out, const json_path* at) {
  try {
    out = json_type<T>::decode(j);
  } catch (const decode_error& e) {  // a decoder that decodes parts with mcp::decode: its pointer is below ours
    throw decode_error(pointer_of(at) + e.pointer, e.reason);
  } catch (const std::exception& e) {
    fail(at, e.what());
  }
}

// Whether alternative A holds numbers of the kind `j` is written in: an integer type for 5, a
// floating one for 5.0 or 5e0.
template <class A>
bool same_number_kind(const json& j) {
  using U = unwrap_optional_t<A>;
  if (j.is_number_float()) return std::is_floating_point_v<U>;
  if (j.is_number()) return is_integer_v<U>;
  return false;
}

template <std::size_t I, class V>
bool try_alternative(const json& j, V& out, const json_path* at, std::string& failures) {
  std::variant_alternative_t<I, V> value{};
  try {
    decode_into(j, value, at);
  } catch (const decode_error& e) {
    failures += "; [" + std::to_string(I) + "] " + e.what();
    return false;
  }
  out.template emplace<I>(std::move(value));
  return true;
}

// The schema is anyOf the alternatives, so a value may fit several; the first that takes it, in
// declaration order, wins, except that a number goes first to the alternatives of the kind it is
// written in. So std::variant<std::int64_t, double> decodes 5 as the int64_t 5 and 5.0 as the
// double 5.0 (and 2^64, beyond int64_t, as a double), in either order; two structs that both
// accept {} decode it as the first. Declare the more specific alternative first.
template <class V, std::size_t... I>
void decode_variant(const json& j, V& out, const json_path* at, std::index_sequence<I...>) {
  std::string failures;
  const bool preferred[] = {same_number_kind<std::variant_alternative_t<I, V>>(j)...};
  const bool done = ((preferred[I] && try_alternative<I>(j, out, at, failures)) || ...) ||
                    ((!preferred[I] && try_alternative<I>(j, out, at, failures)) || ...);
  if (!done) fail(at, "matches none of the " + std::to_string(sizeof...(I)) + " alternatives" + failures);
}

template <class T>
void decode_into(const json& j, T& out, const json_path* at) {
  if constexpr (has_json_type_v<T>) {
    decode_mapped(j, out, at);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) fail(at, "expected true or false, got " + describe_value(j));
    out = j.get<bool>();
  } else if constexpr (is_integer_v<T>) {
    decode_integer(j, out, at);
  } else if constexpr (std::is_floating_point_v<T>) {
    decode_float(j, out, at);
  } else if constexpr (is_string_v<T>) {
    if (!j.is_string()) fail(at, "expected a string, got " + describe_value(j));
    out = j.get_ref<const std::string&>();
  } else if constexpr (std::is_same_v<T, json>) {
    out = j;
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) {
      out.reset();
    } else {
      if (!out) out.emplace();
      decode_into(j, *out, at);
    }
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value || is_set<T>::value) {
    using U = typename T::value_type;
    if (!j.is_array()) fail(at, "expected an array, got " + describe_value(j));
    if constexpr (is_std_array<T>::value) {
      if (j.size() != out.size())
        fail(at, "expected an array of exactly " + std::to_string(out.size()) + " items, got " +
                     std::to_string(j.size()));
    } else {
      out.clear();
    }
    if constexpr (is_vector<T>::value) out.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      const json_path here{at, {}, i};
      if constexpr (is_std_array<T>::value) {
        decode_into(j[i], out[i], &here);
      } else {
        U item{};
        decode_into(j[i], item, &here);
        if constexpr (is_set<T>::value) {
          if (!out.insert(std::move(item)).second) fail(&here, "duplicate item; the items must be unique");
        } else {
          out.push_back(std::move(item));
        }
      }
    }
  } else if constexpr (is_string_map<T>::value) {
    if (!j.is_object()) fail(at, "expected an object, got " + describe_value(j));
    out.clear();
    for (const auto& item : j.items()) {
      const json_path here{at, item.key(), json_path::npos};
      decode_into(item.value(), out[item.key()], &here);
    }
  } else if constexpr (is_variant<T>::value) {
    decode_variant(j, out, at, std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (is_reflected_enum_v<T>) {
    decode_enum(j, out, at);
  } else if constexpr (is_reflected_v<T>) {
    decode_struct(j, out, at);
  } else {
    static_assert(dependent_false_v<T>,
                  "mcp::decode: type not supported; supported types are bool, integers, float, double, "
                  "std::string, std::optional, std::vector, std::array, std::set, "
                  "std::map<std::string, T>, std::variant, mcp::json and types declared with "
                  "MCP_STRUCT/MCP_ENUM");
  }
}

}  // namespace detail

// Any supported value to JSON.
template <class T>
json encode(const T& value) {
  json out;
  detail::encode_into(out, value);
  return out;
}

namespace detail {
// decode() for a value whose depth the caller has already bounded (a tool's arguments, which
// validation walked just before): the same decoding without a second walk of the whole value.
template <class T>
T decode_checked_depth(const json& j) {
  static_assert(std::is_default_constructible_v<T>, "mcp::decode: T must be default-constructible");
  T out{};
  decode_into(j, out, nullptr);
  return out;
}
}  // namespace detail

// JSON to T; throws mcp::decode_error naming the bad value's JSON Pointer. A value nested more
// than `max_depth` levels deep (arrays and objects) is refused before anything recurses into it:
// a recursive type or an mcp::json field would otherwise follow it all the way down.
template <class T>
T decode(const json& j, std::size_t max_depth = detail::default_max_json_depth) {
  if (detail::nested_deeper_than(j, max_depth))
    detail::fail(nullptr, "nested more than " + std::to_string(max_depth) + " levels deep (arrays and objects)");
  return detail::decode_checked_depth<T>(j);
}

}  // namespace v0
}  // namespace mcp

// `json j = value;` and `j.get<T>()` for reflected structs and enums go through encode/decode.
namespace nlohmann {
template <class T>
struct adl_serializer<T, std::enable_if_t<mcp::is_reflected_v<T> || mcp::is_reflected_enum_v<T>>> {
  static void to_json(json& j, const T& value) { mcp::detail::encode_into(j, value); }
  static T from_json(const json& j) { return mcp::decode<T>(j); }
  static void from_json(const json& j, T& value) { value = mcp::decode<T>(j); }
};
}  // namespace nlohmann

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/schema/impl/reflect.ipp>
#endif
