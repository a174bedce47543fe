// The fixed vocabulary of the 2026-07-28 (stateless) revision: the _meta keys, which requests
// claim that era, and which methods it removed, caches and lets ask the client for input.
#pragma once

#include <mcp/json/json.hpp>

#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

inline constexpr const char* meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* meta_log_level = "io.modelcontextprotocol/logLevel";
inline constexpr const char* meta_server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr const char* meta_subscription_id = "io.modelcontextprotocol/subscriptionId";

// The claim that makes a request 2026-07-28-era, whatever its method: the version key in _meta.
inline bool claims_stateless(const json& params) {
  if (!params.is_object()) return false;
  auto meta = params.find("_meta");
  return meta != params.end() && meta->is_object() && meta->contains(meta_protocol_version);
}

// Methods of the session era that 2026-07-28 removed.
inline bool removed_in_stateless(std::string_view method) {
  return method == "initialize" || method == "ping" || method == "logging/setLevel" ||
         method == "resources/subscribe" || method == "resources/unsubscribe";
}

inline bool cacheable(std::string_view method) {
  return method == "server/discover" || method == "tools/list" || method == "prompts/list" ||
         method == "resources/list" || method == "resources/templates/list" || method == "resources/read" ||
         method == "skills/list" || method == "skills/get";  // the skills extension (SEP-2640)
}

// Only these may answer input_required.
inline bool may_ask_client(std::string_view method) {
  return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// resources/updated reaches a listener subscribed to the URI itself or to a parent of it.
inline bool covers(std::string_view subscribed, std::string_view uri) {
  if (uri == subscribed) return true;
  return starts_with(uri, subscribed) && !subscribed.empty() &&
         (subscribed.back() == '/' || uri[subscribed.size()] == '/');
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
