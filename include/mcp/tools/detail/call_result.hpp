// The result builder: a tool handler's answer becomes one CallToolResult, built into a result
// sink (core/detail/reply.hpp), a json tree or the JSON text a 2025-era client receives. There is
// one builder; structuredContent is always written straight from the value
// (schema/detail/reflect_writer.hpp, a struct's members in declaration order), and a reflected
// struct without output checks needs no tree at all. tests/unit/test_tools.cpp sends every kind
// of answer through both sinks and compares the bytes.
#pragma once

#include <mcp/config.hpp>
#include <mcp/core/content.hpp>
#include <mcp/tools/detail/handler_traits.hpp>
#include <mcp/core/detail/reply.hpp>
#include <mcp/core/metrics.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/core/server.hpp>
#include <mcp/schema/detail/reflect_writer.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>

#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {
inline namespace v0 {

// Customisation point: specialise with `static std::string render(const T&)` to choose the text
// block of every tool that returns T. A tool's own tool_options::render comes first; see
// tool_options for the whole order.
template <class T>
struct text_renderer {};

namespace detail {

template <class T, class = void>
struct has_text_renderer : std::false_type {};
template <class T>
struct has_text_renderer<T, std::void_t<decltype(text_renderer<T>::render(std::declval<const T&>()))>> : std::true_type {};

// What every tool's pipeline knows of its tool: its name, options and the server's defaults.
struct pipeline_settings {
  std::string tool_name;
  coercion coerce = coercion::lossless;
  bool validate_output = true;
  text_format format = text_format::json;
  std::function<std::string(const json&)> render;
  std::size_t text_budget = 0;
  std::string truncation_hint;
  json output_schema = nullptr;  // as declared (any root type)
  nlohmann::ordered_json display_schema;  // the same as an object schema, fields in declaration order, for Markdown
  std::shared_ptr<const validator> output_validator;
  std::shared_ptr<tool_stats> stats;
  const server* owner = nullptr;
};

inline void log_for(const pipeline_settings& s, std::string_view text) { log_diagnostic(s.owner->options(), text); }

std::string budgeted(std::string text, const pipeline_settings& s);

// --- non-finite numbers: JSON has none, and the writer would put null, which the output schema
// refuses, so the client would throw. Such a result is the server's bug, caught before either sink
// writes anything.

// Whether a value of T can hold a float (T's own type, or one inside it). Recursive types stop
// the search at a fixed depth and count as yes.
template <class T, int Depth = 8>
constexpr bool may_hold_float();

template <class Tuple, int Depth, std::size_t... I>
constexpr bool any_field_may_hold_float(std::index_sequence<I...>) {
  return (may_hold_float<typename std::tuple_element_t<I, Tuple>::member_type, Depth>() || ...);
}
template <class Variant, int Depth, std::size_t... I>
constexpr bool any_alternative_may_hold_float(std::index_sequence<I...>) {
  return (may_hold_float<std::variant_alternative_t<I, Variant>, Depth>() || ...);
}

template <class T, int Depth>
constexpr bool may_hold_float() {
  if constexpr (Depth == 0) {
    return true;
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, json> || has_json_type_v<T>) {
    return true;
  } else if constexpr (is_optional<T>::value || is_array_like_v<T>) {
    return may_hold_float<typename T::value_type, Depth - 1>();
  } else if constexpr (is_string_map<T>::value) {
    return may_hold_float<typename T::mapped_type, Depth - 1>();
  } else if constexpr (is_variant<T>::value) {
    return any_alternative_may_hold_float<T, Depth - 1>(std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (is_reflected_v<T>) {
    using fields = std::decay_t<decltype(fields_of<T>())>;
    return any_field_may_hold_float<fields, Depth - 1>(std::make_index_sequence<std::tuple_size_v<fields>>{});
  } else {
    return false;
  }
}

// The search below builds no pointer while it looks: each level adds its token to the front of
// `pointer` on the way back, once a NaN or an infinity has been found.
void prepend_pointer_token(std::string& pointer, std::string_view token);

bool non_finite_in_json(const json& v, std::string& pointer);

template <class T>
bool non_finite_in(const T& value, std::string& pointer) {
  if constexpr (!may_hold_float<T>()) {
    return false;
  } else if constexpr (has_json_type_v<T>) {
    return non_finite_in_json(json_type<T>::encode(value), pointer);
  } else if constexpr (std::is_floating_point_v<T>) {
    return !std::isfinite(value);
  } else if constexpr (std::is_same_v<T, json>) {
    return non_finite_in_json(value, pointer);
  } else if constexpr (is_optional<T>::value) {
    return value && non_finite_in(*value, pointer);
  } else if constexpr (is_array_like_v<T>) {
    std::size_t i = 0;
    for (const auto& item : value) {
      if (non_finite_in(static_cast<const typename T::value_type&>(item), pointer)) {
        prepend_pointer_token(pointer, std::to_string(i));
        return true;
      }
      ++i;
    }
    return false;
  } else if constexpr (is_string_map<T>::value) {
    for (const auto& [key, item] : value) {
      if (non_finite_in(item, pointer)) {
        prepend_pointer_token(pointer, key);
        return true;
      }
    }
    return false;
  } else if constexpr (is_variant<T>::value) {
    return std::visit([&](const auto& alternative) { return non_finite_in(alternative, pointer); }, value);
  } else if constexpr (is_reflected_v<T>) {
    bool found = false;
    for_each_field(fields_of<T>(), [&](const auto& f, auto) {
      if (found) return;
      found = non_finite_in(value.*f.member, pointer);
      if (found) prepend_pointer_token(pointer, f.name);
    });
    return found;
  } else {
    return false;
  }
}

// Whether `value` holds a NaN or an infinity; the JSON Pointer of the first one in the value's
// encoding is then appended to `pointer`.
template <class T>
bool find_non_finite(const T& value, std::string& pointer) {
  std::string found;
  if (!non_finite_in(value, found)) return false;
  pointer += found;
  return true;
}

// The value as Markdown, laid out by the tool's display schema: not a template on the tool's
// types, so compiled mode renders in the library rather than in every file with a typed tool.
std::string markdown_text(const json& value, const pipeline_settings& s);

// The one place that decides the text block beside a structured result, in the order tool_options
// documents: the tool's `render`, then text_renderer<Out>, then Markdown, then (nullopt) the
// compact JSON of the structured content, which each sink writes its own way. `returned()` gives
// the JSON of what the handler returned: never the {"result": ...} wrapper a 2025-era client
// receives for a value that is not an object (a list, say), so a renderer and Markdown see the value.
template <class Out, class Returned>
std::optional<std::string> chosen_text(const Out& out, Returned&& returned, const pipeline_settings& s) {
  if (s.render) return s.render(returned());
  if constexpr (has_text_renderer<Out>::value) return text_renderer<Out>::render(out);
  if (s.format == text_format::markdown) return markdown_text(returned(), s);
  return std::nullopt;
}

// A result that breaks its own output schema: the model is told it is the server's fault, the log
// says how.
void broken_result(const pipeline_settings& s, const std::vector<violation>& problems, result_sink& sink);

// --- the builder ---------------------------------------------------------------------------

// A structured answer: structuredContent is the JSON of `out` written by write_encoded (a struct's
// members in declaration order), and the text block renders it. Both sinks take that text.
template <class Out>
void structured_result(const Out& out, const pipeline_settings& s, result_sink& sink) {
  if (std::string where; find_non_finite(out, where)) {
    return broken_result(s, {violation{where, "type", "must be a finite number, got NaN or infinity (JSON has neither)"}},
                         sink);
  }
  const bool checked = s.validate_output && s.output_validator;
  if constexpr (is_reflected_v<Out>) {
    if (!checked) {
      // The common road, with no tree at all: the structured content written from the value itself,
      // and that same JSON as the text block unless the tool chose its own text.
      if (std::optional<std::string> text = chosen_text(out, [&] { return encode(out); }, s)) {
        std::string structured;
        write_encoded(out, structured);
        sink.structured(budgeted(std::move(*text), s), structured, true);
        return;
      }
      // No user code runs while the buffer is in use: one per thread will do.
      thread_local std::string structured;
      structured.clear();
      write_encoded(out, structured);
      if (s.text_budget == 0 || structured.size() <= s.text_budget)
        sink.structured_as_text(structured);
      else
        sink.structured(truncate_text(structured, s.text_budget, s.truncation_hint), structured, true);
      let_go_if_huge(structured);
      return;
    }
  }
  json value = encode(out);
  if (checked) {
    auto problems = s.output_validator->validate(value);
    if (!problems.empty()) return broken_result(s, problems, sink);
  }
  std::string structured;
  write_encoded(out, structured);
  // The default text block (compact JSON) shows what a 2025-era client's structuredContent holds, so
  // both agree; a renderer and Markdown get the value itself, never the {"result": ...} wrapper.
  std::optional<std::string> text = chosen_text(out, [&]() -> const json& { return value; }, s);
  std::string block = text ? std::move(*text) : value.is_object() ? structured : "{\"result\":" + structured + "}";
  const bool as_object = value.is_object() && (s.output_schema.is_null() || is_object_schema(s.output_schema));
  sink.structured(budgeted(std::move(block), s), structured, as_object);
}

// Any answer a handler may give.
template <class R>
void build_call_result(R&& value, const pipeline_settings& s, result_sink& sink) {
  using T = std::decay_t<R>;
  if constexpr (unwrap_result<T>::wrapped) {
    if (!value.ok()) return sink.text(value.error().what(), true);
    build_call_result(std::move(value.value()), s, sink);
  } else if constexpr (std::is_same_v<T, tool_result>) {
    sink.tree(std::move(value).to_json());
  } else if constexpr (std::is_same_v<T, std::string>) {
    sink.text(budgeted(std::move(value), s));
  } else if constexpr (std::is_same_v<T, tool_error>) {
    sink.text(value.what(), true);
  } else {
    structured_result(value, s, sink);
  }
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/tools/impl/call_result.ipp>
#endif
