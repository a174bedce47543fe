// JSON-RPC 2.0 as MCP uses it: error codes, the protocol error type, and message builders.
#pragma once

#include <mcp/error.hpp>
#include <mcp/json/json.hpp>

#include <string>

namespace mcp {
inline namespace v0 {

// The JSON-RPC error codes are in <mcp/error.hpp> (mcp::error_code), with the SDK's own.

// A JSON-RPC error answered to the peer. Throw it from a request handler to answer with an error
// instead of a result; tool handlers use mcp::tool_error instead, which becomes an isError result.
// code() is the JSON-RPC code (error_code::invalid_params, ...).
class protocol_error : public error {
 public:
  protocol_error(int code, const std::string& message, json data = nullptr)
      : error(code, message), data_(std::move(data)) {}
  const json& data() const noexcept { return data_; }

 private:
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
