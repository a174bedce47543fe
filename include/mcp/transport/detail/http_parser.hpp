// An incremental HTTP/1.1 request parser (RFC 9112) with hard limits. Bytes in, requests out;
// no sockets, no exceptions other than std::bad_alloc, no reads past the input, and every call
// either consumes input or stops, so it cannot spin.
//
// Use: feed() the bytes of a socket read. It stops right after the end of one request, so a
// buffer holding several pipelined requests takes several calls; bytes of an unfinished request
// are buffered inside, so the caller never has to keep them:
//
//   std::string_view data(buf, n);
//   while (!data.empty()) {
//     std::size_t used = 0;
//     auto r = parser.feed(data, used);
//     data.remove_prefix(used);
//     if (r == request_parser::result::complete) handle(parser.take_request());
//     else if (r == request_parser::result::error) { send(error_response(parser.error())); close(); break; }
//     else break;  // need_more: everything was consumed
//   }
//
// Rules chosen where the RFC leaves room (all of them: reject, answer, close):
// - Lines end in CRLF. A bare LF or a CR not followed by LF is 400: a direct client never sends
//   one, and tolerating them is how request smuggling through a lenient proxy starts.
// - A request line longer than max_request_line (not counting CRLF) is 414 URI Too Long. Empty
//   lines before a request line are skipped (RFC 9112 §2.2) but count against that same budget.
// - The header section (field lines with their CRLFs plus the final empty line) is capped at
//   max_header_bytes and max_header_count field lines; either overflowing is 431. Trailers of a
//   chunked body share the same budget and count, and are checked and dropped.
// - Whitespace before the colon, obs-fold continuation lines, control bytes in a value, a name
//   that is not a token: 400.
// - Content-Length must be digits; repeats (or a list) must all agree, else 400. Over
//   max_body_bytes is 413 at once, before any of the body is read.
// - Transfer-Encoding must be exactly "chunked": another coding is 501, "chunked" twice or an
//   empty list is 400, and so is Transfer-Encoding together with Content-Length, or on HTTP/1.0.
//   The decoded body growing past max_body_bytes is 413 as soon as the chunk size says so.
// - A chunk line is exactly chunk-size *( ";" token [ "=" ( token / quoted-string ) ] ) CRLF
//   (RFC 9112 §7.1.1) with no whitespace anywhere: the grammar's BWS is refused, as llhttp does
//   unless a leniency flag is set, because "5 ;x" or "5 \r\n" is where a lenient proxy and a
//   strict server start to disagree on where a chunk ends (request smuggling). An empty name or
//   value, an unclosed quote or any other byte: 400. Extensions are checked, then skipped; their
//   bytes over the whole request are capped at max_chunk_ext_bytes (400 beyond: they are framing,
//   not content or header fields, so 413 and 431 would send the client looking in the wrong place).
// - Only HTTP/1.0 and HTTP/1.1 are served: another well-formed version is 505.
// - HTTP/1.1 needs exactly one Host field, and no version may send two (RFC 9112 §3.2): 400.
// - Targets: origin-form ("/p?q"), absolute-form ("http://h/p") and "*"; anything else is 400.
#pragma once

#include <mcp/transport/detail/http_message.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

using http_limits = ::mcp::http::limits;  // public: http::options::limits (http_types.hpp)

// What to tell the client before closing: a status (400, 413, 414, 431, 501 or 505) and a short
// human-readable detail. detail points at a string literal.
struct parse_error {
  int status = 400;
  std::string_view detail;
};

// The response for a parse error: plain text, and the connection is closed after it because the
// framing of whatever follows is unknown.
inline response error_response(const parse_error& e) {
  response r;
  r.status = e.status;
  r.headers.add("Content-Type", "text/plain; charset=utf-8");
  r.headers.add("Connection", "close");
  r.body = std::string(e.detail);
  r.body += '\n';
  return r;
}

class request_parser {
 public:
  enum class result {
    need_more,  // all of the input was consumed; feed more
    complete,   // a request ends at bytes[consumed - 1]; take_request(), then feed the rest
    error,      // see error(); the parser stays failed until reset()
  };

  explicit request_parser(http_limits limits = {}) : limits_(limits) {}

  result feed(std::string_view bytes, std::size_t& consumed) {
    consumed = 0;
    if (state_ == state::failed) return result::error;
    if (state_ == state::done) start_next();
    std::string_view in = bytes;
    while (state_ != state::done && state_ != state::failed && !in.empty()) step(in);
    consumed = bytes.size() - in.size();
    if (state_ == state::failed) return result::error;
    return state_ == state::done ? result::complete : result::need_more;
  }

  // The request that the last feed() completed. Moves it out: call once per complete, before the
  // next feed(), which starts a new request.
  request take_request() { return std::move(request_); }
  // The same, left where it is, until the next feed(): the next request is read into its storage,
  // so a connection's requests cost no allocation once the first has grown it.
  const request& completed() const noexcept { return request_; }

  // The request being parsed. After the headers are in (has_headers()), method, target and
  // headers are final, e.g. for an early 404 or auth check before the body arrives.
  const request& current() const noexcept { return request_; }
  bool has_headers() const noexcept {
    return state_ != state::request_line && state_ != state::header_line && state_ != state::failed;
  }

  // True once per request whose headers asked "Expect: 100-continue" for a body not yet read:
  // send continue_response() then (or a final status instead).
  bool take_continue() noexcept { return std::exchange(continue_pending_, false); }

  const parse_error& error() const noexcept { return error_; }
  bool failed() const noexcept { return state_ == state::failed; }

  // Forget everything, including a failure; for reusing the parser on a new connection.
  void reset() {
    start_next();
    error_ = {};
  }

  // Chunk-size lines with extensions longer than this are refused (400); real clients send a few
  // hex digits.
  static constexpr std::size_t max_chunk_line = 4096;
  // A body's storage kept for the next request up to this; a larger one is let go.
  static constexpr std::size_t kept_body_capacity = 64 * 1024;

 private:
  enum class state {
    request_line,
    header_line,
    body,
    chunk_size,
    chunk_data,
    chunk_data_cr,
    chunk_data_lf,
    trailer_line,
    done,
    failed,
  };

  enum class line_status { incomplete, complete, too_long, bad_ending };

  void start_next() {
    state_ = state::request_line;
    // Cleared in place, keeping the storage, but not a large body's.
    request_.method.clear();
    request_.target.clear();
    request_.minor_version = 1;
    if (request_.headers.empty()) request_.headers.reserve(12, 512);  // a request's usual fields
    request_.headers.clear();
    if (request_.body.capacity() > kept_body_capacity) std::string().swap(request_.body);
    request_.body.clear();
    line_.clear();
    skipped_bytes_ = 0;
    header_bytes_ = 0;
    header_count_ = 0;
    chunk_ext_bytes_ = 0;
    remaining_ = 0;
    continue_pending_ = false;
  }

  void fail(int status, std::string_view detail) {
    state_ = state::failed;
    error_ = parse_error{status, detail};
    continue_pending_ = false;
    line_.clear();
  }

  static std::size_t saturating_add(std::size_t a, std::size_t b) noexcept {
    return a > std::numeric_limits<std::size_t>::max() - b ? std::numeric_limits<std::size_t>::max()
                                                            : a + b;
  }

  // Collects one line, across calls if need be, whose raw length (with its line ending) may not
  // exceed max_raw. A partial line is refused as soon as it can no longer fit, so what is buffered
  // stays bounded, and the verdict does not depend on where the input was split. On complete,
  // `line` excludes CRLF and is valid until line_ is next touched.
  line_status read_line(std::string_view& in, std::size_t max_raw, std::string_view& line) {
    const void* lf = std::memchr(in.data(), '\n', in.size());
    if (!lf) {
      // The finished line will be at least one byte longer (its LF).
      if (in.size() >= max_raw - line_.size()) return line_status::too_long;
      line_.append(in.data(), in.size());
      in = {};
      return line_status::incomplete;
    }
    const auto pos = static_cast<std::size_t>(static_cast<const char*>(lf) - in.data());
    if (pos + 1 > max_raw - line_.size()) return line_status::too_long;
    if (line_.empty()) {
      line = in.substr(0, pos);  // the whole line is in this input: no copy
    } else {
      line_.append(in.data(), pos);
      line = line_;
    }
    in.remove_prefix(pos + 1);
    if (line.empty() || line.back() != '\r') return line_status::bad_ending;
    line.remove_suffix(1);
    return line_status::complete;
  }

  void step(std::string_view& in) {
    switch (state_) {
      case state::request_line: return on_request_line(in);
      case state::header_line:
      case state::trailer_line: return on_field_line(in);
      case state::body: return take_body(in, state::done);
      case state::chunk_size: return on_chunk_size(in);
      case state::chunk_data: return take_body(in, state::chunk_data_cr);
      case state::chunk_data_cr:
      case state::chunk_data_lf: return on_chunk_data_end(in);
      case state::done:
      case state::failed: return;
    }
  }

  void on_request_line(std::string_view& in) {
    std::string_view line;
    const std::size_t budget = saturating_add(limits_.max_request_line, 2) - skipped_bytes_;
    switch (read_line(in, budget, line)) {
      case line_status::incomplete: return;
      case line_status::too_long: return fail(414, "request line too long");
      case line_status::bad_ending: return fail(400, "request line must end in CRLF");
      case line_status::complete: break;
    }
    if (line.empty()) {
      skipped_bytes_ += 2;
      line_.clear();
      return;
    }
    parse_request_line(line);
    line_.clear();
    if (state_ != state::failed) state_ = state::header_line;
  }

  void parse_request_line(std::string_view line) {
    const auto sp1 = line.find(' ');
    if (sp1 == std::string_view::npos) return fail(400, "malformed request line");
    const auto sp2 = line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos) return fail(400, "malformed request line");
    const auto method = line.substr(0, sp1);
    const auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const auto version = line.substr(sp2 + 1);
    if (!is_token(method)) return fail(400, "malformed method");

    // HTTP-version = "HTTP/" DIGIT "." DIGIT
    if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || !is_digit(version[5]) ||
        version[6] != '.' || !is_digit(version[7]))
      return fail(400, "malformed HTTP version");
    if (version[5] != '1' || (version[7] != '0' && version[7] != '1'))
      return fail(505, "only HTTP/1.0 and HTTP/1.1 are supported");

    if (target.empty()) return fail(400, "empty request target");
    for (char c : target) {
      const auto u = static_cast<unsigned char>(c);
      if (u <= 0x20 || u >= 0x7F || c == '#') return fail(400, "invalid byte in request target");
    }
    const bool origin_form = target.front() == '/';
    const bool asterisk_form = target == "*";
    const bool absolute_form =
        (target.size() > 7 && iequals(target.substr(0, 7), "http://")) ||
        (target.size() > 8 && iequals(target.substr(0, 8), "https://"));
    if (!origin_form && !asterisk_form && !absolute_form)
      return fail(400, "unsupported request target form");

    request_.method.assign(method.data(), method.size());
    request_.target.assign(target.data(), target.size());
    request_.minor_version = version[7] - '0';
  }

  void on_field_line(std::string_view& in) {
    std::string_view line;
    const std::size_t budget = limits_.max_header_bytes - header_bytes_;
    switch (read_line(in, budget, line)) {
      case line_status::incomplete: return;
      case line_status::too_long: return fail(431, "header section too large");
      case line_status::bad_ending: return fail(400, "header line must end in CRLF");
      case line_status::complete: break;
    }
    header_bytes_ += line.size() + 2;
    if (line.empty()) {
      line_.clear();
      if (state_ == state::trailer_line) {
        state_ = state::done;
        return;
      }
      return end_of_headers();
    }
    if (++header_count_ > limits_.max_header_count) return fail(431, "too many header fields");
    if (is_ows(line.front())) return fail(400, "obsolete line folding is not accepted");
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return fail(400, "header line without a colon");
    const auto name = line.substr(0, colon);
    if (!is_token(name)) return fail(400, "malformed header name");
    const auto value = trim_ows(line.substr(colon + 1));
    if (!is_field_value(value)) return fail(400, "invalid byte in header value");
    if (state_ == state::header_line) request_.headers.add(name, value);
    line_.clear();
  }

  void end_of_headers() {
    const auto& h = request_.headers;
    // The framing fields, found in one pass over the names (by length first).
    std::size_t hosts = 0;
    bool has_te = false, has_cl = false;
    std::optional<std::string_view> expect;
    for (const header_field f : h) {
      switch (f.name.size()) {
        case 4: hosts += iequals(f.name, "Host"); break;
        case 6: if (!expect && iequals(f.name, "Expect")) expect = f.value; break;
        case 14: has_cl = has_cl || iequals(f.name, "Content-Length"); break;
        case 17: has_te = has_te || iequals(f.name, "Transfer-Encoding"); break;
        default: break;
      }
    }
    if (hosts > 1) return fail(400, "more than one Host header");
    if (hosts == 0 && request_.minor_version >= 1) return fail(400, "missing Host header");

    if (has_te) {
      if (has_cl) return fail(400, "both Content-Length and Transfer-Encoding");
      if (request_.minor_version == 0) return fail(400, "Transfer-Encoding in an HTTP/1.0 request");
      std::size_t chunked = 0;
      std::size_t others = 0;
      h.for_each_value("Transfer-Encoding", [&](std::string_view v) {
        for_each_list_element(v, ',', [&](std::string_view coding) {
          if (coding.empty()) return;
          if (iequals(coding, "chunked")) ++chunked;
          else ++others;
        });
      });
      if (others > 0) return fail(501, "unsupported transfer coding");
      if (chunked != 1) return fail(400, "malformed Transfer-Encoding");
      state_ = state::chunk_size;
    } else if (has_cl) {
      bool malformed = false;
      bool first = true;
      std::size_t length = 0;
      h.for_each_value("Content-Length", [&](std::string_view v) {
        for_each_list_element(v, ',', [&](std::string_view e) {
          const auto n = parse_content_length(e);
          if (!n || (!first && *n != length)) malformed = true;
          else length = *n;
          first = false;
        });
      });
      if (malformed) return fail(400, "invalid Content-Length");
      if (length > limits_.max_body_bytes) return fail(413, "body too large");
      remaining_ = length;
      state_ = length > 0 ? state::body : state::done;
      if (length > 0) request_.body.reserve(std::min<std::size_t>(length, 64 * 1024));
    } else {
      state_ = state::done;  // a request without either has no body (RFC 9112 §6.3)
    }
    if (state_ != state::done && request_.minor_version >= 1)
      continue_pending_ = expect && iequals(*expect, "100-continue");
  }

  // 1*DIGIT; a value too big for size_t saturates (it is over any limit anyway).
  static std::optional<std::size_t> parse_content_length(std::string_view v) {
    if (v.empty()) return std::nullopt;
    std::size_t n = 0;
    constexpr auto max = std::numeric_limits<std::size_t>::max();
    for (char c : v) {
      if (!is_digit(c)) return std::nullopt;
      const auto d = static_cast<std::size_t>(c - '0');
      n = n > (max - d) / 10 ? max : n * 10 + d;
    }
    return n;
  }

  // Up to remaining_ bytes of body (the whole Content-Length, or one chunk's data), then `next`.
  void take_body(std::string_view& in, state next) {
    const std::size_t take = std::min(remaining_, in.size());
    request_.body.append(in.data(), take);
    in.remove_prefix(take);
    remaining_ -= take;
    if (remaining_ == 0) state_ = next;
  }

  static int hex_value(char c) noexcept {
    if (is_digit(c)) return c - '0';
    const char l = ascii_lower(c);
    if (l >= 'a' && l <= 'f') return l - 'a' + 10;
    return -1;
  }

  void on_chunk_size(std::string_view& in) {
    std::string_view line;
    switch (read_line(in, max_chunk_line, line)) {
      case line_status::incomplete: return;
      case line_status::too_long: return fail(400, "chunk size line too long");
      case line_status::bad_ending: return fail(400, "chunk size line must end in CRLF");
      case line_status::complete: break;
    }
    std::size_t size = 0;
    bool overflow = false;
    std::size_t i = 0;
    constexpr auto max = std::numeric_limits<std::size_t>::max();
    for (; i < line.size() && hex_value(line[i]) >= 0; ++i) {
      const auto d = static_cast<std::size_t>(hex_value(line[i]));
      if (size > (max - d) / 16) overflow = true;
      else size = size * 16 + d;
    }
    if (i == 0) return fail(400, "malformed chunk size");
    const auto ext = line.substr(i);
    if (!ext.empty() && is_ows(ext.front())) return fail(400, "whitespace after chunk size");
    if (!ext.empty() && ext.front() != ';') return fail(400, "malformed chunk size");
    if (!is_chunk_ext(ext)) return fail(400, "malformed chunk extension");
    chunk_ext_bytes_ = saturating_add(chunk_ext_bytes_, ext.size());
    if (chunk_ext_bytes_ > limits_.max_chunk_ext_bytes) return fail(400, "chunk extensions too large");
    line_.clear();
    if (overflow || size > limits_.max_body_bytes - request_.body.size())
      return fail(413, "body too large");
    if (size == 0) {
      state_ = state::trailer_line;
      return;
    }
    remaining_ = size;
    state_ = state::chunk_data;
  }

  // *( ";" chunk-ext-name [ "=" chunk-ext-val ] ), BWS left out (see the rules at the top);
  // chunk-ext-name = token, chunk-ext-val = token / quoted-string.
  static bool is_chunk_ext(std::string_view s) noexcept {
    std::size_t i = 0;
    const auto token = [&] {
      const std::size_t start = i;
      while (i < s.size() && is_tchar(s[i])) ++i;
      return i > start;
    };
    while (i < s.size()) {
      if (s[i++] != ';' || !token()) return false;
      if (i == s.size() || s[i] == ';') continue;
      if (s[i++] != '=') return false;
      const bool quoted = i < s.size() && s[i] == '"';
      if (quoted ? !quoted_string(s, i) : !token()) return false;
    }
    return true;
  }

  // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE, starting at s[i] == '"'; on success
  // i is just past the closing quote.
  static bool quoted_string(std::string_view s, std::size_t& i) noexcept {
    for (++i; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c == '"') {
        ++i;
        return true;
      }
      if (c == '\\') {
        // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ): the field-value bytes
        if (++i == s.size() || !is_field_value_char(s[i])) return false;
      } else if (!is_field_value_char(s[i])) {  // qdtext: the same bytes but '"' and '\'
        return false;
      }
    }
    return false;  // no closing quote
  }

  void on_chunk_data_end(std::string_view& in) {
    const char want = state_ == state::chunk_data_cr ? '\r' : '\n';
    if (in.front() != want) return fail(400, "chunk data must end in CRLF");
    in.remove_prefix(1);
    state_ = state_ == state::chunk_data_cr ? state::chunk_data_lf : state::chunk_size;
  }

  http_limits limits_;
  state state_ = state::request_line;
  request request_;
  parse_error error_;
  std::string line_;               // a line split across feeds; reused, so its capacity is kept
  std::size_t skipped_bytes_ = 0;  // empty lines before the request line
  std::size_t header_bytes_ = 0;   // of this request's header section and trailers so far
  std::size_t header_count_ = 0;
  std::size_t chunk_ext_bytes_ = 0;  // of this request's chunk lines so far
  std::size_t remaining_ = 0;      // body or chunk bytes still to come
  bool continue_pending_ = false;
};

}  // namespace http
}  // namespace detail
}  // namespace v0
}  // namespace mcp
