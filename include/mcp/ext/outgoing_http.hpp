// Requests the SDK sends out (webhook deliveries of the events extension; telemetry export next):
// one seam, mcp::outgoing_http, that a program may fill with its own client, and the rules every
// implementation applies to a URL a client chose. The SDK's implementation is libcurl's, opt-in
// like TLS: <mcp/transport/curl.hpp> (mcp::http::curl_client, CMake target mcp::curl).
//
// A URL a client chose is a server-side request forgery risk: the server would send requests, from
// inside its network, wherever a client says. So, by default: https only; no credentials or
// fragment in the URL; the host's addresses checked after resolution, and only public ones used
// (no loopback, private, link-local, shared, multicast or reserved address; an IPv4 address inside
// an IPv6 one is judged as the IPv4 address); the request sent to the address that was checked (a
// name that resolves elsewhere a moment later, DNS rebinding, gets nowhere); no redirect followed;
// a time limit on every request and a bound on what is read back. The owner of the server may allow
// loopback (and then plain http to it), as tests do, or name single addresses to allow.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// What an IP address is, for deciding whether a request a client chose may go to it.
enum class address_kind {
  public_address,  // globally routable
  loopback,        // 127.0.0.0/8, ::1
  private_address, // 10/8, 172.16/12, 192.168/16, fc00::/7
  link_local,      // 169.254/16 (cloud metadata lives there), fe80::/10
  shared,          // 100.64/10, carrier-grade NAT
  unspecified,     // 0.0.0.0/8, ::
  multicast,       // 224/4, ff00::/8
  reserved         // documentation, benchmarking, 240/4, broadcast, discard and other special blocks
};

inline const char* to_string(address_kind k) {
  switch (k) {
    case address_kind::public_address: return "public";
    case address_kind::loopback: return "loopback";
    case address_kind::private_address: return "private";
    case address_kind::link_local: return "link-local";
    case address_kind::shared: return "shared (carrier-grade NAT)";
    case address_kind::unspecified: return "unspecified";
    case address_kind::multicast: return "multicast";
    case address_kind::reserved: return "reserved";
  }
  return "unknown";
}

namespace detail {

inline address_kind classify_ipv4(const std::uint8_t* a) {
  const std::uint32_t v = (std::uint32_t(a[0]) << 24) | (std::uint32_t(a[1]) << 16) | (std::uint32_t(a[2]) << 8) | a[3];
  auto in = [v](std::uint32_t net, int bits) { return bits == 0 || (v >> (32 - bits)) == (net >> (32 - bits)); };
  if (in(0x00000000, 8)) return address_kind::unspecified;
  if (in(0x7F000000, 8)) return address_kind::loopback;
  if (in(0x0A000000, 8) || in(0xAC100000, 12) || in(0xC0A80000, 16)) return address_kind::private_address;
  if (in(0xA9FE0000, 16)) return address_kind::link_local;
  if (in(0x64400000, 10)) return address_kind::shared;
  if (in(0xE0000000, 4)) return address_kind::multicast;
  // 192.0.0/24 (IETF protocol assignments), 192.0.2/24, 198.51.100/24, 203.0.113/24 (documentation),
  // 198.18/15 (benchmarking), 192.88.99/24 (6to4 relay), 240/4 and the broadcast address.
  if (in(0xC0000000, 24) || in(0xC0000200, 24) || in(0xC6336400, 24) || in(0xCB007100, 24) || in(0xC6120000, 15) ||
      in(0xC0586300, 24) || in(0xF0000000, 4))
    return address_kind::reserved;
  return address_kind::public_address;
}

// `a` holds 16 bytes of an IPv6 address.
inline address_kind classify_ipv6(const std::uint8_t* a) {
  auto zero = [a](int from, int to) {
    for (int i = from; i < to; ++i)
      if (a[i] != 0) return false;
    return true;
  };
  if (zero(0, 16)) return address_kind::unspecified;
  if (zero(0, 15) && a[15] == 1) return address_kind::loopback;
  // An IPv4 address inside: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::/96 and
  // the local-use 64:ff9b:1::/48), 6to4 (2002:a.b.c.d::/16). Each is judged as that IPv4 address: a
  // host may route it there.
  if (zero(0, 10) && a[10] == 0xFF && a[11] == 0xFF) return classify_ipv4(a + 12);
  if (zero(0, 12)) return classify_ipv4(a + 12);
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B && zero(4, 12)) return classify_ipv4(a + 12);
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B && a[4] == 0x00 && a[5] == 0x01)
    return address_kind::private_address;
  if (a[0] == 0x20 && a[1] == 0x02) return classify_ipv4(a + 2);
  if ((a[0] & 0xFE) == 0xFC) return address_kind::private_address;  // fc00::/7, unique local
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return address_kind::link_local;  // fe80::/10
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return address_kind::private_address;  // fec0::/10, site-local (deprecated)
  if (a[0] == 0xFF) return address_kind::multicast;
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8) return address_kind::reserved;  // documentation
  if (a[0] == 0x01 && zero(1, 8)) return address_kind::reserved;  // 100::/64, discard
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) return address_kind::reserved;  // Teredo: hides an IPv4 peer
  return address_kind::public_address;
}

// Dotted-quad IPv4 text, exactly four decimal parts of at most three digits, no leading zeros
// beyond a lone 0 (so that "010.0.0.1" is not read one way here and another way by a resolver).
inline bool parse_ipv4(std::string_view s, std::uint8_t* out) {
  int part = 0;
  std::size_t i = 0;
  while (part < 4) {
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    std::size_t start = i;
    unsigned value = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) value = value * 10 + unsigned(s[i++] - '0');
    if (value > 255 || (i - start > 1 && s[start] == '0')) return false;
    out[part++] = static_cast<std::uint8_t>(value);
    if (part < 4) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
  }
  return i == s.size();
}

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// IPv6 text (RFC 4291 2.2, with :: and a trailing dotted quad; no zone).
inline bool parse_ipv6(std::string_view s, std::uint8_t* out) {
  std::array<std::uint16_t, 8> groups{};
  int count = 0, gap = -1;
  std::size_t i = 0;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    gap = 0;
    i = 2;
  } else if (!s.empty() && s[0] == ':') {
    return false;
  }
  while (i < s.size()) {
    if (count >= 8) return false;
    // A dotted quad ends the address.
    std::size_t end = s.find(':', i);
    std::string_view piece = s.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    if (piece.find('.') != std::string_view::npos) {
      if (end != std::string_view::npos || count > 6) return false;
      std::uint8_t v4[4];
      if (!parse_ipv4(piece, v4)) return false;
      groups[count++] = std::uint16_t((v4[0] << 8) | v4[1]);
      groups[count++] = std::uint16_t((v4[2] << 8) | v4[3]);
      i = s.size();
      break;
    }
    if (piece.empty() || piece.size() > 4) return false;
    unsigned value = 0;
    for (char c : piece) {
      int h = hex_value(c);
      if (h < 0) return false;
      value = value * 16 + unsigned(h);
    }
    groups[count++] = std::uint16_t(value);
    i += piece.size();
    if (i == s.size()) break;
    ++i;  // the ':'
    if (i < s.size() && s[i] == ':') {
      if (gap >= 0) return false;
      gap = count;
      ++i;
    } else if (i == s.size()) {
      return false;  // a trailing single ':'
    }
  }
  if (gap < 0 && count != 8) return false;
  if (gap >= 0 && count > 7) return false;
  std::array<std::uint16_t, 8> full{};
  if (gap >= 0) {
    for (int k = 0; k < gap; ++k) full[k] = groups[k];
    const int tail = count - gap;
    for (int k = 0; k < tail; ++k) full[8 - tail + k] = groups[gap + k];
  } else {
    full = groups;
  }
  for (int k = 0; k < 8; ++k) {
    out[2 * k] = std::uint8_t(full[k] >> 8);
    out[2 * k + 1] = std::uint8_t(full[k] & 0xFF);
  }
  return true;
}

}  // namespace detail

// The kind of a numeric address (IPv4 dotted quad, or IPv6 with or without brackets); nullopt for
// anything else (a host name, a zone index, an IPv4 address in another notation).
inline std::optional<address_kind> classify_address(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  std::uint8_t bytes[16];
  if (detail::parse_ipv4(text, bytes)) return detail::classify_ipv4(bytes);
  if (text.find(':') != std::string_view::npos && detail::parse_ipv6(text, bytes)) return detail::classify_ipv6(bytes);
  return std::nullopt;
}

// Where requests to URLs a client chose may go. A value; read from any thread.
struct outgoing_policy {
  // Loopback addresses allowed, and then plain http to them (a name must resolve to loopback
  // only). For tests and development; never on a server others reach.
  bool allow_loopback = false;
  // Private, link-local and shared addresses allowed (a server whose callbacks live in its own
  // network). Off by default.
  bool allow_private = false;
  // Single numeric addresses allowed whatever their kind ("127.0.0.1", "::1"); plain http to them
  // only when they are loopback and allow_loopback is set.
  std::vector<std::string> allowed_addresses;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds total_timeout{10000};  // the whole request: connect, send, answer
  std::size_t max_response_bytes = 64 * 1024;      // what is read of an answer; more is a failure
  std::size_t max_request_bytes = 256 * 1024;      // a larger body is refused before anything is sent
};

// Whether `policy` lets a request go to `address` (numeric text). The reason when not.
inline std::optional<std::string> address_refusal(std::string_view address, const outgoing_policy& policy) {
  std::string_view bare = address;
  if (bare.size() >= 2 && bare.front() == '[' && bare.back() == ']') bare = bare.substr(1, bare.size() - 2);
  auto kind = classify_address(bare);
  if (!kind) return std::string(address) + " is not a numeric address";
  for (const auto& a : policy.allowed_addresses) {
    std::uint8_t x[16], y[16];
    const bool v4 = detail::parse_ipv4(bare, x) && detail::parse_ipv4(a, y);
    const bool v6 = !v4 && detail::parse_ipv6(bare, x) && detail::parse_ipv6(a, y);
    if ((v4 && std::equal(x, x + 4, y)) || (v6 && std::equal(x, x + 16, y))) return std::nullopt;
  }
  switch (*kind) {
    case address_kind::public_address: return std::nullopt;
    case address_kind::loopback:
      if (policy.allow_loopback) return std::nullopt;
      break;
    case address_kind::private_address:
    case address_kind::link_local:
    case address_kind::shared:
      if (policy.allow_private) return std::nullopt;
      break;
    default: break;
  }
  return std::string(address) + " is a " + to_string(*kind) + " address, which this server does not send requests to";
}

// A URL taken apart as far as the checks need.
struct checked_url {
  std::string scheme;  // "https" or "http"
  std::string host;    // a name, or a numeric address without brackets
  std::uint16_t port = 0;
  std::string target;  // path and query, "/" when empty
};

// The URL's parts when `policy` lets a request go to it (its addresses are checked later, after
// resolution); otherwise the reason, a sentence for the client that chose it.
inline std::pair<std::optional<checked_url>, std::string> check_url(std::string_view url, const outgoing_policy& policy) {
  auto refuse = [](std::string why) { return std::make_pair(std::optional<checked_url>(), std::move(why)); };
  if (url.size() > 2048) return refuse("the URL is longer than 2048 characters");
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7F || c == '\\')
      return refuse("the URL holds a space, a control character, a backslash or a character outside ASCII");
  checked_url out;
  const auto colon = url.find("://");
  if (colon == std::string_view::npos) return refuse("the URL must be absolute, https://host/path");
  for (char c : url.substr(0, colon)) out.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (out.scheme != "https" && out.scheme != "http") return refuse("the URL's scheme must be https, not " + out.scheme);
  if (url.find('#') != std::string_view::npos) return refuse("the URL must not have a fragment (#...)");
  std::string_view rest = url.substr(colon + 3);
  const auto path_at = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, path_at);
  out.target = path_at == std::string_view::npos ? "/" : std::string(rest.substr(path_at));
  if (!out.target.empty() && out.target[0] == '?') out.target = "/" + out.target;
  if (authority.find('@') != std::string_view::npos) return refuse("the URL must not carry credentials (user:password@)");
  std::string_view port_text;
  if (!authority.empty() && authority[0] == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return refuse("the URL's IPv6 address lacks its closing ']'");
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return refuse("the URL's authority is malformed after its IPv6 address");
      port_text = after.substr(1);
    }
    std::uint8_t b[16];
    if (!detail::parse_ipv6(out.host, b)) return refuse("the URL's IPv6 address is malformed (zones are not accepted)");
  } else {
    const auto c = authority.rfind(':');
    out.host = std::string(authority.substr(0, c));
    if (c != std::string_view::npos) port_text = authority.substr(c + 1);
  }
  if (out.host.empty()) return refuse("the URL has no host");
  for (char& c : out.host)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (char c : out.host)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == ':'))
      return refuse("the URL's host holds a character a host name cannot");
  out.port = out.scheme == "https" ? 443 : 80;
  if (!port_text.empty() || (authority.size() && authority.back() == ':')) {
    unsigned long p = 0;
    if (port_text.empty() || port_text.size() > 5) return refuse("the URL's port is malformed");
    for (char c : port_text) {
      if (c < '0' || c > '9') return refuse("the URL's port is malformed");
      p = p * 10 + unsigned(c - '0');
    }
    if (p == 0 || p > 65535) return refuse("the URL's port must be 1 to 65535");
    out.port = static_cast<std::uint16_t>(p);
  }
  if (out.scheme == "http") {
    // Plain http only to loopback, and only where the owner allows loopback: a name could resolve
    // anywhere, so it must be a loopback literal (or localhost, checked again after resolution).
    auto kind = classify_address(out.host);
    const bool loopback_host = (kind && *kind == address_kind::loopback) || out.host == "localhost";
    if (!policy.allow_loopback || !loopback_host)
      return refuse(policy.allow_loopback ? "the URL's scheme must be https (plain http only to a loopback address)"
                                          : "the URL's scheme must be https");
  }
  if (classify_address(out.host))
    if (auto why = address_refusal(out.host, policy)) return refuse("the URL's host " + *why);
  return {std::move(out), std::string()};
}

// One request out: POST `body` to `url` with `headers`.
struct outgoing_request {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// How a request went. A failure is never thrown: `failure` says what happened and `error` says it
// in a sentence (never with a secret or header value in it).
struct outgoing_response {
  enum class failure {
    none,              // an answer arrived: see status
    refused_url,       // the URL broke a rule (scheme, credentials, fragment, host)
    refused_address,   // the host resolves only to addresses the policy refuses, or connected elsewhere
    unresolved,        // the name did not resolve
    connect,           // no connection (refused, unreachable, TLS failed)
    timeout,           // a time limit passed
    too_large,         // the request body or the answer passed its bound
    other
  };
  failure failed = failure::none;
  int status = 0;
  std::string body;
  std::string error;
  std::string address;  // the address it connected to, when it did
};

// The seam: how the SDK sends a request out. Replace it with your own client to route requests
// through your own egress (a proxy that enforces its own rules, a test double); an implementation
// applies the policy it was made with. Threads: post() is called from several threads at once.
class outgoing_http {
 public:
  virtual ~outgoing_http() = default;
  virtual outgoing_response post(const outgoing_request& request) = 0;
  // The policy URLs are checked against before a request is made (the events extension checks a
  // callback when it is subscribed, to answer the subscriber with the reason).
  virtual const outgoing_policy& policy() const = 0;
};

}  // namespace v0
}  // namespace mcp
