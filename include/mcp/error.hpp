// mcp::error, the base of every exception the SDK throws, and the codes they carry. It sits at the
// top of the tree beside version.hpp because every layer throws one (schema_error, decode_error,
// protocol_error, tool_error...) and it needs nothing from any of them.
//
//   try { srv.tool(...); } catch (const mcp::error& e) { log(e.code(), e.what()); }
//
// mcp::error is a std::runtime_error, so `catch (const std::exception&)` and
// `catch (const std::runtime_error&)` still catch everything the SDK throws. Before it, the SDK
// threw std::invalid_argument for registrations it refused, for bad cursors and for bad arguments
// (now mcp::error with invalid_definition, invalid_cursor and invalid_argument), schema_error was a
// std::invalid_argument and server::metrics(name) threw std::out_of_range (now not_found): catch
// mcp::error (and test its code) instead. Not thrown as mcp::error: std::system_error from the
// operating system (a port that cannot be bound), std::bad_alloc, and nlohmann::json's own
// exceptions from a user's use of json.
#pragma once

#include <stdexcept>
#include <string>

namespace mcp {
inline namespace v0 {

// Codes never change meaning and never move. A protocol_error carries the JSON-RPC code it answers
// the peer with (the first group, or any code of the application's own); every other SDK exception
// carries one of the SDK's codes (the second group, all positive).
namespace error_code {
// JSON-RPC 2.0
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;  // MCP 2025-11-25; 2026-07-28 uses invalid_params
// MCP 2026-07-28 (stateless revision)
inline constexpr int header_mismatch = -32020;                    // HTTP headers disagree with the body
inline constexpr int missing_required_client_capability = -32021; // data.requiredCapabilities; also the
                                                                  // code of the tool_error ctx.ask() throws
                                                                  // when the client lacks the capability
inline constexpr int unsupported_protocol_version = -32022;       // data.supported, data.requested
// MCP 2025-11-25
inline constexpr int url_elicitation_required = -32042;  // url_elicitation_required: data.elicitations, the URL-mode
                                                         // elicitations the user must complete first
// The SDK's choice in the implementation-defined range
inline constexpr int insufficient_scope = -32003;  // the caller lacks a scope the tool requires; data.requiredScopes,
                                                   // data.missingScopes. Over HTTP: 403 with an RFC 6750 challenge

// The SDK's own; never sent to a peer as a JSON-RPC code.
inline constexpr int tool_failed = 1;         // tool_error: the tool reports a failure to the model (isError result)
inline constexpr int request_timeout = 2;     // request_timeout: the client did not answer a request in time,
                                              // or the call that asked was cancelled meanwhile
inline constexpr int decode_failed = 3;       // decode_error: JSON that does not fit the C++ type
inline constexpr int invalid_schema = 4;      // schema_error: a JSON Schema the SDK cannot validate with
inline constexpr int invalid_definition = 5;  // a registration refused: a tool, resource, prompt or server_info
                                              // that breaks a rule (name, duplicate, no handler, URI template...)
inline constexpr int invalid_argument = 6;    // a value an SDK function refuses (content annotations, an enum
                                              // value without an MCP_ENUM name, a method ctx.ask() cannot send)
inline constexpr int invalid_cursor = 7;      // paginate(): a cursor the same list did not hand out
inline constexpr int not_found = 8;           // server::metrics(name): no tool has that name
inline constexpr int input_swallowed = 9;     // a 2026-07-28 handler caught what ctx.ask() throws to end the
                                              // round and returned normally (see context::ask); the request
                                              // is answered with internal_error
inline constexpr int invalid_answer = 10;     // elicitation_error: the client's answer to ctx.elicit<T>() does not
                                              // fit the form it was asked with (or has no valid action)
inline constexpr int task_refused = 11;       // a task store cannot keep a new task (full, id taken, down), or a
                                              // task record or update read back is malformed (ext/task_store.hpp)
inline constexpr int guard_unavailable = 12;  // a replay_guard cannot tell whether a requestState was used (its
                                              // Redis is down: stores/redis_replay_guard.hpp); the token is refused
inline constexpr int event_store_unavailable = 13;  // an SSE event_store cannot keep or read a stream's events
                                                    // (its Redis is down: stores/redis_event_store.hpp)
}  // namespace error_code

class error : public std::runtime_error {
 public:
  error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  // One of error_code's values; for a protocol_error, the JSON-RPC code it answers with.
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// A registration the server refuses (error_code::invalid_definition); the message names the rule.
class definition_error : public error {
 public:
  explicit definition_error(const std::string& message) : error(error_code::invalid_definition, message) {}
};

}  // namespace v0
}  // namespace mcp
