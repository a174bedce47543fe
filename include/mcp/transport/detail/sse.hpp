// Server-Sent Events framing (WHATWG HTML §9.2) and the event ids used for resumable streams.
//
// An event id names its stream: "<stream-id>:<sequence>", where the stream id is visible ASCII
// without ':' and the sequence is a decimal uint64 without leading zeros. A Last-Event-ID that
// comes back can therefore be routed to the right stream and replayed from the right place, and
// ids from other streams can never be confused with it (MCP 2025-11-25, resumability).
#pragma once

#include <mcp/transport/detail/http_message.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

namespace sse_detail {

// A client ends a field's value at CR or LF, and ignores an id that holds NUL.
constexpr bool breaks_field(char c) noexcept { return c == '\r' || c == '\n' || c == '\0'; }

// Drops the bytes that break a field, so one field cannot smuggle another in.
inline void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += ": ";
  for (char c : value)
    if (!breaks_field(c)) out += c;
  out += '\n';
}

// Whether an id can be written as it is. Dropping bytes from one instead would hand the client an
// id no event ever had (a resume from it finds nothing), and an id of nothing but such bytes would
// become an empty "id:" line, which resets the client's last event id.
inline bool writable_id(std::string_view id) noexcept {
  if (id.empty()) return false;
  for (char c : id)
    if (breaks_field(c)) return false;
  return true;
}

}  // namespace sse_detail

// One event. The id line is written only for an id that is not empty and holds no CR, LF or NUL
// (see writable_id); otherwise the event goes without one and the client keeps its last id.
// data is split at CRLF, CR and LF, which the client reads as line ends, into one "data:" line
// per line; the client joins them back with LF. A negative retry is left out.
inline std::string sse_event(std::string_view id, std::string_view data,
                             std::optional<std::string_view> event = {},
                             std::optional<int> retry_ms = {}) {
  std::string out;
  out.reserve(data.size() + id.size() + 32);
  if (event) sse_detail::append_field(out, "event", *event);
  if (sse_detail::writable_id(id)) sse_detail::append_field(out, "id", id);
  if (retry_ms && *retry_ms >= 0) {
    out += "retry: ";
    out += std::to_string(*retry_ms);
    out += '\n';
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= data.size(); ++i) {
    if (i < data.size() && data[i] != '\r' && data[i] != '\n') continue;
    out += "data: ";
    out.append(data.data() + start, i - start);
    out += '\n';
    if (i + 1 < data.size() && data[i] == '\r' && data[i + 1] == '\n') ++i;
    start = i + 1;
  }
  out += '\n';
  return out;
}

// The first event of a stream: an id and empty data, so the client has something to resume
// from before any message was sent. Clients do not dispatch it (the data is empty).
inline std::string sse_priming_event(std::string_view id, std::optional<int> retry_ms = {}) {
  return sse_event(id, {}, std::nullopt, retry_ms);
}

// A comment line; clients ignore it, proxies see traffic. Useful as a keep-alive.
inline std::string sse_comment(std::string_view text) {
  std::string out = ":";
  for (char c : text)
    if (c != '\r' && c != '\n') out += c;
  out += "\n\n";
  return out;
}

constexpr std::size_t max_event_id_length = 256;

inline bool is_valid_stream_id(std::string_view stream_id) noexcept {
  if (stream_id.empty() || stream_id.size() > max_event_id_length - 21) return false;
  for (char c : stream_id) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x21 || u > 0x7E || c == ':') return false;
  }
  return true;
}

// Precondition: is_valid_stream_id(stream_id); otherwise the id will not parse back.
inline std::string make_event_id(std::string_view stream_id, std::uint64_t sequence) {
  std::string out(stream_id);
  out += ':';
  out += std::to_string(sequence);
  return out;
}

// The stream id and sequence of an event id from make_event_id; nullopt for anything else.
inline std::optional<std::pair<std::string, std::uint64_t>> parse_event_id(std::string_view id) {
  if (id.size() > max_event_id_length) return std::nullopt;
  const auto colon = id.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto stream = id.substr(0, colon);
  const auto digits = id.substr(colon + 1);
  if (!is_valid_stream_id(stream)) return std::nullopt;
  if (digits.empty() || digits.size() > 20 || (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  std::uint64_t seq = 0;
  constexpr std::uint64_t max = ~std::uint64_t{0};
  for (char c : digits) {
    if (!is_digit(c)) return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (seq > (max - d) / 10) return std::nullopt;
    seq = seq * 10 + d;
  }
  return std::make_pair(std::string(stream), seq);
}

// The Last-Event-ID a reconnecting client sent, parsed; nullopt if absent or not one of ours.
inline std::optional<std::pair<std::string, std::uint64_t>> last_event_id(const header_map& headers) {
  const auto v = headers.get("Last-Event-ID");
  if (!v) return std::nullopt;
  return parse_event_id(*v);
}

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
