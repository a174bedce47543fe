// What an HTTP host and the Streamable HTTP handler (http_handler.hpp) exchange: a request in, and
// a response writer the handler answers through, now or later, with one whole response or a
// stream of SSE bytes. A host is anything that speaks HTTP: the SDK's own asio listener
// (http.hpp), or a route of another web server. Also the listener's settings that are types of
// their own: the request limits and the TLS handle.
//
// No asio and no detail header here: a file that only starts a listener in compiled mode
// (mcp::compiled) parses neither (ctest listener_parses_no_asio).
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {
namespace http {

class tls_opener;

// The few RFC 9110 string rules header_map needs (the rest are in detail/http_message.hpp).
constexpr char ascii_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

inline bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  if (a == b) return true;  // the usual case: a header name spelt as we spell it
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

constexpr bool is_ows(char c) noexcept { return c == ' ' || c == '\t'; }

inline std::string_view trim_ows(std::string_view s) noexcept {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

// Splits a header list on `sep`, leaving separators inside double-quoted strings alone, and calls
// fn(element) with each element trimmed. Empty elements are passed too; callers skip them.
template <class Fn>
void for_each_list_element(std::string_view list, char sep, Fn&& fn) {
  std::size_t start = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (quoted) {
      if (c == '\\') ++i;  // quoted-pair: skip the escaped byte (may run past the end: loop stops)
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == sep) {
      fn(trim_ows(list.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (start <= list.size()) fn(trim_ows(list.substr(start)));
}

}  // namespace http
}  // namespace detail

namespace http {

// ---- header map ------------------------------------------------------------------------------

// One field line, viewed in the map that holds it (valid until the map next changes).
struct header_field {
  std::string_view name;   // as received or as given; compare case-insensitively
  std::string_view value;  // OWS-trimmed
};

// Field lines in arrival order: add(name, value), set(name, value), get(name) (case-insensitive,
// the first one), get_all(name), contains(name); iterable as {name, value} views. Repeated names
// stay separate entries, so nothing is lost; has_token() looks through comma lists in all.
// Names and values live back to back in one string: a request's fields cost two allocations,
// not two per field. Threads: like a std::string (reads from any number at once, a change alone);
// so are request and response.
class header_map {
  struct entry {
    std::size_t at;  // the name's offset in text_; the value follows it
    std::size_t name_size;
    std::size_t value_size;
  };

 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = header_field;
    using difference_type = std::ptrdiff_t;
    using pointer = const header_field*;
    using reference = header_field;

    const_iterator(const header_map* map, std::size_t i) : map_(map), i_(i) {}
    header_field operator*() const { return map_->field(i_); }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const header_map* map_;
    std::size_t i_;
  };

  void add(std::string_view name, std::string_view value) {
    std::string copy;  // a field copied from this very map would move while text_ grows
    if (inside(name) || inside(value)) {
      copy.append(name).append(value);
      name = std::string_view(copy).substr(0, name.size());
      value = std::string_view(copy).substr(name.size());
    }
    entries_.push_back({text_.size(), name.size(), value.size()});
    text_.append(name);
    text_.append(value);
  }

  // Replaces every field of that name by one.
  void set(std::string_view name, std::string_view value) {
    if (inside(value)) return set(name, std::string(value));
    erase(name);
    add(name, value);
  }

  std::size_t erase(std::string_view name) {
    const auto before = entries_.size();
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const entry& e) { return detail::http::iequals(name_of(e), name); }),
                   entries_.end());
    return before - entries_.size();
  }

  std::optional<std::string_view> get(std::string_view name) const {
    for (const auto& e : entries_)
      if (detail::http::iequals(name_of(e), name)) return value_of(e);
    return std::nullopt;
  }

  std::vector<std::string_view> get_all(std::string_view name) const {
    std::vector<std::string_view> out;
    for_each_value(name, [&](std::string_view v) { out.push_back(v); });
    return out;
  }
  // fn(value) for every field `name`, in order, without collecting them.
  template <class Fn>
  void for_each_value(std::string_view name, Fn&& fn) const {
    for (const auto& e : entries_)
      if (detail::http::iequals(name_of(e), name)) fn(value_of(e));
  }

  bool contains(std::string_view name) const { return get(name).has_value(); }

  std::size_t count(std::string_view name) const {
    std::size_t n = 0;
    for (const auto& e : entries_)
      if (detail::http::iequals(name_of(e), name)) ++n;
    return n;
  }

  // True when any field `name` lists `token` (case-insensitive), e.g. Connection: keep-alive, close.
  bool has_token(std::string_view name, std::string_view token) const {
    bool found = false;
    for_each_value(name, [&](std::string_view v) {
      detail::http::for_each_list_element(v, ',', [&](std::string_view e) { found = found || detail::http::iequals(e, token); });
    });
    return found;
  }

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  void clear() noexcept {
    entries_.clear();
    text_.clear();
  }
  // Room for `fields` field lines of `bytes` in all, so that adding them allocates nothing.
  void reserve(std::size_t fields, std::size_t bytes) {
    entries_.reserve(fields);
    text_.reserve(bytes);
  }
  const_iterator begin() const noexcept { return {this, 0}; }
  const_iterator end() const noexcept { return {this, entries_.size()}; }

 private:
  std::string_view name_of(const entry& e) const { return std::string_view(text_.data() + e.at, e.name_size); }
  std::string_view value_of(const entry& e) const {
    return std::string_view(text_.data() + e.at + e.name_size, e.value_size);
  }
  header_field field(std::size_t i) const { return {name_of(entries_[i]), value_of(entries_[i])}; }
  bool inside(std::string_view v) const {
    return !v.empty() && !text_.empty() && v.data() >= text_.data() && v.data() < text_.data() + text_.size();
  }

  std::string text_;
  std::vector<entry> entries_;
};

// ---- request ---------------------------------------------------------------------------------

// One whole request: method ("POST"), target as sent ("/mcp?x=1"; path() and query() split it),
// headers, body (already de-chunked). minor_version is 1 unless the host knows better.
struct request {
  std::string method;      // case-sensitive token, e.g. "POST"
  std::string target;      // as sent: origin-form "/mcp?x=1", absolute-form, or "*"
  int minor_version = 1;   // HTTP/1.<minor_version>; the parser accepts only 0 and 1
  header_map headers;
  std::string body;        // decoded: chunked framing removed

  // The path of the target: for absolute-form "http://h:1/p?q" that is "/p" ("/" when empty).
  std::string_view path() const noexcept {
    std::string_view t = target;
    if (!t.empty() && t.front() != '/' && t != "*") {
      const auto scheme_end = t.find("://");
      if (scheme_end == std::string_view::npos) return {};
      t.remove_prefix(scheme_end + 3);
      const auto slash = t.find_first_of("/?");
      if (slash == std::string_view::npos || t[slash] == '?') return "/";
      t.remove_prefix(slash);
    }
    return t.substr(0, t.find('?'));
  }

  // What follows the first '?', without it; empty when there is none.
  std::string_view query() const noexcept {
    const std::string_view t = target;
    const auto q = t.find('?');
    return q == std::string_view::npos ? std::string_view{} : t.substr(q + 1);
  }

  // HTTP/1.1 keeps the connection unless told "close"; HTTP/1.0 closes unless told "keep-alive".
  bool keep_alive() const {
    if (headers.has_token("Connection", "close")) return false;
    if (minor_version >= 1) return true;
    return headers.has_token("Connection", "keep-alive");
  }
};

// ---- response --------------------------------------------------------------------------------

// status, reason (empty: the standard phrase), headers, body.
struct response {
  int status = 200;
  std::string reason;  // empty: the standard phrase for the status
  header_map headers;
  std::string body;
};

// What the SDK's listener (http.hpp) holds a request to, and how much it keeps for a connection
// (http::options::limits). Beyond one, the request gets the status named and the connection is
// closed; tests/README.md has the table.
struct limits {
  std::size_t max_request_line = 8192;             // 414
  std::size_t max_header_count = 100;              // 431
  std::size_t max_header_bytes = 16384;            // 431
  std::size_t max_body_bytes = 4 * 1024 * 1024;    // 413
  // Chunk extensions (";name=value" after a chunk size) of one request, all its chunk lines
  // together (400). Clients hardly ever send any; without this only read_timeout would bound them.
  std::size_t max_chunk_ext_bytes = 4096;
  // Response bytes waiting for a client that reads too slowly (an SSE stream it never reads):
  // beyond this the connection is closed.
  std::size_t max_queued_output = 32 * 1024 * 1024;
  // Pipelined request bytes read ahead while a request is being answered; beyond this, reading
  // pauses until the response ends.
  std::size_t max_pending_input = 1024 * 1024;
};

// HTTPS for the listener: a certificate and its key, loaded. http::options::tls holds one; only
// mcp::http::make_tls (transport/https.hpp, which needs OpenSSL) makes one, so a program that
// serves plain HTTP neither parses nor links TLS code. One may serve any number of listeners, from
// any thread.
class tls_setup {
 public:
  virtual ~tls_setup() = default;
  tls_setup(const tls_setup&) = delete;
  tls_setup& operator=(const tls_setup&) = delete;

 private:
  friend class detail::http::tls_opener;  // the only kind there is (detail/http_connection.hpp)
  tls_setup() = default;
};

// Where the handler's answer to one request goes. The host implements it.
//
// The handler calls respond() once, or start_stream() once followed by write()s and one end().
// Any of them may come later, from any thread (a tool's reply comes from a worker): an
// implementation must be thread-safe and keep call order. After end() or after the client has
// gone, calls must do nothing. A stream's head gives the status and extra headers; the host adds
// Content-Type: text/event-stream and Cache-Control: no-cache, and sends the body as it comes
// (chunked, or until close) without buffering.
class response_writer {
 public:
  virtual ~response_writer() = default;
  virtual void respond(response r) = 0;          // a whole response; ends the exchange
  virtual void start_stream(response head) = 0;  // a stream's head; write() adds to its body
  virtual void write(std::string sse_bytes) = 0; // whole SSE events (or comments), to send at once
  virtual void end() = 0;                        // ends the stream
  // `fn` runs once if the client goes away before the end (the handler then lets go of the writer
  // or cancels the request). Never inline from on_disconnect itself: the caller may hold a lock
  // that fn takes.
  virtual void on_disconnect(std::function<void()> fn) = 0;
};

}  // namespace http
}  // namespace v0
}  // namespace mcp
