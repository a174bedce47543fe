// Typed elicitation: ask the user to fill in a form whose fields are an MCP_STRUCT, and get the
// answer back as that struct; or send the user to a URL (URL mode, for what must not pass through
// the client: credentials, payments, OAuth consent).
//
//   struct booking { std::string date; int guests; std::optional<std::string> note; };
//   MCP_STRUCT(booking, (date, "Day of the visit", mcp::format("date")),
//                       (guests, "How many people", mcp::minimum(1), mcp::maximum(8)),
//                       (note, "Anything we should know"));
//
//   auto answer = ctx.elicit<booking>("Which day, and for how many?");
//   if (!answer.accepted()) return "Nothing booked (the user said " + mcp::to_string(answer.action) + ").";
//   book(answer.content->date, answer.content->guests);
//
// The requested schema is schema_of<booking>() in the form elicitation allows: a flat object whose
// fields are each a string (min_length, max_length, format), a number or an integer (minimum,
// maximum), a bool, an MCP_ENUM (single select; titled, `oneOf` const/title, when its values have
// descriptions) or a std::vector/std::set of an MCP_ENUM (multi select, min_items/max_items).
// mcp::default_value gives a field's default. A field of any other type stops the build with a
// static_assert naming it. The answer's content is validated against schema_of<T>() and decoded
// into T; content that does not fit throws elicitation_error (an isError result in a tool) that
// lists every problem.
//
// URL mode: ctx.elicit_url(message, url, id) asks the client to open `url`; the answer says only
// whether the user agreed. When the out-of-band step is done, server::complete_elicitation(id)
// tells the client (2025-11-25). A tool that cannot go on until the user has visited a URL may
// throw url_elicitation_required instead (JSON-RPC error -32042 for a 2025-11-25 client; a
// 2026-07-28 client gets the same as an input_required round with URL-mode requests).
#pragma once

#include <mcp/core/context.hpp>
#include <mcp/core/elicitation.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/detail/validator_for.hpp>
#include <mcp/validation/validation.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// The user's answer to ctx.elicit<T>(): what they did, and on accept the form's content as a T.
// from() reads an ElicitResult that ctx.ask() returned for elicitation_input<T>(key, message), for
// several typed questions in one round.
template <class T>
struct elicit_result {
  elicit_action action = elicit_action::cancel;
  std::optional<T> content;  // set exactly when action is accept
  bool accepted() const { return action == elicit_action::accept; }

  // Throws elicitation_error when `answer` has no valid action or its content does not fit T;
  // `question` names the question in that message.
  static elicit_result from(const json& answer, const std::string& question = "(elicitation)");
};

namespace detail {

inline const char* elicit_schema_type(const json& s) {
  auto t = s.find("type");
  return t != s.end() && t->is_string() ? t->get_ref<const std::string&>().c_str() : "";
}

// A form field's schema must be one of elicitation's primitive schemas; a field of a type mapped
// through mcp::json_type is only known here, at run time.
inline void check_form_field(const char* type_name, const std::string& field, const json& s) {
  const std::string type = elicit_schema_type(s);
  bool ok = type == "string" || type == "number" || type == "integer" || type == "boolean";
  if (type == "array") {
    auto items = s.find("items");
    ok = items != s.end() && items->is_object() && (items->contains("enum") || items->contains("anyOf"));
  }
  if (!ok)
    throw error(error_code::invalid_definition,
                std::string("mcp: ctx.elicit<") + type_name + ">(): field '" + field + "' has the schema " +
                    detail::render(s, 200) +
                    ", which a form cannot carry: a field is a string, number, integer or boolean, or an array of "
                    "enumerated strings");
}

// Titled choices ({const, title}) from an MCP_ENUM whose values have descriptions; null when none has.
template <class E>
ordered_json titled_choices() {
  bool described = false;
  ordered_json list = ordered_json::array();
  for (const auto& e : enum_table_of<E>().entries) {
    ordered_json item = ordered_json::object();
    item["const"] = e.wire;
    item["title"] = e.description != nullptr ? e.description : e.wire;
    described = described || e.description != nullptr;
    list.push_back(std::move(item));
  }
  return described ? list : ordered_json();
}

template <class E>
ordered_json enum_names() {
  ordered_json names = ordered_json::array();
  for (const auto& e : enum_table_of<E>().entries) names.push_back(e.wire);
  return names;
}

// One field as a form asks for it: the field's schema as schema_of writes it, with an enum's
// described values turned into titled choices (the shapes of SEP-1330) instead of description text.
template <class F>
ordered_json form_field(const F& f) {
  using U = unwrap_optional_t<typename F::member_type>;
  schema_context ctx;
  ordered_json s = field_schema(f, ctx);
  auto own_description = [&] {
    if (f.description != nullptr)
      s["description"] = f.description;
    else
      s.erase("description");
  };
  if constexpr (is_reflected_enum_v<U>) {
    ordered_json titled = titled_choices<U>();
    if (!titled.is_null()) {
      s.erase("enum");
      s["oneOf"] = std::move(titled);
      own_description();
    }
  } else if constexpr (is_vector<U>::value || is_set<U>::value) {
    using E = typename U::value_type;
    if constexpr (is_reflected_enum_v<E>) {
      ordered_json items = ordered_json::object();
      ordered_json titled = titled_choices<E>();
      if (titled.is_null()) {
        items["type"] = "string";
        items["enum"] = enum_names<E>();
      } else {
        items["anyOf"] = std::move(titled);
      }
      s["items"] = std::move(items);
    }
  }
  return s;
}

// The requestedSchema of ctx.elicit<T>(): type, properties and required, nothing nested; as the
// text of that object in declaration order (raw_json), which the SDK's writer sends as it is and
// other outbounds get back as plain values (see request_client and outbound::send_result).
template <class T>
json build_form_schema() {
  ordered_json properties = ordered_json::object();
  ordered_json required = ordered_json::array();
  const auto& flags = required_of<T>();
  for_each_field(fields_of<T>(), [&](const auto& f, auto index) {
    ordered_json s = form_field(f);
    check_form_field(struct_name_of<T>(), f.name, convert_json<json>(s));
    properties[f.name] = std::move(s);
    if (flags[index]) required.push_back(f.name);
  });
  ordered_json out = ordered_json::object();
  out["type"] = "object";
  out["properties"] = std::move(properties);
  if (!required.empty()) out["required"] = std::move(required);
  return raw_json(out.dump(-1, ' ', false, json::error_handler_t::replace));
}

// Built once per T (thread-safe); throws definition_error for a field of a mapped type that a form
// cannot carry.
template <class T>
const json& form_schema_of() {
  static const json schema = build_form_schema<T>();
  return schema;
}

// Never defined: lets `mcp_reflect_elicit_check<0>(tag)` parse as a template call in C++17, so that
// argument-dependent lookup finds the one MCP_STRUCT wrote beside T.
template <int>
void mcp_reflect_elicit_check();

// Every field of T fits in a form: a static_assert naming the field otherwise.
template <class T>
void check_elicitable() {
  static_assert(is_reflected_v<T>,
                "mcp: ctx.elicit<T>(message): T must be a struct declared with MCP_STRUCT (its fields are the form's)");
  if constexpr (is_reflected_v<T>) mcp_reflect_elicit_check<0>(type_tag<T>{});
}

// The client's ElicitResult as an elicit_result<T>: content validated against schema_of<T>() and decoded.
template <class T>
elicit_result<T> read_elicitation(const json& answer, const std::string& message) {
  check_elicitable<T>();
  elicit_result<T> out;
  out.action = elicit_action_of(answer, message);
  if (!out.accepted()) return out;
  static const json none = json::object();
  auto it = answer.find("content");
  const json& content = it == answer.end() || it->is_null() ? none : *it;
  auto problems = validator_for<T>().validate(content);
  if (!problems.empty())
    throw elicitation_error("The user's answer to the question \"" + message + "\" does not fit the form it was asked " +
                            "with " + violation_list(problems));
  try {
    out.content = decode<T>(content);
  } catch (const decode_error& e) {
    throw elicitation_error("The user's answer to the question \"" + message + "\" does not fit the form: " + e.what());
  }
  return out;
}

}  // namespace detail

// The form derived from T, an MCP_STRUCT of form fields (as ctx.elicit<T>() asks it), for ctx.ask()
// with several questions in one round; read the answer with elicit_result<T>::from(answer, message).
template <class T>
input_request elicitation_input(std::string key, std::string message) {
  detail::check_elicitable<T>();
  if constexpr (is_reflected_v<T>)
    return elicitation_input(std::move(key), std::move(message), detail::form_schema_of<T>());
  else
    return {};
}

template <class T>
elicit_result<T> context::elicit(const std::string& message, std::chrono::milliseconds timeout) {
  detail::check_elicitable<T>();
  if constexpr (is_reflected_v<T>)
    return detail::read_elicitation<T>(elicit(message, detail::form_schema_of<T>(), timeout), message);
  else
    return {};
}

template <class T>
elicit_result<T> elicit_result<T>::from(const json& answer, const std::string& question) {
  return detail::read_elicitation<T>(answer, question);
}

}  // namespace v0
}  // namespace mcp
