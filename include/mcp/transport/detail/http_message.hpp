// HTTP/1.1 messages for the Streamable HTTP transport: the response's serialisation (whole or as
// a chunked stream) and the few header-value checks MCP needs (Accept, Content-Type, Host,
// Origin). The message types themselves (header map, request, response) are public, in
// transport/http_types.hpp; the names below are the ones the transport's code uses for them.
//
// Framing decisions, so the transport does not have to re-derive them:
// - serialize() always writes Content-Length itself (except for 1xx/204/304, which have no body)
//   and drops any Content-Length / Transfer-Encoding the caller put in the headers: the body is the
//   only source of truth for framing.
// - Streams (SSE) use chunked transfer coding, which keeps the connection reusable after the
//   stream ends. An HTTP/1.0 client cannot take chunked, so stream_framing::close_delimited is
//   there for it: no framing, "Connection: close", the end of the stream is the end of the socket.
// - Header fields whose name is not a token, or whose value holds CR, LF, NUL or another control
//   byte, are left out on output: that is how response splitting would get in.
#pragma once

#include <mcp/transport/http_types.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

using ::mcp::http::header_field;
using ::mcp::http::header_map;
using ::mcp::http::request;
using ::mcp::http::response;

// ---- character classes and small string helpers (RFC 9110 §5.6; the ones header_map needs are
// in http_types.hpp) ----------------------------------------------------------------------------

inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

namespace char_class {
constexpr bool tchar(unsigned char c) noexcept {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
    case '-': case '.': case '^': case '_': case '`': case '|': case '~':
      return true;
    default:
      return false;
  }
}
// Looked up rather than computed: every header name of every request goes through it.
struct tchar_table {
  bool is[256] = {};
  constexpr tchar_table() {
    for (int c = 0; c < 256; ++c) is[c] = tchar(static_cast<unsigned char>(c));
  }
};
inline constexpr tchar_table tchars{};
}  // namespace char_class

constexpr bool is_tchar(char c) noexcept { return char_class::tchars.is[static_cast<unsigned char>(c)]; }

inline bool is_token(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

// field-value bytes: HTAB, SP, VCHAR and obs-text. Everything else (CR, LF, NUL, DEL, ...) is out.
constexpr bool is_field_value_char(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return u == '\t' || (u >= 0x20 && u != 0x7F);
}

inline bool is_field_value(std::string_view s) noexcept {
  // Eight bytes at a time: a word with no byte below 0x20 and none of 0x7F holds field-value
  // bytes only (0x80 and above are obs-text). Either test may be set off by a byte that is fine
  // (a tab, or a borrow): such a word is looked at byte by byte.
  constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    const std::uint64_t x = w ^ (ones * 0x7F);
    const std::uint64_t del = (x - ones) & ~x & highs;
    if ((below_space | del) == 0) continue;
    for (std::size_t j = i; j < i + 8; ++j)
      if (!is_field_value_char(s[j])) return false;
  }
  for (; i < s.size(); ++i)
    if (!is_field_value_char(s[i])) return false;
  return true;
}

// A parameter value may be a token or a quoted-string; this gives its content either way.
inline std::string unquote(std::string_view v) {
  if (v.size() < 2 || v.front() != '"' || v.back() != '"') return std::string(v);
  std::string out;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    if (v[i] == '\\' && i + 2 < v.size()) ++i;
    out += v[i];
  }
  return out;
}

// ---- response --------------------------------------------------------------------------------

inline std::string_view reason_phrase(int status) noexcept {
  switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 422: return "Unprocessable Content";
    case 426: return "Upgrade Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "";
  }
}

// Sent when a request carried "Expect: 100-continue" and its body is wanted.
inline std::string_view continue_response() noexcept { return "HTTP/1.1 100 Continue\r\n\r\n"; }

namespace serialize_detail {

inline void append_status_line(std::string& out, const response& r) {
  if (r.status == 200 && r.reason.empty()) {  // nearly every answer
    out += "HTTP/1.1 200 OK\r\n";
    return;
  }
  // A status outside 100..599 is a bug in the caller; say 500 rather than emit garbage.
  const int status = (r.status >= 100 && r.status <= 599) ? r.status : 500;
  std::string_view reason = (status == r.status) ? std::string_view(r.reason) : std::string_view{};
  if (reason.empty() || !is_field_value(reason)) reason = reason_phrase(status);
  const char digits[3] = {char('0' + status / 100), char('0' + status / 10 % 10), char('0' + status % 10)};
  out += "HTTP/1.1 ";
  out.append(digits, 3);
  out += ' ';
  out += reason;
  out += "\r\n";
}

inline void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += ": ";
  out += value;
  out += "\r\n";
}

// The caller's headers, minus the ones serialisation owns and minus anything that could split
// the response.
inline void append_fields(std::string& out, const header_map& headers,
                          std::initializer_list<std::string_view> owned) {
  for (const auto& f : headers) {
    if (!is_token(f.name) || !is_field_value(f.value)) continue;
    bool skip = false;
    for (auto o : owned) skip = skip || iequals(f.name, o);
    if (!skip) append_field(out, f.name, f.value);
  }
}

inline bool status_has_body(int status) noexcept {
  return !(status < 200 || status == 204 || status == 304);
}

}  // namespace serialize_detail

// A response's head: status line, headers, Content-Length, the blank line; appended to `out`.
// True when r.body follows it (false for a status that has no body: the body is dropped).
inline bool serialize_head_to(const response& r, std::string& out) {
  namespace sd = serialize_detail;
  sd::append_status_line(out, r);
  sd::append_fields(out, r.headers, {"Content-Length", "Transfer-Encoding"});
  const int status = (r.status >= 100 && r.status <= 599) ? r.status : 500;
  if (!sd::status_has_body(status)) {
    out += "\r\n";
    return false;
  }
  char length[24];
  const auto end = std::to_chars(length, length + sizeof length, r.body.size()).ptr;
  sd::append_field(out, "Content-Length", std::string_view(length, static_cast<std::size_t>(end - length)));
  out += "\r\n";
  return true;
}

// A whole response: its head, then its body; appended to `out`.
inline void serialize_to(const response& r, std::string& out) {
  out.reserve(out.size() + 128 + r.body.size());
  if (serialize_head_to(r, out)) out += r.body;
}
inline std::string serialize(const response& r) {
  std::string out;
  serialize_to(r, out);
  return out;
}

enum class stream_framing {
  chunked,          // HTTP/1.1: each write goes out through chunk(), the end is last_chunk()
  close_delimited,  // HTTP/1.0: raw bytes, the stream ends when the connection closes
};

// The head of an SSE response: status line, the caller's headers (its body is ignored),
// Content-Type: text/event-stream, Cache-Control: no-cache, then the framing header.
inline std::string serialize_event_stream_head(const response& head,
                                               stream_framing framing = stream_framing::chunked) {
  namespace sd = serialize_detail;
  std::string out;
  out.reserve(160);
  sd::append_status_line(out, head);
  sd::append_fields(out, head.headers,
                    {"Content-Length", "Transfer-Encoding", "Content-Type", "Cache-Control",
                     framing == stream_framing::close_delimited ? "Connection" : ""});
  sd::append_field(out, "Content-Type", "text/event-stream");
  sd::append_field(out, "Cache-Control", "no-cache");
  if (framing == stream_framing::chunked)
    sd::append_field(out, "Transfer-Encoding", "chunked");
  else
    sd::append_field(out, "Connection", "close");
  out += "\r\n";
  return out;
}

// One chunk of a chunked body. Empty data gives an empty string, because a zero-size chunk
// would end the body; use last_chunk() for that.
inline std::string chunk(std::string_view data) {
  if (data.empty()) return {};
  static constexpr char digits[] = "0123456789abcdef";
  char size[2 * sizeof(std::size_t)];
  std::size_t n = 0;
  for (std::size_t v = data.size(); v != 0; v >>= 4) size[n++] = digits[v & 0xF];
  std::string out;
  out.reserve(n + 4 + data.size());
  while (n > 0) out += size[--n];
  out += "\r\n";
  out += data;
  out += "\r\n";
  return out;
}

inline std::string_view last_chunk() noexcept { return "0\r\n\r\n"; }

// ---- header values MCP checks ----------------------------------------------------------------

struct accepted_types {
  bool json = false;          // application/json
  bool event_stream = false;  // text/event-stream
};

namespace accept_detail {

// qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), as thousandths; nullopt if malformed.
inline std::optional<int> parse_qvalue(std::string_view v) {
  if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
  int whole = v[0] - '0';
  if (v.size() == 1) return whole * 1000;
  if (v[1] != '.' || v.size() > 5) return std::nullopt;
  int frac = 0;
  int scale = 100;
  for (std::size_t i = 2; i < v.size(); ++i, scale /= 10) {
    if (!is_digit(v[i])) return std::nullopt;
    frac += (v[i] - '0') * scale;
  }
  if (whole == 1 && frac != 0) return std::nullopt;
  return whole * 1000 + frac;
}

// One media range of an Accept list, read once and matched against each type MCP uses.
struct media_range {
  std::string_view type, subtype;
  int q = 1000;
};

// Reads "type/subtype;q=0.5;..." ; nullopt when malformed (such an element matches nothing).
inline std::optional<media_range> parse_media_range(std::string_view element) {
  media_range r;
  std::string_view range;
  bool ok = true;
  bool first = true;
  bool seen_q = false;
  for_each_list_element(element, ';', [&](std::string_view part) {
    if (first) {
      range = part;
      first = false;
      return;
    }
    if (part.empty()) return;  // "type/sub;" is allowed: parameters may be empty
    const auto eq = part.find('=');
    if (eq == std::string_view::npos) {
      ok = false;
      return;
    }
    const auto name = trim_ows(part.substr(0, eq));
    if (!is_token(name)) ok = false;
    // Only the first q counts; what follows it are accept-extensions.
    if (!seen_q && iequals(name, "q")) {
      seen_q = true;
      const auto parsed = parse_qvalue(trim_ows(part.substr(eq + 1)));
      if (!parsed) ok = false;
      else r.q = *parsed;
    }
  });
  const auto slash = range.find('/');
  if (!ok || slash == std::string_view::npos) return std::nullopt;
  r.type = range.substr(0, slash);
  r.subtype = range.substr(slash + 1);
  if (!is_token(r.type) || !is_token(r.subtype)) return std::nullopt;
  if (r.type == "*" && r.subtype != "*") return std::nullopt;  // "*/json" is not a media range
  return r;
}

// The best match so far for one type/subtype: the most specific range that matches decides
// (RFC 9110 §12.5.1), and its q must be above zero.
struct best_match {
  std::string_view type, subtype;
  int specificity = -1;
  int q = 0;

  void consider(const media_range& r) {
    int s;
    if (r.type == "*") s = 0;
    else if (!iequals(r.type, type)) return;
    else if (r.subtype == "*") s = 1;
    else if (iequals(r.subtype, subtype)) s = 2;
    else return;
    if (s > specificity || (s == specificity && r.q > q)) {
      specificity = s;
      q = r.q;
    }
  }
  bool accepted() const { return specificity >= 0 && q > 0; }
};

}  // namespace accept_detail

// What an Accept value (several Accept fields joined with ", ") allows of the two types MCP uses.
// An empty value accepts nothing; whether a missing Accept header means "anything" is the
// caller's call.
inline accepted_types parse_accept(std::string_view accept) {
  accept_detail::best_match as_json{"application", "json"}, events{"text", "event-stream"};
  for_each_list_element(accept, ',', [&](std::string_view element) {
    if (element.empty()) return;
    if (auto range = accept_detail::parse_media_range(element)) {
      as_json.consider(*range);
      events.consider(*range);
    }
  });
  return {as_json.accepted(), events.accepted()};
}

inline accepted_types parse_accept(const header_map& headers) {
  const auto first = headers.get("Accept");
  if (!first) return parse_accept(std::string_view{});
  if (headers.count("Accept") == 1) {  // the usual case: nothing to join
    // A client sends the same Accept with every request: the last answer is kept per thread.
    thread_local std::string last_value;
    thread_local accepted_types last_types = parse_accept(std::string_view{});
    if (*first != last_value) {
      last_types = parse_accept(*first);
      last_value = *first;
    }
    return last_types;
  }
  std::string joined;
  headers.for_each_value("Accept", [&](std::string_view v) {
    if (!joined.empty()) joined += ", ";
    joined += v;
  });
  return parse_accept(joined);
}

// Content-Type is application/json, with any parameters, but a charset other than UTF-8 is not
// JSON (RFC 8259 §8.1).
inline bool is_json_content_type(std::string_view content_type) {
  bool ok = true;
  bool first = true;
  for_each_list_element(content_type, ';', [&](std::string_view part) {
    if (first) {
      first = false;
      ok = iequals(part, "application/json");
      return;
    }
    if (!ok || part.empty()) return;
    const auto eq = part.find('=');
    if (eq == std::string_view::npos) {
      ok = false;
      return;
    }
    const auto name = trim_ows(part.substr(0, eq));
    const auto value = trim_ows(part.substr(eq + 1));
    if (!is_token(name) || value.empty()) ok = false;
    else if (iequals(name, "charset") && !iequals(unquote(value), "utf-8")) ok = false;
  });
  return ok;
}

struct host_port {
  std::string host;  // lower-cased; an IPv6 literal keeps its brackets, e.g. "[::1]"
  std::optional<std::uint16_t> port;
};

// A Host header value (RFC 9110 §7.2): uri-host [ ":" port ]. No userinfo, path or spaces.
inline std::optional<host_port> parse_host(std::string_view v) {
  if (v.empty()) return std::nullopt;
  host_port out;
  std::string_view rest;
  if (v.front() == '[') {
    const auto close = v.find(']');
    if (close == std::string_view::npos || close < 3) return std::nullopt;
    bool colon = false;
    for (char c : v.substr(1, close - 1)) {
      const bool hex = is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'f');
      if (!hex && c != ':' && c != '.') return std::nullopt;
      colon = colon || c == ':';
    }
    if (!colon) return std::nullopt;
    out.host = to_lower(v.substr(0, close + 1));
    rest = v.substr(close + 1);
  } else {
    const auto colon = v.find(':');
    const auto name = v.substr(0, colon);
    if (name.empty()) return std::nullopt;
    for (char c : name) {
      // reg-name: unreserved / pct-encoded / sub-delims (IPv4 literals fit too)
      const bool ok = is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
                      c == '%' || c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' ||
                      c == ')' || c == '*' || c == '+' || c == ',' || c == ';' || c == '=';
      if (!ok) return std::nullopt;
    }
    out.host = to_lower(name);
    rest = colon == std::string_view::npos ? std::string_view{} : v.substr(colon);
  }
  if (rest.empty()) return out;
  if (rest.front() != ':') return std::nullopt;
  rest.remove_prefix(1);
  if (rest.empty()) return out;  // "host:" is allowed and means the default port
  std::uint32_t port = 0;
  for (char c : rest) {
    if (!is_digit(c)) return std::nullopt;
    port = port * 10 + std::uint32_t(c - '0');
    if (port > 65535) return std::nullopt;
  }
  out.port = static_cast<std::uint16_t>(port);
  return out;
}

struct origin {
  std::string scheme;  // lower-cased
  std::string host;    // as in host_port
  std::optional<std::uint16_t> port;
};

// An Origin header value: scheme "://" host [ ":" port ], nothing after. "null" is not an origin.
inline std::optional<origin> parse_origin(std::string_view v) {
  const auto sep = v.find("://");
  if (sep == std::string_view::npos || sep == 0) return std::nullopt;
  const auto scheme = v.substr(0, sep);
  if (!is_alpha(scheme.front())) return std::nullopt;
  for (char c : scheme)
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.') return std::nullopt;
  auto hp = parse_host(v.substr(sep + 3));
  if (!hp) return std::nullopt;
  return origin{to_lower(scheme), std::move(hp->host), hp->port};
}

// The names a local server answers to; anything else in Host or Origin smells of DNS rebinding.
inline bool is_loopback_host(std::string_view host) noexcept {
  return iequals(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

inline bool is_local_host_header(std::string_view host_value) {
  const auto hp = parse_host(host_value);
  return hp && is_loopback_host(hp->host);
}

// is_local_host_header for the Host a local client sends every time ("127.0.0.1:8080"), read
// without parse_host (which lower-cases the name into a string of its own). False for anything it
// does not read itself: then ask is_local_host_header.
inline bool is_plain_loopback_host(std::string_view v) noexcept {
  std::string_view rest;
  if (v.size() >= 9 && iequals(v.substr(0, 9), "localhost")) rest = v.substr(9);
  else if (v.size() >= 9 && v.substr(0, 9) == "127.0.0.1") rest = v.substr(9);
  else if (v.size() >= 5 && v.substr(0, 5) == "[::1]") rest = v.substr(5);
  else return false;
  if (rest.empty()) return true;
  if (rest.front() != ':' || rest.size() > 6) return false;
  std::uint32_t port = 0;
  for (char c : rest.substr(1)) {
    if (!is_digit(c)) return false;
    port = port * 10 + std::uint32_t(c - '0');
  }
  return port <= 65535;
}

inline bool is_local_origin(std::string_view origin_value) {
  const auto o = parse_origin(origin_value);
  return o && (o->scheme == "http" || o->scheme == "https") && is_loopback_host(o->host);
}

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
