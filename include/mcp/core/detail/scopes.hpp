// Required scopes, the one mechanism behind tools, resources, resource templates and prompts: who
// may see an item in its list, and the insufficient_scope error for a call, read or get of one the
// caller lacks a scope for (HTTP turns it into 403 with an RFC 6750 challenge).
#pragma once

#include <mcp/core/identity.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Whether `caller` may see and use what needs `scopes`. No caller (the transport authenticated
// nobody: stdio, HTTP without an auth hook) is not checked.
inline bool permits(const identity* caller, const std::vector<std::string>& scopes) {
  return !caller || scopes.empty() || caller->missing(scopes).empty();
}

// The error for `what` (e.g. "the tool 'wipe'") when `caller` lacks one of `scopes`, else nullopt.
inline std::optional<protocol_error> scope_refusal(const identity* caller, const std::vector<std::string>& scopes,
                                                   std::string_view kind, std::string_view name) {
  if (permits(caller, scopes)) return std::nullopt;
  const std::string what = "the " + std::string(kind) + " '" + std::string(name) + "'";  // only when refused
  const auto missing = caller->missing(scopes);
  std::string names;
  for (const auto& s : missing) names += (names.empty() ? "" : " ") + s;
  return protocol_error(error_code::insufficient_scope,
                        "Forbidden: " + what + " needs the scope" + (missing.size() > 1 ? "s " : " ") + names +
                            ", which this caller's token does not grant",
                        json{{"requiredScopes", scopes}, {"missingScopes", missing}});
}

// Those of `items` the caller may see, in their order: lists may vary by authorization (never by
// connection). `scopes_of(item)` gives an item's required scopes.
template <class Item, class ScopesOf>
std::vector<Item> visible_to(const identity* caller, const std::vector<Item>& items, ScopesOf scopes_of) {
  if (!caller) return items;
  std::vector<Item> out;
  for (const auto& item : items)
    if (permits(caller, scopes_of(*item))) out.push_back(item);
  return out;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
