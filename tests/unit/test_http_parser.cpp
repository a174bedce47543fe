// The HTTP/1.1 layer under the Streamable HTTP transport: request parsing with limits, response
// and stream serialisation, SSE framing, event ids, and the Accept/Content-Type/Host/Origin checks.
#include "catch.hpp"

#include <mcp/transport/detail/http_message.hpp>
#include <mcp/transport/detail/http_parser.hpp>
#include <mcp/transport/detail/sse.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace http = mcp::detail::http;
using http::request_parser;

namespace test_http_parser {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

struct parsed {
  std::vector<http::request> requests;
  std::optional<http::parse_error> error;
};

// Drives the parser the way a transport would: every piece is one socket read.
parsed parse_pieces(const std::vector<std::string_view>& pieces, http::http_limits limits = {}) {
  request_parser p(limits);
  parsed out;
  for (auto piece : pieces) {
    std::string_view data = piece;
    while (!data.empty()) {
      std::size_t used = 0;
      const auto r = p.feed(data, used);
      REQUIRE(used <= data.size());
      data.remove_prefix(used);
      if (r == request_parser::result::complete) {
        REQUIRE(used > 0);
        out.requests.push_back(p.take_request());
      } else if (r == request_parser::result::error) {
        out.error = p.error();
        return out;
      } else {
        REQUIRE(data.empty());
      }
    }
  }
  return out;
}

parsed parse_all(std::string_view input, http::http_limits limits = {}) {
  return parse_pieces({input}, limits);
}

http::request parse_one(std::string_view input) {
  auto r = parse_all(input);
  INFO(input);
  REQUIRE_FALSE(r.error);
  REQUIRE(r.requests.size() == 1);
  return std::move(r.requests.front());
}

// 0 when the input parses into complete requests without error.
int error_status(std::string_view input, http::http_limits limits = {}) {
  const auto r = parse_all(input, limits);
  return r.error ? r.error->status : 0;
}

// Everything a parse produces, in one string, so two parses compare with a readable diff.
std::string describe(const parsed& p) {
  std::string s;
  for (const auto& r : p.requests) {
    s += r.method + " " + r.target + " 1." + std::to_string(r.minor_version) + "\n";
    for (const auto& f : r.headers) s += std::string(f.name) + "=" + std::string(f.value) + "\n";
    s += "body[" + r.body + "] keep_alive=" + (r.keep_alive() ? "1" : "0") + "\n";
  }
  if (p.error) s += "error " + std::to_string(p.error->status) + " " + std::string(p.error->detail);
  return s;
}

std::vector<std::string_view> bytes_of(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < s.size(); ++i) out.push_back(s.substr(i, 1));
  return out;
}

// Splitting the input anywhere, or feeding it a byte at a time, must not change the outcome.
void check_split_invariant(std::string_view input, http::http_limits limits = {}) {
  const std::string whole = describe(parse_all(input, limits));
  for (std::size_t cut = 0; cut <= input.size(); ++cut) {
    INFO("split at " << cut);
    CHECK(describe(parse_pieces({input.substr(0, cut), input.substr(cut)}, limits)) == whole);
  }
  CHECK(describe(parse_pieces(bytes_of(input), limits)) == whole);
}

std::string with_header_lines(std::size_t n) {
  std::string s = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (std::size_t i = 1; i < n; ++i) s += "X-" + std::to_string(i) + ": v\r\n";
  return s + "\r\n";
}

}  // namespace

// ---- valid requests --------------------------------------------------------------------------

TEST_CASE("http: GET with path, query and headers", "[http]") {
  const auto r = parse_one("GET /mcp?session=1&x=y HTTP/1.1\r\nHost: localhost:8080\r\n"
                           "Accept: text/event-stream\r\n\r\n");
  CHECK(r.method == "GET");
  CHECK(r.target == "/mcp?session=1&x=y");
  CHECK(r.path() == "/mcp");
  CHECK(r.query() == "session=1&x=y");
  CHECK(r.minor_version == 1);
  CHECK(r.headers.size() == 2);
  CHECK(r.headers.get("Host") == std::optional<std::string_view>("localhost:8080"));
  CHECK(r.body.empty());
  CHECK(r.keep_alive());
}

TEST_CASE("http: POST with a Content-Length body", "[http]") {
  const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  const auto r = parse_one("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  CHECK(r.method == "POST");
  CHECK(r.path() == "/mcp");
  CHECK(r.query().empty());
  CHECK(r.body == body);
}

TEST_CASE("http: DELETE, HTTP/1.0, absolute-form and asterisk targets", "[http]") {
  const auto del = parse_one("DELETE /mcp HTTP/1.1\r\nHost: a\r\nMCP-Session-Id: abc\r\n\r\n");
  CHECK(del.method == "DELETE");
  CHECK(del.headers.get("mcp-session-id") == std::optional<std::string_view>("abc"));

  const auto old = parse_one("GET /x HTTP/1.0\r\n\r\n");  // 1.0 needs no Host
  CHECK(old.minor_version == 0);

  const auto abs = parse_one("GET http://localhost:3000/mcp?a=b HTTP/1.1\r\nHost: localhost:3000\r\n\r\n");
  CHECK(abs.path() == "/mcp");
  CHECK(abs.query() == "a=b");
  CHECK(parse_one("GET HTTPS://h HTTP/1.1\r\nHost: h\r\n\r\n").path() == "/");
  CHECK(parse_one("GET http://h?q HTTP/1.1\r\nHost: h\r\n\r\n").path() == "/");

  const auto star = parse_one("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");
  CHECK(star.path() == "*");
}

TEST_CASE("http: chunked body with extensions and trailers", "[http]") {
  const auto r = parse_one("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
                           "5;name=value\r\nhello\r\n"
                           "1;ext;other=\"quoted\";e=\"\"\r\n \r\n"
                           "2;q=\"a \\\"b\\\"; \\\\c\\\tcaf\xC3\xA9\";t=!#$%&'*+-.^_`|~09AZaz\r\nxy\r\n"
                           "00A\r\n0123456789\r\n"
                           "0;last\r\nX-Trailer: yes\r\nX-Checksum: 123\r\n\r\n");
  CHECK(r.body == "hello xy0123456789");
  CHECK_FALSE(r.headers.contains("X-Trailer"));  // trailers are checked and dropped
  CHECK(r.headers.size() == 2);
}

TEST_CASE("http: leading empty lines before a request are skipped", "[http]") {
  const auto r = parse_all("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
  REQUIRE_FALSE(r.error);
  CHECK(r.requests.size() == 1);
}

TEST_CASE("http: body of exactly the limit is accepted", "[http]") {
  http::http_limits limits;
  limits.max_body_bytes = 10;
  const auto ok = parse_all("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789", limits);
  REQUIRE_FALSE(ok.error);
  CHECK(ok.requests.at(0).body == "0123456789");
  const auto chunked = parse_all("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 "4\r\n0123\r\n6\r\n456789\r\n0\r\n\r\n", limits);
  REQUIRE_FALSE(chunked.error);
  CHECK(chunked.requests.at(0).body == "0123456789");
}

TEST_CASE("http: repeated equal Content-Length values are accepted", "[http]") {
  CHECK(parse_one("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc").body == "abc");
  CHECK(parse_one("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc").body == "abc");
}

// ---- pipelining and split reads --------------------------------------------------------------

namespace {
const std::string pipelined =
    "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    "Content-Length: 26\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}\r\n"
    "POST /mcp?x=1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
    "Connection: close\r\n\r\n"
    "7;ext=1\r\n{\"a\":1}\r\n3\r\n[1]\r\n0\r\nTrailer-Field: t\r\n\r\n";
}

TEST_CASE("http: pipelined requests in one buffer", "[http]") {
  const std::string input = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n" + pipelined + "GET /tail HTTP/1.1\r\nHo";
  request_parser p;
  std::string_view data = input;
  std::vector<http::request> got;
  while (!data.empty()) {
    std::size_t used = 0;
    const auto r = p.feed(data, used);
    data.remove_prefix(used);
    REQUIRE(r != request_parser::result::error);
    if (r == request_parser::result::complete) got.push_back(p.take_request());
  }
  REQUIRE(got.size() == 3);
  CHECK(got[0].path() == "/a");
  CHECK(got[1].body == "{\"jsonrpc\":\"2.0\",\"id\":1}\r\n");
  CHECK(got[1].keep_alive());
  CHECK(got[2].query() == "x=1");
  CHECK(got[2].body == "{\"a\":1}[1]");
  CHECK_FALSE(got[2].keep_alive());

  // The unfinished fourth request was buffered inside; its rest completes it.
  std::size_t used = 0;
  REQUIRE(p.feed("st: h\r\n\r\n", used) == request_parser::result::complete);
  CHECK(used == 9);
  const auto tail = p.take_request();
  CHECK(tail.path() == "/tail");
  CHECK(tail.headers.get("host") == std::optional<std::string_view>("h"));
}

TEST_CASE("http: a pipelined POST + chunked POST parses the same at every split point", "[http]") {
  const auto whole = parse_all(pipelined);
  REQUIRE_FALSE(whole.error);
  REQUIRE(whole.requests.size() == 2);
  const std::string expected = describe(whole);
  for (std::size_t cut = 0; cut <= pipelined.size(); ++cut) {
    const std::string_view in = pipelined;
    const auto split = parse_pieces({in.substr(0, cut), in.substr(cut)});
    INFO("split at " << cut);
    REQUIRE(describe(split) == expected);
  }
  CHECK(describe(parse_pieces(bytes_of(pipelined))) == expected);
}

TEST_CASE("http: a request split over three reads anywhere", "[http]") {
  const std::string_view in = pipelined;
  const std::string expected = describe(parse_all(in));
  for (std::size_t a = 0; a <= in.size(); a += 7)
    for (std::size_t b = a; b <= in.size(); b += 5)
      REQUIRE(describe(parse_pieces({in.substr(0, a), in.substr(a, b - a), in.substr(b)})) == expected);
}

TEST_CASE("http: requests read into the storage of the one before are the requests read alone", "[http]") {
  // A connection reads each request into its parser's request (completed()), which keeps its
  // storage: nothing of an earlier request (a field, a longer body, a chunked body's trailer) may
  // stay. Requests of every shape in random order, each compared with a fresh parser's.
  const std::vector<std::string> shapes = {
      "GET /a HTTP/1.1\r\nHost: h\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: application/json\r\nAccept: application/json, "
      "text/event-stream\r\nMcp-Session-Id: 0123456789abcdef\r\nContent-Length: 11\r\n\r\n{\"a\":12345}",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 70000\r\n\r\n" + std::string(70000, 'b'),
      "POST /mcp?x=1 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: t\r\n\r\n",
      "GET / HTTP/1.0\r\n\r\n",
      "DELETE /mcp HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 2\r\nX-C: 3\r\nConnection: close\r\n\r\n",
  };
  std::mt19937 rng(20261201);
  request_parser p;
  for (int i = 0; i < 400; ++i) {
    const std::string& text = shapes[rng() % shapes.size()];
    const std::size_t cut = rng() % (text.size() + 1);
    std::size_t used = 0;
    std::string_view in = text;
    auto r = p.feed(in.substr(0, cut), used);
    if (r != request_parser::result::complete) {
      REQUIRE(r == request_parser::result::need_more);
      REQUIRE(p.feed(in.substr(cut), used) == request_parser::result::complete);
    }
    const auto alone = parse_all(text);
    REQUIRE(alone.requests.size() == 1);
    const http::request& reused = p.completed();
    INFO("request " << i << ": " << text.substr(0, 40));
    REQUIRE(reused.method == alone.requests[0].method);
    REQUIRE(reused.target == alone.requests[0].target);
    REQUIRE(reused.minor_version == alone.requests[0].minor_version);
    REQUIRE(reused.body == alone.requests[0].body);
    std::vector<std::pair<std::string, std::string>> a, b;
    for (const auto f : reused.headers) a.emplace_back(f.name, f.value);
    for (const auto f : alone.requests[0].headers) b.emplace_back(f.name, f.value);
    REQUIRE(a == b);
  }
}

TEST_CASE("http: is_field_value, eight bytes at a time, answers as a test of each byte", "[http]") {
  // Values dense in what is refused (control bytes, DEL) and what is allowed only just (tab,
  // space, 0x80 and above), at every length around a word.
  const unsigned char alphabet[] = {'\t', ' ', 'a', '~', 0x7F, 0x00, 0x1F, '\r', '\n', 0x80, 0xFF, 0x20, '!'};
  std::mt19937 rng(7);
  int refused = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string v(rng() % 20, 'x');
    for (char& c : v)
      if (rng() % 4 == 0) c = static_cast<char>(alphabet[rng() % sizeof alphabet]);
    bool expected = true;
    for (char c : v) expected = expected && http::is_field_value_char(c);
    REQUIRE(http::is_field_value(v) == expected);
    refused += !expected;
  }
  CHECK(refused > 50000);
}

// ---- errors ----------------------------------------------------------------------------------

TEST_CASE("http: 400 for malformed requests", "[http]") {
  const char* cases[] = {
      "GET\r\n\r\n",
      "GET /\r\nHost: a\r\n\r\n",
      "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
      "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",
      " GET / HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET / http/1.1\r\nHost: a\r\n\r\n",
      "GET / HTTP/1.10\r\nHost: a\r\n\r\n",
      "GET / HTTP/1\r\nHost: a\r\n\r\n",
      "GET mcp HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET /a#frag HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET /a\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET /\xC3\xA9 HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET host:80 HTTP/1.1\r\nHost: a\r\n\r\n",
      // bare LF and bare CR
      "GET / HTTP/1.1\nHost: a\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\n\n",
      "GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n",
      // header syntax
      "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX-Space : v\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX-Tab\t: v\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\n: empty-name\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX(y): v\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX-Fold: one\r\n two\r\n\r\n",
      "GET / HTTP/1.1\r\n Host: a\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX: a\x7f\r\n\r\n",
      // Host
      "GET / HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
      // Content-Length
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x3\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3 3\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd",
      // framing conflicts
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n\r\n",
      // chunk syntax
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-3\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x3\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3 x\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a\x01\r\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Trailer: x\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n folded\r\n\r\n",
  };
  for (const char* c : cases) {
    const std::string_view input = c;
    INFO(input);
    CHECK(error_status(input) == 400);
  }
}

TEST_CASE("http: chunk lines are read strictly: no whitespace, no empty or unclosed extension", "[http]") {
  // RFC 9112 §7.1.1 with BWS refused, as llhttp does without its leniency flags; each of these
  // could be framed differently by a lenient proxy in front of us.
  const std::string head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::pair<const char*, const char*> cases[] = {
      {"5 \r\nhello\r\n0\r\n\r\n", "whitespace after chunk size"},
      {"5\t\r\nhello\r\n0\r\n\r\n", "whitespace after chunk size"},
      {"5 ;a\r\nhello\r\n0\r\n\r\n", "whitespace after chunk size"},
      {"5\r\nhello\r\n0 \r\n\r\n", "whitespace after chunk size"},
      {"5 5\r\nhello\r\n0\r\n\r\n", "whitespace after chunk size"},
      {"5x\r\nhello\r\n0\r\n\r\n", "malformed chunk size"},
      {"5;\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=\"b\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5; a\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a =b\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a= b\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=b \r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a\t\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;;a\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a;\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;=b\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a==b\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a(b)\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=b\"c\"\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=\"b\"c\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=\"b\\\"\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},  // the quote is escaped
      {"5;a=\"b\\\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},    // a lone backslash
      {"5;a=\"\x01\"\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;a=\"\\\x7f\"\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5;caf\xC3\xA9\r\nhello\r\n0\r\n\r\n", "malformed chunk extension"},
      {"5\r\nhello\r\n0;\r\n\r\n", "malformed chunk extension"},
  };
  for (const auto& [chunks, detail] : cases) {
    const std::string input = head + chunks;
    INFO(input);
    const auto r = parse_all(input);
    REQUIRE(r.error);
    CHECK(r.error->status == 400);
    CHECK(r.error->detail == detail);
    CHECK(r.requests.empty());
  }
  check_split_invariant(head + "5;a=\"b\r\nhello\r\n0\r\n\r\n");
  check_split_invariant(head + "5 \r\nhello\r\n0\r\n\r\n");
}

TEST_CASE("http: chunk extensions are capped per request, then 400", "[http]") {
  const std::string head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
  http::http_limits limits;
  limits.max_chunk_ext_bytes = 20;
  // ";abcdefg" is 8 bytes, ";x=\"12\"" 7, ";y" 2, ";z" 2: 19, then 20, then 21 over four lines.
  const std::string nineteen = "1;abcdefg\r\nx\r\n1;x=\"12\"\r\ny\r\n1;y\r\nz\r\n0;z\r\n\r\n";
  REQUIRE(parse_all(head + nineteen, limits).requests.size() == 1);
  CHECK(error_status(head + "1;abcdefg\r\nx\r\n1;x=\"123\"\r\ny\r\n1;y\r\nz\r\n0;z\r\n\r\n", limits) == 0);
  const std::string over = head + "1;abcdefg\r\nx\r\n1;x=\"1234\"\r\ny\r\n1;y\r\nz\r\n0;z\r\n\r\n";
  const auto r = parse_all(over, limits);
  REQUIRE(r.error);
  CHECK(r.error->status == 400);
  CHECK(r.error->detail == "chunk extensions too large");
  check_split_invariant(over, limits);

  // The budget is per request: pipelined requests each get all of it.
  const auto two = parse_all(head + nineteen + head + nineteen, limits);
  CHECK_FALSE(two.error);
  CHECK(two.requests.size() == 2);

  // The default, 4 KiB: two lines of 2 KiB of extensions pass, two bytes more do not.
  const std::string ext_2k = ";" + std::string(2047, 'e');
  const std::string two_k = head + "1" + ext_2k + "\r\na\r\n1" + ext_2k + "\r\nb\r\n0\r\n\r\n";
  REQUIRE(http::http_limits{}.max_chunk_ext_bytes == 4096);
  CHECK(parse_one(two_k).body == "ab");
  CHECK(error_status(head + "1" + ext_2k + "\r\na\r\n1" + ext_2k + "\r\nb\r\n0;z\r\n\r\n") == 400);
  // Every line counts, without a timeout to wait for: thousands of small ones are refused.
  std::string many = head;
  for (int i = 0; i < 3000; ++i) many += "1;e\r\nx\r\n";
  CHECK(error_status(many + "0\r\n\r\n") == 400);
}

TEST_CASE("http: the error detail names the rule that was broken", "[http]") {
  const auto detail = [](std::string_view input) {
    const auto r = parse_all(input);
    REQUIRE(r.error);
    return std::string(r.error->detail);
  };
  CHECK(detail("GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n two: x\r\n\r\n").find("folding") != std::string::npos);
  CHECK(detail("GET / HTTP/1.1\r\nHost: a\r\nX : v\r\n\r\n") == "malformed header name");
  CHECK(detail("GET / HTTP/1.1\nHost: a\r\n\r\n") == "request line must end in CRLF");
  CHECK(detail("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n") ==
        "chunk data must end in CRLF");
  CHECK(detail("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") ==
        "invalid Content-Length");
}

TEST_CASE("http: a NUL or other control byte in a header value is 400", "[http]") {
  const std::string nul("GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n", 36);
  REQUIRE(nul.size() == 36);
  CHECK(error_status(nul) == 400);
  CHECK(error_status("GET / HTTP/1.1\r\nHost: a\r\nX: a\x1b[0m\r\n\r\n") == 400);
  // obs-text is allowed in values
  CHECK(parse_one("GET / HTTP/1.1\r\nHost: a\r\nX: caf\xC3\xA9\r\n\r\n").headers.get("x") ==
        std::optional<std::string_view>("caf\xC3\xA9"));
}

TEST_CASE("http: 413 from Content-Length before the body is read", "[http]") {
  http::http_limits limits;
  limits.max_body_bytes = 100;
  request_parser p(limits);
  std::size_t used = 0;
  // Only the head is fed: the verdict must not wait for 101 bytes that may never come.
  REQUIRE(p.feed("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n", used) ==
          request_parser::result::error);
  CHECK(p.error().status == 413);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999999\r\n\r\n") == 413);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4194305\r\n\r\n") == 413);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4194304\r\n\r\n") == 0);
}

TEST_CASE("http: 413 when a chunked body grows past the limit", "[http]") {
  http::http_limits limits;
  limits.max_body_bytes = 10;
  const std::string head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(error_status(head + "6\r\n012345\r\n5\r\n", limits) == 413);  // before the chunk's data
  CHECK(error_status(head + "b\r\n", limits) == 413);
  CHECK(error_status(head + "FFFFFFFFFFFFFFFFFFFFFFFF\r\n") == 413);  // overflows size_t
  CHECK(error_status(head + "0000000000000000000000000005\r\nabcde\r\n0\r\n\r\n", limits) == 0);
}

TEST_CASE("http: 431 for too many header fields", "[http]") {
  http::http_limits limits;
  limits.max_header_count = 10;
  CHECK(error_status(with_header_lines(10), limits) == 0);
  CHECK(error_status(with_header_lines(11), limits) == 431);
  CHECK(error_status(with_header_lines(101)) == 431);
  CHECK(error_status(with_header_lines(100)) == 0);
  // trailers count too
  const std::string chunked_with_trailers =
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: 1\r\nB: 2\r\n\r\n";
  limits.max_header_count = 4;  // Host, Transfer-Encoding, A, B
  CHECK(error_status(chunked_with_trailers, limits) == 0);
  limits.max_header_count = 3;
  CHECK(error_status(chunked_with_trailers, limits) == 431);
}

TEST_CASE("http: 431 for too many header bytes", "[http]") {
  http::http_limits limits;
  limits.max_header_bytes = 64;
  // "Host: a\r\n" (9) + "X: " + n + "\r\n" + final "\r\n": 16 + n bytes in all
  const auto request_with_value = [](std::size_t n) {
    return "GET / HTTP/1.1\r\nHost: a\r\nX: " + std::string(n, 'v') + "\r\n\r\n";
  };
  CHECK(error_status(request_with_value(48), limits) == 0);
  CHECK(error_status(request_with_value(49), limits) == 431);
  CHECK(error_status("GET / HTTP/1.1\r\nHost: a\r\nX: " + std::string(20000, 'v') + "\r\n\r\n") == 431);
  std::string many = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (int i = 0; i < 60; ++i) many += "X-Header-" + std::to_string(i) + ": " + std::string(300, 'v') + "\r\n";
  CHECK(error_status(many + "\r\n") == 431);

  // An endless header line is refused once it passes the budget, not buffered forever.
  request_parser p(limits);
  std::size_t used = 0;
  REQUIRE(p.feed("GET / HTTP/1.1\r\nHost: a\r\nX: ", used) == request_parser::result::need_more);
  const std::string filler(1000, 'v');
  CHECK(p.feed(filler, used) == request_parser::result::error);
  CHECK(p.error().status == 431);
}

TEST_CASE("http: 414 for a request line over the limit", "[http]") {
  http::http_limits limits;
  limits.max_request_line = 32;
  const auto line_of = [](std::size_t n) {  // "GET /xxx HTTP/1.1" of n bytes
    return "GET /" + std::string(n - 14, 'x') + " HTTP/1.1\r\nHost: a\r\n\r\n";
  };
  REQUIRE(line_of(32).find("\r\n") == 32);
  CHECK(error_status(line_of(32), limits) == 0);
  CHECK(error_status(line_of(33), limits) == 414);
  CHECK(error_status("GET /" + std::string(9000, 'x') + " HTTP/1.1\r\nHost: a\r\n\r\n") == 414);
  // leading empty lines spend the same budget
  CHECK(error_status("\r\n" + line_of(30), limits) == 0);
  CHECK(error_status("\r\n" + line_of(32), limits) == 414);
  CHECK(error_status(std::string(10000, '\n')) == 400);
  CHECK(error_status([] { std::string s; for (int i = 0; i < 5000; ++i) s += "\r\n"; return s; }()) == 414);

  request_parser p(limits);
  std::size_t used = 0;
  CHECK(p.feed(std::string(33, 'G'), used) == request_parser::result::need_more);
  CHECK(p.feed("G", used) == request_parser::result::error);
  CHECK(p.error().status == 414);
}

TEST_CASE("http: 501 for transfer codings other than chunked", "[http]") {
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n") == 501);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == 501);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n") == 501);
  CHECK(error_status("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n") == 501);
}

TEST_CASE("http: 505 for HTTP versions other than 1.0 and 1.1", "[http]") {
  CHECK(error_status("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == 505);
  CHECK(error_status("GET / HTTP/1.2\r\nHost: a\r\n\r\n") == 505);
  CHECK(error_status("GET / HTTP/0.9\r\n\r\n") == 505);
  CHECK(error_status("GET / HTTP/3.0\r\nHost: a\r\n\r\n") == 505);
}

TEST_CASE("http: errors do not depend on how the input is split", "[http]") {
  http::http_limits small;
  small.max_request_line = 24;
  small.max_header_bytes = 48;
  small.max_header_count = 3;
  small.max_body_bytes = 8;
  const char* cases[] = {
      "GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET /aaaaaaaaaaaaaaaaaaaaaaaaaaa\nHost: a\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\nY: 2\r\nZ: 3\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX: 0123456789012345678901234567890123\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n123456789",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n5\r\nabcde\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcdX\r\n0\r\n\r\n",
      "GET / HTTP/2.0\r\nHost: a\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nX : 1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\n\rGET / HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: br\r\n\r\n",
  };
  for (const char* c : cases) {
    INFO(c);
    REQUIRE(parse_all(c, small).error);
    check_split_invariant(c, small);
  }
}

TEST_CASE("http: a failed parser stays failed until reset", "[http]") {
  request_parser p;
  std::size_t used = 99;
  REQUIRE(p.feed("BAD\r\n", used) == request_parser::result::error);
  CHECK(used == 5);
  CHECK(p.failed());
  CHECK(p.error().status == 400);
  CHECK(p.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n", used) == request_parser::result::error);
  CHECK(used == 0);
  p.reset();
  CHECK_FALSE(p.failed());
  CHECK(p.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n", used) == request_parser::result::complete);
}

TEST_CASE("http: error_response says what went wrong and closes", "[http]") {
  const auto r = http::error_response(http::parse_error{431, "too many header fields"});
  const auto wire = http::serialize(r);
  CHECK(wire.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0) == 0);
  CHECK(wire.find("\r\nConnection: close\r\n") != std::string::npos);
  CHECK(wire.find("\r\n\r\ntoo many header fields\n") != std::string::npos);
}

// ---- headers, keep-alive, expect -------------------------------------------------------------

TEST_CASE("http: header lookup ignores case and keeps every value", "[http]") {
  const auto r = parse_one("GET / HTTP/1.1\r\nhOsT: a\r\nAccept:   text/html  \r\n"
                           "X-Multi: one\r\nx-multi: two\r\nX-Empty:\r\n\r\n");
  CHECK(r.headers.get("HOST") == std::optional<std::string_view>("a"));
  CHECK(r.headers.get("accept") == std::optional<std::string_view>("text/html"));  // trimmed
  CHECK(r.headers.get("X-MULTI") == std::optional<std::string_view>("one"));
  CHECK(r.headers.get_all("x-multi") == std::vector<std::string_view>{"one", "two"});
  CHECK(r.headers.count("X-Multi") == 2);
  CHECK(r.headers.get("x-empty") == std::optional<std::string_view>(""));
  CHECK_FALSE(r.headers.get("X-Missing"));
  CHECK_FALSE(r.headers.contains("Host2"));

  http::header_map h;
  h.add("A", "1");
  h.add("a", "2");
  h.set("A", "3");
  CHECK(h.size() == 1);
  CHECK(h.get("a") == std::optional<std::string_view>("3"));
  CHECK(h.erase("A") == 1);
  CHECK(h.empty());
}

TEST_CASE("http: keep-alive rules for HTTP/1.0 and HTTP/1.1", "[http]") {
  const auto ka = [](std::string head) { return parse_one(head + "\r\n").keep_alive(); };
  CHECK(ka("GET / HTTP/1.1\r\nHost: a\r\n"));
  CHECK_FALSE(ka("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"));
  CHECK_FALSE(ka("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, CLOSE\r\n"));
  CHECK_FALSE(ka("GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nConnection: close\r\n"));
  CHECK(ka("GET / HTTP/1.1\r\nHost: a\r\nConnection: closed\r\n"));
  CHECK_FALSE(ka("GET / HTTP/1.0\r\n"));
  CHECK(ka("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n"));
  CHECK_FALSE(ka("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n"));
}

TEST_CASE("http: Expect: 100-continue is reported once, before the body", "[http]") {
  request_parser p;
  std::size_t used = 0;
  REQUIRE(p.feed("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n", used) ==
          request_parser::result::need_more);
  CHECK(p.has_headers());
  CHECK(p.current().method == "POST");
  CHECK(p.take_continue());
  CHECK_FALSE(p.take_continue());
  REQUIRE(p.feed("abc", used) == request_parser::result::complete);
  CHECK(p.take_request().body == "abc");

  // nothing to continue when there is no body, or on HTTP/1.0
  REQUIRE(p.feed("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n", used) ==
          request_parser::result::complete);
  CHECK_FALSE(p.take_continue());
  REQUIRE(p.feed("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n", used) ==
          request_parser::result::need_more);
  CHECK_FALSE(p.take_continue());
  p.reset();
  REQUIRE(p.feed("POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\n", used) ==
          request_parser::result::need_more);
  CHECK_FALSE(p.take_continue());
  CHECK(http::continue_response() == "HTTP/1.1 100 Continue\r\n\r\n");
}

// ---- robustness --------------------------------------------------------------------------------

TEST_CASE("http: mutated inputs neither crash, throw nor spin", "[http]") {
  // A deterministic stand-in for the fuzzer: flip, drop and duplicate bytes of valid traffic,
  // feed it in random-sized reads, and hold the parser to its contract on every call.
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  const auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  http::http_limits limits;
  limits.max_request_line = 64;
  limits.max_header_bytes = 128;
  limits.max_header_count = 6;
  limits.max_body_bytes = 64;
  const std::string alphabet("\r\n :;,0aF\t\x00\x7f\xff/HTTP1.-", 21);
  std::size_t completes = 0, errors = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string input = pipelined;
    const int edits = 1 + int(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = next() % input.size();
      switch (next() % 3) {
        case 0: input[at] = alphabet[next() % alphabet.size()]; break;
        case 1: input.erase(at, 1 + next() % 3); break;
        default: input.insert(at, input.substr(at, 1 + next() % 8)); break;
      }
      if (input.empty()) input = "x";
    }
    request_parser p(limits);
    std::string_view data = input;
    int calls = 0;
    while (!data.empty()) {
      const auto take = std::min<std::size_t>(data.size(), 1 + next() % 40);
      std::string_view piece = data.substr(0, take);
      data.remove_prefix(take);
      bool stop = false;
      while (!piece.empty()) {
        REQUIRE(++calls < 100000);
        std::size_t used = 0;
        const auto r = p.feed(piece, used);
        REQUIRE(used <= piece.size());
        piece.remove_prefix(used);
        if (r == request_parser::result::complete) {
          REQUIRE(used > 0);
          ++completes;
          const auto req = p.take_request();
          REQUIRE(req.body.size() <= limits.max_body_bytes);
        } else if (r == request_parser::result::error) {
          const int s = p.error().status;
          REQUIRE((s == 400 || s == 413 || s == 414 || s == 431 || s == 501 || s == 505));
          ++errors;
          stop = true;
          break;
        } else {
          REQUIRE(piece.empty());
        }
      }
      if (stop) break;
    }
  }
  CHECK(completes > 0);  // the mutations must not all be fatal, or this tests little
  CHECK(errors > 0);
}

// ---- responses ---------------------------------------------------------------------------------

TEST_CASE("http: serialize writes status line, headers and Content-Length", "[http]") {
  http::response r;
  r.status = 200;
  r.headers.add("Content-Type", "application/json");
  r.headers.add("MCP-Session-Id", "s1");
  r.body = "{}";
  CHECK(http::serialize(r) ==
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMCP-Session-Id: s1\r\n"
        "Content-Length: 2\r\n\r\n{}");

  http::response accepted;
  accepted.status = 202;
  CHECK(http::serialize(accepted) == "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");

  http::response custom;
  custom.status = 299;
  custom.reason = "Fine";
  CHECK(http::serialize(custom).rfind("HTTP/1.1 299 Fine\r\n", 0) == 0);
  custom.reason.clear();
  CHECK(http::serialize(custom).rfind("HTTP/1.1 299 \r\n", 0) == 0);
  custom.reason = "Evil\r\nX-Injected: 1";
  CHECK(http::serialize(custom).find("X-Injected") == std::string::npos);
  custom.status = 42;
  CHECK(http::serialize(custom).rfind("HTTP/1.1 500 Internal Server Error\r\n", 0) == 0);
}

TEST_CASE("http: serialize owns framing and drops header injection", "[http]") {
  http::response r;
  r.status = 204;
  r.headers.add("Content-Length", "999");
  r.headers.add("Transfer-Encoding", "chunked");
  r.headers.add("X-Bad", "a\r\nSet-Cookie: evil=1");
  r.headers.add("Bad Name", "v");
  r.headers.add("X-Good", "ok");
  r.body = "ignored for 204";
  CHECK(http::serialize(r) == "HTTP/1.1 204 No Content\r\nX-Good: ok\r\n\r\n");
}

TEST_CASE("http: event-stream head and chunk framing", "[http]") {
  http::response head;
  head.headers.add("MCP-Session-Id", "s1");
  head.headers.add("Content-Type", "application/json");  // replaced
  head.headers.add("Content-Length", "5");                // dropped
  CHECK(http::serialize_event_stream_head(head) ==
        "HTTP/1.1 200 OK\r\nMCP-Session-Id: s1\r\nContent-Type: text/event-stream\r\n"
        "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n");
  head.headers.add("Connection", "keep-alive");
  CHECK(http::serialize_event_stream_head(head, http::stream_framing::close_delimited) ==
        "HTTP/1.1 200 OK\r\nMCP-Session-Id: s1\r\nContent-Type: text/event-stream\r\n"
        "Cache-Control: no-cache\r\nConnection: close\r\n\r\n");

  CHECK(http::chunk("hello") == "5\r\nhello\r\n");
  CHECK(http::chunk(std::string(255, 'x')).rfind("ff\r\n", 0) == 0);
  CHECK(http::chunk(std::string(4096, 'x')).rfind("1000\r\n", 0) == 0);
  CHECK(http::chunk("").empty());
  CHECK(http::last_chunk() == "0\r\n\r\n");

  // What chunk() writes, the parser reads back.
  const std::string a = http::sse_priming_event("s:0", 5000);
  const std::string b = http::sse_event("s:1", std::string(300, 'j'), "message");
  const std::string wire = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" +
                           http::chunk(a) + http::chunk("") + http::chunk(b) + std::string(http::last_chunk());
  CHECK(parse_one(wire).body == a + b);
}

// ---- SSE -----------------------------------------------------------------------------------------

TEST_CASE("sse: event framing", "[http][sse]") {
  CHECK(http::sse_event("s:1", R"({"jsonrpc":"2.0"})") == "id: s:1\ndata: {\"jsonrpc\":\"2.0\"}\n\n");
  CHECK(http::sse_event("s:2", "x", "message", 5000) == "event: message\nid: s:2\nretry: 5000\ndata: x\n\n");
  CHECK(http::sse_event("", "x") == "data: x\n\n");
  CHECK(http::sse_event("", "x", std::nullopt, -1) == "data: x\n\n");
  CHECK(http::sse_event("s:3", "x", "ev\r\nid: forged") == "event: evid: forged\nid: s:3\ndata: x\n\n");
}

TEST_CASE("sse: an id that is empty or holds CR, LF or NUL writes no id line", "[http][sse]") {
  // An empty "id:" line resets the client's last event id; an id with bytes dropped names an event
  // that never was. Either way the client would resume from the wrong place: no id line at all.
  const std::string_view bad_ids[] = {"",
                                      "\r",
                                      "\n",
                                      std::string_view("\0", 1),
                                      std::string_view("\r\n\0", 3),
                                      "\r\n\r\n",
                                      "s:1\n",
                                      "\rs:1",
                                      std::string_view("s\0:1", 4),
                                      std::string_view("a\nb\r\0c", 6)};
  for (const auto id : bad_ids) {
    INFO("id of " << id.size() << " bytes");
    const std::string event = http::sse_event(id, "x", "message", 1000);
    CHECK(event == "event: message\nretry: 1000\ndata: x\n\n");
    CHECK(http::sse_priming_event(id) == "data: \n\n");
    CHECK(event.find("id:") == std::string::npos);
  }
  // Anything else goes out as it is, ours or not.
  CHECK(http::sse_event(" ", "x") == "id:  \ndata: x\n\n");
  CHECK(http::sse_event("caf\xC3\xA9 \x01", "x") == "id: caf\xC3\xA9 \x01\ndata: x\n\n");
}

TEST_CASE("sse: multi-line data becomes several data lines", "[http][sse]") {
  CHECK(http::sse_event("", "one\ntwo") == "data: one\ndata: two\n\n");
  CHECK(http::sse_event("", "one\r\ntwo\rthree") == "data: one\ndata: two\ndata: three\n\n");
  CHECK(http::sse_event("", "end\n") == "data: end\ndata: \n\n");
  CHECK(http::sse_event("", "\n\n") == "data: \ndata: \ndata: \n\n");
  CHECK(http::sse_event("", "a\r\n\r\nb") == "data: a\ndata: \ndata: b\n\n");
}

TEST_CASE("sse: priming event and comments", "[http][sse]") {
  CHECK(http::sse_priming_event("stream-1:0") == "id: stream-1:0\ndata: \n\n");
  CHECK(http::sse_priming_event("stream-1:0", 3000) == "id: stream-1:0\nretry: 3000\ndata: \n\n");
  CHECK(http::sse_comment("keep-alive") == ":keep-alive\n\n");
  CHECK(http::sse_comment("a\nb") == ":ab\n\n");
}

TEST_CASE("sse: event ids encode their stream", "[http][sse]") {
  CHECK(http::make_event_id("abc-123", 7) == "abc-123:7");
  const auto p = http::parse_event_id("abc-123:7");
  REQUIRE(p);
  CHECK(p->first == "abc-123");
  CHECK(p->second == 7u);
  const std::uint64_t max = ~std::uint64_t{0};
  const auto big = http::parse_event_id(http::make_event_id("s", max));
  REQUIRE(big);
  CHECK(big->second == max);
  CHECK(http::parse_event_id("s:0")->second == 0u);
  const std::string longest_stream(235, 'x');
  REQUIRE(http::is_valid_stream_id(longest_stream));
  CHECK(http::parse_event_id(http::make_event_id(longest_stream, max)));
  CHECK_FALSE(http::is_valid_stream_id(longest_stream + "x"));

  const char* rejects[] = {"", "abc", ":1", "s:", "s:01", "s:-1", "s:+1", "s:1a", "s:1 ", " s:1",
                           "s:18446744073709551616", "s:99999999999999999999", "a:b:1", "s t:1",
                           "s\x01:1", "caf\xC3\xA9:1", "s::1", "s:0x1"};
  for (const char* r : rejects) {
    INFO(r);
    CHECK_FALSE(http::parse_event_id(r));
  }
  CHECK_FALSE(http::parse_event_id(std::string(300, 'x') + ":1"));

  http::header_map h;
  CHECK_FALSE(http::last_event_id(h));
  h.add("last-event-id", "st:42");
  REQUIRE(http::last_event_id(h));
  CHECK(http::last_event_id(h)->second == 42u);
  h.set("Last-Event-ID", "garbage");
  CHECK_FALSE(http::last_event_id(h));
}

// ---- MCP header checks ---------------------------------------------------------------------------

TEST_CASE("http: Accept parsing", "[http]") {
  const auto both = [](std::string_view v) {
    const auto a = http::parse_accept(v);
    return std::make_pair(a.json, a.event_stream);
  };
  using P = std::pair<bool, bool>;
  CHECK(both("application/json, text/event-stream") == P{true, true});
  CHECK(both("text/event-stream,application/json") == P{true, true});
  CHECK(both("Application/JSON;q=0.9, TEXT/Event-Stream") == P{true, true});
  CHECK(both("application/json") == P{true, false});
  CHECK(both("text/event-stream") == P{false, true});
  CHECK(both("*/*") == P{true, true});
  CHECK(both("application/*") == P{true, false});
  CHECK(both("text/*;q=0.1") == P{false, true});
  CHECK(both("") == P{false, false});
  CHECK(both("text/html") == P{false, false});
  CHECK(both("json, event-stream") == P{false, false});
  CHECK(both("*/json") == P{false, false});
  // q=0 means "not acceptable", and the most specific range decides
  CHECK(both("*/*;q=0") == P{false, false});
  CHECK(both("*/*, application/json;q=0") == P{false, true});
  CHECK(both("application/json; q=0.000, text/event-stream;q=0.001") == P{false, true});
  CHECK(both("application/*;q=0, application/json") == P{true, false});
  CHECK(both("text/event-stream;q=0, */*") == P{true, false});
  // a malformed q drops only its own range
  CHECK(both("application/json;q=1.5, text/event-stream") == P{false, true});
  CHECK(both("application/json;q=abc") == P{false, false});
  CHECK(both("application/json;q=0.5;ext=1") == P{true, false});
  CHECK(both("text/html;level=\"1,2\", application/json;") == P{true, false});

  http::header_map h;
  h.add("Accept", "application/json");
  h.add("accept", "text/event-stream");
  const auto joined = http::parse_accept(h);
  CHECK(joined.json);
  CHECK(joined.event_stream);
  CHECK_FALSE(http::parse_accept(http::header_map{}).json);
}

TEST_CASE("http: Content-Type check for JSON bodies", "[http]") {
  CHECK(http::is_json_content_type("application/json"));
  CHECK(http::is_json_content_type("Application/JSON"));
  CHECK(http::is_json_content_type("application/json; charset=utf-8"));
  CHECK(http::is_json_content_type("application/json;charset=\"UTF-8\""));
  CHECK(http::is_json_content_type("application/json;"));
  CHECK(http::is_json_content_type("application/json; profile=x"));
  CHECK_FALSE(http::is_json_content_type("application/json; charset=iso-8859-1"));
  CHECK_FALSE(http::is_json_content_type("application/json; charset"));
  CHECK_FALSE(http::is_json_content_type("text/plain"));
  CHECK_FALSE(http::is_json_content_type("application/jsonx"));
  CHECK_FALSE(http::is_json_content_type("application/json-seq"));
  CHECK_FALSE(http::is_json_content_type(""));
  CHECK_FALSE(http::is_json_content_type("application/json, text/plain"));
}

TEST_CASE("http: Host parsing and the loopback check", "[http]") {
  auto h = http::parse_host("LocalHost:8080");
  REQUIRE(h);
  CHECK(h->host == "localhost");
  CHECK(h->port == std::optional<std::uint16_t>(8080));
  h = http::parse_host("127.0.0.1");
  REQUIRE(h);
  CHECK(h->host == "127.0.0.1");
  CHECK_FALSE(h->port);
  h = http::parse_host("[::1]:3000");
  REQUIRE(h);
  CHECK(h->host == "[::1]");
  CHECK(h->port == std::optional<std::uint16_t>(3000));
  h = http::parse_host("example.com:");
  REQUIRE(h);
  CHECK_FALSE(h->port);
  CHECK(http::parse_host("h:65535")->port == std::optional<std::uint16_t>(65535));

  const char* bad[] = {"", ":80", "a b", "h:65536", "h:8o", "h:1:2", "[::1", "[::1]x", "[zz]", "[1234]",
                       "user@host", "host/path", "h:-1", "[]"};
  for (const char* b : bad) {
    INFO(b);
    CHECK_FALSE(http::parse_host(b));
  }

  CHECK(http::is_local_host_header("localhost"));
  CHECK(http::is_local_host_header("localhost:1234"));
  CHECK(http::is_local_host_header("127.0.0.1:80"));
  CHECK(http::is_local_host_header("[::1]:8080"));
  CHECK(http::is_local_host_header("[::1]"));
  CHECK_FALSE(http::is_local_host_header("evil.example.com"));
  CHECK_FALSE(http::is_local_host_header("localhost.evil.com"));
  CHECK_FALSE(http::is_local_host_header("127.0.0.1.nip.io"));
  CHECK_FALSE(http::is_local_host_header("127.0.0.2"));
  CHECK_FALSE(http::is_local_host_header("[::2]"));
  CHECK_FALSE(http::is_local_host_header("localhost:99999"));

  // The quick road for a local client's Host: true only where the whole check says so, and for
  // the usual forms.
  for (const char* h : {"localhost", "LOCALHOST:1", "127.0.0.1:8080", "[::1]:65535", "127.0.0.1:", "localhost:0"})
    CHECK(http::is_plain_loopback_host(h));
  std::mt19937 rng(11);
  const std::vector<std::string> parts = {"localhost", "LocalHost", "127.0.0.1", "[::1]", ":", "8", "65535", "65536", "0",
                                          "x", ".", "]", " ", "99999", "localhost.evil", "1"};
  for (int i = 0; i < 100000; ++i) {
    std::string v;
    for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) v += parts[rng() % parts.size()];
    if (http::is_plain_loopback_host(v)) REQUIRE(http::is_local_host_header(v));
  }
}

TEST_CASE("http: Origin parsing and the loopback check", "[http]") {
  auto o = http::parse_origin("HTTP://LocalHost:5173");
  REQUIRE(o);
  CHECK(o->scheme == "http");
  CHECK(o->host == "localhost");
  CHECK(o->port == std::optional<std::uint16_t>(5173));
  o = http::parse_origin("https://[::1]");
  REQUIRE(o);
  CHECK(o->host == "[::1]");
  CHECK_FALSE(o->port);

  CHECK_FALSE(http::parse_origin("null"));
  CHECK_FALSE(http::parse_origin("localhost:80"));
  CHECK_FALSE(http::parse_origin("://localhost"));
  CHECK_FALSE(http::parse_origin("http://localhost/path"));
  CHECK_FALSE(http::parse_origin("http://user@localhost"));
  CHECK_FALSE(http::parse_origin("http://"));
  CHECK_FALSE(http::parse_origin("1http://localhost"));

  CHECK(http::is_local_origin("http://localhost"));
  CHECK(http::is_local_origin("http://localhost:6274"));
  CHECK(http::is_local_origin("https://127.0.0.1:443"));
  CHECK(http::is_local_origin("http://[::1]:3000"));
  CHECK_FALSE(http::is_local_origin("http://evil.example.com"));
  CHECK_FALSE(http::is_local_origin("http://localhost.evil.com"));
  CHECK_FALSE(http::is_local_origin("file://localhost"));
  CHECK_FALSE(http::is_local_origin("null"));
  CHECK_FALSE(http::is_local_origin("http://localhost:80 http://evil.com"));
}

}  // namespace test_http_parser
