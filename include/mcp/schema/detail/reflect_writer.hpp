// Writes a reflected value as JSON text without building a tree: the text a typed tool's
// structuredContent travels as, on both result sinks (the tree sink keeps it as raw JSON, see writer.hpp).
// A struct's members come out in declaration order, the order a model reads best; everything else
// is as write_json(encode(value)) writes it (a string map's keys sorted, absent optionals left out),
// so the text parses back to encode(value). tests/unit/test_reflect.cpp checks both on random values.
#pragma once

#include <mcp/json/detail/writer.hpp>
#include <mcp/schema/reflect.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

template <class T>
void write_encoded(const T& value, text_out& out);

// Whether a member before field I of T is always written (not an optional): then field I always
// comes after a comma, known when the code is made.
template <class T, std::size_t I>
constexpr bool written_before() {
  if constexpr (I == 0) {
    return false;
  } else {
    using M = typename std::decay_t<decltype(std::get<I - 1>(fields_of<T>()))>::member_type;
    return !is_optional<M>::value || written_before<T, I - 1>();
  }
}

// Writes `"name":value` of field I (after a comma unless it is the first), or nothing for an
// absent optional.
template <class T, std::size_t I>
void write_field(const T& value, text_out& out, bool& first) {
  const auto& f = std::get<I>(fields_of<T>());
  using M = typename std::decay_t<decltype(f)>::member_type;
  const M& member = value.*f.member;
  if constexpr (is_optional<M>::value) {
    if (!member) return;
  }
  // The key as JSON text with its colon, and the same after a comma: one copy per member.
  static const std::string keys = [&] {
    std::string k = ",";
    write_json_string(f.name, k);
    return k + ':';
  }();
  constexpr bool comma = written_before<T, I>();
  if constexpr (comma) {
    out.put(keys);
  } else {
    out.put(std::string_view(keys).substr(first ? 1 : 0));
    first = false;
  }
  write_encoded(member, out);
}

template <class T, std::size_t... I>
void write_fields(const T& value, text_out& out, std::index_sequence<I...>) {
  bool first = true;
  (write_field<T, I>(value, out, first), ...);
  (void)first;  // a struct without fields
}

template <class T>
void write_struct(const T& value, text_out& out) {
  using fields = std::decay_t<decltype(fields_of<T>())>;
  out.put('{');
  write_fields(value, out, std::make_index_sequence<std::tuple_size_v<fields>>{});
  out.put('}');
}

template <class Map>
void write_string_map(const Map& value, text_out& out) {
  auto write_member = [&](const std::string& key, const typename Map::mapped_type& item, bool& first) {
    if (!first) out.put(',');
    first = false;
    write_json_string(key, out);
    out.put(':');
    write_encoded(item, out);
  };
  bool first = true;
  out.put('{');
  using compare = typename Map::key_compare;
  if constexpr (std::is_same_v<compare, std::less<std::string>> || std::is_same_v<compare, std::less<>>) {
    for (const auto& [key, item] : value) write_member(key, item, first);
  } else {  // another order than a json object's: sort first
    std::vector<const typename Map::value_type*> entries;
    for (const auto& entry : value) entries.push_back(&entry);
    std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    for (const auto* entry : entries) write_member(entry->first, entry->second, first);
  }
  out.put('}');
}

template <class T>
void write_encoded(const T& value, text_out& out) {
  if constexpr (has_json_type_v<T>) {
    write_json(json_type<T>::encode(value), out);  // the tree encode makes: equal bytes by construction
  } else if constexpr (std::is_same_v<T, bool>) {
    out.put(value ? std::string_view("true") : std::string_view("false"));
  } else if constexpr (is_integer_v<T>) {
    write_json_integer(value, out);
  } else if constexpr (std::is_floating_point_v<T>) {
    write_json_double(static_cast<double>(value), out);  // a json holds every number as double
  } else if constexpr (is_string_v<T>) {
    write_json_string(value, out);
  } else if constexpr (std::is_same_v<T, json>) {
    write_json(value, out);
  } else if constexpr (is_optional<T>::value) {
    if (value)
      write_encoded(*value, out);
    else
      out.put(std::string_view("null"));
  } else if constexpr (is_array_like_v<T>) {
    out.put('[');
    bool first = true;
    for (const auto& item : value) {
      if (!first) out.put(',');
      first = false;
      // The cast turns std::vector<bool>'s proxy into a bool.
      write_encoded(static_cast<const typename T::value_type&>(item), out);
    }
    out.put(']');
  } else if constexpr (is_string_map<T>::value) {
    write_string_map(value, out);
  } else if constexpr (is_variant<T>::value) {
    std::visit([&](const auto& alternative) { write_encoded(alternative, out); }, value);
  } else if constexpr (is_reflected_enum_v<T>) {
    write_json_string(enum_wire_name(value), out);
  } else if constexpr (is_reflected_v<T>) {
    write_struct(value, out);
  } else {
    static_assert(dependent_false_v<T>, "mcp: write_encoded supports what encode supports");
  }
}

// Appends the JSON text of `value` to `out`.
template <class T>
void write_encoded(const T& value, std::string& out) {
  text_out t(out);
  write_encoded(value, t);
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
