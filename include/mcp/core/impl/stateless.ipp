// The 2026-07-28 (stateless) side of mcp::server: a request that carries its protocol version in
// params._meta is checked and served on its own, with no session state. The same tool, resource
// and prompt handlers run; what differs is around them: the envelope checks, server/discover,
// subscriptions/listen, resultType and caching hints on results, and multi-round input
// (input_required + a sealed requestState instead of requests to the client). Included once, from
// the bottom of core/server.hpp.
#pragma once

#include <mcp/core/detail/stateless_rules.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
MCP_DECL json server::server_info_json() const {
  json info{{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) info["title"] = info_.title;
  if (!info_.description.empty()) info["description"] = info_.description;
  if (!info_.website_url.empty()) info["websiteUrl"] = info_.website_url;
  if (!info_.icons.is_null()) info["icons"] = info_.icons;
  return info;
}

// What every other 2026-07-28 result carries in _meta: the two fields the schema's Implementation
// requires. The whole description (title, description, icons...) is about 160 bytes of a typical
// server's, on every call, and some hosts hand each result's _meta to their model; server/discover
// carries it once.
MCP_DECL json server::server_identity_json() const { return json{{"name", info_.name}, {"version", info_.version}}; }

MCP_DECL const cache_hint& server::cache_for(const std::string& method) const {
  auto it = options_.cache_by_method.find(method);
  return it == options_.cache_by_method.end() ? options_.cache : it->second;
}

MCP_DECL std::optional<protocol_error> server::check_stateless_request(std::string_view method, const json& params) const {
  auto invalid = [](const std::string& why) { return protocol_error(error_code::invalid_params, "Invalid params: " + why); };
  auto meta = params.is_object() ? params.find("_meta") : json::const_iterator();
  if (!params.is_object() || meta == params.end() || !meta->is_object())
    return invalid("a 2026-07-28 request needs params._meta with \"" + std::string(detail::meta_protocol_version) +
                   "\" and \"" + detail::meta_client_capabilities + "\"");
  auto version = meta->find(detail::meta_protocol_version);
  if (version == meta->end() || !version->is_string())
    return invalid("params._meta needs \"" + std::string(detail::meta_protocol_version) + "\", a string");
  auto caps = meta->find(detail::meta_client_capabilities);
  if (caps == meta->end() || !caps->is_object())
    return invalid("params._meta needs \"" + std::string(detail::meta_client_capabilities) +
                   "\", an object ({} when the client has none)");
  if (auto ci = meta->find(detail::meta_client_info); ci != meta->end() && !ci->is_object())
    return invalid("params._meta \"" + std::string(detail::meta_client_info) + "\" must be an object");
  if (auto level = meta->find(detail::meta_log_level);
      level != meta->end() && !(level->is_string() && parse_log_level(level->get<std::string>())))
    return invalid("params._meta \"" + std::string(detail::meta_log_level) +
                   "\" must be one of debug, info, notice, warning, error, critical, alert, emergency");

  const std::string& requested = version->get_ref<const std::string&>();
  if (!is_modern_protocol_version(requested)) {
    json supported = json::array();
    for (auto v : modern_protocol_versions) supported.push_back(v);
    return protocol_error(error_code::unsupported_protocol_version,
                          "Unsupported protocol version: " + requested + " (this server speaks " +
                              std::string(modern_protocol_versions[0]) + " without a session)",
                          json{{"supported", std::move(supported)}, {"requested", requested}});
  }

  auto not_found = [&](const std::string& why) {
    return protocol_error(error_code::method_not_found, "Method not found: '" + std::string(method) + "'" + why);
  };
  if (detail::removed_in_stateless(method)) return not_found(" is not part of 2026-07-28");
  if (method == "server/discover" || method == "subscriptions/listen") return std::nullopt;
  std::shared_lock lock(registry_mutex_);
  if (methods_.find(method) == methods_.end()) return not_found("");
  // What discover does not declare is not served (the capabilities must match the handlers).
  const bool offered = detail::starts_with(method, "tools/")       ? has_tools_
                       : detail::starts_with(method, "prompts/")   ? has_prompts_
                       : detail::starts_with(method, "resources/") ? has_resources_
                       : method == "completion/complete"           ? (has_prompts_ || !templates_.empty())
                                                                   : true;
  if (!offered) return not_found(": the server offers no " + std::string(method.substr(0, method.find('/'))));
  return std::nullopt;
}

MCP_DECL std::optional<protocol_error> server::check_stateless(const message& m, const header_lookup* headers) const {
  const std::string_view name = m.method();
  const json none;  // absent params: no _meta, refused below
  const json& params = m.has_params_ ? m.params_.rest() : none;  // all but tools/call's name and arguments
  auto refusal = check_stateless_request(name, params);
  if (!headers || (refusal && refusal->code() == error_code::invalid_params)) return refusal;
  // SEP-2243: the HTTP headers must agree with the body, checked before the version and the method.
  auto mismatch = [](const std::string& why) { return protocol_error(error_code::header_mismatch, "Header mismatch: " + why); };
  const std::string& body_version = params["_meta"][detail::meta_protocol_version].get_ref<const std::string&>();
  const auto header_version = (*headers)("mcp-protocol-version");
  if (!header_version)
    return mismatch("the MCP-Protocol-Version header is required and must equal params._meta's \"" +
                    std::string(detail::meta_protocol_version) + "\"");
  if (*header_version != body_version)
    return mismatch("MCP-Protocol-Version '" + *header_version + "' differs from params._meta's '" + body_version + "'");
  // The body's name and arguments, wherever mcp::message keeps them.
  json name_value;
  const json* body_name = nullptr;
  if (const std::string* n = m.params_.name()) {
    name_value = *n;
    body_name = &name_value;
  }
  std::vector<detail::header_param> annotated;
  if (const std::string* tool_name = m.params_.name(); name == "tools/call" && tool_name)
    if (auto tool = find_tool(*tool_name)) annotated = tool->header_params;
  json built;  // the arguments' tree, only for a tool whose arguments headers carry
  const json* body_arguments = annotated.empty() ? nullptr : m.params_.arguments(built);
  if (auto why = detail::check_standard_headers(*headers, name, params, annotated, body_name, body_arguments))
    return mismatch(*why);
  return refusal;
}

MCP_DECL json server::discover() const {
  json supported = json::array();
  for (auto v : modern_protocol_versions) supported.push_back(v);
  json result{{"supportedVersions", std::move(supported)}, {"capabilities", capabilities(true)}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

MCP_DECL void server::run_stateless_request(const std::shared_ptr<detail::session>& s, json id, std::string name,
                                          detail::request_params&& whole, detail::message_origin origin,
                                          const std::shared_ptr<outbound>& replies) {
  const json& params = whole.rest();  // every member but tools/call's name and arguments
  if (auto refusal = check_stateless_request(name, params)) return replies->send(jsonrpc::error(id, *refusal));
  // server/discover is how a client probes; it does not commit a stdio connection to this era.
  if (name != "server/discover") s->pin(detail::session::era::modern);

  const json& meta = params["_meta"];
  auto client = std::make_shared<client_state>();
  client->protocol_version = meta[detail::meta_protocol_version].get<std::string>();
  client->capabilities = meta[detail::meta_client_capabilities];
  client->info = meta.value(detail::meta_client_info, json::object());
  client->stateless = true;
  client->logging = meta.contains(detail::meta_log_level);
  if (client->logging) client->min_log_level = *parse_log_level(meta[detail::meta_log_level].get<std::string>());

  auto state = s->begin_request(id, detail::progress_token_of(params));
  if (!state)
    return replies->send(jsonrpc::error(id, error_code::invalid_request,
                                        "Invalid request: id " + id.dump() + " is already in use by a request in flight"));

  state->origin = std::move(origin);
  detail::note_subject(*state, name, whole);
  // After begin_request: a retry refused for its id must not use up its single-use state.
  auto round = std::make_shared<detail::input_round>();
  if (detail::may_ask_client(name)) {
    try {
      if (auto r = params.find("inputResponses"); r != params.end() && r->is_object()) round->responses = *r;
      if (auto st = params.find("requestState"); st != params.end()) {
        if (!st->is_string())
          throw protocol_error(error_code::invalid_params, "Invalid params: \"requestState\" must be a string");
        json sealed = sealer_->open(st->get_ref<const std::string&>(), name, whole.tree());
        if (sealed.is_object() && sealed.contains("answers") && sealed["answers"].is_object())
          round->carried = sealed["answers"];
      }
    } catch (const protocol_error& e) {
      s->end_request(id);
      return replies->send(jsonrpc::error(id, e));
    }
  }
  if (name == "subscriptions/listen") return listen(s, state, params, replies);

  std::shared_ptr<const detail::method_entry> handler;
  if (name == "server/discover") {
    handler = std::make_shared<const detail::method_entry>(detail::method_entry{
        [this](context&, detail::request_params&, detail::reply& out) { out.tree() = discover(); }, false});
  } else {
    std::shared_lock lock(registry_mutex_);
    auto it = methods_.find(name);
    if (it != methods_.end()) handler = it->second;
  }
  if (!handler) {  // removed since check_stateless_request saw it
    s->end_request(id);
    return replies->send(jsonrpc::error(id, error_code::method_not_found, "Method not found: '" + name + "'"));
  }
  dispatch(s, std::move(state), std::move(name), std::move(whole), std::move(handler), std::move(client),
           std::move(round), replies);
}

MCP_DECL json server::finish_stateless(const std::string& method, const json& params, json result) const {
  if (!result.contains("resultType")) result["resultType"] = "complete";
  result["_meta"][detail::meta_server_info] = method == "server/discover" ? server_info_json() : server_identity_json();
  // The schema (and the official client) require the hints on every complete result of these
  // methods. A multi-round retry's result depends on the answers given: immediately stale, and
  // never shared.
  if (detail::cacheable(method) && result["resultType"] == "complete") {
    const bool retry = detail::may_ask_client(method) && (params.contains("inputResponses") || params.contains("requestState"));
    static const cache_hint not_for_reuse{0, "private"};
    const cache_hint& hint = retry ? not_for_reuse : cache_for(method);
    result["ttlMs"] = hint.ttl_ms;
    result["cacheScope"] = hint.scope;
  }
  return result;
}

MCP_DECL json server::input_required_result(const std::string& method, const json& params, detail::input_required asked,
                                          const detail::input_round& round) const {
  json requests = json::object();
  for (auto& r : asked.requests) requests[r.key] = json{{"method", std::move(r.method)}, {"params", std::move(r.params)}};
  json result{{"resultType", "input_required"},
              {"inputRequests", std::move(requests)},
              {"requestState", sealer_->seal(json{{"answers", round.used}}, method, params, options_.request_state_ttl)}};
  result["_meta"][detail::meta_server_info] = server_identity_json();
  return result;
}

// subscriptions/listen: the acknowledgement first, then the notifications asked for, each tagged
// with the listen request's id, until the client goes away (HTTP: closes the stream; stdio:
// notifications/cancelled). The request gets no result meanwhile. Each stream's messages go
// through its own ordered_sender: queued under listeners_mutex_ (which fixes their order), sent
// after it is released.
MCP_DECL void server::listen(const std::shared_ptr<detail::session>& s, const std::shared_ptr<detail::request_state>& state,
                           const json& params, const std::shared_ptr<outbound>& replies) {
  auto wanted = params.find("notifications");
  if (wanted == params.end() || !wanted->is_object()) {
    s->end_request(state->id);
    return replies->send(jsonrpc::error(state->id, error_code::invalid_params,
                                        "Invalid params: \"notifications\" must be an object naming what to listen for"));
  }
  json task_ids;  // null: not asked for, or the server runs no tasks
  if (auto ids = wanted->find("taskIds"); ids != wanted->end()) {
    if (auto tasks = seam(); tasks && tasks->offered()) {
      try {
        task_ids = tasks->listen(*ids, params["_meta"][detail::meta_client_capabilities], state->origin.caller.get());
      } catch (const protocol_error& e) {
        s->end_request(state->id);
        return replies->send(jsonrpc::error(state->id, e));
      }
    }
  }
  json honored = json::object();
  {
    std::shared_lock lock(registry_mutex_);
    auto flag = [&](const char* key, bool offered) {
      if (offered && wanted->value(key, false) == true) honored[key] = true;
    };
    flag("toolsListChanged", has_tools_);
    flag("promptsListChanged", has_prompts_);
    flag("resourcesListChanged", has_resources_);
    if (auto uris = wanted->find("resourceSubscriptions"); has_resources_ && uris != wanted->end() && uris->is_array()) {
      json kept = json::array();
      for (const auto& u : *uris)
        if (u.is_string()) kept.push_back(u);
      honored["resourceSubscriptions"] = std::move(kept);
    }
  }
  if (!task_ids.is_null()) honored["taskIds"] = std::move(task_ids);
  auto out = std::make_shared<detail::ordered_sender>(replies);
  // Queued before the stream is listed: no notification for it can overtake its acknowledgement.
  out->post(jsonrpc::notification(
      "notifications/subscriptions/acknowledged",
      json{{"_meta", {{detail::meta_subscription_id, state->id}}}, {"notifications", honored}}));
  {
    std::lock_guard lock(listeners_mutex_);
    prune_listeners();
    listeners_.push_back(listener{state->id, std::move(honored), s, state, out});
  }
  out->flush();
}

// Listeners whose client left (stream closed, cancelled, connection closed) go; their request ends.
MCP_DECL void server::prune_listeners() {
  auto gone = [](const listener& l) {
    auto owner = l.owner.lock();
    return !owner || owner->closed() || l.state->cancelled.load();
  };
  for (auto& l : listeners_)
    if (gone(l))
      if (auto owner = l.owner.lock()) owner->end_request(l.id);
  listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(), gone), listeners_.end());
}

MCP_DECL std::size_t server::listeners_open() {
  std::lock_guard lock(listeners_mutex_);
  prune_listeners();
  return listeners_.size();
}

MCP_DECL void server::end_listeners(const detail::session* owner, bool final_result) {
  std::vector<std::shared_ptr<detail::ordered_sender>> ended;
  std::vector<std::shared_ptr<request_stream>> kept;  // requests kept open (context::keep_open) end too
  {
    std::lock_guard lock(listeners_mutex_);
    for (auto it = kept_streams_.begin(); it != kept_streams_.end();) {
      auto k = it->lock();
      if (k && owner && k->owner() != owner) {
        ++it;
        continue;
      }
      if (k) kept.push_back(std::move(k));
      it = kept_streams_.erase(it);
    }
    prune_listeners();
    auto ending = [owner](const listener& l) { return !owner || l.owner.lock().get() == owner; };
    for (const auto& l : listeners_) {
      if (!ending(l)) continue;
      l.state->finished = true;
      if (auto o = l.owner.lock()) o->end_request(l.id);
      if (!final_result) continue;
      json result{{"resultType", "complete"},
                  {"_meta", {{detail::meta_subscription_id, l.id}, {detail::meta_server_info, server_identity_json()}}}};
      l.out->post(jsonrpc::response(l.id, std::move(result)));
      ended.push_back(l.out);
    }
    listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(), ending), listeners_.end());
  }
  for (const auto& out : ended) out->flush();
  for (const auto& k : kept) k->end_by_server(final_result);  // outside the lock: it may send
}

MCP_DECL void server::notify_listeners(const std::string& method, const json& params) {
  const char* flag = method == "notifications/tools/list_changed"       ? "toolsListChanged"
                     : method == "notifications/prompts/list_changed"   ? "promptsListChanged"
                     : method == "notifications/resources/list_changed" ? "resourcesListChanged"
                                                                        : nullptr;
  const bool updated = method == "notifications/resources/updated";
  if (!flag && !updated) return;
  const std::string uri = updated && params.is_object() ? params.value("uri", std::string()) : std::string();
  std::vector<std::shared_ptr<detail::ordered_sender>> to_flush;
  {
    std::lock_guard lock(listeners_mutex_);
    prune_listeners();
    for (const auto& l : listeners_) {
      bool wanted = false;
      if (flag) {
        wanted = l.honored.value(flag, false);
      } else if (auto subs = l.honored.find("resourceSubscriptions"); subs != l.honored.end()) {
        for (const auto& u : *subs)
          if (detail::covers(u.get_ref<const std::string&>(), uri)) wanted = true;
      }
      if (!wanted) continue;
      json tagged = params.is_object() ? params : json::object();
      tagged["_meta"][detail::meta_subscription_id] = l.id;
      l.out->post(jsonrpc::notification(method, std::move(tagged)));
      to_flush.push_back(l.out);
    }
  }
  for (const auto& out : to_flush) out->flush();
}

}  // namespace v0
}  // namespace mcp
