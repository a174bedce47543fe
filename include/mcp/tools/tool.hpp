// Typed tools: the handler's signature is the contract. Its argument type (an MCP_STRUCT) gives
// the input schema and is validated and decoded before the call; its return type gives the output
// schema and is encoded into structuredContent plus a text block.
//
//   srv.tool("add", "Adds two numbers.", [](const add_args& in) -> sum { return {in.a + in.b}; });
//
// Handler shapes:   R()   R(context&)   R(const In&)   R(const In&, context&)
// Return types R:   Out (any type MCP_STRUCT/encode supports), std::string (text only),
//                   tool_result (full control), result<X> of those; tool_error may be thrown too.
//
// The argument object lives for the call only (the tool reads a later call's arguments into it):
// keep a copy of what must outlast the call, not a reference.
//
// Handlers run concurrently: the stdio and HTTP transports run up to four calls at once, of the
// same tool or of different ones. State a handler shares with others (a store, a cache, a
// counter) needs a lock or an atomic of its own.
#pragma once

#include <mcp/core/content.hpp>
#include <mcp/core/context.hpp>
#include <mcp/tools/detail/handler_traits.hpp>
#include <mcp/core/detail/legacy_projection.hpp>
#include <mcp/core/detail/reply.hpp>
#include <mcp/core/server.hpp>
#include <mcp/validation/coercion.hpp>
#include <mcp/validation/detail/typed_reader.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/tools/detail/call_result.hpp>
#include <mcp/core/detail/kept_arguments.hpp>
#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>

#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>

namespace mcp {
inline namespace v0 {
namespace detail {

inline std::map<std::string, int> count_keywords(const std::vector<violation>& v) {
  std::map<std::string, int> counts;
  for (const auto& x : v) ++counts[x.keyword];
  return counts;
}

// Validates (coercing first when the policy allows and it helps). Returns the arguments to decode
// (the original, or a coerced copy held in `scratch`), or null after writing the refusal (an
// isError result for the model) into the sink.
inline const json* check_arguments(const json& args, const validator& in, const pipeline_settings& s, context& ctx,
                                   json& scratch, result_sink& sink) {
  const std::size_t max_depth = argument_depth_limit(s.owner->options().max_json_depth);
  auto problems = in.validate(args, max_depth);
  if (problems.empty()) return &args;
  if (s.coerce != coercion::off) {
    scratch = args;
    coercion_report report = coerce(scratch, in, s.coerce, max_depth);
    if (report.count > 0) {
      auto after = in.validate(scratch, max_depth);
      if (after.empty()) {
        s.stats->record_coercions(report.by_kind);
        ctx.log(log_level::debug, json{{"tool", s.tool_name}, {"coerced", report.log}}, "mcp.coercion");
        return &scratch;
      }
      problems = std::move(after);
    }
    problems.insert(problems.end(), report.refused.begin(), report.refused.end());
  }
  s.stats->record_validation_failure(count_keywords(problems));
  sink.text(describe_violations(s.tool_name, problems, in.schema()), true);
  return nullptr;
}

template <class Out>
nlohmann::ordered_json display_schema_for(const json& output_schema) {
  if constexpr (unwrap_result<Out>::wrapped)
    return display_schema_for<typename unwrap_result<Out>::type>(output_schema);
  else if constexpr (is_supported_v<Out> && !std::is_same_v<Out, json>)
    return schema_of_ordered<Out>();  // the value's own schema: Markdown renders the value, never the wrapper
  else
    return convert_json<nlohmann::ordered_json>(output_schema);
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

// The same schema as output_schema_for, properties in declaration order (null where there is none).
template <class Out>
const nlohmann::ordered_json* ordered_output_schema_for() {
  if constexpr (unwrap_result<Out>::wrapped) {
    return ordered_output_schema_for<typename unwrap_result<Out>::type>();
  } else if constexpr (std::is_same_v<Out, std::string> || std::is_same_v<Out, tool_result> ||
                       std::is_same_v<Out, tool_error> || std::is_same_v<Out, json>) {
    return nullptr;
  } else {
    return &schema_of_ordered<Out>();
  }
}

// Runs the handler and builds its result into the sink, turning every failure it can have into an
// isError result for the model (whatever the sink held of a result is dropped first).
template <class Call>
void guarded(Call&& call, const pipeline_settings& s, result_sink& sink) {
  auto refuse = [&](std::string text) {
    sink.reset();
    sink.text(std::move(text), true);
  };
  try {
    call();
  } catch (const tool_error& e) {
    refuse(e.what());
  } catch (const protocol_error&) {
    throw;  // the handler chose to answer with a JSON-RPC error
  } catch (const input_required&) {
    throw;  // a 2026-07-28 call that needs the client's answers first
  } catch (const begin_task_signal&) {
    throw;  // the rest runs as a task (context::begin_task)
  } catch (const request_timeout& e) {
    refuse(std::string("Tool '") + s.tool_name + "' could not finish: " + e.what() + ".");
  } catch (const std::exception& e) {
    log_for(s, "tool '" + s.tool_name + "' threw: " + e.what());
    refuse("Tool '" + s.tool_name +
           "' failed with an internal error (details are in the server's log). Try again, or use another tool if it "
           "keeps failing.");
  } catch (...) {
    log_for(s, "tool '" + s.tool_name + "' threw a non-standard exception");
    refuse("Tool '" + s.tool_name + "' failed with an internal error.");
  }
}

// One typed tool's pipeline: check the arguments (coercing where the policy allows), decode them,
// call the handler, and build its answer into the sink (a tree or text: one builder either way).
template <class F, class In, bool WithContext>
struct typed_tool {
  F fn;
  pipeline_settings s;
  const validator* in_validator;
  std::shared_ptr<const validator> own_validator;  // for tools without arguments
  // null: the tree road only (always so for a tool without arguments)
  using read_type = std::conditional_t<std::is_void_v<In>, bool, In>;  // bool: never read
  using reader_type = typed_reader<read_type>;
  std::unique_ptr<const reader_type> reader;
  // The argument objects the text road reads into, kept between calls where In allows.
  std::shared_ptr<kept_arguments<read_type>> kept;

  // The road from text (detail::text_road), in two steps: the object `text` starts with read into
  // an In (the bytes taken, 0 when the reader gave up), then the handler run on it.
  // Used only where In is a type (a tool with arguments and a reader).
  std::size_t read_text(std::string_view text, std::shared_ptr<const void>& arguments) const {
    const std::size_t depth = argument_depth_limit(s.owner->options().max_json_depth);
    if constexpr (reader_type::template refreshable_v<In>) {
      auto in = kept->take();
      const std::size_t taken = reader->read_leading(text, depth, *in);
      if (!taken) {
        kept->give_back(std::move(in), text.size());  // what it read came from no more than that
        return 0;
      }
      arguments = kept->hold(std::move(in), taken);
      return taken;
    } else {
      auto in = std::make_shared<In>();
      const std::size_t taken = reader->read_leading(text, depth, *in);
      if (taken) arguments = std::move(in);
      return taken;
    }
  }
  void run_read(const void* arguments, context& ctx, result_sink& sink) {
    const In& in = *static_cast<const In*>(arguments);
    guarded(
        [&] {
          if constexpr (WithContext)
            build_call_result(fn(in, ctx), s, sink);
          else
            build_call_result(fn(in), s, sink);
        },
        s, sink);
  }

  void operator()(const json& args, context& ctx, result_sink& sink) {
    json scratch;
    const json* checked = check_arguments(args, *in_validator, s, ctx, scratch, sink);
    if (!checked) return;
    guarded(
        [&] {
          if constexpr (std::is_void_v<In>) {
            if constexpr (WithContext)
              build_call_result(fn(ctx), s, sink);
            else
              build_call_result(fn(), s, sink);
          } else {
            std::optional<In> decoded;
            try {
              // check_arguments validated *checked, which refuses a value deeper than the limit.
              decoded.emplace(detail::decode_checked_depth<In>(*checked));
            } catch (const decode_error& e) {
              // What validates decodes (tests/unit/test_reflect.cpp checks it); were a case missed,
              // it is still the caller's argument, so say so rather than report an internal error.
              return sink.text("Invalid arguments for tool '" + s.tool_name + "': " + e.what() +
                                   "\nFix this and call the tool again.",
                               true);
            }
            const In& in = *decoded;
            if constexpr (WithContext)
              build_call_result(fn(in, ctx), s, sink);
            else
              build_call_result(fn(in), s, sink);
          }
        },
        s, sink);
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
  s.stats = std::make_shared<tool_stats>();

  def.name = std::move(name);
  def.title = options.title;
  def.description = std::move(description);
  def.input_schema = std::move(input_schema);
  def.output_schema = std::move(output_schema);
  def.hints = options.hints;
  def.icons = options.icons;
  def.meta = detail::tool_meta(options, def.name);
  def.scopes = options.scopes;
  def.task = options.task;
  def.task_begins = options.task_begins;
  return s;
}

}  // namespace detail

namespace detail {
// server::tool may run: its body (below) is here.
template <class Handler>
struct typed_tools_included<Handler, void> : std::true_type {};
}  // namespace detail

template <class Handler>
server& server::add_typed_tool(std::string name, std::string description, Handler&& handler, tool_options options) {
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
    using returned = typename detail::unwrap_result<std::decay_t<R>>::type;
    constexpr bool c_string = std::is_same_v<std::decay_t<returned>, const char*> ||
                              std::is_same_v<std::decay_t<returned>, char*>;
    static_assert(!c_string,
                  "mcp: the tool handler returns a C string (const char*), as a lambda that returns a string "
                  "literal does; declare the return type: [](...) -> std::string { return \"...\"; }");
    // One message per mistake: the rest of the registration is compiled only when these hold, since
    // schema_of, encode and the output checks would each report the same type again.
    constexpr bool input_known = !shape::valid || std::is_void_v<In> || is_reflected_v<In>;  // else the shape's message
    static_assert(input_known,
                  "mcp: the argument type of a tool handler must be a struct declared with MCP_STRUCT(...)");
    constexpr bool output_known = std::is_same_v<returned, std::string> || std::is_same_v<returned, tool_result> ||
                                  std::is_same_v<returned, tool_error> || c_string || std::is_void_v<returned> ||
                                  detail::is_supported_v<returned>;
    static_assert(output_known,
                  "mcp: the return type of a tool handler must be a struct declared with MCP_STRUCT(...), "
                  "std::string, mcp::tool_result, or mcp::result<...> of one of those (or another type "
                  "mcp::encode supports: a number, a bool, a std::vector, a type declared with MCP_ENUM)");
    if constexpr (shape::valid && !std::is_void_v<R> && !c_string && input_known && output_known) {
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
      auto stats = s.stats;
      auto p = std::make_shared<pipeline>(pipeline{F(std::forward<Handler>(handler)), std::move(s), nullptr, nullptr, nullptr, nullptr});
      detail::text_road from_text;
      if constexpr (std::is_void_v<In>) {
        p->own_validator = std::make_shared<const validator>(def.input_schema);
        p->in_validator = p->own_validator.get();
      } else {
        p->in_validator = &detail::validator_for<In>();
        p->reader = detail::typed_reader<In>::make(detail::fast_path_of(*p->in_validator));
        if (p->reader) {
          p->kept = std::make_shared<detail::kept_arguments<In>>();
          from_text.read = [p](std::string_view text, std::shared_ptr<const void>& arguments) {
            return p->read_text(text, arguments);
          };
          from_text.run = [p](const void* arguments, context& ctx, detail::result_sink& sink) {
            p->run_read(arguments, ctx, sink);
          };
        }
      }
      detail::ordered_schemas ordered{nullptr, detail::ordered_output_schema_for<R>()};
      if constexpr (!std::is_void_v<In>) ordered.input = &schema_of_ordered<In>();
      add_tool(std::move(def), [p](const json& args, context& ctx, detail::result_sink& sink) { (*p)(args, ctx, sink); },
               std::move(stats), ordered, std::move(from_text));
    }
  }
  return *this;
}

template <class Handler>
server& server::add_runtime_tool(std::string name, std::string description, runtime_schema schema, Handler&& handler,
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
  nlohmann::ordered_json display_schema = detail::convert_json<nlohmann::ordered_json>(schema.output);
  detail::pipeline_settings s = detail::prepare_tool(def, std::move(name), std::move(description), schema.input,
                                                     schema.output, std::move(display_schema), options, *this);
  auto stats = s.stats;
  detail::tool_runner run = [fn = F(std::forward<Handler>(handler)), s = std::move(s), in_validator](
                                const json& args, context& ctx, detail::result_sink& sink) mutable {
    json scratch;
    const json* checked = detail::check_arguments(args, *in_validator, s, ctx, scratch, sink);
    if (!checked) return;
    detail::guarded(
        [&] {
          if constexpr (with_context)
            detail::build_call_result(fn(*checked, ctx), s, sink);
          else
            detail::build_call_result(fn(*checked), s, sink);
        },
        s, sink);
  };
  add_tool(std::move(def), std::move(run), std::move(stats));
  return *this;
}

}  // namespace v0
}  // namespace mcp
