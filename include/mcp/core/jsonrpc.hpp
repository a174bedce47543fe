// JSON-RPC 2.0 as MCP uses it: error codes, the protocol error type, and message builders.
#pragma once

#include <mcp/json/json.hpp>

#include <stdexcept>
#include <string>

namespace mcp {
inline namespace v0 {

namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;  // MCP 2025-11-25; 2026-07-28 uses invalid_params
// MCP 2026-07-28 (stateless revision)
inline constexpr int header_mismatch = -32020;                    // HTTP headers disagree with the body
inline constexpr int missing_required_client_capability = -32021; // data.requiredCapabilities
inline constexpr int unsupported_protocol_version = -32022;       // data.supported, data.requested
}  // namespace error_code

// A JSON-RPC error answered to the peer. Throw it from a request handler to answer with an error
// instead of a result; tool handlers use mcp::tool_error instead, which becomes an isError result.
class protocol_error : public std::runtime_error {
 public:
  protocol_error(int code, const std::string& message, json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const noexcept { return code_; }
  const json& data() const noexcept { return data_; }

 private:
  int code_;
  json data_;
};

namespace jsonrpc {

// A request id is a string or an integer, echoed with its type.
inline bool is_valid_id(const json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

// Built member by member: a braced initializer list would copy `result` (initializer_list
// elements are const), and replies are on every request's path.
inline json response(const json& id, json result) {
  json msg(json::value_t::object);
  msg["jsonrpc"] = "2.0";
  msg["id"] = id;
  msg["result"] = std::move(result);
  return msg;
}

// An id that could not be read is left out: the MCP schema allows a missing id on errors but not null.
inline json error(const json& id, int code, const std::string& message, const json& data = nullptr) {
  json err{{"code", code}, {"message", message}};
  if (!data.is_null()) err["data"] = data;
  json msg{{"jsonrpc", "2.0"}};
  if (is_valid_id(id)) msg["id"] = id;
  msg["error"] = std::move(err);
  return msg;
}

inline json error(const json& id, const protocol_error& e) { return error(id, e.code(), e.what(), e.data()); }

inline json notification(const std::string& method, json params = nullptr) {
  json msg(json::value_t::object);
  msg["jsonrpc"] = "2.0";
  msg["method"] = method;
  if (!params.is_null()) msg["params"] = std::move(params);
  return msg;
}

inline json request(const json& id, const std::string& method, json params = nullptr) {
  json msg{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) msg["params"] = std::move(params);
  return msg;
}

}  // namespace jsonrpc
}  // namespace v0
}  // namespace mcp
