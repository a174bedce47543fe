// What the server knows of the client behind a request (context::client()).
#pragma once

#include <mcp/core/log_level.hpp>
#include <mcp/json/json.hpp>

#include <string>

namespace mcp {
inline namespace v0 {

// A 2025-era connection fills it once, at initialize; a 2026-07-28 request carries it in its own
// params._meta. Immutable once a request sees it.
struct client_state {
  std::string protocol_version;       // negotiated; empty before initialize
  json capabilities = json::object(); // ClientCapabilities as sent
  json info = json::object();         // clientInfo as sent
  log_level min_log_level = log_level::info;
  bool stateless = false;             // a 2026-07-28-era request: nothing outlives it
  bool logging = true;                // 2026-07-28: false unless the request's _meta named a log level
  bool sessionless = false;           // 2025-era over HTTP without sessions: capabilities unknown, nothing can be asked
};

}  // namespace v0
}  // namespace mcp
