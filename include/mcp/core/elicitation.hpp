// Elicitation, typed: ask the user to fill in a form whose fields are an MCP_STRUCT, and get the
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

#include <mcp/core/content.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/error.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/detail/validator_for.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/schema/validation.hpp>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

enum class elicit_action { accept, decline, cancel };

inline const char* to_string(elicit_action a) {
  switch (a) {
    case elicit_action::accept: return "accept";
    case elicit_action::decline: return "decline";
    case elicit_action::cancel: return "cancel";
  }
  return "cancel";
}

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

// The client's answer to an elicitation does not fit what was asked (content that breaks the
// requested schema, an unknown action). A tool answers it as an isError result; elsewhere it is
// an internal error.
struct elicitation_error : tool_error {
  explicit elicitation_error(const std::string& message) : tool_error(error_code::invalid_answer, message) {}
};

// One URL-mode elicitation: what to tell the user, where to send them, and the id that
// server::complete_elicitation later names (unique within the server; the client treats it as opaque).
struct url_elicitation {
  std::string message;
  std::string url;
  std::string elicitation_id;
};

// Thrown by a handler that cannot go on until the user has completed the URL-mode elicitations
// listed (JSON-RPC error -32042, data.elicitations). For a 2026-07-28 request, which has no such
// error, the server answers an input_required round asking the same in URL mode instead; the
// client's retry runs the handler again, which decides from its own records whether the user is
// done. Only send it to a client that declared elicitation.url (ctx.client_supports_url_elicitation()).
class url_elicitation_required : public protocol_error {
 public:
  explicit url_elicitation_required(std::vector<url_elicitation> list,
                                    const std::string& message = "This request needs the user to complete an action "
                                                                 "at a URL first")
      : protocol_error(error_code::url_elicitation_required, message, data_of(list)), list_(std::move(list)) {}
  const std::vector<url_elicitation>& elicitations() const { return list_; }

 private:
  static json data_of(const std::vector<url_elicitation>& list) {
    json items = json::array();
    for (const auto& e : list)
      items.push_back({{"mode", "url"}, {"message", e.message}, {"url", e.url}, {"elicitationId", e.elicitation_id}});
    return json{{"elicitations", std::move(items)}};
  }
  std::vector<url_elicitation> list_;
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

inline elicit_action elicit_action_of(const json& answer, const std::string& message) {
  const json* action = answer.is_object() && answer.contains("action") ? &answer["action"] : nullptr;
  if (action && *action == "accept") return elicit_action::accept;
  if (action && *action == "decline") return elicit_action::decline;
  if (action && *action == "cancel") return elicit_action::cancel;
  throw elicitation_error("The client's answer to the question \"" + message +
                          "\" has no valid action (accept, decline or cancel): " + detail::render(answer, 120));
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

template <class T>
elicit_result<T> elicit_result<T>::from(const json& answer, const std::string& question) {
  return detail::read_elicitation<T>(answer, question);
}

}  // namespace v0
}  // namespace mcp
