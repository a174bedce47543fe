// server::resource, server::resource_template and server::prompt: registering a handler, whose
// signature gives the arguments (an MCP_STRUCT of strings) and the kind of answer. Declared in
// core/server.hpp (which asserts that this header is included where they are called); defined here
// so that a program that registers none does not compile the reflection behind them.
// <mcp/mcp.hpp> includes this header.
#pragma once

#include <mcp/core/content.hpp>
#include <mcp/tools/detail/handler_traits.hpp>
#include <mcp/core/prompt.hpp>
#include <mcp/core/resource.hpp>
#include <mcp/core/server.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/tools/render.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// A read handler's answer as the `contents` array of a ReadResourceResult.
template <class R>
json to_contents(R&& value, const std::string& uri, const std::string& mime_type) {
  using T = std::decay_t<R>;
  if constexpr (std::is_same_v<T, std::string>) {
    return json::array({text_contents(uri, value, mime_type)});
  } else if constexpr (std::is_same_v<T, blob>) {
    return json::array({blob_contents(uri, value.bytes, mime_type)});
  } else if constexpr (std::is_same_v<T, std::vector<json>>) {
    return json(std::forward<R>(value));
  } else {
    return json::array({text_contents(uri, render_json(encode(value)), mime_type.empty() ? "application/json" : mime_type)});
  }
}

template <class R>
json prompt_messages(R&& value) {
  using T = std::decay_t<R>;
  auto messages = [](const std::vector<prompt_message>& list) {
    json out = json::array();
    for (const auto& m : list) out.push_back({{"role", m.role}, {"content", m.content}});
    return out;
  };
  if constexpr (std::is_same_v<T, std::string>) {
    return json{{"messages", messages({user(value)})}};
  } else if constexpr (std::is_same_v<T, std::vector<prompt_message>>) {
    return json{{"messages", messages(value)}};
  } else {
    static_assert(std::is_same_v<T, prompt_result>,
                  "mcp: a prompt handler returns std::string, std::vector<mcp::prompt_message> or mcp::prompt_result");
    json r{{"messages", messages(value.messages)}};
    if (!value.description.empty()) r["description"] = value.description;
    return r;
  }
}

// server::resource, resource_template and prompt may run: their bodies (below) are here.
template <class Handler>
struct features_included<Handler, void> : std::true_type {};

}  // namespace detail

template <class Handler>
server& server::add_resource_handler(resource_info info, Handler&& read) {
  using F = std::decay_t<Handler>;
  constexpr bool with_context = std::is_invocable_v<F&, context&>;
  static_assert(with_context || std::is_invocable_v<F&>,
                "mcp: a resource handler takes () or (mcp::context&); use resource_template for URIs with variables");
  resource_entry entry;
  entry.info = std::move(info);
  entry.read = [fn = F(std::forward<Handler>(read)), mime = entry.info.mime_type](const std::string& uri,
                                                                                   context& ctx) mutable -> json {
    if constexpr (with_context)
      return detail::to_contents(fn(ctx), uri, mime);
    else
      return detail::to_contents(fn(), uri, mime);
  };
  add_resource_entry(std::move(entry));
  return *this;
}

template <class Handler>
server& server::add_template_handler(resource_template_info info, Handler&& read) {
  using F = std::decay_t<Handler>;
  using vars = std::map<std::string, std::string>;
  template_entry entry{info, detail::uri_template(info.uri_template), {}};  // throws on a bad template
  if constexpr (std::is_invocable_v<F&, const vars&, context&> || std::is_invocable_v<F&, const vars&>) {
    entry.read = [fn = F(std::forward<Handler>(read)), mime = info.mime_type](const std::string& uri, const vars& v,
                                                                               context& ctx) mutable -> json {
      if constexpr (std::is_invocable_v<F&, const vars&, context&>)
        return detail::to_contents(fn(v, ctx), uri, mime);
      else
        return detail::to_contents(fn(v), uri, mime);
    };
  } else {
    using sig = detail::handler_signature<F>;
    static_assert(sig::known, "mcp: a resource template handler takes (const std::map<std::string, std::string>&) or "
                              "(const Vars&) where Vars is an MCP_STRUCT of strings, optionally followed by mcp::context&");
    using shape = detail::handler_shape<sig>;
    using In = typename shape::input;
    static_assert(is_reflected_v<In>, "mcp: the variables of a resource template handler are a std::map or an MCP_STRUCT");
    entry.read = [fn = F(std::forward<Handler>(read)), mime = info.mime_type](const std::string& uri, const vars& v,
                                                                               context& ctx) mutable -> json {
      json as_json(v);
      In in;
      try {
        in = decode<In>(as_json);
      } catch (const std::exception& e) {
        throw protocol_error(error_code::invalid_params, "Invalid params: the URI '" + uri + "' does not fit: " + e.what());
      }
      if constexpr (shape::takes_context)
        return detail::to_contents(fn(in, ctx), uri, mime);
      else
        return detail::to_contents(fn(in), uri, mime);
    };
  }
  add_template_entry(std::move(entry));
  return *this;
}

template <class Handler>
server& server::add_prompt_handler(std::string name, std::string description, Handler&& handler,
                                   prompt_options options) {
  using F = std::decay_t<Handler>;
  using sig = detail::handler_signature<F>;
  static_assert(sig::known, "mcp: a prompt handler must be a lambda or function with a non-template call operator");
  using shape = detail::handler_shape<sig>;
  static_assert(shape::valid,
                "mcp: a prompt handler takes (), (mcp::context&), (const Args&) or (const Args&, mcp::context&), where "
                "Args is an MCP_STRUCT of std::string / std::optional<std::string> fields");
  using In = typename shape::input;

  prompt_entry entry;
  entry.name = std::move(name);
  entry.definition = {{"name", entry.name}};
  if (!options.title.empty()) entry.definition["title"] = options.title;
  if (!description.empty()) entry.definition["description"] = description;
  const validator* args_validator = nullptr;
  if constexpr (!std::is_void_v<In>) {
    static_assert(is_reflected_v<In>, "mcp: prompt arguments are an MCP_STRUCT of string fields");
    const json& schema = schema_of<In>();
    json arguments = json::array();
    const json& required = schema.value("required", json::array());
    for (const auto& item : schema_of_ordered<In>().at("properties").items()) {  // in declaration order
      const std::string& field = item.key();
      const json& property = schema.at("properties").at(field);
      if (property.value("type", json()) != "string")
        throw definition_error("Prompt '" + entry.name + "': argument '" + field +
                               "' must be a std::string or std::optional<std::string>; prompt arguments are strings");
      json a{{"name", field}};
      if (property.contains("description")) a["description"] = property["description"];
      if (property.contains("title")) a["title"] = property["title"];
      a["required"] = std::find(required.begin(), required.end(), field) != required.end();
      arguments.push_back(std::move(a));
    }
    entry.definition["arguments"] = std::move(arguments);
    args_validator = &detail::validator_for<In>();
  }
  if (!options.icons.is_null()) entry.definition["icons"] = options.icons;
  if (!options.meta.is_null()) entry.definition["_meta"] = options.meta;
  entry.scopes = options.scopes;

  entry.get = [fn = F(std::forward<Handler>(handler)), args_validator, prompt = entry.name](const json& args,
                                                                                           context& ctx) mutable -> json {
    if constexpr (std::is_void_v<In>) {
      (void)args_validator;
      if constexpr (shape::takes_context)
        return detail::prompt_messages(fn(ctx));
      else
        return detail::prompt_messages(fn());
    } else {
      auto problems = args_validator->validate(args);
      if (!problems.empty()) {
        std::string text = describe_violations(prompt, problems, args_validator->schema());
        throw protocol_error(error_code::invalid_params, "Invalid params: " + text);
      }
      In in = decode<In>(args);
      if constexpr (shape::takes_context)
        return detail::prompt_messages(fn(in, ctx));
      else
        return detail::prompt_messages(fn(in));
    }
  };
  add_prompt_entry(std::move(entry));
  return *this;
}

}  // namespace v0
}  // namespace mcp
