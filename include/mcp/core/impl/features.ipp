// server's resources, prompts and completion: the registries and the methods that serve them.
// Included once, from the bottom of core/server.hpp. The templates that register a resource or a
// prompt from a handler are in tools/features.hpp.
#pragma once

#include <algorithm>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL std::string completer_key(std::string_view kind, std::string_view name, std::string_view argument) {
  std::string key(kind);
  key.append(1, '\0').append(name).append(1, '\0').append(argument);
  return key;
}

MCP_DECL std::string required_string(const json& params, const char* key) {
  auto it = params.find(key);
  if (it == params.end() || !it->is_string())
    throw protocol_error(error_code::invalid_params, std::string("Invalid params: \"") + key + "\" must be a string");
  return it->get<std::string>();
}

}  // namespace detail

MCP_DECL void server::add_resource_entry(resource_entry entry) {
  if (entry.info.uri.empty() || entry.info.name.empty())
    throw definition_error("A resource needs a uri and a name");
  {
    std::unique_lock lock(registry_mutex_);
    for (const auto& r : resources_)
      if (r->info.uri == entry.info.uri)
        throw definition_error("A resource with URI '" + entry.info.uri + "' is already registered");
    resources_.push_back(std::make_shared<const resource_entry>(std::move(entry)));
    has_resources_ = true;
  }
  notify_all("notifications/resources/list_changed");
}

MCP_DECL void server::add_template_entry(template_entry entry) {
  if (entry.info.name.empty()) throw definition_error("A resource template needs a name");
  {
    std::unique_lock lock(registry_mutex_);
    for (const auto& t : templates_)
      if (t->info.uri_template == entry.info.uri_template)
        throw definition_error("A resource template '" + entry.info.uri_template + "' is already registered");
    templates_.push_back(std::make_shared<const template_entry>(std::move(entry)));
    has_resources_ = true;
  }
  notify_all("notifications/resources/list_changed");
}

MCP_DECL bool server::remove_resource(std::string_view uri) {
  {
    std::unique_lock lock(registry_mutex_);
    auto it = std::find_if(resources_.begin(), resources_.end(), [&](const auto& r) { return r->info.uri == uri; });
    if (it != resources_.end()) {
      resources_.erase(it);
    } else {
      auto t = std::find_if(templates_.begin(), templates_.end(),
                            [&](const auto& e) { return e->info.uri_template == uri; });
      if (t == templates_.end()) return false;
      templates_.erase(t);
    }
  }
  notify_all("notifications/resources/list_changed");
  return true;
}

MCP_DECL void server::resource_updated(const std::string& uri) {
  json message = jsonrpc::notification("notifications/resources/updated", {{"uri", uri}});
  std::vector<std::shared_ptr<detail::session>> live;
  {
    std::lock_guard lock(sessions_mutex_);
    for (auto& w : sessions_)
      if (auto s = w.lock(); s && !s->closed() && s->subscribed(uri)) live.push_back(std::move(s));
  }
  for (auto& s : live) s->out().send(message);
  notify_listeners("notifications/resources/updated", message["params"]);
}

MCP_DECL void server::add_prompt_entry(prompt_entry entry) {
  if (entry.name.empty()) throw definition_error("A prompt needs a name");
  {
    std::unique_lock lock(registry_mutex_);
    for (const auto& p : prompts_)
      if (p->name == entry.name) throw definition_error("A prompt named '" + entry.name + "' is already registered");
    prompts_.push_back(std::make_shared<const prompt_entry>(std::move(entry)));
    has_prompts_ = true;
  }
  notify_all("notifications/prompts/list_changed");
}

MCP_DECL bool server::remove_prompt(std::string_view name) {
  {
    std::unique_lock lock(registry_mutex_);
    auto it = std::find_if(prompts_.begin(), prompts_.end(), [&](const auto& p) { return p->name == name; });
    if (it == prompts_.end()) return false;
    prompts_.erase(it);
  }
  notify_all("notifications/prompts/list_changed");
  return true;
}

MCP_DECL server& server::complete_prompt_argument(std::string prompt, std::string argument, completer fn) {
  std::unique_lock lock(registry_mutex_);
  completers_[detail::completer_key("ref/prompt", prompt, argument)] = std::move(fn);
  return *this;
}

MCP_DECL server& server::complete_template_variable(std::string uri_template, std::string variable, completer fn) {
  std::unique_lock lock(registry_mutex_);
  completers_[detail::completer_key("ref/resource", uri_template, variable)] = std::move(fn);
  return *this;
}

template <class Item, class Describe>
json server::list_page(const std::vector<Item>& items, const json& params, const char* key, Describe describe) const {
  const page_window window = requested_page(params, items.size(), options_.page_size, key);
  json list = json::array();
  for (std::size_t i = window.begin; i < window.end; ++i) list.push_back(describe(*items[i]));
  json result{{key, std::move(list)}};
  if (window.next_cursor) result["nextCursor"] = *window.next_cursor;
  return result;
}

MCP_DECL json server::list_resources(const json& params, const identity* caller) const {
  std::vector<std::shared_ptr<const resource_entry>> fixed;
  std::vector<std::shared_ptr<const template_entry>> families;
  {
    std::shared_lock lock(registry_mutex_);
    fixed = detail::visible_to(caller, resources_, [](const resource_entry& r) { return r.info.scopes; });
    for (const auto& t : templates_)
      if (t->info.list && detail::permits(caller, t->info.scopes)) families.push_back(t);
  }
  if (families.empty()) return list_page(fixed, params, "resources", [](const resource_entry& r) { return detail::to_json(r.info); });
  // The families' own lists, after the fixed resources (user code: no lock held).
  std::vector<resource_info> listed;
  for (const auto& t : families)
    for (auto& r : t->info.list()) {
      if (t->pattern.match(r.uri))
        listed.push_back(std::move(r));
      else
        log_diagnostic("resources/list: '" + r.uri + "', listed by the template '" + t->info.uri_template +
                       "', does not match it and is left out");
    }
  std::vector<const resource_info*> all;
  for (const auto& r : fixed) all.push_back(&r->info);
  for (const auto& r : listed) all.push_back(&r);
  return list_page(all, params, "resources", [](const resource_info& r) { return detail::to_json(r); });
}

MCP_DECL json server::list_resource_templates(const json& params, const identity* caller) const {
  std::shared_lock lock(registry_mutex_);
  return list_page(detail::visible_to(caller, templates_, [](const template_entry& t) { return t.info.scopes; }), params,
                   "resourceTemplates", [](const template_entry& t) { return detail::to_json(t.info); });
}

MCP_DECL std::optional<protocol_error> server::resource_access(const std::string& uri, const identity* caller) const {
  std::shared_lock lock(registry_mutex_);
  for (const auto& r : resources_)
    if (r->info.uri == uri) return detail::scope_refusal(caller, r->info.scopes, "resource", uri);
  for (const auto& t : templates_)
    if (t->pattern.match(uri)) return detail::scope_refusal(caller, t->info.scopes, "resource", uri);
  return std::nullopt;
}

MCP_DECL json server::read_resource(context& ctx, const json& params) const {
  const std::string uri = detail::required_string(params, "uri");
  std::shared_ptr<const resource_entry> fixed;
  std::shared_ptr<const template_entry> family;
  std::map<std::string, std::string> vars;
  {
    std::shared_lock lock(registry_mutex_);
    for (const auto& r : resources_)
      if (r->info.uri == uri) fixed = r;
    if (!fixed)
      for (const auto& t : templates_)
        if (auto m = t->pattern.match(uri)) {
          family = t;
          vars = std::move(*m);
          break;
        }
  }
  if (const auto* scopes = fixed ? &fixed->info.scopes : family ? &family->info.scopes : nullptr)
    if (auto refusal = detail::scope_refusal(ctx.caller(), *scopes, "resource", uri)) throw *refusal;
  json contents;
  if (fixed)
    contents = fixed->read(uri, ctx);
  else if (family)
    contents = family->read(uri, vars, ctx);
  else
    // 2026-07-28 (SEP-2164) made an unknown resource an invalid parameter; 2025 has its own code.
    throw protocol_error(ctx.client().stateless ? error_code::invalid_params : error_code::resource_not_found,
                         "Resource not found: '" + uri + "'", json{{"uri", uri}});
  return json{{"contents", std::move(contents)}};
}

MCP_DECL json server::subscription(context& ctx, const json& params, bool subscribe) const {
  const std::string uri = detail::required_string(params, "uri");
  if (subscribe)  // updates of what the caller may not read are not theirs to hear of
    if (auto refusal = resource_access(uri, ctx.caller())) throw *refusal;
  if (const auto& s = ctx.session_) subscribe ? s->subscribe(uri) : s->unsubscribe(uri);
  std::vector<std::function<void(const std::string&, bool)>> hooks;
  {
    std::shared_lock lock(registry_mutex_);
    hooks = subscription_hooks_;
  }
  for (const auto& hook : hooks) hook(uri, subscribe);  // a hook that throws fails the request
  return json::object();
}

MCP_DECL json server::list_prompts(const json& params, const identity* caller) const {
  std::shared_lock lock(registry_mutex_);
  return list_page(detail::visible_to(caller, prompts_, [](const prompt_entry& p) { return p.scopes; }), params,
                   "prompts", [](const prompt_entry& p) { return p.definition; });
}

MCP_DECL json server::get_prompt(context& ctx, const json& params) const {
  const std::string name = detail::required_string(params, "name");
  json arguments = json::object();
  if (auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
    if (!a->is_object()) throw protocol_error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
    arguments = *a;
  }
  std::shared_ptr<const prompt_entry> prompt;
  std::string known;
  {
    std::shared_lock lock(registry_mutex_);
    for (const auto& p : prompts_) {
      if (p->name == name) prompt = p;
      if (detail::permits(ctx.caller(), p->scopes)) known += (known.empty() ? "" : ", ") + p->name;  // no hidden names
    }
  }
  if (!prompt)
    throw protocol_error(error_code::invalid_params,
                         "Unknown prompt: '" + name + "'. Available prompts: " + (known.empty() ? "none" : known));
  if (auto refusal = detail::scope_refusal(ctx.caller(), prompt->scopes, "prompt", name)) throw *refusal;
  return prompt->get(arguments, ctx);
}

MCP_DECL json server::complete(const json& params, const identity* caller) const {
  auto ref = params.find("ref");
  auto argument = params.find("argument");
  if (ref == params.end() || !ref->is_object() || argument == params.end() || !argument->is_object())
    throw protocol_error(error_code::invalid_params, "Invalid params: \"ref\" and \"argument\" must be objects");
  const std::string type = detail::required_string(*ref, "type");
  const std::string arg_name = detail::required_string(*argument, "name");
  const std::string value = detail::required_string(*argument, "value");
  std::string target;
  {
    std::shared_lock lock(registry_mutex_);
    if (type == "ref/prompt") {
      target = detail::required_string(*ref, "name");
      bool known = std::any_of(prompts_.begin(), prompts_.end(), [&](const auto& p) { return p->name == target; });
      if (!known) throw protocol_error(error_code::invalid_params, "Invalid params: no prompt named '" + target + "'");
    } else if (type == "ref/resource") {
      target = detail::required_string(*ref, "uri");
      bool known = std::any_of(templates_.begin(), templates_.end(),
                               [&](const auto& t) { return t->info.uri_template == target; });
      if (!known)
        throw protocol_error(error_code::invalid_params, "Invalid params: no resource template '" + target + "'");
    } else {
      throw protocol_error(error_code::invalid_params, "Invalid params: \"ref.type\" must be ref/prompt or ref/resource");
    }
  }
  // Completing an argument of what the caller may not use is refused like using it.
  if (auto refusal = type == "ref/prompt" ? prompt_access(target, caller) : template_access(target, caller)) throw *refusal;
  std::map<std::string, std::string> context_args;
  if (auto c = params.find("context"); c != params.end() && c->is_object())
    if (auto a = c->find("arguments"); a != c->end() && a->is_object())
      for (const auto& [k, v] : a->items())
        if (v.is_string()) context_args[k] = v.get<std::string>();
  completer fn;
  {
    std::shared_lock lock(registry_mutex_);
    auto it = completers_.find(detail::completer_key(type, target, arg_name));
    if (it != completers_.end()) fn = it->second;
  }
  std::vector<std::string> values;
  if (fn) values = fn(value, context_args);
  const std::size_t total = values.size();
  if (values.size() > 100) values.resize(100);  // the spec's cap per response
  return json{{"completion", {{"values", values}, {"total", total}, {"hasMore", total > values.size()}}}};
}

}  // namespace v0
}  // namespace mcp
