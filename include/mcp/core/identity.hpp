// Who is calling: what a transport's authentication established (the HTTP auth hook), handed to
// the core with each message (message::set_caller) and to handlers and middleware through the
// context (context::caller). The core never verifies tokens itself.
#pragma once

#include <mcp/json/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

// A value: copy it, read it from any thread.
struct identity {
  std::string subject;              // who: a user or a client id (a token's "sub")
  std::vector<std::string> scopes;  // what it may do
  json claims = json::object();     // anything else the verifier kept

  bool has_scope(std::string_view scope) const {
    return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
  }
  // Those of `needed` it lacks, in their order.
  std::vector<std::string> missing(const std::vector<std::string>& needed) const {
    std::vector<std::string> out;
    for (const auto& s : needed)
      if (!has_scope(s)) out.push_back(s);
    return out;
  }
};

}  // namespace v0
}  // namespace mcp
