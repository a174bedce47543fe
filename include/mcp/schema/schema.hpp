// JSON Schema of a C++ type, from its MCP_STRUCT / MCP_ENUM declarations.
//
// Only keywords that mean the same in draft-07 and 2020-12 are emitted. A struct is
// {"type":"object","properties":{...},"required":[...],"additionalProperties":false}; nested structs
// are inlined; a struct that contains itself (through std::vector, std::map, ...) is emitted once under
// "$defs" at the root and referred to as {"$ref":"#/$defs/Name"}. Integers carry their type's range
// and float carries +-FLT_MAX, unless a constraint sets a tighter bound (a looser one is dropped:
// it would let through values the type cannot hold). double has no range: JSON text beyond it does
// not parse. Enums are {"type":"string","enum":[wire names]}; enumerator descriptions are appended
// to the description. mcp::json is {} (any value). A std::optional field is its value's schema and
// not required (an empty one is left out); an optional anywhere else (an array item, a map value)
// is anyOf the value's schema and null, as it is written null there. A std::variant is "anyOf" its
// alternatives' schemas: alternatives may accept the same value (5 is an integer and a number),
// which "oneOf" would refuse; decode picks one by a fixed rule (see decode_variant in reflect.hpp).
//
// The rule these keep: a value that validates against schema_of<T>() decodes as T, and the JSON of
// every finite T validates (tests/unit/test_reflect.cpp checks both on random values).
//
// schema_of<T>() is an mcp::json, so object keys come out sorted (what validation and code read);
// schema_of_ordered<T>() is the same schema as nlohmann::ordered_json, properties and required in
// declaration order: what tools/list sends for a typed tool, and Markdown follows. Both are built
// once per type and cached.
#pragma once

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/detail/reflect_field.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/reflect.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

using ordered_json = nlohmann::ordered_json;

// Copies a document between nlohmann flavours, keeping integers exact.
template <class To, class From>
To convert_json(const From& j) {
  switch (j.type()) {
    case From::value_t::object: {
      To out = To::object();
      for (const auto& item : j.items()) out[item.key()] = convert_json<To>(item.value());
      return out;
    }
    case From::value_t::array: {
      To out = To::array();
      for (const auto& item : j) out.push_back(convert_json<To>(item));
      return out;
    }
    case From::value_t::string: return To(j.template get_ref<const std::string&>());
    case From::value_t::boolean: return To(j.template get<bool>());
    case From::value_t::number_integer: return To(j.template get<std::int64_t>());
    case From::value_t::number_unsigned: return To(j.template get<std::uint64_t>());
    case From::value_t::number_float: return To(j.template get<double>());
    default: return To();
  }
}

// Tracks the structs being expanded, to turn recursion into $ref, and the $defs it asked for.
struct schema_context {
  struct definition {
    std::string name;
    const void* id;
    ordered_json (*build)(schema_context&);
  };
  std::vector<const void*> open;
  std::vector<definition> defs;
};

template <class T>
ordered_json type_schema(schema_context& ctx);

// Number types whose schema carries their range: the integers, and float.
template <class N>
inline constexpr bool has_type_range_v = is_integer_v<N> || std::is_same_v<N, float>;

// a < b, exactly, for any two arithmetic values (long double holds every int64, uint64 and double
// exactly where it has 64 bits of mantissa, as on x86; elsewhere it is as exact as double).
template <class A, class B>
constexpr bool number_less(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
      return a < b;
    else if constexpr (std::is_signed_v<A>)
      return a < 0 || static_cast<std::make_unsigned_t<A>>(a) < b;
    else
      return b >= 0 && a < static_cast<std::make_unsigned_t<B>>(b);
  } else {
    return static_cast<long double>(a) < static_cast<long double>(b);
  }
}

template <class C>
inline constexpr bool is_lower_bound_v =
    is_instance_of<minimum_t, C>::value || is_instance_of<exclusive_minimum_t, C>::value;
template <class C>
inline constexpr bool is_upper_bound_v =
    is_instance_of<maximum_t, C>::value || is_instance_of<exclusive_maximum_t, C>::value;

// Whether bound constraint C is tighter than (or as tight as) the range of field type M; a looser
// one adds nothing to the type's own bound, and replacing that bound would let through values
// that validate and then fail to decode.
template <class M, class C>
bool narrows_range(const C& c) {
  using N = unwrap_optional_t<M>;
  if constexpr (!has_type_range_v<N>) {
    return true;
  } else if constexpr (is_lower_bound_v<C>) {
    return !number_less(c.value, std::numeric_limits<N>::lowest());
  } else if constexpr (is_upper_bound_v<C>) {
    return !number_less(std::numeric_limits<N>::max(), c.value);
  } else {
    return true;
  }
}

template <class M, class C>
void apply_constraint(ordered_json& s, const C& c) {
  if constexpr (is_lower_bound_v<C> || is_upper_bound_v<C>) {
    if (narrows_range<M>(c)) s[C::key] = c.value;
  } else if constexpr (is_instance_of<default_value_t, C>::value) {
    s["default"] = convert_json<ordered_json>(encode(M(c.value)));
  } else if constexpr (is_instance_of<examples_t, C>::value) {
    ordered_json list = ordered_json::array();
    std::apply([&](const auto&... v) { (list.push_back(convert_json<ordered_json>(encode(M(v)))), ...); },
               c.values);
    s["examples"] = std::move(list);
  } else if constexpr (std::is_same_v<C, unique_items_t>) {
    s[C::key] = true;
  } else if constexpr (std::is_same_v<C, json_name_t>) {
    // the property's name, not a keyword

  } else {
    s[C::key] = c.value;
  }
}

template <class C, class M, class... Cs>
ordered_json field_schema(const field_info<C, M, Cs...>& f, schema_context& ctx) {
  // An optional field means "may be absent", not "may be null": an empty one is left out.
  ordered_json s = type_schema<unwrap_optional_t<M>>(ctx);
  if (f.description != nullptr) {
    // An enum's own description (its values) goes after the field's.
    auto own = s.find("description");
    if (own != s.end())
      *own = std::string(f.description) + "\n" + own->template get<std::string>();
    else
      s["description"] = f.description;
  }
  // The type's own bounds give way to tighter ones.
  std::apply(
      [&](const auto&... c) {
        if (((is_lower_bound_v<std::decay_t<decltype(c)>> && narrows_range<M>(c)) || ...)) s.erase("minimum");
        if (((is_upper_bound_v<std::decay_t<decltype(c)>> && narrows_range<M>(c)) || ...)) s.erase("maximum");
        (apply_constraint<M>(s, c), ...);
      },
      f.constraints);
  return s;
}

template <class T>
ordered_json struct_body(schema_context& ctx) {
  const auto& fields = fields_of<T>();
  const auto& required_flags = required_of<T>();
  ordered_json properties = ordered_json::object();
  ordered_json required = ordered_json::array();
  for_each_field(fields, [&](const auto& f, auto index) {
    properties[f.name] = field_schema(f, ctx);
    if (required_flags[index]) required.push_back(f.name);
  });
  ordered_json s = ordered_json::object();
  s["type"] = "object";
  s["properties"] = std::move(properties);
  if (!required.empty()) s["required"] = std::move(required);
  s["additionalProperties"] = false;
  return s;
}

template <class T>
ordered_json struct_definition(schema_context& ctx) {
  ctx.open.assign(1, id_of<T>());
  ordered_json s = struct_body<T>(ctx);
  ctx.open.clear();
  return s;
}

// The $defs name for T, registering the definition on first use.
template <class T>
std::string definition_name(schema_context& ctx) {
  for (const auto& d : ctx.defs)
    if (d.id == id_of<T>()) return d.name;
  std::string name = struct_name_of<T>();
  // Two structs of the same name from different namespaces must not share a definition.
  auto taken = [&](const std::string& n) {
    return std::any_of(ctx.defs.begin(), ctx.defs.end(), [&](const auto& d) { return d.name == n; });
  };
  for (int suffix = 2; taken(name); ++suffix) name = std::string(struct_name_of<T>()) + "_" + std::to_string(suffix);
  ctx.defs.push_back({name, id_of<T>(), &struct_definition<T>});
  return name;
}

template <class T>
ordered_json struct_schema(schema_context& ctx) {
  if (std::find(ctx.open.begin(), ctx.open.end(), id_of<T>()) != ctx.open.end()) {
    ordered_json ref = ordered_json::object();
    ref["$ref"] = "#/$defs/" + definition_name<T>(ctx);
    return ref;
  }
  ctx.open.push_back(id_of<T>());
  ordered_json s = struct_body<T>(ctx);
  ctx.open.pop_back();
  return s;
}

template <class E>
ordered_json enum_schema() {
  ordered_json names = ordered_json::array();
  std::string values;
  bool described = false;
  for (const auto& e : enum_table_of<E>().entries) {
    names.push_back(e.wire);
    values += std::string("\n- \"") + e.wire + "\"";
    if (e.description != nullptr) {
      values += std::string(": ") + e.description;
      described = true;
    }
  }
  ordered_json s = ordered_json::object();
  s["type"] = "string";
  s["enum"] = std::move(names);
  // The enum keyword cannot carry per-value descriptions; the description text can.
  if (described) s["description"] = "Values:" + values;
  return s;
}

// anyOf, not oneOf: with oneOf a value two alternatives accept (5 for int and double, {} for two
// structs of optional fields) would be refused, though the variant holds it and encodes it.
template <class... Ts>
ordered_json variant_schema(schema_context& ctx, type_tag<std::variant<Ts...>>) {
  ordered_json list = ordered_json::array();
  (list.push_back(type_schema<Ts>(ctx)), ...);
  ordered_json s = ordered_json::object();
  s["anyOf"] = std::move(list);
  return s;
}

template <class T>
ordered_json type_schema(schema_context& ctx) {
  ordered_json s = ordered_json::object();
  if constexpr (has_json_type_v<T>) {
    s = convert_json<ordered_json>(json_type<T>::schema());
  } else if constexpr (std::is_same_v<T, bool>) {
    s["type"] = "boolean";
  } else if constexpr (is_integer_v<T>) {
    s["type"] = "integer";
    s["minimum"] = static_cast<std::int64_t>(std::numeric_limits<T>::min());
    constexpr auto high = std::numeric_limits<T>::max();
    if constexpr (std::is_signed_v<T> || high <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      s["maximum"] = static_cast<std::int64_t>(high);
    else
      // Above 2^63 valijson (and other int64-based validators) would read the exact bound as a
      // negative number and reject everything; as a double (2^64) it is read right.
      s["maximum"] = static_cast<double>(high);
  } else if constexpr (std::is_floating_point_v<T>) {
    s["type"] = "number";
    if constexpr (has_type_range_v<T>) {
      // 1e39 is a JSON number but no float; a double holds every number JSON text can write.
      s["minimum"] = static_cast<double>(std::numeric_limits<T>::lowest());
      s["maximum"] = static_cast<double>(std::numeric_limits<T>::max());
    }
  } else if constexpr (is_string_v<T>) {
    s["type"] = "string";
  } else if constexpr (std::is_same_v<T, json>) {
    // any value: no keywords
  } else if constexpr (is_optional<T>::value) {
    // Not a struct field (see field_schema) but an item, a map value, a variant alternative or
    // the root, where an empty optional has no key to leave out and is written as null.
    ordered_json list = ordered_json::array();
    list.push_back(type_schema<typename T::value_type>(ctx));
    list.push_back(ordered_json{{"type", "null"}});
    s["anyOf"] = std::move(list);
  } else if constexpr (is_array_like_v<T>) {
    s["type"] = "array";
    s["items"] = type_schema<typename T::value_type>(ctx);
    if constexpr (is_std_array<T>::value) {
      s["minItems"] = std::tuple_size_v<T>;
      s["maxItems"] = std::tuple_size_v<T>;
    }
    if constexpr (is_set<T>::value) s["uniqueItems"] = true;
  } else if constexpr (is_string_map<T>::value) {
    s["type"] = "object";
    s["additionalProperties"] = type_schema<typename T::mapped_type>(ctx);
  } else if constexpr (is_variant<T>::value) {
    s = variant_schema(ctx, type_tag<T>{});
  } else if constexpr (is_reflected_enum_v<T>) {
    s = enum_schema<T>();
  } else if constexpr (is_reflected_v<T>) {
    s = struct_schema<T>(ctx);
  } else {
    static_assert(dependent_false_v<T>,
                  "mcp::schema_of: type not supported; supported types are bool, integers, float, "
                  "double, std::string, std::optional, std::vector, std::array, std::set, "
                  "std::map<std::string, T>, std::variant, mcp::json and types declared with "
                  "MCP_STRUCT/MCP_ENUM");
  }
  return s;
}

// Constraints that check a value; the others (default_value, examples, title, deprecated) only
// describe it.
template <class C>
inline constexpr bool is_check_v = !is_instance_of<default_value_t, C>::value &&
                                   !is_instance_of<examples_t, C>::value && !std::is_same_v<C, title_t> &&
                                   !std::is_same_v<C, deprecated_t> && !std::is_same_v<C, json_name_t>;

// The alternatives of a variant, as tags.
template <class... Ts>
std::tuple<type_tag<Ts>...> variant_tags(type_tag<std::variant<Ts...>>) {
  return {};
}

// Whether some value of T encodes to JSON that schema_of<T>() refuses. Its shape never does: every
// type, range and variant of the schema follows from T, so only a check that T does not enforce
// itself can (mcp::minimum, mcp::pattern, ...), or uniqueItems on a std::set of items that the set
// tells apart by more, or less, than their JSON. (Finite numbers only: JSON has no NaN or infinity,
// and writes them as null.) `open`: the structs being looked at, so recursive types end.
template <class T>
bool may_break_schema(std::vector<const void*>& open) {
  if constexpr (has_json_type_v<T>) {
    return true;  // the user's encoder may write what the user's schema refuses
  } else if constexpr (is_optional<T>::value || is_vector<T>::value || is_std_array<T>::value) {
    return may_break_schema<typename T::value_type>(open);
  } else if constexpr (is_set<T>::value) {
    using U = typename T::value_type;
    return !(std::is_arithmetic_v<U> || is_string_v<U> || is_reflected_enum_v<U>) || may_break_schema<U>(open);
  } else if constexpr (is_string_map<T>::value) {
    return may_break_schema<typename T::mapped_type>(open);
  } else if constexpr (is_variant<T>::value) {
    return std::apply([&](auto... tag) { return (may_break_schema<typename decltype(tag)::type>(open) || ...); },
                      variant_tags(type_tag<T>{}));
  } else if constexpr (is_reflected_v<T>) {
    if (std::find(open.begin(), open.end(), id_of<T>()) != open.end()) return false;  // looked at further up
    open.push_back(id_of<T>());
    bool may = false;
    for_each_field(fields_of<T>(), [&](const auto& f, auto) {
      using M = typename std::decay_t<decltype(f)>::member_type;
      // A bound looser than the type's range is left out of the schema (see field_schema).
      auto checks = [](const auto& c) { return is_check_v<std::decay_t<decltype(c)>> && narrows_range<M>(c); };
      may = may || std::apply([&](const auto&... c) { return (checks(c) || ...); }, f.constraints) ||
            may_break_schema<M>(open);
    });
    open.pop_back();
    return may;
  } else {
    return false;  // bool, numbers, strings, enums, mcp::json
  }
}

template <class T>
bool may_break_schema() {
  std::vector<const void*> open;
  return may_break_schema<T>(open);
}

template <class T>
ordered_json build_schema() {
  schema_context ctx;
  ordered_json s = type_schema<T>(ctx);
  if (!ctx.defs.empty()) {
    ordered_json defs = ordered_json::object();
    // Building one definition may ask for more (mutual recursion), so ctx.defs can grow here.
    for (std::size_t i = 0; i < ctx.defs.size(); ++i) {
      const auto def = ctx.defs[i];
      defs[def.name] = def.build(ctx);
    }
    s["$defs"] = std::move(defs);
  }
  return s;
}

}  // namespace detail

// The schema of T with properties in declaration order. Built once per T (thread-safe).
template <class T>
const nlohmann::ordered_json& schema_of_ordered() {
  static const nlohmann::ordered_json schema = detail::build_schema<T>();
  return schema;
}

// The schema of T as mcp::json (keys sorted, deterministic). Built once per T (thread-safe).
template <class T>
const json& schema_of() {
  static const json schema = detail::convert_json<json>(schema_of_ordered<T>());
  return schema;
}

// A std::variant of reflected structs told apart by a field you name, the way the JSON of many APIs
// says what it holds ({"kind": "circle", "radius": 1}). Map the variant through it:
//   template <> struct mcp::json_type<shape> : mcp::tagged_variant<shape> {
//     static constexpr const char* tag = "kind";
//   };
// Each alternative's value in `tag` is its struct's name (as its MCP_STRUCT wrote it); its schema is
// oneOf the alternatives' schemas, each with `tag` required and fixed ("const"). An alternative must
// not have a field of that name itself.
template <class V>
struct tagged_variant;

template <class... Ts>
struct tagged_variant<std::variant<Ts...>> {
  using variant = std::variant<Ts...>;
  static_assert((is_reflected_v<Ts> && ...), "mcp::tagged_variant: every alternative must be an MCP_STRUCT type");

  static json schema() {
    json list = json::array();
    (list.push_back(alternative_schema<Ts>()), ...);
    return json{{"oneOf", std::move(list)}};
  }

  static json encode(const variant& v) {
    return std::visit(
        [](const auto& alternative) {
          json j = mcp::encode(alternative);
          j[tag()] = detail::struct_name_of<std::decay_t<decltype(alternative)>>();
          return j;
        },
        v);
  }

  static variant decode(const json& j) {
    if (!j.is_object()) throw std::invalid_argument("expected an object, got " + detail::describe_value(j));
    const auto it = j.find(tag());
    if (it == j.end() || !it->is_string())
      throw std::invalid_argument(std::string("expected a string property \"") + tag() + "\" naming one of " +
                                  names());
    json rest = j;
    rest.erase(tag());
    variant out;
    const bool found = (try_decode<Ts>(it->template get_ref<const std::string&>(), rest, out) || ...);
    if (!found) throw std::invalid_argument("\"" + tag() + "\": unknown value " + it->dump() + "; expected one of " + names());
    return out;
  }

 private:
  static std::string tag() { return json_type<variant>::tag; }

  static std::string names() {
    std::string out;
    ((out += (out.empty() ? "\"" : ", \"") + std::string(detail::struct_name_of<Ts>()) + "\""), ...);
    return out;
  }

  template <class T>
  static json alternative_schema() {
    json s = schema_of<T>();
    if (s["properties"].contains(tag()))
      throw error(error_code::invalid_definition, std::string("mcp::tagged_variant: ") + detail::struct_name_of<T>() +
                                                      " has a field named \"" + tag() + "\", the variant's tag");
    s["properties"][tag()] = json{{"const", detail::struct_name_of<T>()}};
    json required = json::array({tag()});
    for (const auto& r : s.value("required", json::array())) required.push_back(r);
    s["required"] = std::move(required);
    return s;
  }

  template <class T>
  static bool try_decode(const std::string& name, const json& rest, variant& out) {
    if (name != detail::struct_name_of<T>()) return false;
    out = mcp::decode<T>(rest);
    return true;
  }
};

}  // namespace v0
}  // namespace mcp
