// server's out-of-line members: the one road every message takes (receive, dispatch), the
// lifecycle and the built-in methods. Included once, from the bottom of core/server.hpp.
#pragma once

#include <mcp/core/paging.hpp>
#include <mcp/core/detail/kept_arguments.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>

namespace mcp {
inline namespace v0 {

namespace detail {
// Whether a 2025-11-25 tools/call asks to run as a task (params.task, an object).
inline bool asks_for_task(const json& rest) {
  auto hint = rest.find("task");
  return hint != rest.end() && hint->is_object();
}
}  // namespace detail


MCP_DECL server::server(server_info info, server_options options)
    : info_(std::move(info)),
      options_(std::move(options)),
      sealer_(std::make_unique<detail::state_sealer>(options_.request_state_key, nullptr, 100000,
                                                     options_.max_json_depth, options_.request_state_guard)) {
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

MCP_DECL server::~server() {
  if (task_seam_) task_seam_->stop();
}

MCP_DECL void server::set_task_seam(std::shared_ptr<task_seam> seam) {
  std::unique_lock lock(registry_mutex_);
  if (task_seam_) throw definition_error("The server has a task seam already: set it once");
  task_seam_ = std::move(seam);
}

MCP_DECL void detail::log_diagnostic(const server_options& options, std::string_view text) {
  if (options.log_sink)
    options.log_sink(text);
  else
    std::cerr << "[mcp] " << text << std::endl;
}

MCP_DECL void server::add_tool(tool_definition tool) {
  if (!tool.invoke) throw definition_error("Tool '" + tool.name + "' has no handler");
  detail::tool_runner run = [invoke = std::move(tool.invoke)](const json& arguments, context& ctx,
                                                               detail::result_sink& sink) {
    sink.tree(invoke(arguments, ctx));
  };
  add_tool(std::move(tool), std::move(run), std::make_shared<detail::tool_stats>());
}

namespace detail {
// What a request in flight is and when it came, for naming it if it outlasts the end of input.
MCP_DECL void note_subject(request_state& state, const std::string& method, const request_params& params) {
  state.arrived_ms = coarse_now_ms();
  if (method == "tools/call") {
    if (const std::string* name = params.name()) {
      state.subject = *name;
      state.tool = true;
      return;
    }
    const json& rest = params.rest();
    if (rest.is_object())
      if (auto it = rest.find("name"); it != rest.end() && it->is_string()) {
        state.subject = it->get<std::string>();
        state.tool = true;
        return;
      }
  }
  state.subject = method;
}

// The Tool object tools/list sends: def.to_json(), with each derived schema as the text of its
// ordered form (raw_json), so that its properties reach the wire in declaration order.
MCP_DECL json listed_tool(const tool_definition& def, const ordered_schemas& ordered, bool stateless) {
  json t = def.to_json(stateless);
  // 2025-11-25 says per tool whether a task-augmented call is allowed; 2026-07-28 leaves it to
  // the server, call by call.
  if (!stateless && def.task != task_mode::forbidden)
    t["execution"] = {{"taskSupport", def.task == task_mode::required ? "required" : "optional"}};
  auto text = [](const nlohmann::ordered_json& schema) {
    return raw_json(schema.dump(-1, ' ', false, json::error_handler_t::replace));
  };
  if (ordered.input) t["inputSchema"] = text(*ordered.input);
  if (ordered.output && !def.output_schema.is_null())
    t["outputSchema"] = text(stateless ? *ordered.output : legacy_output_schema(*ordered.output));
  return t;
}
}  // namespace detail

MCP_DECL void server::add_tool(tool_definition tool, detail::tool_runner run, std::shared_ptr<detail::tool_stats> stats,
                             detail::ordered_schemas ordered, detail::text_road from_text) {
  check_tool_name(tool.name);
  if (!tool.input_schema.is_object() || tool.input_schema.value("type", "") != "object")
    throw definition_error("Tool '" + tool.name + "': inputSchema must be an object schema with \"type\": \"object\"");
  tool.title = detail::tool_title(tool.title, tool.hints, tool.name);
  tool.hints.title.clear();
  auto entry = std::make_shared<detail::registered_tool>();
  entry->header_params = detail::header_params(tool.input_schema);
  entry->listed = detail::listed_tool(tool, ordered, false);
  entry->listed_stateless = detail::listed_tool(tool, ordered, true);
  entry->def = std::move(tool);
  entry->run = std::move(run);
  entry->from_text = std::move(from_text);
  if (!entry->from_text.read) {
    // A tool that takes the tree has it read from the text by this road: into a tree kept from
    // an earlier call (json_reader reads over it: its nodes and strings are not allocated anew),
    // and with the message where a transport reads it so (stdio, for a call its reading thread
    // runs), one pass over the text where a check and then a read made two.
    const detail::registered_tool* self = entry.get();  // the roads live in it: no cycle
    const std::size_t depth = detail::argument_depth_limit(options_.max_json_depth);
    auto kept = std::make_shared<detail::kept_arguments<json>>();
    entry->from_text.read = [kept, depth](std::string_view text, std::shared_ptr<const void>& arguments) -> std::size_t {
      auto tree = kept->take();
      detail::json_reader in(text, depth);
      if (!in.read_value(*tree, 0)) {
        kept->give_back(std::move(tree), text.size());
        return 0;
      }
      const auto taken = static_cast<std::size_t>(in.position() - text.data());
      arguments = kept->hold(std::move(tree), taken);
      return taken;
    };
    entry->from_text.run = [self](const void* arguments, context& ctx, detail::result_sink& sink) {
      self->run(*static_cast<const json*>(arguments), ctx, sink);
    };
  }
  entry->stats = std::move(stats);
  if (entry->def.task != task_mode::forbidden)
    if (auto tasks = seam()) tasks->tool_added(entry->def);  // declares the extension, adds its methods
  {
    std::unique_lock lock(registry_mutex_);
    if (tool_index_.count(entry->def.name))
      throw definition_error("A tool named '" + entry->def.name + "' is already registered");
    check_app_link(entry->def);
    if (entry->def.task != task_mode::forbidden && !task_seam_)
      throw definition_error("Tool '" + entry->def.name +
                             "' has a task mode, but this server runs no tasks: include <mcp/ext/tasks.hpp> and call "
                             "mcp::enable_tasks(srv) before registering it");
    tool_index_.emplace(entry->def.name, entry);
    tools_.push_back(std::move(entry));
    has_tools_ = true;
  }
  tools_changed();
}

MCP_DECL void server::check_app_link(const tool_definition& tool) const {
  const json& meta = tool.meta;
  std::string uri = detail::linked_app_uri(meta);
  if (uri.empty()) {
    if (meta.is_object() && (meta.contains("ui/resourceUri") || (meta.contains("ui") && meta["ui"].contains("resourceUri"))))
      throw definition_error("Tool '" + tool.name + "': _meta.ui.resourceUri must be a string, the ui:// URI of an app");
    return;
  }
  if (meta.is_object() && meta.contains("ui/resourceUri") && meta.contains("ui") && meta["ui"].contains("resourceUri") &&
      meta["ui/resourceUri"] != meta["ui"]["resourceUri"])
    throw definition_error("Tool '" + tool.name + "': _meta.ui.resourceUri and _meta[\"ui/resourceUri\"] name different apps");
  if (uri.rfind("ui://", 0) != 0)
    throw definition_error("Tool '" + tool.name + "' links to '" + uri + "', which is not a ui:// URI: an app is a ui:// resource");
  for (const auto& r : resources_)
    if (r->info.uri == uri) return;
  throw definition_error("Tool '" + tool.name + "' links to the app '" + uri +
                         "', which is not registered: register it first (mcp::serve_app)");
}

MCP_DECL bool server::remove_tool(std::string_view name) {
  {
    std::unique_lock lock(registry_mutex_);
    auto it = std::find_if(tools_.begin(), tools_.end(), [&](const auto& t) { return t->def.name == name; });
    if (it == tools_.end()) return false;
    tool_index_.erase((*it)->def.name);
    tools_.erase(it);
  }
  tools_changed();
  return true;
}

MCP_DECL std::vector<std::string> server::tool_names() const {
  std::shared_lock lock(registry_mutex_);
  std::vector<std::string> names;
  for (const auto& t : tools_) names.push_back(t->def.name);
  return names;
}

MCP_DECL void server::method(std::string name, method_handler handler) {
  auto entry = std::make_shared<detail::method_entry>();
  entry->slow = handler.slow;
  entry->call = [call = std::move(handler.call)](context& ctx, detail::request_params& params, detail::reply& out) {
    out.tree() = call(ctx, params.tree());
  };
  std::unique_lock lock(registry_mutex_);
  methods_[std::move(name)] = std::move(entry);
}

MCP_DECL server& server::use(middleware m) {
  if (!m) throw definition_error("A middleware must be a callable, not empty");
  std::unique_lock lock(registry_mutex_);
  auto chain = middleware_ ? std::make_shared<std::vector<middleware>>(*middleware_)
                           : std::make_shared<std::vector<middleware>>();
  chain->push_back(std::move(m));
  middleware_ = std::move(chain);
  has_middleware_ = true;
  return *this;
}

MCP_DECL server& server::on_notification(std::string method,
                                       std::function<void(const json& params, const client_state& client)> fn) {
  if (!fn) throw definition_error("The hook for '" + method + "' must be a callable, not empty");
  std::unique_lock lock(registry_mutex_);
  notification_hooks_[std::move(method)].push_back(std::move(fn));
  return *this;
}

MCP_DECL server& server::on_subscription(std::function<void(const std::string& uri, bool subscribed)> fn) {
  if (!fn) throw definition_error("A subscription hook must be a callable, not empty");
  std::unique_lock lock(registry_mutex_);
  subscription_hooks_.push_back(std::move(fn));
  return *this;
}

MCP_DECL server& server::on_session_end(std::function<void(const session_summary&)> fn) {
  if (!fn) throw definition_error("A session hook must be a callable, not empty");
  std::unique_lock lock(registry_mutex_);
  session_end_hooks_.push_back(std::move(fn));
  return *this;
}

MCP_DECL server& server::metrics_source(std::function<std::string()> text) {
  if (!text) throw definition_error("A metrics source must be a callable, not empty");
  std::unique_lock lock(registry_mutex_);
  metrics_sources_.push_back(std::move(text));
  return *this;
}

MCP_DECL void server::session_ended(const detail::session& s) {
  std::vector<std::function<void(const session_summary&)>> hooks;
  {
    std::shared_lock lock(registry_mutex_);
    if (session_end_hooks_.empty()) return;
    hooks = session_end_hooks_;
  }
  const auto client = s.client_ptr();
  if (client->sessionless || client->stateless) return;  // HTTP without sessions: each POST stands alone
  session_summary summary;
  summary.duration = std::chrono::steady_clock::now() - s.opened();
  summary.protocol_version = client->protocol_version;
  summary.network_transport = s.network_transport();
  summary.session_id = s.transport_session_id();
  for (const auto& hook : hooks) {
    try {
      hook(summary);
    } catch (const std::exception& e) {  // a hook runs in a destructor's path: nothing may escape
      log_diagnostic(std::string("a session hook threw: ") + e.what());
    } catch (...) {
      log_diagnostic("a session hook threw");
    }
  }
}

MCP_DECL void server::log(log_level level, json data, const std::string& logger) {
  json params{{"level", to_string(level)}, {"data", std::move(data)}};
  if (!logger.empty()) params["logger"] = logger;
  const json message = jsonrpc::notification("notifications/message", std::move(params));
  std::vector<std::shared_ptr<detail::session>> live;
  {
    std::lock_guard lock(sessions_mutex_);
    for (auto& w : sessions_)
      if (auto s = w.lock(); s && !s->closed() && s->client_ready() && !s->pinned_stateless() && level >= s->min_log_level())
        live.push_back(std::move(s));
  }
  for (auto& s : live) s->out().send(message);
}

MCP_DECL bool server::complete_elicitation(const std::string& elicitation_id) {
  std::shared_ptr<detail::session> asker;
  {
    std::lock_guard lock(sessions_mutex_);
    for (auto& w : sessions_)
      if (auto s = w.lock(); s && s->forget_url_elicitation(elicitation_id)) {
        asker = std::move(s);
        break;
      }
  }
  if (!asker || asker->closed()) return false;
  asker->out().send(
      jsonrpc::notification("notifications/elicitation/complete", json{{"elicitationId", elicitation_id}}));
  return true;
}

MCP_DECL server& server::extension(std::string name, json settings) {
  if (name.empty()) throw definition_error("An extension needs a name, such as io.modelcontextprotocol/ui");
  if (!settings.is_object()) throw definition_error("The settings of extension '" + name + "' must be a JSON object");
  std::unique_lock lock(registry_mutex_);
  extensions_[std::move(name)] = std::move(settings);
  return *this;
}

MCP_DECL server& server::capability(std::string name, json value, bool stateless_only) {
  if (name.empty()) throw definition_error("A capability needs a name, such as events");
  if (!value.is_object()) throw definition_error("The capability '" + name + "' must be a JSON object");
  static const char* const built_in[] = {"logging", "tools", "resources", "prompts", "completions", "extensions", "tasks"};
  for (const char* b : built_in)
    if (name == b) throw definition_error("The capability '" + name + "' is the server's own: it declares it from what is registered");
  std::unique_lock lock(registry_mutex_);
  extra_capabilities_[std::move(name)] = json{{"value", std::move(value)}, {"stateless_only", stateless_only}};
  return *this;
}

MCP_DECL std::shared_ptr<request_stream> context::keep_open() {
  if (kept_) return kept_;
  if (link_ || !server_ || !session_) throw std::logic_error("keep_open(): this run has no request to keep open");
  kept_ = std::shared_ptr<request_stream>(  // its constructor is the engine's: no make_shared
      new request_stream(session_, request_, replies_, client_->stateless, server_->server_identity_json()));
  server_->keep_stream(kept_);
  return kept_;
}

MCP_DECL void server::keep_stream(const std::shared_ptr<request_stream>& stream) {
  std::lock_guard lock(listeners_mutex_);
  kept_streams_.erase(std::remove_if(kept_streams_.begin(), kept_streams_.end(),
                                     [](const std::weak_ptr<request_stream>& w) {
                                       auto k = w.lock();
                                       return !k || !k->open();
                                     }),
                      kept_streams_.end());
  kept_streams_.push_back(stream);
}

MCP_DECL json server::capabilities(bool stateless) const {
  std::shared_lock lock(registry_mutex_);
  json caps{{"logging", json::object()}};
  if (has_tools_) caps["tools"] = {{"listChanged", true}};
  if (has_resources_) caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
  if (has_prompts_) caps["prompts"] = {{"listChanged", true}};
  if (has_prompts_ || !templates_.empty()) caps["completions"] = json::object();
  if (!extensions_.empty()) caps["extensions"] = extensions_;
  for (const auto& [name, entry] : extra_capabilities_.items())
    if (stateless || !entry["stateless_only"].get<bool>()) caps[name] = entry["value"];
  // The experimental tasks of 2025-11-25; in 2026-07-28 tasks are the extension alone.
  if (!stateless && task_seam_ && task_seam_->offered())
    caps["tasks"] = {{"list", json::object()}, {"cancel", json::object()}, {"requests", {{"tools", {{"call", json::object()}}}}}};
  return caps;
}

MCP_DECL void server::notify_all(const std::string& method, json params) {
  json message = jsonrpc::notification(method, std::move(params));
  std::vector<std::shared_ptr<detail::session>> live;
  {
    std::lock_guard lock(sessions_mutex_);
    auto dead = [](const std::weak_ptr<detail::session>& w) {
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

MCP_DECL void server::tools_changed() { notify_all("notifications/tools/list_changed"); }

namespace detail {
// A progress token the client asked for: a string or an integer in params._meta.
MCP_DECL std::optional<json> progress_token_of(const json& params) {
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  auto t = meta->find("progressToken");
  if (t == meta->end() || !(t->is_string() || t->is_number_integer())) return std::nullopt;
  return *t;
}

}  // namespace detail

MCP_DECL void server::receive(const std::shared_ptr<detail::session>& s, message& m, const std::shared_ptr<outbound>& replies) {
  if (!m.readable()) return replies->send(m.refusal_);
  if (s->closed()) return;
  // Arguments message::read only delimited are checked when the call runs (dispatch), or in
  // run_request where it refuses a call; any other message that has them is checked now, so that
  // what is not JSON is answered -32700 before anything else.
  if (m.params_.arguments_unchecked() && !may_check_when_run(*s, m) && !m.params_.check_arguments(&arguments_reader_))
    return replies->send(message::parse_error());
  auto invalid = [&](const json& id, const std::string& why) {
    replies->send(jsonrpc::error(id, error_code::invalid_request, "Invalid request: " + why));
  };
  const json& id = m.id_;  // null when absent
  if (!m.jsonrpc_ok_) return invalid(id, "\"jsonrpc\" must be \"2.0\"");

  if (!m.has_method_) {
    // A response to one of our requests.
    if (!m.has_id_ || !jsonrpc::is_valid_id(id) || m.has_result_ == m.has_error_)
      return invalid(id, "a message needs a \"method\", or an \"id\" with exactly one of \"result\" and \"error\"");
    json answer(json::value_t::object);
    if (m.has_result_)
      answer["result"] = std::move(m.result_);
    else
      answer["error"] = std::move(m.error_);
    if (!s->deliver_response(id, std::move(answer))) log_diagnostic("dropped a response to no request of ours: id " + id.dump());
    return;
  }
  if (!m.method_is_string_) return invalid(id, "\"method\" must be a string");

  detail::request_params& params = m.params_;  // an empty object when absent
  std::string name = std::move(m.method_);
  if (!m.has_id_) {  // a notification: never answered
    if (name == "notifications/cancelled") {
      if (params.is_object() && params.rest().contains("requestId")) s->cancel_request(params.rest()["requestId"]);
    } else if (name == "notifications/initialized") {
      if (s->current_phase() == detail::session::phase::initialized) s->set_client_ready();
    }
    std::vector<std::function<void(const json&, const client_state&)>> hooks;
    {
      std::shared_lock lock(registry_mutex_);
      if (auto it = notification_hooks_.find(name); it != notification_hooks_.end()) hooks = it->second;
    }
    if (!hooks.empty()) {
      const json& p = params.tree();
      const auto client = s->client_ptr();
      for (const auto& hook : hooks) try {
          hook(p, *client);
        } catch (const std::exception& e) {
          log_diagnostic("a hook for " + name + " threw: " + e.what());
        } catch (...) {
          log_diagnostic("a hook for " + name + " threw");
        }
    }
    return;  // other notifications are ignored
  }
  if (!jsonrpc::is_valid_id(id)) return invalid(nullptr, "\"id\" must be a string or an integer");
  if (!params.is_object())
    return void(replies->send(jsonrpc::error(id, error_code::invalid_params, "Invalid params: \"params\" must be an object")));
  if (options_.serve_stateless && serves_modern(*s, name, params.rest()))
    return run_stateless_request(s, std::move(m.id_), std::move(name), std::move(params), std::move(m.origin_), replies);
  run_request(s, std::move(m.id_), std::move(name), std::move(params), std::move(m.origin_), replies);
}

MCP_DECL bool server::may_check_when_run(const detail::session& s, const message& m) const {
  // What receive() and run_request() ask of a message before dispatch; run_request checks the
  // arguments itself where it refuses after these (an id in use).
  return m.jsonrpc_ok_ && m.has_method_ && m.method_is_string_ && m.has_id_ && jsonrpc::is_valid_id(m.id_) &&
         detail::is_word(m.method_, "tools/call") && s.current_phase() == detail::session::phase::initialized &&
         !(options_.serve_stateless && serves_modern(s, m.method_, m.params_.rest()));
}

MCP_DECL bool server::serves_modern(const detail::session& s, const std::string& method, const json& params) const {
  switch (s.pinned()) {
    case detail::session::era::legacy: return false;  // a claim on a 2025 connection is not looked at
    case detail::session::era::modern: return method != "initialize" || detail::claims_stateless(params);
    case detail::session::era::open: break;
  }
  return detail::claims_stateless(params);
}

MCP_DECL void server::run_request(const std::shared_ptr<detail::session>& s, json id, std::string name,
                                detail::request_params&& params, detail::message_origin origin,
                                const std::shared_ptr<outbound>& replies) {
  if (name == "initialize" && s->pinned_stateless()) {
    // The connection already speaks 2026-07-28; say which versions it can have.
    json supported = json::array();
    for (auto v : modern_protocol_versions) supported.push_back(v);
    return replies->send(jsonrpc::error(
        id, error_code::unsupported_protocol_version,
        "Unsupported protocol version: this connection speaks 2026-07-28; open a new one to initialize",
        json{{"supported", std::move(supported)}, {"requested", params.rest().value("protocolVersion", json())}}));
  }
  if (name == "initialize") {
    try {
      replies->send_result(id, initialize(s, params.tree()));
    } catch (const protocol_error& e) {
      replies->send(jsonrpc::error(id, e));
    }
    return;
  }
  if (name != "ping" && s->current_phase() != detail::session::phase::initialized)
    return replies->send(jsonrpc::error(id, error_code::invalid_request,
                                        "Server not initialized: send 'initialize' before '" + name + "'"));

  std::shared_ptr<const detail::method_entry> handler;
  {
    std::shared_lock lock(registry_mutex_);
    auto it = methods_.find(name);
    if (it != methods_.end()) handler = it->second;
  }
  if (!handler) return replies->send(jsonrpc::error(id, error_code::method_not_found, "Method not found: '" + name + "'"));

  auto state = s->begin_request(id, detail::progress_token_of(params.rest()));
  if (!state) {
    if (!params.check_arguments(&arguments_reader_)) return replies->send(message::parse_error());
    return replies->send(jsonrpc::error(id, error_code::invalid_request,
                                        "Invalid request: id " + id.dump() + " is already in use by a request in flight"));
  }
  state->origin = std::move(origin);
  detail::note_subject(*state, name, params);
  dispatch(s, std::move(state), std::move(name), std::move(params), std::move(handler), s->client_ptr(), nullptr, replies);
}

MCP_DECL void server::dispatch(const std::shared_ptr<detail::session>& s, std::shared_ptr<detail::request_state> state,
                             std::string name, detail::request_params&& params,
                             std::shared_ptr<const detail::method_entry> handler,
                             std::shared_ptr<const client_state> client, std::shared_ptr<detail::input_round> round,
                             const std::shared_ptr<outbound>& replies) {
  const bool slow = handler->slow;
  auto work = [this, s, state = std::move(state), replies, name = std::move(name), handler = std::move(handler),
               params = std::move(params), client = std::move(client), round = std::move(round)]() mutable {
    // On a pool's worker: a cancel from now on marks the worker's slot too (call_slot.hpp).
    if (detail::call_slot* slot = detail::current_call_slot()) state->slot.store(slot, std::memory_order_release);
    // A call with large arguments takes a turn (large_call_turns) before they are checked or read.
    const std::string* arguments_text = name == "tools/call" ? params.arguments_text() : nullptr;
    auto turn = large_calls_.take(arguments_text ? arguments_text->size() : 0);
    // Arguments left unchecked by the reader: checked here, before anything sees the call (a typed
    // tool's read is the check). Not JSON: answered as the reader would have, whether cancelled or not.
    if (!params.check_arguments(&arguments_reader_)) {
      finish_request(*s, *state, [] {});
      return replies->send(message::parse_error());
    }
    // A 2026-07-28 result gets members added to its tree (resultType, caching hints); a 2025-era
    // one may be written as text where the outbound takes text.
    detail::reply out(!round && replies->takes_text());
    json error;  // the whole error message, when the handler failed
    bool kept = false;  // the handler kept the request open (context::keep_open): nothing to send now
    if (!state->cancelled) {
      context ctx(s, state, replies, client, round);
      ctx.set_meta(params.rest());
      ctx.server_ = this;
      try {
        try {
          run_handler(ctx, name, params, *handler, out);
        } catch (const tool_error& e) {
          // From a middleware (a tool catches its own): the isError result a tool's would be.
          if (name != "tools/call") throw;
          out.clear();
          if (out.text_allowed()) {
            detail::result_sink(out.text(), json()).text(e.what(), true);
          } else {
            detail::result_sink(out.tree(), json(), !client->stateless).text(e.what(), true);
          }
          out.set_tool_error(true);
        }
        if (round) detail::check_round_ended(*round, name);  // a catch (...) around ctx.ask()?
        if (!out.is_text()) {
          json& result = out.tree();
          if (!result.is_object()) throw std::logic_error("a method handler returned " + std::string(result.type_name()) +
                                                          "; a JSON-RPC result must be an object");
          if (round) result = finish_stateless(name, params.tree(), std::move(result));
        }
      } catch (detail::input_required& asked) {
        out.clear();
        if (round && detail::may_ask_client(name))
          out.tree() = input_required_result(name, params.tree(), std::move(asked), *round);
        else
          error = failure_reply(*state, name);
      } catch (const url_elicitation_required& e) {
        out.clear();
        if (round && detail::may_ask_client(name) && !e.elicitations().empty()) {
          // 2026-07-28 has no -32042: the same questions, as an input_required round in URL mode.
          detail::input_required asked;
          for (const auto& u : e.elicitations())
            asked.requests.push_back(url_elicitation_input(u.elicitation_id, u.message, u.url));
          const detail::needed_capability needed = detail::capability_needed(asked.requests.front());
          if (detail::declares(client->capabilities, needed.required))
            out.tree() = input_required_result(name, params.tree(), std::move(asked), *round);
          else
            error = jsonrpc::error(state->id, error_code::missing_required_client_capability,
                                   "Missing required client capability: " + needed.name,
                                   json{{"requiredCapabilities", needed.required}});
        } else {
          if (!round)  // for server::complete_elicitation
            for (const auto& u : e.elicitations()) s->remember_url_elicitation(u.elicitation_id);
          error = failure_reply(*state, name);
        }
      } catch (...) {
        out.clear();
        error = failure_reply(*state, name);
      }
      if (ctx.kept_) {
        if (error.is_null()) kept = true;
        else ctx.kept_->end_by_server(false);  // the handler threw after keeping it: its error goes out
      }
    }
    // The arguments (text, and tree or typed value) go before the turn does, so that the next
    // large call does not build its own while these are still held; the turn goes before the reply
    // is written, so that a client slow to read holds none. The rest of params goes with the job:
    // freeing a large _meta is no part of the call's own time, which stdio's sharing rule weighs.
    params.drop_arguments();
    turn = {};
    if (kept) return;  // the request_stream answers it
    finish_request(*s, *state, [&] {
      if (!error.is_null())
        replies->send(error);
      else if (out.is_text())
        replies->send_result_text(state->id, out.text());
      else
        replies->send_result(state->id, std::move(out.tree()));
    });
  };
  if (slow)
    s->run()(std::move(work));
  else
    work();
}

namespace detail {
// How a request that threw went, as middleware sees it. Called in a catch block.
MCP_DECL void record_outcome(outcome& kind, int& code, std::string& message, std::string_view method) {
  try {
    throw;
  } catch (const protocol_error& e) {
    kind = outcome::protocol_error;
    code = e.code();
    message = e.what();
  } catch (const missing_capability& e) {
    kind = method == "tools/call" ? outcome::tool_error : outcome::protocol_error;
    code = error_code::missing_required_client_capability;
    message = e.what();
  } catch (const tool_error& e) {
    kind = method == "tools/call" ? outcome::tool_error : outcome::failed;
    message = e.what();
  } catch (const input_required&) {
    kind = outcome::ok;  // answered with the questions for the client (2026-07-28)
  } catch (const std::exception& e) {
    kind = outcome::failed;
    message = e.what();
  } catch (...) {
    kind = outcome::failed;
  }
}
}  // namespace detail

MCP_DECL void server::run_handler(context& ctx, const std::string& method, detail::request_params& params,
                                const detail::method_entry& handler, detail::reply& out) const {
  if (!has_middleware_.load()) return handler.call(ctx, params, out);
  std::shared_ptr<const std::vector<middleware>> chain;
  {
    std::shared_lock lock(registry_mutex_);
    chain = middleware_;
  }
  request_info info(method, params, ctx);
  // Link i of the chain; the link past the last is the handler.
  std::function<void(std::size_t)> link = [&](std::size_t i) {
    if (i == chain->size()) return handler.call(ctx, params, out);
    bool called = false;
    const std::function<void()> next = [&] {
      if (called) throw std::logic_error("a middleware called next() twice for one request");
      called = true;
      try {
        link(i + 1);
      } catch (...) {
        detail::record_outcome(info.outcome_, info.error_code_, info.error_message_, method);
        throw;
      }
      info.outcome_ = out.tool_error() ? outcome::tool_error : outcome::ok;
    };
    (*chain)[i](info, next);
    if (!called)
      throw std::logic_error("a middleware returned without calling next() and without throwing: to answer early, "
                             "throw mcp::protocol_error (or, for tools/call, mcp::tool_error)");
  };
  link(0);
}

MCP_DECL json server::failure_reply(const detail::request_state& state, const std::string& method) const {
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
                          json{{"requiredCapabilities", e.required}});
  } catch (const std::exception& e) {
    log_diagnostic("request " + state.id.dump() + " failed: " + e.what());
  } catch (...) {
    log_diagnostic("request " + state.id.dump() + " failed with an exception that is not a std::exception");
  }
  return jsonrpc::error(state.id, error_code::internal_error, "Internal error");
}

template <class Send>
void server::finish_request(detail::session& s, detail::request_state& state, Send&& send) {
  state.finished = true;
  {
    // Taking the progress lock orders the reply after any progress notification in flight.
    std::lock_guard lock(state.progress_mutex);
  }
  // The id is free again before the reply goes out: a client may reuse it as soon as it has the answer.
  s.end_request(state);
  if (!state.cancelled) send();
}

MCP_DECL json server::initialize(const std::shared_ptr<detail::session>& s, const json& params) {
  if (s->current_phase() != detail::session::phase::awaiting_initialize)
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
  s->pin(detail::session::era::legacy);
  {
    std::lock_guard lock(sessions_mutex_);
    // Ended sessions are dropped here as well as in notify_all: a server that never notifies
    // would otherwise keep one entry (and the session's memory, via make_shared) per client forever.
    sessions_.erase(std::remove_if(sessions_.begin(), sessions_.end(),
                                   [](const std::weak_ptr<detail::session>& w) { return w.expired(); }),
                    sessions_.end());
    sessions_.push_back(s);
  }

  json result{{"protocolVersion", client.protocol_version}, {"capabilities", capabilities()},
              {"serverInfo", server_info_json()}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

MCP_DECL json server::list_tools(const json& params, bool stateless, const identity* caller) const {
  auto describe = [stateless](const detail::registered_tool& t) { return stateless ? t.listed_stateless : t.listed; };
  std::shared_lock lock(registry_mutex_);
  if (!caller) return list_page(tools_, params, "tools", describe);
  return list_page(detail::visible_to(caller, tools_, [](const detail::registered_tool& t) { return t.def.scopes; }),
                   params, "tools", describe);
}

// The checks the handlers make (call_tool, read_resource, get_prompt), made before the request
// runs, for a transport that answers a refusal its own way.
MCP_DECL std::optional<protocol_error> server::check_access(const message& m) const {
  const identity* caller = m.origin_.caller.get();
  if (!caller || !m.is_request()) return std::nullopt;
  auto param = [&m](const char* key) -> const std::string* {
    const json& rest = m.params_.rest();
    auto it = rest.is_object() ? rest.find(key) : rest.end();
    return it != rest.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
  };
  const std::string_view method = m.method();
  const std::string* name = m.params_.name() ? m.params_.name() : param("name");  // set apart when a string
  if (method == "tools/call") {
    if (!name) return std::nullopt;
    auto tool = find_tool(*name);
    return tool ? detail::scope_refusal(caller, tool->def.scopes, "tool", *name) : std::nullopt;
  }
  if (method == "resources/read" || method == "resources/subscribe") {
    const std::string* uri = param("uri");
    return uri ? resource_access(*uri, caller) : std::nullopt;
  }
  if (method == "prompts/get" && name) return prompt_access(*name, caller);
  if (method == "completion/complete") {  // completing an argument of what the caller may not use
    const json& rest = m.params_.rest();
    const json* ref = rest.is_object() && rest.contains("ref") && rest["ref"].is_object() ? &rest["ref"] : nullptr;
    auto ref_string = [ref](const char* key) -> const std::string* {
      auto it = ref->find(key);
      return it != ref->end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
    };
    const std::string* type = ref ? ref_string("type") : nullptr;
    if (type && *type == "ref/prompt") {
      if (const std::string* prompt = ref_string("name")) return prompt_access(*prompt, caller);
    } else if (type && *type == "ref/resource") {
      if (const std::string* uri_template = ref_string("uri")) return template_access(*uri_template, caller);
    }
  }
  return std::nullopt;
}

MCP_DECL std::optional<protocol_error> server::prompt_access(const std::string& name, const identity* caller) const {
  std::shared_lock lock(registry_mutex_);
  for (const auto& p : prompts_)
    if (p->name == name) return detail::scope_refusal(caller, p->scopes, "prompt", name);
  return std::nullopt;
}

MCP_DECL std::optional<protocol_error> server::template_access(const std::string& uri_template, const identity* caller) const {
  std::shared_lock lock(registry_mutex_);
  for (const auto& t : templates_)
    if (t->info.uri_template == uri_template)
      return detail::scope_refusal(caller, t->info.scopes, "resource template", uri_template);
  return std::nullopt;
}

MCP_DECL void server::call_tool(context& ctx, detail::request_params& params, detail::reply& out) const {
  const std::string* name = params.name();
  const std::string* arguments_text = params.arguments_text();  // an object, not read yet
  const json* arguments = arguments_text ? nullptr : params.arguments();
  if (!name || (!arguments && !arguments_text)) {  // not set apart by mcp::message: look in the tree
    const json& p = params.rest();
    if (auto n = p.find("name"); !name && n != p.end() && n->is_string()) name = &n->get_ref<const std::string&>();
    if (auto a = p.find("arguments"); !arguments && !arguments_text && a != p.end()) arguments = &*a;
  }
  if (!name) throw protocol_error(error_code::invalid_params, "Invalid params: \"name\" must be the tool's name, a string");
  static const json no_arguments = json::object();
  if (!arguments_text && (!arguments || arguments->is_null())) arguments = &no_arguments;
  if (arguments && !arguments->is_object())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
  std::shared_ptr<const detail::registered_tool> tool = find_tool(*name);
  if (!tool) {
    std::string known;  // those the caller may see: a hidden tool's name is not told
    {
      std::shared_lock lock(registry_mutex_);
      for (const auto& t : tools_)
        if (detail::permits(ctx.caller(), t->def.scopes)) known += (known.empty() ? "" : ", ") + t->def.name;
    }
    throw protocol_error(error_code::invalid_params, "Unknown tool: '" + *name + "'. Available tools: " +
                                                         (known.empty() ? "none" : known));
  }
  if (auto refusal = detail::scope_refusal(ctx.caller(), tool->def.scopes, "tool", *name)) throw *refusal;
  // A tool that does not read the text (a runtime schema, a type the typed reader does not follow)
  // gets the arguments' tree built here, on the thread that runs the call. Built by the thread that
  // read the message instead (until 11-28), the tree counted as that thread's work on the line, so
  // stdio's sharing rule kept such calls off the pool: order_rt on stdio ran 1.4-2x slower at
  // N = 1,000 and 10,000, with no smaller peak memory (tests/bench/results/history.md).
  auto tree_arguments = [&]() -> const json& {
    if (!arguments) arguments = params.arguments();
    return *arguments;
  };
  // A typed tool reads the text itself (with the message, or now); any other runner, or a typed
  // one that gave up, gets the tree. Arguments read with the message count only for the tool they
  // were read for: the registry may have changed since.
  auto run = [&](detail::result_sink& sink) {
    if (const detail::decoded_arguments* read = params.decoded(); read && read->tool == tool)
      return tool->from_text.run(read->value.get(), ctx, sink);
    if (arguments_text && tool->from_text.read) {
      std::shared_ptr<const void> read;
      if (tool->from_text.read(*arguments_text, read) == arguments_text->size())
        return tool->from_text.run(read.get(), ctx, sink);
    }
    tool->run(tree_arguments(), ctx, sink);
  };
  // The tasks seam (core/task_seam.hpp) may take the call before it runs. Only a tool with a task
  // mode consults it, or a 2025-11-25 call that asks for a task (params.task): other calls pay
  // nothing for tasks.
  std::shared_ptr<task_seam> tasks;
  std::optional<tool_call> as_seen;
  if (tool->def.task != task_mode::forbidden || (!ctx.client().stateless && detail::asks_for_task(params.rest()))) {
    tasks = seam();
    if (tasks) {
      as_seen.emplace(tool_call(*this, tool, ctx, params.rest(), tree_arguments));
      json taken = tasks->take(*as_seen);
      if (!taken.is_null()) {
        out.tree() = std::move(taken);
        return;
      }
    }
  }
  const auto start = std::chrono::steady_clock::now();
  bool is_error;
  try {
    if (out.text_allowed()) {  // a 2025-era client: the CallToolResult it receives, written as text
      detail::result_sink sink(out.text(), tool->def.output_schema);
      run(sink);
      is_error = sink.is_error();
      out.set_tool_error(is_error);
    } else {
      detail::result_sink sink(out.tree(), tool->def.output_schema, !ctx.client().stateless);
      run(sink);
      is_error = sink.is_error();
      out.set_tool_error(is_error);
    }
  } catch (const detail::begin_task_signal&) {
    // ctx.begin_task() on the request (allowed only by tool_call::allow_begin): the answers
    // gathered so far carry over to the detached run.
    ctx.may_begin_task_ = false;
    out.clear();
    out.tree() = tasks->begun(*as_seen, ctx.round_ ? ctx.round_->used : json::object());
    return;
  }
  tool->stats->record_call(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start), is_error);
}

MCP_DECL std::size_t server::arguments_reader::decode(std::string_view name, std::string_view text,
                                                     detail::decoded_arguments& out) const {
  auto tool = srv_.find_tool(name);
  if (!tool || !tool->from_text.read) return 0;
  const std::size_t taken = tool->from_text.read(text, out.value);
  if (taken) out.tool = std::move(tool);
  return taken;
}

MCP_DECL const tool_definition& tool_call::tool() const { return tool_->def; }
MCP_DECL const json& tool_call::params() const { return params_; }
MCP_DECL void tool_call::allow_begin() const { ctx_.may_begin_task_ = true; }

MCP_DECL detached_call tool_call::detach() const {
  detached_call d;
  d.tool_ = tool_;
  d.arguments_ = arguments_();
  auto client = std::make_shared<client_state>(ctx_.client());
  client->logging = false;  // the request that could carry logs has ended
  d.client_ = std::move(client);
  d.caller_ = ctx_.request_->origin.caller;
  d.header_trace_ = ctx_.request_->origin.header_trace;
  d.params_ = json{{"_meta", ctx_.meta()}};
  return d;
}

MCP_DECL const tool_definition& detached_call::tool() const { return tool_->def; }

MCP_DECL json detached_call::run(const std::shared_ptr<detached_link>& link, json carried, bool legacy) const {
  // Where the run's context sends: nowhere. The request that made it has ended, and a 2026-07-28
  // request has no other stream (a task's progress travels through tasks/get).
  static const auto nowhere = std::make_shared<detail::discard_outbound>();
  auto state = std::make_shared<detail::request_state>();
  state->id = link->id();
  state->origin.caller = caller_;
  state->origin.header_trace = header_trace_;
  auto round = std::make_shared<detail::input_round>();
  round->carried = std::move(carried);  // answers given before the call was detached, by their keys
  context ctx(nullptr, std::move(state), nowhere, client_, std::move(round));
  ctx.link_ = link;
  ctx.set_meta(params_);
  json result;
  const auto start = std::chrono::steady_clock::now();
  detail::result_sink sink(result, tool_->def.output_schema, legacy);  // legacy: 2025's structuredContent shape
  tool_->run(arguments_, ctx, sink);
  tool_->stats->record_call(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start), sink.is_error());
  detail::expand_raw_json(result);  // a detached result is kept as plain JSON
  return result;
}

MCP_DECL void server::notify_listen_streams(const std::string& key, const json& value, const std::string& method,
                                            const std::function<std::optional<json>()>& params) {
  auto listens = [&](const listener& l) {
    auto list = l.honored.find(key);
    if (list == l.honored.end() || !list->is_array()) return false;
    return std::find(list->begin(), list->end(), value) != list->end();
  };
  std::vector<std::shared_ptr<detail::ordered_sender>> to_flush;
  {
    std::lock_guard lock(listeners_mutex_);
    if (std::none_of(listeners_.begin(), listeners_.end(), listens)) return;
    prune_listeners();
    std::optional<json> body = params();
    if (!body) return;
    for (const auto& l : listeners_) {
      if (!listens(l)) continue;
      json p = *body;
      p["_meta"][detail::meta_subscription_id] = l.id;
      l.out->post(jsonrpc::notification(method, std::move(p)));
      to_flush.push_back(l.out);
    }
  }
  for (const auto& out : to_flush) out->flush();
}

MCP_DECL std::shared_ptr<const detail::registered_tool> server::find_tool(std::string_view name) const {
  std::shared_lock lock(registry_mutex_);
  auto it = tool_index_.find(name);
  return it == tool_index_.end() ? nullptr : it->second;
}

MCP_DECL tool_metrics server::metrics(std::string_view tool_name) const {
  if (auto t = find_tool(tool_name)) return t->stats->snapshot();
  throw error(error_code::not_found, "No tool named '" + std::string(tool_name) + "'");
}

namespace detail {
// A Prometheus label value: backslash, quote and newline escaped.
inline std::string prometheus_label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}
inline std::string prometheus_seconds(std::uint64_t us) {
  std::ostringstream s;
  s.precision(12);
  s << static_cast<double>(us) / 1e6;
  return s.str();
}
}  // namespace detail

MCP_DECL std::string server::metrics_text() const {
  std::vector<std::pair<std::string, tool_metrics>> tools;
  std::vector<std::function<std::string()>> sources;
  {
    std::shared_lock lock(registry_mutex_);
    for (const auto& t : tools_) tools.emplace_back(t->def.name, t->stats->snapshot());
    sources = metrics_sources_;
  }
  std::ostringstream out;
  auto counter = [&](const char* name, const char* help, auto field) {
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << " counter\n";
    for (const auto& [tool, m] : tools)
      out << name << "{tool=\"" << detail::prometheus_label(tool) << "\"} " << field(m) << '\n';
  };
  counter("mcp_tool_calls_total", "Tool calls.", [](const tool_metrics& m) { return m.calls; });
  counter("mcp_tool_errors_total", "Tool calls that returned isError.", [](const tool_metrics& m) { return m.errors; });
  counter("mcp_tool_validation_failures_total", "Tool calls refused because the arguments broke the schema.",
          [](const tool_metrics& m) { return m.validation_failures; });
  counter("mcp_tool_coercions_total", "Argument values fixed by the coercion policy.",
          [](const tool_metrics& m) { return m.coercions; });
  out << "# HELP mcp_tool_coercions_by_kind_total Argument values fixed by the coercion policy, by kind "
         "(unknown_argument: a field the schema does not know, left out).\n"
         "# TYPE mcp_tool_coercions_by_kind_total counter\n";
  for (const auto& [tool, m] : tools)
    for (const auto& [kind, n] : m.coercions_by_kind)
      out << "mcp_tool_coercions_by_kind_total{tool=\"" << detail::prometheus_label(tool) << "\",kind=\""
          << detail::prometheus_label(kind) << "\"} " << n << '\n';
  out << "# HELP mcp_tool_latency_seconds Tool call latency.\n# TYPE mcp_tool_latency_seconds histogram\n";
  for (const auto& [tool, m] : tools) {
    const std::string l = detail::prometheus_label(tool);
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < tool_metrics::bucket_bounds_us.size(); ++i) {
      cumulative += m.latency_buckets[i];
      out << "mcp_tool_latency_seconds_bucket{tool=\"" << l << "\",le=\""
          << detail::prometheus_seconds(tool_metrics::bucket_bounds_us[i]) << "\"} " << cumulative << '\n';
    }
    out << "mcp_tool_latency_seconds_bucket{tool=\"" << l << "\",le=\"+Inf\"} " << m.latency_count << '\n';
    out << "mcp_tool_latency_seconds_sum{tool=\"" << l << "\"} " << detail::prometheus_seconds(m.latency_sum_us) << '\n';
    out << "mcp_tool_latency_seconds_count{tool=\"" << l << "\"} " << m.latency_count << '\n';
  }
  for (const auto& source : sources) out << source();
  return out.str();
}

MCP_DECL void server::install_builtin_methods() {
  // Handlers that answer with a tree; tools/call answers into the reply itself (a tree or text).
  auto add = [this](const char* name, bool slow, auto fn) {
    methods_[name] = std::make_shared<const detail::method_entry>(detail::method_entry{
        [fn](context& ctx, detail::request_params& params, detail::reply& out) { out.tree() = fn(ctx, params.tree()); },
        slow});
  };
  add("ping", false, [](context&, const json&) { return json::object(); });
  add("tools/list", false,
      [this](context& ctx, const json& p) { return list_tools(p, ctx.client().stateless, ctx.caller()); });
  methods_["tools/call"] = std::make_shared<const detail::method_entry>(detail::method_entry{
      [this](context& ctx, detail::request_params& p, detail::reply& out) { call_tool(ctx, p, out); }, true});
  add("resources/list", false, [this](context& ctx, const json& p) { return list_resources(p, ctx.caller()); });
  add("resources/templates/list", false,
      [this](context& ctx, const json& p) { return list_resource_templates(p, ctx.caller()); });
  add("resources/read", true, [this](context& ctx, const json& p) { return read_resource(ctx, p); });
  add("resources/subscribe", false, [this](context& ctx, const json& p) { return subscription(ctx, p, true); });
  add("resources/unsubscribe", false, [this](context& ctx, const json& p) { return subscription(ctx, p, false); });
  add("prompts/list", false, [this](context& ctx, const json& p) { return list_prompts(p, ctx.caller()); });
  add("prompts/get", true, [this](context& ctx, const json& p) { return get_prompt(ctx, p); });
  add("completion/complete", true, [this](context& ctx, const json& p) { return complete(p, ctx.caller()); });
  add("logging/setLevel", false, [](context& ctx, const json& p) {
    auto level = p.find("level");
    std::optional<log_level> parsed;
    if (level != p.end() && level->is_string()) parsed = parse_log_level(level->get<std::string>());
    if (!parsed)
      throw protocol_error(error_code::invalid_params,
                           "Invalid params: \"level\" must be one of debug, info, notice, warning, error, critical, "
                           "alert, emergency");
    if (ctx.session_) ctx.session_->set_min_log_level(*parsed);
    return json::object();
  });
}

}  // namespace v0
}  // namespace mcp
