// Typed tools: the handler's signature is the contract. Its argument type (an MCP_STRUCT) gives
// the input schema and is validated and decoded before the call; its return type gives the output
// schema and is encoded into structuredContent plus a text block.
//
//   srv.tool("add", "Adds two numbers.", [](const add_args& in) -> sum { return {in.a + in.b}; });
//
// Handler shapes:   R()   R(context&)   R(const In&)   R(const In&, context&)
// Return types R:   Out (any type MCP_STRUCT/encode supports), std::string (text only),
//                   tool_result (full control), result<X> of those; tool_error may be thrown too.
#pragma once

#include <mcp/schema/coercion.hpp>
#include <mcp/core/detail/handler_traits.hpp>
#include <mcp/core/detail/legacy_projection.hpp>
#include <mcp/schema/detail/reflect_writer.hpp>
#include <mcp/core/content.hpp>
#include <mcp/core/context.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/core/server.hpp>
#include <mcp/schema/validation.hpp>

#include <chrono>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>

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

// --- turning a handler's answer into a CallToolResult ----------------------------------------

inline json error_result(const std::string& text) {
  tool_result r;
  r.content.push_back(text_block(text));
  r.is_error = true;
  return std::move(r).to_json();
}
inline json text_result(std::string text) {
  tool_result r;
  r.content.push_back(text_block(std::move(text)));
  return std::move(r).to_json();
}

// 2025-era clients accept only object structured content: other values travel as
// {"result": value} there (see detail::legacy_output_schema). 2026-07-28 clients get them as they are.
inline json wrap_structured(json value) {
  if (value.is_object()) return value;
  return json{{"result", std::move(value)}};
}

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

inline std::map<std::string, int> count_keywords(const std::vector<violation>& v) {
  std::map<std::string, int> counts;
  for (const auto& x : v) ++counts[x.keyword];
  return counts;
}

// Validates (coercing first when the policy allows and it helps). Returns the arguments to decode
// (the original, or a coerced copy held in `scratch`), or null after filling `refusal`.
inline const json* check_arguments(const json& args, const validator& in, const pipeline_settings& s, context& ctx,
                                   json& scratch, json& refusal) {
  const std::size_t max_depth = argument_depth_limit(s.owner->options().max_json_depth);
  auto problems = in.validate(args, max_depth);
  if (problems.empty()) return &args;
  if (s.coerce != coercion::off) {
    scratch = args;
    coercion_report report = coerce(scratch, in.schema(), s.coerce, max_depth);
    if (report.count > 0) {
      auto after = in.validate(scratch, max_depth);
      if (after.empty()) {
        s.stats->record_coercions(report.count);
        ctx.log(log_level::debug, json{{"tool", s.tool_name}, {"coerced", report.log}}, "mcp.coercion");
        return &scratch;
      }
      problems = std::move(after);
    }
    problems.insert(problems.end(), report.refused.begin(), report.refused.end());
  }
  s.stats->record_validation_failure(count_keywords(problems));
  refusal = error_result(describe_violations(s.tool_name, problems, in.schema()));
  return nullptr;
}

// The one place that decides the text block beside a structured result, in the order tool_options
// documents: the tool's `render`, then text_renderer<Out>, then Markdown, then (nullopt) the
// compact JSON of the structured content, which each sink writes its own way. `structured()`
// gives the structured content as the text shows it.
template <class Out, class Structured>
std::optional<std::string> chosen_text(const Out& out, Structured&& structured, const pipeline_settings& s) {
  if (s.render) return s.render(structured());
  if constexpr (has_text_renderer<Out>::value) return text_renderer<Out>::render(out);
  if (s.format == text_format::markdown) return render_markdown(structured(), s.display_schema);
  return std::nullopt;
}

inline std::string budgeted(std::string text, const pipeline_settings& s) {
  if (s.text_budget == 0 || text.size() <= s.text_budget) return text;
  return truncate_text(text, s.text_budget, s.truncation_hint);
}

template <class Out>
json structured_result(const Out& out, const pipeline_settings& s) {
  json value = encode(out);
  if (s.validate_output && s.output_validator) {
    auto problems = s.output_validator->validate(value);
    if (!problems.empty()) {
      s.owner->log_diagnostic("tool '" + s.tool_name + "' returned a result that breaks its own output schema " +
                              violation_list(problems) + "\nThe client was sent an isError result instead.");
      return error_result("Tool '" + s.tool_name +
                          "' produced a result that does not match its declared output schema. This is a bug in the "
                          "server, not in your call; the details were logged.");
    }
  }
  // The text block shows what a 2025-era client's structuredContent holds, so both agree. (Only a
  // value that is not an object needs the wrapped copy.)
  const json wrapped = value.is_object() ? json() : wrap_structured(value);
  const json& structured = value.is_object() ? value : wrapped;
  std::optional<std::string> text = chosen_text(out, [&]() -> const json& { return structured; }, s);
  tool_result r;
  r.content.push_back(text_block(budgeted(text ? std::move(*text) : render_json(structured), s)));
  r.structured_content = std::move(value);
  return std::move(r).to_json();
}

template <class R>
json to_call_result(R&& value, const pipeline_settings& s) {
  using T = std::decay_t<R>;
  if constexpr (unwrap_result<T>::wrapped) {
    if (!value.ok()) return error_result(value.error().what());
    return to_call_result(std::move(value.value()), s);
  } else if constexpr (std::is_same_v<T, tool_result>) {
    return std::move(value).to_json();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return text_result(budgeted(std::move(value), s));
  } else if constexpr (std::is_same_v<T, tool_error>) {
    return error_result(value.what());
  } else {
    return structured_result(value, s);
  }
}

// --- the same answers written as text: what a 2025-era client receives -----------------------
// (tool_definition::invoke_text). Bytes equal write_json of the tree after the server's
// add_text_for_structured and project_call_result; tests/unit/test_tools.cpp compares them.

// Writes a result tree as a 2025-era client receives it; returns whether it is an error result.
inline bool write_tree(json result, const pipeline_settings& s, std::string& out) {
  add_text_for_structured(result);
  project_call_result(result, s.output_schema);
  write_json(result, out);
  auto is_error = result.find("isError");
  return is_error != result.end() && is_error->is_boolean() && is_error->get<bool>();
}

inline void write_text_result(std::string_view text, std::string& out) {
  out += "{\"content\":[{\"text\":";
  write_json_string(text, out);
  out += ",\"type\":\"text\"}]}";
}

// A reflected struct: structuredContent is its JSON, written from the value itself; the text block
// is that same JSON unless the tool renders its own text.
template <class Out>
void write_structured(const Out& value, const pipeline_settings& s, std::string& out) {
  out += "{\"content\":[{\"text\":";
  if (std::optional<std::string> text = chosen_text(value, [&] { return encode(value); }, s)) {
    write_json_string(budgeted(std::move(*text), s), out);
    out += ",\"type\":\"text\"}],\"structuredContent\":";
    write_encoded(value, out);
  } else {
    // No user code runs while the scratch buffer is in use, so one per thread is enough.
    thread_local std::string structured;
    structured.clear();
    write_encoded(value, structured);
    if (s.text_budget == 0 || structured.size() <= s.text_budget)
      write_json_string(structured, out);
    else
      write_json_string(truncate_text(structured, s.text_budget, s.truncation_hint), out);
    out += ",\"type\":\"text\"}],\"structuredContent\":";
    out += structured;
    if (structured.capacity() > (std::size_t{1} << 20)) std::string().swap(structured);  // a huge one is let go
  }
  out += '}';
}

// to_call_result, written as text. Returns whether it is an error result.
template <class R>
bool write_call_result(R&& value, const pipeline_settings& s, std::string& out) {
  using T = std::decay_t<R>;
  if constexpr (unwrap_result<T>::wrapped) {
    if (!value.ok()) return write_tree(error_result(value.error().what()), s, out);
    return write_call_result(std::move(value.value()), s, out);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (s.text_budget == 0 || value.size() <= s.text_budget)
      write_text_result(value, out);
    else
      write_text_result(truncate_text(value, s.text_budget, s.truncation_hint), out);
    return false;
  } else if constexpr (is_reflected_v<T>) {
    // An object under an object schema: nothing for the 2025-era projection to change.
    if (s.validate_output && s.output_validator) return write_tree(structured_result(value, s), s, out);
    write_structured(value, s, out);
    return false;
  } else {
    return write_tree(to_call_result(std::forward<R>(value), s), s, out);
  }
}

template <class Out>
nlohmann::ordered_json display_schema_for(const json& output_schema) {
  if constexpr (unwrap_result<Out>::wrapped)
    return display_schema_for<typename unwrap_result<Out>::type>(output_schema);
  else if constexpr (is_reflected_v<Out>)
    return schema_of_ordered<Out>();
  else
    return legacy_output_schema(output_schema);
}

// Whether the output of a handler returning Out needs checking against its schema: only where a
// value of Out can break it (see may_break_schema); a runtime schema always does.
template <class Out>
bool output_may_break() {
  if constexpr (unwrap_result<Out>::wrapped)
    return output_may_break<typename unwrap_result<Out>::type>();
  else if constexpr (std::is_same_v<Out, std::string> || std::is_same_v<Out, tool_result> ||
                     std::is_same_v<Out, tool_error> || std::is_same_v<Out, json>)
    return false;  // no output schema
  else
    return may_break_schema<Out>();
}

template <class Out>
json output_schema_for() {
  if constexpr (unwrap_result<Out>::wrapped) {
    return output_schema_for<typename unwrap_result<Out>::type>();
  } else if constexpr (std::is_same_v<Out, std::string> || std::is_same_v<Out, tool_result> ||
                       std::is_same_v<Out, tool_error> || std::is_same_v<Out, json>) {
    return nullptr;
  } else {
    return schema_of<Out>();
  }
}

// Runs the handler, turning every failure it can have into an isError result for the model.
template <class Call>
json guarded(Call&& call, const pipeline_settings& s) {
  try {
    return call();
  } catch (const tool_error& e) {
    return error_result(e.what());
  } catch (const protocol_error&) {
    throw;  // the handler chose to answer with a JSON-RPC error
  } catch (const input_required&) {
    throw;  // a 2026-07-28 call that needs the client's answers first
  } catch (const request_timeout& e) {
    return error_result(std::string("Tool '") + s.tool_name + "' could not finish: " + e.what() + ".");
  } catch (const std::exception& e) {
    s.owner->log_diagnostic("tool '" + s.tool_name + "' threw: " + e.what());
    return error_result("Tool '" + s.tool_name +
                        "' failed with an internal error (details are in the server's log). Try again, or use another "
                        "tool if it keeps failing.");
  } catch (...) {
    s.owner->log_diagnostic("tool '" + s.tool_name + "' threw a non-standard exception");
    return error_result("Tool '" + s.tool_name + "' failed with an internal error.");
  }
}

// One typed tool's pipeline, shared by its two invokers: check the arguments (coercing where the
// policy allows), decode them, call the handler, and turn its answer into a CallToolResult, as a
// tree (invoke) or as text (invoke_text).
template <class F, class In, bool WithContext>
struct typed_tool {
  F fn;
  pipeline_settings s;
  const validator* in_validator;
  std::shared_ptr<const validator> own_validator;  // for tools without arguments

  // Calls `finish` with the handler's answer; argument problems and failures come back as an
  // isError result instead, without calling it.
  template <class Finish>
  json run(const json& args, context& ctx, Finish&& finish) {
    json scratch, refusal;
    const json* checked = check_arguments(args, *in_validator, s, ctx, scratch, refusal);
    if (!checked) return refusal;
    return guarded(
        [&]() -> json {
          if constexpr (std::is_void_v<In>) {
            if constexpr (WithContext)
              return finish(fn(ctx));
            else
              return finish(fn());
          } else {
            std::optional<In> decoded;
            try {
              decoded.emplace(decode<In>(*checked, argument_depth_limit(s.owner->options().max_json_depth)));
            } catch (const decode_error& e) {
              // What validates decodes (tests/unit/test_reflect.cpp checks it); were a case missed,
              // it is still the caller's argument, so say so rather than report an internal error.
              return error_result("Invalid arguments for tool '" + s.tool_name + "': " + e.what() +
                                  "\nFix this and call the tool again.");
            }
            const In& in = *decoded;
            if constexpr (WithContext)
              return finish(fn(in, ctx));
            else
              return finish(fn(in));
          }
        },
        s);
  }

  json invoke(const json& args, context& ctx) {
    return run(args, ctx, [&](auto&& answer) { return to_call_result(std::forward<decltype(answer)>(answer), s); });
  }

  bool invoke_text(const json& args, context& ctx, std::string& out) {
    const std::size_t start = out.size();
    bool is_error = false;
    json other = run(args, ctx, [&](auto&& answer) -> json {
      is_error = write_call_result(std::forward<decltype(answer)>(answer), s, out);
      return nullptr;
    });
    if (other.is_null()) return is_error;
    out.resize(start);  // whatever a failed write left
    return write_tree(std::move(other), s, out);
  }
};

inline json no_argument_schema() { return json{{"type", "object"}, {"additionalProperties", false}}; }

// What every tool registration shares: the Tool definition and the pipeline's settings, from the
// tool's options over the server's defaults. Compiles the output validator once.
// `output_may_break`: false where no value the handler can return breaks the output schema, so
// checking would never find anything (typed outputs without constraints).
inline pipeline_settings prepare_tool(tool_definition& def, std::string name, std::string description, json input_schema,
                                      json output_schema, nlohmann::ordered_json display_schema,
                                      const tool_options& options, const server& owner, bool output_may_break = true) {
  pipeline_settings s;
  s.tool_name = name;
  s.coerce = options.coerce.value_or(owner.options().coerce);
  s.validate_output = options.validate_output.value_or(owner.options().validate_output);
  s.format = options.format;
  s.render = options.render;
  s.text_budget = options.text_budget;
  s.truncation_hint = options.truncation_hint;
  if (!output_schema.is_null() && output_may_break)  // also checks a runtime output schema at registration
    s.output_validator = std::make_shared<const validator>(output_schema, validator::root::any);
  s.output_schema = output_schema;
  s.display_schema = std::move(display_schema);
  s.owner = &owner;
  s.stats = def.stats;

  def.name = std::move(name);
  def.title = options.title;
  def.description = std::move(description);
  def.input_schema = std::move(input_schema);
  def.output_schema = std::move(output_schema);
  def.hints = options.hints;
  def.icons = options.icons;
  def.meta = options.meta;
  return s;
}

}  // namespace detail

template <class Handler>
server& server::tool(std::string name, std::string description, Handler&& handler, tool_options options) {
  using F = std::decay_t<Handler>;
  using sig = detail::handler_signature<F>;
  static_assert(sig::known,
                "mcp: a tool handler must be a lambda, function or function object with one non-template call "
                "operator, e.g. [](const my_args& in) -> my_result { ... }. Generic lambdas (auto parameters) "
                "cannot be inspected: name the argument type.");
  if constexpr (sig::known) {
    using shape = detail::handler_shape<sig>;
    static_assert(shape::valid,
                  "mcp: a tool handler takes (), (mcp::context&), (const In&) or (const In&, mcp::context&), "
                  "where In is a struct declared with MCP_STRUCT.");
    using In = typename shape::input;
    using R = typename sig::return_type;
    static_assert(!std::is_void_v<R>,
                  "mcp: a tool handler must return something: a reflected struct, std::string, mcp::tool_result "
                  "or mcp::result<...> of those.");
    if constexpr (shape::valid && !std::is_void_v<R>) {
      static_assert(std::is_void_v<In> || is_reflected_v<In>,
                    "mcp: the argument type of a tool handler must be a struct declared with MCP_STRUCT(...)");
      json output_schema = detail::output_schema_for<R>();
      nlohmann::ordered_json display_schema = detail::display_schema_for<R>(output_schema);
      json input_schema;
      if constexpr (std::is_void_v<In>)
        input_schema = detail::no_argument_schema();
      else
        input_schema = schema_of<In>();
      tool_definition def;
      detail::pipeline_settings s =
          detail::prepare_tool(def, std::move(name), std::move(description), std::move(input_schema),
                               std::move(output_schema), std::move(display_schema), options, *this,
                               detail::output_may_break<R>());

      using pipeline = detail::typed_tool<F, In, shape::takes_context>;
      auto p = std::make_shared<pipeline>(pipeline{F(std::forward<Handler>(handler)), std::move(s), nullptr, nullptr});
      if constexpr (std::is_void_v<In>) {
        p->own_validator = std::make_shared<const validator>(def.input_schema);
        p->in_validator = p->own_validator.get();
      } else {
        p->in_validator = &detail::validator_for<In>();
      }
      def.invoke = [p](const json& args, context& ctx) { return p->invoke(args, ctx); };
      def.invoke_text = [p](const json& args, context& ctx, std::string& out) { return p->invoke_text(args, ctx, out); };
      add_tool(std::move(def));
    }
  }
  return *this;
}

template <class Handler>
server& server::tool(std::string name, std::string description, runtime_schema schema, Handler&& handler,
                     tool_options options) {
  using F = std::decay_t<Handler>;
  constexpr bool with_context = std::is_invocable_v<F&, const json&, context&>;
  static_assert(with_context || std::is_invocable_v<F&, const json&>,
                "mcp: a runtime-schema tool handler takes (const mcp::json& arguments) or "
                "(const mcp::json& arguments, mcp::context&)");
  if (!schema.input.is_object() || schema.input.value("type", json()) != "object")
    throw schema_error("Tool '" + name + "': the input schema's root must be an object schema with \"type\": \"object\"");
  if (!schema.output.is_null() && !schema.output.is_object())
    throw schema_error("Tool '" + name + "': the output schema must be a JSON Schema object");
  auto in_validator = std::make_shared<const validator>(schema.input);  // throws schema_error saying what is wrong

  tool_definition def;
  nlohmann::ordered_json display_schema = detail::legacy_output_schema(schema.output);
  detail::pipeline_settings s = detail::prepare_tool(def, std::move(name), std::move(description), schema.input,
                                                     schema.output, std::move(display_schema), options, *this);
  def.invoke = [fn = F(std::forward<Handler>(handler)), s = std::move(s), in_validator](const json& args,
                                                                                        context& ctx) mutable -> json {
    json scratch, refusal;
    const json* checked = detail::check_arguments(args, *in_validator, s, ctx, scratch, refusal);
    if (!checked) return refusal;
    return detail::guarded(
        [&]() -> json {
          if constexpr (with_context)
            return detail::to_call_result(fn(*checked, ctx), s);
          else
            return detail::to_call_result(fn(*checked), s);
        },
        s);
  };
  add_tool(std::move(def));
  return *this;
}

}  // namespace v0
}  // namespace mcp
