// HTTPS in the SDK's listener (transport/https.hpp) over real sockets, with a certificate made
// here for 127.0.0.1: a verified client's round trips (JSON and SSE, on one kept-alive
// connection), and clients that do not speak TLS: one that sends plain HTTP and one that sends
// nothing are disconnected without an answer; a large answer read slowly is served whole past
// write_timeout, and one never read is let go at it. Built where OpenSSL is (MCP_TEST_TLS).
#if MCP_TEST_TLS
#include "catch.hpp"
#include "http_client.hpp"
#include "serving.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/https.hpp>

#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read.hpp>
#include <asio/ssl.hpp>
#include <asio/write.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <thread>
#include <memory>
#include <string>

using mcp::json;
using namespace std::chrono_literals;

namespace test_https {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// A self-signed certificate for IP 127.0.0.1 and its key, as PEM files in a folder of their own.
struct throwaway_certificate {
  std::string dir, cert, key;

  throwaway_certificate() {
    char dir_template[] = "/tmp/mcp-tls-XXXXXX";
    REQUIRE(mkdtemp(dir_template));
    dir = dir_template;
    cert = dir + "/cert.pem";
    key = dir + "/key.pem";
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pkey(EVP_EC_gen("P-256"), EVP_PKEY_free);
    REQUIRE(pkey);
    std::unique_ptr<X509, decltype(&X509_free)> x(X509_new(), X509_free);
    X509_set_version(x.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(x.get()), -60);
    X509_gmtime_adj(X509_getm_notAfter(x.get()), 24 * 3600);
    X509_set_pubkey(x.get(), pkey.get());
    X509_NAME* name = X509_get_subject_name(x.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(x.get(), name);
    X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, nullptr, NID_subject_alt_name, "IP:127.0.0.1");
    REQUIRE(san);
    X509_add_ext(x.get(), san, -1);
    X509_EXTENSION_free(san);
    REQUIRE(X509_sign(x.get(), pkey.get(), EVP_sha256()) > 0);
    write(cert, [&](FILE* f) { return PEM_write_X509(f, x.get()); });
    write(key, [&](FILE* f) { return PEM_write_PrivateKey(f, pkey.get(), nullptr, nullptr, 0, nullptr, nullptr); });
  }
  ~throwaway_certificate() {
    std::remove(cert.c_str());
    std::remove(key.c_str());
    std::remove(dir.c_str());
  }

 private:
  template <class Fn>
  static void write(const std::string& path, Fn fn) {
    FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    const int ok = fn(f);
    std::fclose(f);
    REQUIRE(ok == 1);
  }
};

mcp::server_options quiet() {
  mcp::server_options o;
  o.log_sink = [](std::string_view) {};
  return o;
}

// A TLS client that trusts only `cert`: sends requests and reads whole responses (by
// Content-Length, or a chunked body to its last chunk).
class tls_client {
 public:
  // receive_buffer: as in test::http_connection; pause: a wait after each read (a slow reader).
  tls_client(unsigned short port, const std::string& cert, int receive_buffer = 0,
             std::chrono::milliseconds pause = {})
      : ctx_(asio::ssl::context::tls_client), stream_(io_, ctx_), pause_(pause) {
    ctx_.load_verify_file(cert);
    stream_.set_verify_mode(asio::ssl::verify_peer);
    stream_.lowest_layer().open(asio::ip::tcp::v4());
    if (receive_buffer > 0) stream_.lowest_layer().set_option(asio::socket_base::receive_buffer_size(receive_buffer));
    stream_.lowest_layer().connect({asio::ip::make_address("127.0.0.1"), port});
    stream_.handshake(asio::ssl::stream_base::client);
  }
  test::http_response post(const json& body, const std::string& session = {}) {
    send(body, session);
    return read_response();
  }
  void send(const json& body, const std::string& session = {}) {
    std::vector<test::header> h = {{"Content-Type", "application/json"},
                                   {"Accept", "application/json, text/event-stream"},
                                   {"MCP-Protocol-Version", "2025-11-25"}};
    if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
    asio::write(stream_, asio::buffer(test::http_request("POST", "/mcp", body.dump(), h)));
  }
  test::http_response read_response() {
    const auto head_end = [&] { return buf_.find("\r\n\r\n"); };
    while (head_end() == std::string::npos) more();
    test::http_response r;
    const std::string head = buf_.substr(0, head_end());
    buf_.erase(0, head_end() + 4);
    r.status = std::stoi(head.substr(9, 3));
    for (std::size_t at = head.find("\r\n"); at != std::string::npos;) {
      const std::size_t next = head.find("\r\n", at + 2);
      const std::string line = head.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
      if (const auto colon = line.find(':'); colon != std::string::npos)
        r.headers.emplace_back(line.substr(0, colon), line.substr(colon + 2));
      at = next;
    }
    if (auto length = r.header("Content-Length")) {
      const std::size_t n = std::stoul(*length);
      while (buf_.size() < n) more();
      r.body = buf_.substr(0, n);
      buf_.erase(0, n);
    } else {  // chunked: the events' bytes, then the last chunk
      for (;;) {
        while (buf_.find("\r\n") == std::string::npos) more();
        const std::size_t size = std::stoul(buf_.substr(0, buf_.find("\r\n")), nullptr, 16);
        const std::size_t start = buf_.find("\r\n") + 2;
        while (buf_.size() < start + size + 2) more();
        r.body += buf_.substr(start, size);
        buf_.erase(0, start + size + 2);
        if (size == 0) break;
      }
    }
    r.complete = true;
    return r;
  }

 private:
  void more() {
    char chunk[4096];
    const std::size_t n = stream_.read_some(asio::buffer(chunk));
    buf_.append(chunk, n);
    if (pause_.count() > 0) std::this_thread::sleep_for(pause_);
  }

  asio::io_context io_;
  asio::ssl::context ctx_;
  asio::ssl::stream<asio::ip::tcp::socket> stream_;
  std::chrono::milliseconds pause_;
  std::string buf_;
};

const json init_params = {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "tls-test"}, {"version", "1"}}}};

}  // namespace

TEST_CASE("https: a verified client's JSON and SSE answers on one connection; non-TLS clients get nothing") {
  throwaway_certificate certificate;
  mcp::server srv{mcp::server_info{"tls-test", "1.0.0"}, quiet()};
  srv.tool("chatty", "Reports progress, then answers", [](mcp::context& ctx) {
    ctx.progress(1, 2, "half");
    return std::string("done talking");
  });
  mcp::http::options o;
  o.port = 0;
  o.read_timeout = std::chrono::seconds(1);
  o.tls = mcp::http::make_tls({certificate.cert, certificate.key});
  test::serving listener(srv, o);

  tls_client client(listener.port(), certificate.cert);
  auto init = client.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
  REQUIRE(init.status == 200);
  CHECK(json::parse(init.body)["result"]["serverInfo"]["name"] == "tls-test");
  const std::string session = init.header("Mcp-Session-Id").value_or("");
  REQUIRE_FALSE(session.empty());
  CHECK(client.post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, session).status == 202);
  auto sse = client.post({{"jsonrpc", "2.0"},
                          {"id", 2},
                          {"method", "tools/call"},
                          {"params", {{"name", "chatty"}, {"arguments", json::object()}, {"_meta", {{"progressToken", "p"}}}}}},
                         session);
  CHECK(sse.status == 200);
  CHECK(sse.header("Content-Type") == std::optional<std::string>("text/event-stream"));
  CHECK(sse.body.find("notifications/progress") != std::string::npos);
  CHECK(sse.body.find("done talking") != std::string::npos);

  // A client that trusts another certificate fails its handshake.
  throwaway_certificate other;
  CHECK_THROWS(tls_client(listener.port(), other.cert));

  // Plain HTTP to the TLS port: no answer, the connection is closed.
  test::http_connection plain(listener.port());
  plain.send(test::http_request("POST", "/mcp", "{}", {{"Content-Type", "application/json"}}));
  CHECK(plain.wait_closed(3s));
  CHECK(plain.read(10ms).status == 0);
  // A client that never starts the handshake is closed at read_timeout.
  test::http_connection silent(listener.port());
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(silent.wait_closed(5s));
  CHECK(std::chrono::steady_clock::now() - t0 >= 500ms);
  // The server goes on serving.
  tls_client again(listener.port(), certificate.cert);
  CHECK(again.post({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}, session).status == 200);
}

TEST_CASE("https: make_tls names the file it cannot use; one setting serves two listeners") {
  throwaway_certificate certificate;
  try {
    (void)mcp::http::make_tls({certificate.cert, certificate.cert + ".missing"});
    FAIL("make_tls took a key file that does not exist");
  } catch (const std::system_error& e) {
    CHECK(std::string(e.what()).find("'" + certificate.cert + ".missing'") != std::string::npos);
  }
  mcp::server srv{mcp::server_info{"tls-test", "1.0.0"}, quiet()};
  mcp::http::options o;
  o.port = 0;
  o.tls = mcp::http::make_tls({certificate.cert, certificate.key});
  test::serving first(srv, o);
  test::serving second(srv, o);
  for (const auto port : {first.port(), second.port()}) {
    tls_client client(port, certificate.cert);
    auto init = client.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
    CHECK(init.status == 200);
  }
}

TEST_CASE("https: a large answer read slowly is served past write_timeout; one never read is let go at it") {
  throwaway_certificate certificate;
  std::atomic<int> cut{0};
  mcp::server_options so;
  so.log_sink = [&](std::string_view text) {
    if (text.find("took no bytes for write_timeout") != std::string_view::npos) ++cut;
  };
  mcp::server srv{mcp::server_info{"tls-test", "1.0.0"}, so};
  constexpr std::size_t size = 7 * 1000 * 1000;
  srv.tool("big", "A large answer", [] { return std::string(size, 'x'); });
  mcp::http::options o;
  o.port = 0;
  o.write_timeout = 1s;
  o.tls = mcp::http::make_tls({certificate.cert, certificate.key});
  test::serving listener(srv, o);
  const json call = {{"jsonrpc", "2.0"}, {"method", "tools/call"}, {"params", {{"name", "big"}, {"arguments", json::object()}}}};
  auto with_id = [&](int id) {
    json c = call;
    c["id"] = id;
    return c;
  };

  // 4 KiB a read, then 2 ms: about 2 MB/s, through a receive buffer that keeps most of it waiting.
  tls_client slow(listener.port(), certificate.cert, 256 * 1024, 2ms);
  const auto init = slow.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", init_params}});
  const std::string session = init.header("Mcp-Session-Id").value_or("");
  REQUIRE_FALSE(session.empty());
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = slow.post(with_id(2), session);
  const auto took = std::chrono::steady_clock::now() - t0;
  CHECK(r.status == 200);
  CHECK(r.body.size() > size);
  CHECK(took > 2s);  // twice write_timeout: the deadline moved as the client read
  CHECK(cut == 0);

  // A client that reads none of it is disconnected about write_timeout later.
  tls_client stalled(listener.port(), certificate.cert, 4096);
  stalled.send(with_id(3), session);
  bool closed = false;
  for (int i = 0; i < 100 && !closed; ++i) {
    std::this_thread::sleep_for(50ms);
    closed = cut == 1;
  }
  CHECK(closed);
  std::printf("figure: https: a %.0f MB answer read slowly in %.1f s with write_timeout 1 s\n", size / 1e6,
              std::chrono::duration<double>(took).count());
}

}  // namespace test_https
#endif
