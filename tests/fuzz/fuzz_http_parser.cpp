// HTTP/1.1 request parsing with the input split where the fuzzer says. Oracle: the requests and
// the verdict must not depend on how the bytes were split (the parser promises that), and every
// parsed request must survive the helpers the transport runs on it.
//
// The split run reads each request where the parser keeps it (completed(), the connection's road,
// into the storage of the one before), the whole run moves each out (take_request()): the same
// requests either way.
//
// Input: byte 0 = number of split points (mod 8), then 2 bytes per split point (offsets into the
// rest, little-endian), then the HTTP byte stream.
#include <mcp/transport/detail/http_parser.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace http = mcp::detail::http;

namespace {

// Everything observable about one run, flattened for comparison.
struct outcome {
  std::vector<std::string> requests;
  int error_status = 0;
  std::string error_detail;
  std::size_t consumed = 0;  // bytes used; compared only without an error (a failed parser stops anywhere)

  bool operator==(const outcome& o) const {
    return requests == o.requests && error_status == o.error_status && error_detail == o.error_detail &&
           (error_status != 0 || consumed == o.consumed);
  }
};

std::string flatten(const http::request& r) {
  std::string out = r.method + ' ' + r.target + ' ' + std::to_string(r.minor_version) + '\n';
  for (const auto& f : r.headers) out += std::string(f.name) + ':' + std::string(f.value) + '\n';
  out += std::to_string(r.body.size()) + '\n' + r.body;
  return out;
}

// The transport's per-request helpers must cope with whatever the parser let through.
void exercise(const http::request& r) {
  (void)r.path();
  (void)r.query();
  (void)r.keep_alive();
  (void)http::parse_accept(r.headers);
  if (auto ct = r.headers.get("Content-Type")) (void)http::is_json_content_type(*ct);
  if (auto host = r.headers.get("Host")) {
    (void)http::parse_host(*host);
    const bool local = http::is_local_host_header(*host);
    if (http::is_plain_loopback_host(*host) && !local) std::abort();  // the quick road says yes only where the check does
  }
  if (auto origin = r.headers.get("Origin")) {
    (void)http::parse_origin(*origin);
    (void)http::is_local_origin(*origin);
  }
  // A header value the parser accepted must be safe to echo back.
  http::response echo;
  for (const auto& f : r.headers) echo.headers.add(f.name, f.value);
  echo.body = r.body;
  std::string wire = http::serialize(echo);
  if (wire.find("\r\n\r\n") == std::string::npos) std::abort();
}

outcome run(std::string_view stream, const std::vector<std::size_t>& cuts, http::http_limits limits, bool in_place) {
  http::request_parser parser(limits);
  outcome out;
  std::size_t start = 0;
  bool failed = false;
  auto feed_piece = [&](std::string_view data) {
    while (!data.empty() && !failed) {
      std::size_t used = 0;
      auto r = parser.feed(data, used);
      if (used > data.size()) std::abort();
      data.remove_prefix(used);
      out.consumed += used;
      if (r == http::request_parser::result::complete) {
        http::request req = in_place ? parser.completed() : parser.take_request();
        exercise(req);
        out.requests.push_back(flatten(req));
      } else if (r == http::request_parser::result::error) {
        out.error_status = parser.error().status;
        out.error_detail = std::string(parser.error().detail);
        (void)http::serialize(http::error_response(parser.error()));
        failed = true;
      } else if (!data.empty()) {
        std::abort();  // need_more must mean everything was consumed
      }
    }
  };
  for (std::size_t cut : cuts) {
    feed_piece(stream.substr(start, cut - start));
    start = cut;
  }
  feed_piece(stream.substr(start));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::size_t n = data[0] % 8;
  if (size < 1 + 2 * n) return 0;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1 + 2 * n, size - 1 - 2 * n);
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t off = data[1 + 2 * i] | (static_cast<std::size_t>(data[2 + 2 * i]) << 8);
    cuts.push_back(stream.empty() ? 0 : off % (stream.size() + 1));
  }
  std::sort(cuts.begin(), cuts.end());

  // Small limits reach every limit path with short inputs; the defaults check the ordinary ones.
  http::http_limits small;
  small.max_request_line = 64;
  small.max_header_count = 6;
  small.max_header_bytes = 256;
  small.max_body_bytes = 512;
  small.max_chunk_ext_bytes = 24;
  for (const auto& limits : {small, http::http_limits{}}) {
    outcome whole = run(stream, {}, limits, false);
    outcome split = run(stream, cuts, limits, true);
    if (!(whole == split)) {
      std::fprintf(stderr, "split-dependent result: whole %zu requests, error %d '%s', consumed %zu; split %zu "
                           "requests, error %d '%s', consumed %zu\n",
                   whole.requests.size(), whole.error_status, whole.error_detail.c_str(), whole.consumed,
                   split.requests.size(), split.error_status, split.error_detail.c_str(), split.consumed);
      std::abort();
    }
  }
  return 0;
}
