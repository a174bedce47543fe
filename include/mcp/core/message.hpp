// One JSON-RPC message from a client, as the core reads it. Every message any transport receives
// is read here, once: the envelope's members (jsonrpc, id, method, params, result, error) are read
// straight from the text, in any order, without a tree for the envelope itself; result and error
// become trees, and params a tree beside what the core keeps apart (detail::request_params: a
// tools/call's name, and its arguments only delimited, checked and read where the call runs).
// connection::receive(text) reads with it; a transport that must look at a message before it hands
// it on (HTTP decides statuses and sessions from it) calls read() itself, check() before it answers
// the message on its own, and passes it to connection::receive.
#pragma once

#include <mcp/core/detail/request_params.hpp>
#include <mcp/core/detail/stateless_rules.hpp>
#include <mcp/core/detail/message_origin.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {

class server;
class connection;
namespace detail {
struct message_access;
}

// The HTTP headers that came with a message, for the checks of SEP-2243 (connection::check_stateless):
// the value of the header named `lower_name` (in lower case), or nullopt when there is none.
using header_lookup = std::function<std::optional<std::string>(std::string_view lower_name)>;

// A value: copy it, move it, read it from any thread.
class message {
 public:
  // Reads one message. The text must be exactly one JSON object (a leading byte-order mark is
  // skipped) nested at most `max_depth` levels (server_options::max_json_depth); anything else is
  // not readable and refusal() is the error reply. Never throws for any input.
  // Part of it may be left unchecked: a tools/call's arguments are only delimited here and checked
  // where the call runs, where a typed tool's read of them is the check (checked here as well,
  // they cost a transport's reading thread a third of a call with 10,000 order lines). The core
  // checks what was left before it answers anything, so every text answers as when read whole:
  // what is not JSON gets -32700 with id null, and no handler sees it. params() of such a message
  // is not checked.
  static message read(std::string_view text, std::size_t max_depth = detail::default_max_json_depth);

  // False when the text is not JSON (-32700), is nested deeper than the limit, is a batch array or
  // is not an object (-32600); refusal() is then the error reply to send, else null. The other
  // rules of a message (jsonrpc "2.0", the id's type, params an object...) are checked when it is
  // received, and answered on the request's own channel.
  bool readable() const { return refusal_.is_null(); }
  const json& refusal() const { return refusal_; }
  // For a transport that answers a message itself, before the core runs it (HTTP: no session, a
  // bad header, draining): checks what read() left unchecked, as a whole read would have. False
  // when that is not JSON (or the text was not readable): it is then not readable, and refusal()
  // is the -32700 to answer with instead.
  bool check() {
    if (readable() && !params_.check_arguments(nullptr)) refusal_ = parse_error();
    return readable();
  }

  bool is_request() const { return readable() && has_method_ && has_id_; }       // "method" and "id"
  bool is_notification() const { return readable() && has_method_ && !has_id_; }  // "method", no "id"
  bool is_response() const { return readable() && !has_method_; }                // no "method"
  // The method when it is a string, else empty.
  std::string_view method() const { return method_is_string_ ? std::string_view(method_) : std::string_view(); }
  // As sent (any JSON value); null when absent.
  const json& id() const { return id_; }
  // params as sent (a copy: the core keeps some members apart); null when absent.
  json params() const { return has_params_ ? params_.whole() : json(); }
  // Whether params._meta carries a protocol version: the claim of a 2026-07-28 request.
  bool claims_stateless() const { return detail::claims_stateless(params_.rest()); }

  // Who sent it, when the transport authenticated the sender (null: nobody was asked). A request's
  // handler sees it as context::caller(); tools with required scopes check it.
  const std::shared_ptr<const identity>& caller() const { return origin_.caller; }
  void set_caller(std::shared_ptr<const identity> who) { origin_.caller = std::move(who); }
  // The trace context of the transport's headers (W3C traceparent and tracestate): a handler's
  // context::trace() falls back to it when params._meta carries none. An invalid one is ignored.
  void set_trace_headers(std::string_view traceparent, std::string_view tracestate = {}) {
    origin_.header_trace = trace_context::parse(traceparent, tracestate);
  }

 private:
  friend class server;
  friend class connection;
  friend struct detail::message_access;
  // read() with `one_pass` (the server's reader of tools' arguments): a tools/call's arguments are
  // read with the tool's own typed reader on the way, in the same pass as the message, instead of
  // delimited now and read when the call runs. Worth it where the thread that reads the message
  // runs the call too (stdio's inline road: connection::runs::here); elsewhere it moves work from
  // the threads that run calls to the one that reads (HTTP at 16 connections: 18% fewer calls).
  static message read(std::string_view text, std::size_t max_depth, const detail::arguments_decoder* one_pass);
  static json too_deep_error(std::size_t max_depth);
  static json parse_error();
  bool read_envelope(detail::json_reader& in, const detail::arguments_decoder* decoder, bool check_later);
  bool read_params(detail::json_reader& in, const detail::arguments_decoder* decoder, bool check_later);

  json refusal_;
  bool jsonrpc_ok_ = false;  // "jsonrpc": "2.0"
  bool has_id_ = false, has_method_ = false, method_is_string_ = false;
  bool has_params_ = false, has_result_ = false, has_error_ = false;
  json id_, result_, error_;
  detail::request_params params_;
  detail::message_origin origin_;
  std::string method_;
};

namespace detail {
// For the SDK's own tests: the one-pass read, and a message checked at once (the road whose
// answers every other road's must equal).
struct message_access {
  static message read_one_pass(std::string_view text, std::size_t max_depth, const arguments_decoder* decoder) {
    return message::read(text, max_depth, decoder);
  }
  static message read_checked(std::string_view text, std::size_t max_depth) {
    message m = message::read(text, max_depth);
    m.check();
    return m;
  }
};

// Whether `text` is `word`: the envelope's few member names, compared without a call.
template <std::size_t N>
bool is_word(std::string_view text, const char (&word)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), word, N - 1) == 0;
}
}  // namespace detail

inline json message::too_deep_error(std::size_t max_depth) {
  return jsonrpc::error(nullptr, error_code::invalid_request,
                        "Invalid request: JSON nested deeper than " + std::to_string(max_depth) + " levels");
}

inline json message::parse_error() {
  return jsonrpc::error(nullptr, error_code::parse_error, "Parse error: the message is not valid JSON");
}

inline message message::read(std::string_view text, std::size_t max_depth) { return read(text, max_depth, nullptr); }

inline message message::read(std::string_view text, std::size_t max_depth, const detail::arguments_decoder* one_pass) {
  message m;
  detail::json_reader in(text, max_depth);
  in.skip_bom();
  bool ok = false;
  if (max_depth > 0 && in.peek('{')) {
    ok = m.read_envelope(in, one_pass, one_pass == nullptr);
  } else {  // not an object: read it whole to say what it is
    json whole;
    switch (detail::read_json(text, whole, max_depth)) {
      case detail::read_result::ok:
        m.refusal_ = jsonrpc::error(nullptr, error_code::invalid_request,
                                    whole.is_array() ? "Invalid request: batch arrays are not supported; send one message at a time"
                                                     : "Invalid request: a message must be a JSON object");
        return m;
      case detail::read_result::too_deep: m.refusal_ = too_deep_error(max_depth); return m;
      case detail::read_result::invalid: break;
    }
  }
  if (!ok)
    m.refusal_ = in.too_deep() ? too_deep_error(max_depth) : parse_error();
  return m;
}

// Members may come in any order; a repeated one keeps its last value and unknown ones are read
// (they must be valid JSON within the depth limit) and dropped, as a whole read would.
inline bool message::read_envelope(detail::json_reader& in, const detail::arguments_decoder* decoder, bool check_later) {
  constexpr std::size_t open = 1;  // the envelope's own level
  std::string key_scratch, value_scratch;
  std::string_view key, word;
  if (!in.consume('{')) return false;
  if (!in.consume('}')) {
    do {
      if (!in.read_string_view(key, key_scratch) || !in.consume(':')) return false;
      if (detail::is_word(key, "id")) {
        if (!in.read_value(id_, open)) return false;
        has_id_ = true;
      } else if (detail::is_word(key, "method") || detail::is_word(key, "jsonrpc")) {
        const bool is_method = detail::is_word(key, "method");  // `key` may point into key_scratch, reused below
        bool is_string = in.peek('"');
        if (is_string) {
          if (!in.read_string_view(word, value_scratch)) return false;
        } else {
          json other;
          if (!in.read_value(other, open)) return false;
        }
        if (is_method) {
          has_method_ = true;
          method_is_string_ = is_string;
          if (is_string) method_.assign(word);
        } else {
          jsonrpc_ok_ = is_string && detail::is_word(word, "2.0");
        }
      } else if (detail::is_word(key, "params")) {
        // The decoder only where "method" came first and is tools/call, as clients write it.
        const bool call = has_method_ && method_is_string_ && detail::is_word(method_, "tools/call");
        if (!read_params(in, call ? decoder : nullptr, check_later)) return false;
        has_params_ = true;
      } else if (detail::is_word(key, "result")) {
        if (!in.read_value(result_, open)) return false;
        has_result_ = true;
      } else if (detail::is_word(key, "error")) {
        if (!in.read_value(error_, open)) return false;
        has_error_ = true;
      } else {
        json ignored;
        if (!in.read_value(ignored, open)) return false;
      }
    } while (in.consume(','));
    if (!in.consume('}')) return false;
  }
  return in.at_end();
}

// An object's members go where detail::request_params keeps them; any other value stays whole
// (and is refused when received). An object "arguments" after a string "name" goes to `decoder`
// first: what the tool's reader took it has also checked, as skip_value would have.
inline bool message::read_params(detail::json_reader& in, const detail::arguments_decoder* decoder, bool check_later) {
  constexpr std::size_t open = 2;  // the envelope's level and params' own
  // A repeated "params": the last one counts, but what the earlier held was JSON too.
  if (has_params_) {
    if (!params_.check_arguments(nullptr)) return false;
    params_ = detail::request_params();
  }
  if (!in.peek('{')) {
    json other;
    if (!in.read_value(other, open - 1)) return false;
    params_ = detail::request_params(std::move(other));
    return true;
  }
  if (!in.enter_object(open)) return false;
  if (in.consume('}')) return true;
  std::string key_scratch, value_scratch;
  std::string_view key, word;
  do {
    if (!in.read_string_view(key, key_scratch) || !in.consume(':')) return false;
    // A repeated "arguments" replaces the earlier, which must have been JSON all the same.
    if (detail::is_word(key, "arguments") && !params_.check_arguments(nullptr)) return false;
    if (detail::is_word(key, "name") && in.peek('"')) {
      if (!in.read_string_view(word, value_scratch)) return false;
      params_.set_name(word);
    } else if (detail::is_word(key, "arguments") && in.peek('{')) {
      const char* start = in.position();
      detail::decoded_arguments decoded;
      const bool delimited = check_later && in.skip_brackets(open);
      const std::size_t taken =
          !check_later && decoder && params_.name() ? decoder->decode(*params_.name(), in.remaining(), decoded) : 0;
      if (taken)
        in.skip(taken);
      else if (!delimited && !in.skip_value(open))  // brackets that do not close: checked now, exactly
        return false;
      params_.set_arguments_text(std::string_view(start, static_cast<std::size_t>(in.position() - start)), open,
                                 in.max_depth(), !delimited);
      if (taken) params_.set_decoded(std::move(decoded));
    } else if (detail::is_word(key, "arguments")) {
      if (!in.read_value(params_.set_arguments(), open)) return false;
    } else {
      if (!in.read_value(params_.set_member(std::string(key)), open)) return false;
    }
  } while (in.consume(','));
  return in.consume('}');
}

}  // namespace v0
}  // namespace mcp
