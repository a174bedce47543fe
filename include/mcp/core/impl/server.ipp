// server's out-of-line members: message classification, lifecycle and the built-in methods.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/core/paging.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace mcp {
inline namespace v0 {

inline json tool_definition::to_json(bool stateless) const {
  json t{{"name", name}};
  if (!title.empty()) t["title"] = title;
  if (!description.empty()) t["description"] = description;
  t["inputSchema"] = input_schema;
  if (!output_schema.is_null()) t["outputSchema"] = stateless ? output_schema : detail::legacy_output_schema(output_schema);
  json a = json::object();  // no "title": add_tool moved it to the top (detail::tool_title)
  if (hints.read_only) a["readOnlyHint"] = *hints.read_only;
  if (hints.destructive) a["destructiveHint"] = *hints.destructive;
  if (hints.idempotent) a["idempotentHint"] = *hints.idempotent;
  if (hints.open_world) a["openWorldHint"] = *hints.open_world;
  if (!a.empty()) t["annotations"] = std::move(a);
  if (!icons.is_null()) t["icons"] = icons;
  if (!meta.is_null()) t["_meta"] = meta;
  return t;
}

inline void check_tool_name(std::string_view name) {
  if (name.empty()) throw definition_error("Tool name is empty: give it 1 to 64 characters of A-Z a-z 0-9 _ . -");
  if (name.size() > 64)
    throw definition_error("Tool name '" + std::string(name.substr(0, 64)) + "...' is " +
                           std::to_string(name.size()) + " characters long; the limit is 64");
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-';
    if (!ok)
      throw definition_error("Tool name '" + std::string(name) + "' contains '" + std::string(1, c) +
                             "'; use only A-Z a-z 0-9 _ . -");
  }
}

inline server::server(server_info info, server_options options)
    : info_(std::move(info)),
      options_(std::move(options)),
      sealer_(std::make_unique<detail::state_sealer>(options_.request_state_key, nullptr, 100000,
                                                     options_.max_json_depth)) {
  if (info_.name.empty()) throw definition_error("server_info.name must not be empty");
  if (info_.version.empty()) throw definition_error("server_info.version must not be empty");
  auto check_scope = [](const cache_hint& h) {
    if (h.scope != "public" && h.scope != "private")
      throw definition_error("cache_hint.scope must be \"public\" or \"private\", not \"" + h.scope + "\"");
  };
  check_scope(options_.cache);
  for (const auto& [method, hint] : options_.cache_by_method) check_scope(hint);
  install_builtin_methods();
}

inline void server::log_diagnostic(std::string_view text) const {
  if (options_.log_sink)
    options_.log_sink(text);
  else
    std::cerr << "[mcp] " << text << std::endl;
}

inline void server::add_tool(tool_definition tool) {
  check_tool_name(tool.name);
  if (!tool.input_schema.is_object() || tool.input_schema.value("type", "") != "object")
    throw definition_error("Tool '" + tool.name + "': inputSchema must be an object schema with \"type\": \"object\"");
  if (!tool.invoke) throw definition_error("Tool '" + tool.name + "' has no handler");
  tool.title = detail::tool_title(tool.title, tool.hints, tool.name);
  tool.hints.title.clear();
  {
    std::unique_lock lock(registry_mutex_);
    for (const auto& t : tools_)
      if (t->name == tool.name) throw definition_error("A tool named '" + tool.name + "' is already registered");
    if (auto annotated = detail::header_params(tool.input_schema); !annotated.empty())
      header_params_[tool.name] = std::move(annotated);
    else
      header_params_.erase(tool.name);
    tool.listed = tool.to_json();
    tool.listed_stateless = tool.to_json(true);
    auto entry = std::make_shared<const tool_definition>(std::move(tool));
    tool_index_.emplace(entry->name, entry);
    tools_.push_back(std::move(entry));
    has_tools_ = true;
  }
  tools_changed();
}

inline bool server::remove_tool(std::string_view name) {
  {
    std::unique_lock lock(registry_mutex_);
    auto it = std::find_if(tools_.begin(), tools_.end(), [&](const auto& t) { return t->name == name; });
    if (it == tools_.end()) return false;
    tool_index_.erase((*it)->name);
    header_params_.erase((*it)->name);
    tools_.erase(it);
  }
  tools_changed();
  return true;
}

inline std::vector<detail::header_param> server::tool_header_params(std::string_view tool) const {
  std::shared_lock lock(registry_mutex_);
  auto it = header_params_.find(tool);
  return it == header_params_.end() ? std::vector<detail::header_param>{} : it->second;
}

inline std::vector<std::string> server::tool_names() const {
  std::shared_lock lock(registry_mutex_);
  std::vector<std::string> names;
  for (const auto& t : tools_) names.push_back(t->name);
  return names;
}

inline void server::method(std::string name, method_handler handler) {
  std::unique_lock lock(registry_mutex_);
  if (name == "tools/call") builtin_tools_call_ = false;
  methods_[std::move(name)] = std::move(handler);
}

inline json server::capabilities() const {
  std::shared_lock lock(registry_mutex_);
  json caps{{"logging", json::object()}};
  if (has_tools_) caps["tools"] = {{"listChanged", true}};
  if (has_resources_) caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
  if (has_prompts_) caps["prompts"] = {{"listChanged", true}};
  if (has_prompts_ || !templates_.empty()) caps["completions"] = json::object();
  return caps;
}

inline void server::notify_all(const std::string& method, json params) {
  json message = jsonrpc::notification(method, std::move(params));
  std::vector<std::shared_ptr<session>> live;
  {
    std::lock_guard lock(sessions_mutex_);
    auto dead = [](const std::weak_ptr<session>& w) {
      auto s = w.lock();
      return !s || s->closed();
    };
    sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(), dead), sessions_.end());
    for (auto& w : sessions_)
      if (auto s = w.lock()) live.push_back(std::move(s));
  }
  for (auto& s : live)
    if (s->client_ready()) s->out().send(message);
  notify_listeners(method, message.value("params", json::object()));
}

inline void server::tools_changed() { notify_all("notifications/tools/list_changed"); }

namespace detail {
// A progress token the client asked for: a string or an integer in params._meta.
inline std::optional<json> progress_token_of(const json& params) {
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  auto t = meta->find("progressToken");
  if (t == meta->end() || !(t->is_string() || t->is_number_integer())) return std::nullopt;
  return *t;
}

}  // namespace detail

inline void server::handle_text(const std::shared_ptr<session>& s, std::string_view text,
                                std::shared_ptr<outbound> replies) {
  if (!replies) replies = s->out_ptr();
  if (auto call = detail::read_tool_call(text, options_.max_json_depth); call && call_directly(s, *call, replies)) return;
  json message;
  switch (detail::read_json(text, message, options_.max_json_depth)) {
    case detail::read_result::ok: return handle(s, std::move(message), std::move(replies));
    case detail::read_result::too_deep: return replies->send(too_deep_error());
    case detail::read_result::invalid:
      return replies->send(jsonrpc::error(nullptr, error_code::parse_error, "Parse error: the message is not valid JSON"));
  }
}

inline void server::handle_call(const std::shared_ptr<session>& s, detail::tool_call call, std::string_view text,
                                std::shared_ptr<outbound> replies) {
  if (!replies) replies = s->out_ptr();
  if (call_directly(s, call, replies)) return;
  json message;
  if (detail::read_json(text, message, options_.max_json_depth) != detail::read_result::ok)
    throw std::invalid_argument("mcp: server::handle_call was given text that read_tool_call did not read");
  handle(s, std::move(message), std::move(replies));
}

inline bool server::call_directly(const std::shared_ptr<session>& s, detail::tool_call& call,
                                  const std::shared_ptr<outbound>& replies) {
  // What handle() and run_request() would check first, and answer here the same way: a replaced
  // tools/call, a connection that speaks 2026-07-28 or is not initialized, an unknown tool and a
  // busy id are left to them.
  if (!builtin_tools_call_ || s->pinned_stateless() || s->current_phase() != session::phase::initialized) return false;
  std::shared_ptr<const tool_definition> tool = find_tool(call.name);
  if (!tool) return false;
  auto state = s->begin_request(call.id, std::nullopt);
  if (!state) return false;
  auto work = [this, s, state, replies, tool = std::move(tool), arguments = std::move(call.arguments),
               client = s->client_ptr()]() {
    static const json no_arguments = json::object();
    const json& args = arguments.is_null() ? no_arguments : arguments;
    detail::reused_string text;
    json reply;  // the result when the tool has no text form, or the whole error message
    bool is_result = false, as_text = false;
    if (!state->cancelled) {
      context ctx(s, state, replies, client);
      try {
        if (tool->invoke_text) {
          const auto start = std::chrono::steady_clock::now();
          const bool is_error = tool->invoke_text(args, ctx, text.value);
          tool->stats->record_call(
              std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start), is_error);
          as_text = true;
        } else {
          reply = run_tool(*tool, args, ctx);
        }
        is_result = true;
      } catch (...) {
        reply = failure_reply(*state, "tools/call");
      }
    }
    finish_request(*s, *state, [&] {
      if (as_text)
        replies->send_result_text(state->id, text.value);
      else if (is_result)
        replies->send_result(state->id, std::move(reply));
      else
        replies->send(reply);
    });
  };
  s->run()(std::move(work));
  return true;
}

inline json server::too_deep_error() const {
  return jsonrpc::error(nullptr, error_code::invalid_request,
                        "Invalid request: JSON nested deeper than " + std::to_string(options_.max_json_depth) + " levels");
}

inline void server::handle(const std::shared_ptr<session>& s, json message, std::shared_ptr<outbound> replies) {
  if (!replies) replies = s->out_ptr();
  auto invalid = [&](const json& id, const std::string& why) {
    replies->send(jsonrpc::error(id, error_code::invalid_request, "Invalid request: " + why));
  };
  if (message.is_array()) return invalid(nullptr, "batch arrays are not supported; send one message at a time");
  if (!message.is_object()) return invalid(nullptr, "a message must be a JSON object");
  // What handle_text refuses while reading, refused here for a message built some other way (a
  // transport of the user's own): everything below may recurse into the message.
  if (detail::nested_deeper_than(message, options_.max_json_depth)) return replies->send(too_deep_error());
  if (s->closed()) return;

  const json* id = nullptr;
  if (auto it = message.find("id"); it != message.end()) id = &*it;
  auto version = message.find("jsonrpc");
  if (version == message.end() || !version->is_string() || version->get_ref<const std::string&>() != "2.0")
    return invalid(id ? *id : json(), "\"jsonrpc\" must be \"2.0\"");

  auto method = message.find("method");
  if (method == message.end()) {
    // A response to one of our requests.
    bool has_result = message.contains("result"), has_error = message.contains("error");
    if (!id || !jsonrpc::is_valid_id(*id) || has_result == has_error)
      return invalid(id ? *id : json(), "a message needs a \"method\", or an \"id\" with exactly one of \"result\" and \"error\"");
    if (!s->deliver_response(message)) log_diagnostic("dropped a response to no request of ours: id " + id->dump());
    return;
  }
  if (!method->is_string()) return invalid(id ? *id : json(), "\"method\" must be a string");

  auto p = message.find("params");
  json params = p != message.end() ? std::move(*p) : json::object();
  const std::string name = method->get<std::string>();

  if (!id) {  // a notification: never answered
    if (name == "notifications/cancelled") {
      if (params.is_object() && params.contains("requestId")) s->cancel_request(params["requestId"]);
    } else if (name == "notifications/initialized") {
      if (s->current_phase() == session::phase::initialized) s->set_client_ready();
    }
    return;  // unknown notifications are ignored
  }
  if (!jsonrpc::is_valid_id(*id)) return invalid(nullptr, "\"id\" must be a string or an integer");
  if (!params.is_object())
    return void(replies->send(jsonrpc::error(*id, error_code::invalid_params, "Invalid params: \"params\" must be an object")));
  if (options_.serve_stateless && serves_modern(*s, name, params)) return run_stateless_request(s, *id, name, std::move(params), replies);
  run_request(s, *id, name, std::move(params), replies);
}

inline bool server::serves_modern(const session& s, const std::string& method, const json& params) const {
  switch (s.pinned()) {
    case session::era::legacy: return false;  // a claim on a 2025 connection is not looked at
    case session::era::modern: return method != "initialize" || detail::claims_stateless(params);
    case session::era::open: break;
  }
  return detail::claims_stateless(params);
}

inline void server::run_request(const std::shared_ptr<session>& s, json id, std::string name, json params,
                                const std::shared_ptr<outbound>& replies) {
  if (name == "initialize" && s->pinned_stateless()) {
    // The connection already speaks 2026-07-28; say which versions it can have.
    json supported = json::array();
    for (auto v : modern_protocol_versions) supported.push_back(v);
    return replies->send(jsonrpc::error(
        id, error_code::unsupported_protocol_version,
        "Unsupported protocol version: this connection speaks 2026-07-28; open a new one to initialize",
        json{{"supported", std::move(supported)}, {"requested", params.value("protocolVersion", json())}}));
  }
  if (name == "initialize") {
    try {
      replies->send_result(id, initialize(s, params));
    } catch (const protocol_error& e) {
      replies->send(jsonrpc::error(id, e));
    }
    return;
  }
  if (name != "ping" && s->current_phase() != session::phase::initialized)
    return replies->send(jsonrpc::error(id, error_code::invalid_request,
                                        "Server not initialized: send 'initialize' before '" + name + "'"));

  method_handler handler;
  {
    std::shared_lock lock(registry_mutex_);
    auto it = methods_.find(name);
    if (it == methods_.end()) {
      lock.unlock();
      return replies->send(jsonrpc::error(id, error_code::method_not_found, "Method not found: '" + name + "'"));
    }
    handler = it->second;
  }

  auto state = s->begin_request(id, detail::progress_token_of(params));
  if (!state)
    return replies->send(jsonrpc::error(id, error_code::invalid_request,
                                        "Invalid request: id " + id.dump() + " is already in use by a request in flight"));
  dispatch(s, std::move(state), std::move(name), std::move(params), std::move(handler), s->client_ptr(), nullptr, replies);
}

inline void server::dispatch(const std::shared_ptr<session>& s, std::shared_ptr<request_state> state, std::string name,
                             json params, method_handler handler, std::shared_ptr<const client_state> client,
                             std::shared_ptr<detail::input_round> round, const std::shared_ptr<outbound>& replies) {
  const bool slow = handler.slow;
  auto work = [this, s, state, replies, name = std::move(name), handler = std::move(handler), params = std::move(params),
               client = std::move(client), round = std::move(round)]() {
    json reply;             // the result, or the whole error message
    bool is_result = false;
    if (!state->cancelled) {
      context ctx = round ? context(s, state, replies, client, round) : context(s, state, replies, client);
      try {
        json result = handler.call(ctx, params);
        if (round) detail::check_round_ended(*round, name);  // a catch (...) around ctx.ask()?
        if (!result.is_object()) throw std::logic_error("a method handler returned " + std::string(result.type_name()) +
                                                        "; a JSON-RPC result must be an object");
        if (round) result = finish_stateless(name, params, std::move(result));
        reply = std::move(result);
        is_result = true;
      } catch (detail::input_required& asked) {
        if (round && detail::may_ask_client(name)) {
          reply = input_required_result(name, params, std::move(asked), *round);
          is_result = true;
        } else {
          reply = failure_reply(*state, name);
        }
      } catch (...) {
        reply = failure_reply(*state, name);
      }
    }
    finish_request(*s, *state, [&] {
      if (is_result)
        replies->send_result(state->id, std::move(reply));
      else
        replies->send(reply);
    });
  };
  if (slow)
    s->run()(std::move(work));
  else
    work();
}

inline json server::failure_reply(const request_state& state, const std::string& method) const {
  try {
    throw;
  } catch (const detail::input_required&) {
    log_diagnostic("request " + state.id.dump() + ": a '" + method + "' handler asked the client for input; " +
                   "only tools/call, prompts/get and resources/read may");
  } catch (const protocol_error& e) {
    return jsonrpc::error(state.id, e);
  } catch (const detail::missing_capability& e) {
    return jsonrpc::error(state.id, error_code::missing_required_client_capability,
                          "Missing required client capability: " + e.capability,
                          json{{"requiredCapabilities", {{e.capability, json::object()}}}});
  } catch (const std::exception& e) {
    log_diagnostic("request " + state.id.dump() + " failed: " + e.what());
  } catch (...) {
    log_diagnostic("request " + state.id.dump() + " failed with an exception that is not a std::exception");
  }
  return jsonrpc::error(state.id, error_code::internal_error, "Internal error");
}

template <class Send>
void server::finish_request(session& s, request_state& state, Send&& send) {
  state.finished = true;
  {
    // Taking the progress lock orders the reply after any progress notification in flight.
    std::lock_guard lock(state.progress_mutex);
  }
  // The id is free again before the reply goes out: a client may reuse it as soon as it has the answer.
  s.end_request(state.id);
  if (!state.cancelled) send();
}

inline json server::initialize(const std::shared_ptr<session>& s, const json& params) {
  if (s->current_phase() != session::phase::awaiting_initialize)
    throw protocol_error(error_code::invalid_request, "Invalid request: the session is already initialized");
  auto pv = params.find("protocolVersion");
  if (pv == params.end() || !pv->is_string())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"protocolVersion\" must be a string");
  auto caps = params.find("capabilities");
  if (caps != params.end() && !caps->is_object())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"capabilities\" must be an object");
  auto client_info = params.find("clientInfo");
  if (client_info != params.end() && !client_info->is_object())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"clientInfo\" must be an object");

  client_state client;
  client.protocol_version = std::string(negotiate_protocol_version(pv->get<std::string>()));
  if (caps != params.end()) client.capabilities = *caps;
  if (client_info != params.end()) client.info = *client_info;
  s->set_initialized(client);
  s->pin(session::era::legacy);
  {
    std::lock_guard lock(sessions_mutex_);
    // Ended sessions are dropped here as well as in notify_all: a server that never notifies
    // would otherwise keep one entry (and the session's memory, via make_shared) per client forever.
    sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                   [](const std::weak_ptr<session>& w) { return w.expired(); }),
                    sessions_.end());
    sessions_.push_back(s);
  }

  json result{{"protocolVersion", client.protocol_version}, {"capabilities", capabilities()},
              {"serverInfo", server_info_json()}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

inline json server::list_tools(const json& params, bool stateless) const {
  std::shared_lock lock(registry_mutex_);
  return list_page(tools_, params, "tools",
                   [stateless](const tool_definition& t) { return stateless ? t.listed_stateless : t.listed; });
}

inline json server::call_tool(context& ctx, const json& params) const {
  auto name = params.find("name");
  if (name == params.end() || !name->is_string())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"name\" must be the tool's name, a string");
  static const json no_arguments = json::object();
  const json* arguments = &no_arguments;
  if (auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
    if (!a->is_object()) throw protocol_error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
    arguments = &*a;
  }
  std::shared_ptr<const tool_definition> tool = find_tool(name->get_ref<const std::string&>());
  if (!tool) {
    std::string known;
    for (const auto& n : tool_names()) known += (known.empty() ? "" : ", ") + n;
    throw protocol_error(error_code::invalid_params, "Unknown tool: '" + name->get<std::string>() + "'. Available tools: " +
                                                         (known.empty() ? "none" : known));
  }
  return run_tool(*tool, *arguments, ctx);
}

inline json server::run_tool(const tool_definition& tool, const json& arguments, context& ctx) const {
  const auto start = std::chrono::steady_clock::now();
  json result = tool.invoke(arguments, ctx);
  detail::add_text_for_structured(result);
  if (!ctx.client().stateless) detail::project_call_result(result, tool.output_schema);
  tool.stats->record_call(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start),
      result.value("isError", false));
  return result;
}

inline std::shared_ptr<const tool_definition> server::find_tool(std::string_view name) const {
  std::shared_lock lock(registry_mutex_);
  auto it = tool_index_.find(name);
  return it == tool_index_.end() ? nullptr : it->second;
}

inline tool_metrics server::metrics(std::string_view tool_name) const {
  if (auto t = find_tool(tool_name)) return t->stats->snapshot();
  throw error(error_code::not_found, "No tool named '" + std::string(tool_name) + "'");
}

inline void server::install_builtin_methods() {
  methods_["ping"] = {[](context&, const json&) { return json::object(); }, false};
  methods_["tools/list"] = {[this](context& ctx, const json& p) { return list_tools(p, ctx.client().stateless); }, false};
  methods_["tools/call"] = {[this](context& ctx, const json& p) { return call_tool(ctx, p); }, true};
  methods_["resources/list"] = {[this](context&, const json& p) { return list_resources(p); }, false};
  methods_["resources/templates/list"] = {[this](context&, const json& p) { return list_resource_templates(p); }, false};
  methods_["resources/read"] = {[this](context& ctx, const json& p) { return read_resource(ctx, p); }, true};
  methods_["resources/subscribe"] = {[this](context& ctx, const json& p) { return subscription(ctx, p, true); }, false};
  methods_["resources/unsubscribe"] = {[this](context& ctx, const json& p) { return subscription(ctx, p, false); }, false};
  methods_["prompts/list"] = {[this](context&, const json& p) { return list_prompts(p); }, false};
  methods_["prompts/get"] = {[this](context& ctx, const json& p) { return get_prompt(ctx, p); }, true};
  methods_["completion/complete"] = {[this](context&, const json& p) { return complete(p); }, true};
  methods_["logging/setLevel"] = {[](context& ctx, const json& p) {
                                    auto level = p.find("level");
                                    std::optional<log_level> parsed;
                                    if (level != p.end() && level->is_string()) parsed = parse_log_level(level->get<std::string>());
                                    if (!parsed)
                                      throw protocol_error(error_code::invalid_params,
                                                           "Invalid params: \"level\" must be one of debug, info, notice, "
                                                           "warning, error, critical, alert, emergency");
                                    if (ctx.session_ptr()) ctx.session_ptr()->set_min_log_level(*parsed);
                                    return json::object();
                                  },
                                  false};
}

}  // namespace v0
}  // namespace mcp
