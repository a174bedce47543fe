// examples/jwt over a real socket on 127.0.0.1, with real tokens: minted here with libjwt, HS256
// with a shared secret and RS256 with a key pair OpenSSL generates for the run. The example must
// refuse what a resource server refuses (no token, a bad signature, the RS256 key used as an HS256
// secret, "alg": "none", expired, another issuer or audience) with 401 and its challenge, hide and
// refuse (403) a tool whose scope the token lacks, and hand the handler the token's sub and scopes,
// in a 2025-11-25 session and in 2026-07-28 requests; its audit log and spans name the subject.
#include "catch.hpp"
#include "http_client.hpp"
#include "subprocess.hpp"

#include <mcp/json/json.hpp>

#include <jwt.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using mcp::json;
using namespace std::chrono_literals;

namespace {

const std::string issuer = "https://auth.test";
const std::string secret = "a shared secret of the test, 32 bytes or more long";

struct rsa_pair {
  std::string private_pem, public_pem;
};

// A fresh 2048-bit RSA key pair as PEM text.
rsa_pair generate_rsa() {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_RSA_gen(2048), EVP_PKEY_free);
  REQUIRE(key);
  auto pem = [&](bool is_private) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    const int ok = is_private ? PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)
                              : PEM_write_bio_PUBKEY(bio.get(), key.get());
    REQUIRE(ok == 1);
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
  };
  return {pem(true), pem(false)};
}

// A signed token with these claims.
std::string mint(jwt_alg_t alg, const std::string& key, const json& claims) {
  jwt_t* raw = nullptr;
  REQUIRE(jwt_new(&raw) == 0);
  std::unique_ptr<jwt_t, decltype(&jwt_free)> token(raw, jwt_free);
  REQUIRE(jwt_add_grants_json(raw, claims.dump().c_str()) == 0);
  REQUIRE(jwt_set_alg(raw, alg, key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                      static_cast<int>(key.size())) == 0);
  std::unique_ptr<char, decltype(&std::free)> text(jwt_encode_str(raw), std::free);
  REQUIRE(text);
  return text.get();
}

long long now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<json> json_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

json body_of(const test::http_response& r) {
  json body = json::parse(r.body, nullptr, false);
  if (body.is_discarded())  // an SSE stream: its last message is the response
    for (const auto& e : r.events())
      if (!e.data.empty()) body = json::parse(e.data);
  return body;
}

}  // namespace

TEST_CASE("jwt example: 401 for bad tokens, 403 and a shorter list without the scope, the subject everywhere") {
  const auto keys = generate_rsa();
  const std::string dir = std::string(MCP_TEST_BINARY_DIR) + "/scratch-jwt-" + std::to_string(getpid());
  const std::string public_key = dir + "-rs256.pem", spans = dir + "-spans.jsonl", audit = dir + "-audit.jsonl";
  std::ofstream(public_key) << keys.public_pem;
  std::remove(spans.c_str());
  std::remove(audit.c_str());

  const unsigned short port = test::free_port();
  const std::string resource = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  const std::string metadata_url = "http://127.0.0.1:" + std::to_string(port) + "/.well-known/oauth-protected-resource/mcp";
  test::subprocess server({MCP_JWT_BINARY, "--http", "127.0.0.1:" + std::to_string(port), "--issuer", issuer,
                           "--rs256-public-key", public_key, "--spans", spans, "--audit", audit},
                          {"MCP_JWT_HS256_SECRET=" + secret});
  std::unique_ptr<test::http_connection> conn = test::connect_when_listening(port);
  INFO(server.stderr_text());
  REQUIRE(conn);

  const json good = {{"iss", issuer}, {"aud", resource}, {"sub", "ann"}, {"exp", now() + 600},
                     {"scope", "notes:read notes:write"}};
  const std::string writer = mint(JWT_ALG_HS256, secret, good);
  json reader_claims = good;
  reader_claims["sub"] = "bob";
  reader_claims["scope"] = "notes:read";
  reader_claims["aud"] = {"https://other.test", resource};  // an array naming this server is fine
  const std::string reader = mint(JWT_ALG_RS256, keys.private_pem, reader_claims);

  std::string session;
  long long id = 0;
  auto post = [&](const std::string& token, const std::string& method, json params, std::vector<test::header> extra = {}) {
    std::vector<test::header> h = {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}};
    if (!token.empty()) h.push_back({"Authorization", "Bearer " + token});
    if (!session.empty()) h.push_back({"Mcp-Session-Id", session});
    for (auto& e : extra) h.push_back(std::move(e));
    const json message{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method}, {"params", std::move(params)}};
    conn->send(test::http_request("POST", "/mcp", message.dump(), h));
    auto r = conn->read(10s);
    if (auto sid = r.header("Mcp-Session-Id")) session = *sid;
    return r;
  };
  const json init = {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                     {"clientInfo", {{"name", "jwt-test"}, {"version", "1"}}}};

  // No token: 401 naming the metadata, which is public.
  auto refused = post("", "initialize", init);
  CHECK(refused.status == 401);
  REQUIRE(refused.header("WWW-Authenticate"));
  CHECK(*refused.header("WWW-Authenticate") == "Bearer resource_metadata=\"" + metadata_url + "\"");
  conn->send(test::http_request("GET", "/.well-known/oauth-protected-resource/mcp", "", {}));
  auto meta = conn->read(10s);
  CHECK(meta.status == 200);
  CHECK(json::parse(meta.body)["resource"] == resource);
  CHECK(json::parse(meta.body)["authorization_servers"] == json::array({issuer}));

  // Tokens a resource server must refuse, each with invalid_token and the reason.
  auto expect_invalid = [&](const std::string& token, const std::string& reason) {
    auto r = post(token, "initialize", init);
    INFO(reason);
    CHECK(r.status == 401);
    const std::string challenge = r.header("WWW-Authenticate").value_or("");
    CHECK(challenge.find("error=\"invalid_token\"") != std::string::npos);
    CHECK(challenge.find("resource_metadata=\"" + metadata_url + "\"") != std::string::npos);
    CHECK(challenge.find(reason) != std::string::npos);
  };
  expect_invalid(mint(JWT_ALG_HS256, "another secret, not the server's one at all", good), "signature");
  expect_invalid(mint(JWT_ALG_HS256, keys.public_pem, good), "signature");  // algorithm confusion
  expect_invalid(mint(JWT_ALG_NONE, "", good), "signature");
  {
    const std::string forged = writer.substr(0, writer.rfind('.') + 1) + "AAAA";
    expect_invalid(forged, "signature");
  }
  json claims = good;
  claims["exp"] = now() - 3600;
  expect_invalid(mint(JWT_ALG_RS256, keys.private_pem, claims), "expired");
  claims = good;
  claims.erase("exp");
  expect_invalid(mint(JWT_ALG_HS256, secret, claims), "no expiry");
  claims = good;
  claims["iss"] = "https://evil.test";
  expect_invalid(mint(JWT_ALG_HS256, secret, claims), "issuer");
  claims = good;
  claims["aud"] = "https://other.test/mcp";
  expect_invalid(mint(JWT_ALG_RS256, keys.private_pem, claims), "not for");

  // A 2025-11-25 session, opened by the reader (RS256, notes:read only).
  auto opened = post(reader, "initialize", init);
  REQUIRE(opened.status == 200);
  REQUIRE_FALSE(session.empty());
  conn->send(test::http_request("POST", "/mcp", R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"},
                                 {"Authorization", "Bearer " + reader}, {"Mcp-Session-Id", session}}));
  CHECK(conn->read(10s).status == 202);
  const std::vector<test::header> v = {{"MCP-Protocol-Version", "2025-11-25"}};
  auto tool_names = [&](const std::string& token, std::vector<test::header> extra, json params = json::object()) {
    std::set<std::string> names;
    const json listed = body_of(post(token, "tools/list", std::move(params), std::move(extra)));
    INFO(listed.dump());
    REQUIRE(listed["result"]["tools"].is_array());
    for (const auto& t : listed["result"]["tools"])
      names.insert(t["name"].get<std::string>());
    return names;
  };
  CHECK(tool_names(reader, v) == std::set<std::string>{"whoami", "list_notes"});
  auto who = body_of(post(reader, "tools/call", {{"name", "whoami"}, {"arguments", json::object()}}, v));
  CHECK(who["result"]["structuredContent"] == json{{"subject", "bob"}, {"scopes", {"notes:read"}}});
  auto denied = post(reader, "tools/call", {{"name", "add_note"}, {"arguments", {{"title", "t"}, {"body", "b"}}}}, v);
  CHECK(denied.status == 403);
  CHECK(denied.header("WWW-Authenticate").value_or("") ==
        "Bearer error=\"insufficient_scope\", scope=\"notes:write\", resource_metadata=\"" + metadata_url + "\"");
  CHECK(body_of(denied)["error"]["code"] == -32003);

  // The session is the reader's: to the writer it does not exist. The writer (HS256) opens its own.
  CHECK(post(writer, "tools/list", json::object(), v).status == 404);
  const std::string readers_session = session;
  session.clear();
  REQUIRE(post(writer, "initialize", init).status == 200);
  CHECK(session != readers_session);
  CHECK(tool_names(writer, v) == std::set<std::string>{"whoami", "add_note", "list_notes"});
  auto saved = body_of(post(writer, "tools/call", {{"name", "add_note"}, {"arguments", {{"title", "plan"}, {"body", "b"}}}}, v));
  CHECK(saved["result"]["content"][0]["text"] == "Saved note 'plan' for ann.");

  // 2026-07-28: no session, the caller in every request.
  session.clear();
  auto modern = [&](const std::string& token, const std::string& tool, json args) {
    json params{{"name", tool}, {"arguments", std::move(args)},
                {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                           {"io.modelcontextprotocol/clientCapabilities", json::object()},
                           {"io.modelcontextprotocol/clientInfo", {{"name", "modern"}, {"version", "1"}}},
                           {"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}};
    return post(token, "tools/call", std::move(params),
                {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", tool}});
  };
  auto listed = body_of(modern(writer, "list_notes", json::object()));
  CHECK(listed["result"]["structuredContent"] == json::array({"plan"}));  // 2026-07-28: the list itself
  auto modern_denied = modern(reader, "add_note", {{"title", "x"}, {"body", "y"}});
  CHECK(modern_denied.status == 403);
  CHECK(modern_denied.header("WWW-Authenticate").value_or("").find("error=\"insufficient_scope\"") != std::string::npos);
  CHECK(body_of(modern(reader, "list_notes", json::object()))["result"]["structuredContent"] == json::array());
  CHECK(modern("", "list_notes", json::object()).status == 401);
  CHECK(session.empty());

  server.signal(SIGTERM);
  CHECK(server.wait(10s) == 0);

  // Middleware saw the verified subjects; tracing kept the caller's trace.
  std::multiset<std::string> callers;
  for (const auto& line : json_lines(audit)) callers.insert(line["caller"].get<std::string>());
  CHECK(callers.count("ann") == 3);  // tools/list, add_note, list_notes (2026)
  // tools/list, whoami, list_notes (2026), and the two refused add_note calls: an audit log sees them
  CHECK(callers.count("bob") == 5);
  int refusals = 0;
  for (const auto& line : json_lines(audit))
    refusals += line["caller"] == "bob" && line["tool"] == "add_note" && line["error_code"] == -32003;
  CHECK(refusals == 2);
  const auto span_lines = json_lines(spans);
  CHECK(span_lines.size() == json_lines(audit).size());
  int in_trace = 0;
  for (const auto& s : span_lines) in_trace += s["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736";
  CHECK(in_trace == 3);  // the 2026-07-28 calls that reached the chain, the refused one too (not the 401)
  std::remove(public_key.c_str());
  std::remove(spans.c_str());
  std::remove(audit.c_str());
}
