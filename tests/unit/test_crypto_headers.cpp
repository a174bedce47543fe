// SHA-256 / HMAC-SHA256, the sealed MRTR requestState, and SEP-2243 standard header validation.
#include "catch.hpp"

#include <mcp/json/detail/base64.hpp>
#include <mcp/core/detail/mcp_headers.hpp>
#include <mcp/core/detail/request_state_seal.hpp>
#include <mcp/core/detail/sha256.hpp>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

using mcp::json;
namespace d = mcp::detail;

namespace test_crypto_headers {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

std::string hex(const d::sha256_digest& digest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto b : digest) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// What open() threw: "ok" when it returned, the message of a protocol_error (with its code checked),
// or "OTHER EXCEPTION" so a test fails visibly when anything else escapes.
std::string open_error(d::state_sealer& sealer, std::string_view token, std::string_view method, const json& params) {
  try {
    sealer.open(token, method, params);
    return "ok";
  } catch (const mcp::protocol_error& e) {
    if (e.code() != mcp::error_code::invalid_params) return "WRONG CODE";
    return e.what();
  } catch (...) {
    return "OTHER EXCEPTION";
  }
}

const char* const integrity = "requestState integrity check failed";

}  // namespace

TEST_CASE("sha256 matches the FIPS 180-4 examples", "[crypto]") {
  CHECK(hex(d::sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(d::sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(d::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex(d::sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopq"
                      "rlmnopqrsmnopqrstnopqrstu")) ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(hex(d::sha256(std::string(1000000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 gives the same digest however the input is split", "[crypto]") {
  // Lengths around the 55/56/64-byte padding boundaries are where block handling goes wrong.
  for (std::size_t len : {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200}) {
    std::string msg;
    for (std::size_t i = 0; i < len; ++i) msg += char('a' + i % 26);
    d::sha256_hasher h;
    for (std::size_t i = 0; i < msg.size(); i += 7) h.update(std::string_view(msg).substr(i, 7));
    CHECK(h.finish() == d::sha256(msg));
  }
  CHECK(d::sha256("abc") != d::sha256("abd"));
}

TEST_CASE("hmac_sha256 matches RFC 4231 test cases 1-7", "[crypto]") {
  CHECK(hex(d::hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hex(d::hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hex(d::hmac_sha256(std::string(20, '\xaa'), std::string(50, '\xdd'))) ==
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  std::string key4;
  for (int i = 1; i <= 25; ++i) key4 += char(i);
  CHECK(hex(d::hmac_sha256(key4, std::string(50, '\xcd'))) ==
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  // Case 5 specifies only the first 128 bits.
  CHECK(hex(d::hmac_sha256(std::string(20, '\x0c'), "Test With Truncation")).substr(0, 32) ==
        "a3b6167473100ee06e0c796c2955552b");
  CHECK(hex(d::hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  CHECK(hex(d::hmac_sha256(std::string(131, '\xaa'),
                           "This is a test using a larger than block-size key and a larger than block-size data. "
                           "The key needs to be hashed before being used by the HMAC algorithm.")) ==
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("constant_time_equal compares contents and lengths", "[crypto]") {
  CHECK(d::constant_time_equal("", ""));
  CHECK(d::constant_time_equal("abc", "abc"));
  CHECK_FALSE(d::constant_time_equal("abc", "abd"));
  CHECK_FALSE(d::constant_time_equal("abc", "xbc"));
  CHECK_FALSE(d::constant_time_equal("abc", "abcd"));
  CHECK_FALSE(d::constant_time_equal("", "a"));
  CHECK(d::constant_time_equal(std::string("a\0b", 3), std::string("a\0b", 3)));
  CHECK_FALSE(d::constant_time_equal(std::string("a\0b", 3), std::string("a\0c", 3)));
}

TEST_CASE("a sealed requestState opens for the same request and returns the payload", "[mrtr]") {
  d::state_sealer sealer("k3y");
  const json payload = {{"step", 2}, {"answers", {"octocat", 7}}, {"nested", {{"x", nullptr}}}};
  const json params = {{"name", "get_weather"}, {"arguments", {{"city", "Paris"}}}};
  const std::string token = sealer.seal(payload, "tools/call", params, std::chrono::seconds(60));
  CHECK(token.find('.') != std::string::npos);
  CHECK(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") ==
        std::string::npos);
  CHECK(sealer.open(token, "tools/call", params) == payload);

  // Each seal gets its own nonce, so two seals of the same payload differ.
  CHECK(sealer.seal(payload, "tools/call", params, std::chrono::seconds(60)) !=
        sealer.seal(payload, "tools/call", params, std::chrono::seconds(60)));
}

TEST_CASE("a tampered requestState fails the integrity check", "[mrtr]") {
  d::state_sealer sealer("k3y");
  const json params = {{"name", "t"}, {"arguments", json::object()}};
  const std::string token = sealer.seal({{"admin", false}}, "tools/call", params, std::chrono::seconds(60));
  const auto dot = token.find('.');
  REQUIRE(dot != std::string::npos);

  auto flip = [](std::string t, std::size_t at) {
    t[at] = t[at] == 'A' ? 'B' : 'A';
    return t;
  };
  CHECK(open_error(sealer, flip(token, 3), "tools/call", params) == integrity);
  CHECK(open_error(sealer, flip(token, dot - 1), "tools/call", params) == integrity);
  CHECK(open_error(sealer, flip(token, dot + 2), "tools/call", params) == integrity);
  CHECK(open_error(sealer, flip(token, token.size() - 1), "tools/call", params) == integrity);
  CHECK(open_error(sealer, token + "-TAMPERED", "tools/call", params) == integrity);

  // A forged payload re-encoded under the old MAC.
  const std::string forged = d::base64url_encode(R"({"payload":{"admin":true}})");
  CHECK(open_error(sealer, forged + token.substr(dot), "tools/call", params) == integrity);

  // None of the failures consumed the state.
  CHECK(open_error(sealer, token, "tools/call", params) == "ok");
}

TEST_CASE("a requestState expires on the second-resolution clock", "[mrtr]") {
  std::int64_t now = 1'700'000'000;
  d::state_sealer sealer("k3y", [&] { return now; });
  const json params = {{"name", "t"}};
  CHECK(open_error(sealer, sealer.seal(1, "tools/call", params, std::chrono::seconds(0)), "tools/call", params) ==
        "requestState expired");
  CHECK(open_error(sealer, sealer.seal(1, "tools/call", params, std::chrono::seconds(-5)), "tools/call", params) ==
        "requestState expired");

  const std::string token = sealer.seal(1, "tools/call", params, std::chrono::seconds(10));
  const std::string token2 = sealer.seal(2, "tools/call", params, std::chrono::seconds(10));
  now += 9;
  CHECK(open_error(sealer, token, "tools/call", params) == "ok");
  now += 1;
  CHECK(open_error(sealer, token2, "tools/call", params) == "requestState expired");

  // A huge ttl saturates instead of overflowing into the past.
  CHECK(open_error(sealer, sealer.seal(1, "tools/call", params, std::chrono::seconds::max()), "tools/call", params) ==
        "ok");
}

TEST_CASE("a requestState is bound to its method and params", "[mrtr]") {
  d::state_sealer sealer("k3y");
  const json params = {{"name", "t"}, {"arguments", {{"a", 1}, {"b", "x"}}}};
  const auto seal = [&] { return sealer.seal("p", "tools/call", params, std::chrono::seconds(60)); };
  const char* const foreign = "requestState does not belong to this request";

  CHECK(open_error(sealer, seal(), "prompts/get", params) == foreign);
  CHECK(open_error(sealer, seal(), "tools/call", {{"name", "t"}, {"arguments", {{"a", 2}, {"b", "x"}}}}) == foreign);
  CHECK(open_error(sealer, seal(), "tools/call", {{"name", "u"}, {"arguments", {{"a", 1}, {"b", "x"}}}}) == foreign);
  CHECK(open_error(sealer, seal(), "tools/call", {{"name", "t"}}) == foreign);
  CHECK(open_error(sealer, seal(), "tools/call", json()) == foreign);

  // The retry adds _meta, inputResponses and requestState; none of them is part of the binding.
  json retry = params;
  retry["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}};
  retry["inputResponses"] = {{"login", {{"action", "accept"}, {"content", {{"name", "octocat"}}}}}};
  retry["requestState"] = "whatever";
  CHECK(open_error(sealer, seal(), "tools/call", retry) == "ok");

  // Key order in the request does not matter.
  CHECK(open_error(sealer, seal(), "tools/call", json::parse(R"({"arguments":{"b":"x","a":1},"name":"t"})")) == "ok");

  // A state sealed with one _meta opens under another.
  json with_meta = params;
  with_meta["_meta"] = {{"progressToken", 1}};
  const std::string token = sealer.seal("p", "tools/call", with_meta, std::chrono::seconds(60));
  with_meta["_meta"] = {{"progressToken", 2}};
  CHECK(open_error(sealer, token, "tools/call", with_meta) == "ok");
}

TEST_CASE("a requestState is single use", "[mrtr]") {
  d::state_sealer sealer("k3y");
  const json params = {{"uri", "file:///a"}};
  const std::string token = sealer.seal("p", "resources/read", params, std::chrono::seconds(60));
  CHECK(open_error(sealer, token, "resources/read", params) == "ok");
  CHECK(open_error(sealer, token, "resources/read", params) == "requestState was already used");
  CHECK(open_error(sealer, token, "resources/read", params) == "requestState was already used");
}

TEST_CASE("concurrent opens of one requestState accept it exactly once", "[mrtr]") {
  d::state_sealer sealer("k3y");
  const json params = {{"name", "t"}};
  const std::string token = sealer.seal("p", "tools/call", params, std::chrono::seconds(60));
  std::atomic<int> accepted{0}, refused{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 50; ++k) {
        const std::string r = open_error(sealer, token, "tools/call", params);
        if (r == "ok") ++accepted;
        if (r == "requestState was already used") ++refused;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(accepted == 1);
  CHECK(refused == 199);
}

TEST_CASE("the replay memory is bounded and forgets expired states first", "[mrtr]") {
  std::int64_t now = 1000;
  d::state_sealer sealer("k3y", [&] { return now; }, 2);
  const json params = {{"name", "t"}};
  const auto seal = [&](int ttl) { return sealer.seal("p", "tools/call", params, std::chrono::seconds(ttl)); };

  const std::string soon = seal(10), later = seal(100), latest = seal(200);
  CHECK(open_error(sealer, soon, "tools/call", params) == "ok");
  CHECK(open_error(sealer, later, "tools/call", params) == "ok");
  // Full: remembering a third drops the one closest to expiry, which becomes replayable.
  CHECK(open_error(sealer, latest, "tools/call", params) == "ok");
  CHECK(open_error(sealer, later, "tools/call", params) == "requestState was already used");
  CHECK(open_error(sealer, latest, "tools/call", params) == "requestState was already used");
  CHECK(open_error(sealer, soon, "tools/call", params) == "ok");

  // An expired state is forgotten (it would be refused as expired anyway), freeing its slot.
  const std::string fresh = seal(150);
  now += 10;
  CHECK(open_error(sealer, fresh, "tools/call", params) == "ok");
  CHECK(open_error(sealer, latest, "tools/call", params) == "requestState was already used");
}

TEST_CASE("sealers sharing a key accept each other's states; other keys do not", "[mrtr]") {
  d::state_sealer a("shared-secret"), b("shared-secret"), other("another-secret");
  d::state_sealer random1(""), random2("");
  const json params = {{"name", "t"}};
  const auto token = [&](d::state_sealer& s) { return s.seal({{"n", 1}}, "tools/call", params, std::chrono::seconds(60)); };

  CHECK(open_error(b, token(a), "tools/call", params) == "ok");
  CHECK(open_error(a, token(b), "tools/call", params) == "ok");
  CHECK(open_error(other, token(a), "tools/call", params) == integrity);
  CHECK(open_error(a, token(other), "tools/call", params) == integrity);
  CHECK(open_error(random1, token(random1), "tools/call", params) == "ok");
  CHECK(open_error(random2, token(random1), "tools/call", params) == integrity);
}

TEST_CASE("open throws only protocol_error, whatever the token", "[mrtr]") {
  const std::string key = "k3y";
  d::state_sealer sealer(key);
  const json params = {{"name", "t"}};
  const std::string token = sealer.seal({{"n", 1}}, "tools/call", params, std::chrono::seconds(60));
  const auto signed_body = [&](const std::string& body) {
    return body + "." + d::base64url_encode(d::digest_bytes(d::hmac_sha256(key, body)));
  };

  std::vector<std::string> bad = {"", ".", "..", "...", "a.b", "a..b", token + ".", "." + token, token + "." + token,
                                  std::string(2'000'000, 'A') + "." + std::string(43, 'A'), std::string(100000, '.'),
                                  std::string("\0\xff\xfe.\x80", 5), "=?base64?AAAA?=", "eyJ9.!!!!"};
  for (std::size_t i = 0; i < token.size(); ++i) {
    bad.push_back(token.substr(0, i));
    bad.push_back(token.substr(i + 1));
    bad.push_back(token.substr(0, i) + "." + token.substr(i));
    bad.push_back(token.substr(0, i) + "+" + token.substr(i + 1));
  }
  for (const auto& t : bad) {
    INFO("token: " << t.substr(0, 80));
    CHECK(open_error(sealer, t, "tools/call", params) == integrity);
  }

  // A valid MAC over things that are not a sealed state.
  for (const std::string& body :
       {d::base64url_encode("not json"), d::base64url_encode("[1,2,3]"), d::base64url_encode("{}"),
        d::base64url_encode("\"payload\""), d::base64url_encode(R"({"payload":1,"method":"tools/call"})"),
        d::base64url_encode(R"({"payload":1,"method":"tools/call","params":"x","nonce":"n","expires":"9"})"),
        d::base64url_encode(R"({"payload":1,"method":7,"params":"x","nonce":"n","expires":9})"),
        d::base64url_encode(std::string(5000, '[')), d::base64url_encode(std::string("{\"\xff\":1}")),
        std::string("A"), std::string("!!!!"), std::string("")}) {
    INFO("body: " << body.substr(0, 80));
    CHECK(open_error(sealer, signed_body(body), "tools/call", params) == integrity);
  }

  // The real token still works after all that.
  CHECK(open_error(sealer, token, "tools/call", params) == "ok");
}

TEST_CASE("is_valid_utf8 rejects malformed sequences", "[headers]") {
  CHECK(d::is_valid_utf8(""));
  CHECK(d::is_valid_utf8("plain"));
  CHECK(d::is_valid_utf8("caf\xc3\xa9 \xe2\x98\x95 \xf0\x9f\x98\x80"));
  CHECK_FALSE(d::is_valid_utf8("\xc0\x80"));          // overlong NUL
  CHECK_FALSE(d::is_valid_utf8("\xe0\x80\xaf"));      // overlong '/'
  CHECK_FALSE(d::is_valid_utf8("\xed\xa0\x80"));      // surrogate
  CHECK_FALSE(d::is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(d::is_valid_utf8("\xc3"));              // truncated
  CHECK_FALSE(d::is_valid_utf8("\x80"));
  CHECK_FALSE(d::is_valid_utf8("\xff"));
}

TEST_CASE("decode_header_value trims, decodes the base64 form strictly and rejects control characters",
          "[headers]") {
  using d::decode_header_value;
  CHECK(decode_header_value("tool") == std::optional<std::string>("tool"));
  CHECK(decode_header_value("  tool  ") == std::optional<std::string>("tool"));
  CHECK(decode_header_value("\t tool \t") == std::optional<std::string>("tool"));
  CHECK(decode_header_value("a b\tc") == std::optional<std::string>("a b\tc"));
  CHECK(decode_header_value("") == std::optional<std::string>(""));

  CHECK(decode_header_value("=?base64?SGVsbG8=?=") == std::optional<std::string>("Hello"));
  CHECK(decode_header_value("  =?base64?SGVsbG8=?=  ") == std::optional<std::string>("Hello"));
  CHECK(decode_header_value("=?base64?" "?=") == std::optional<std::string>(""));
  CHECK(decode_header_value("=?base64?" + d::base64_encode("  padded\r\n") + "?=") ==
        std::optional<std::string>("  padded\r\n"));
  CHECK(decode_header_value("=?base64?bcOpdMOpbyDimJU=?=") == std::optional<std::string>("m\xc3\xa9t\xc3\xa9o \xe2\x98\x95"));

  CHECK_FALSE(decode_header_value("=?base64?SGVsbG8?="));      // missing padding
  CHECK_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));  // outside the alphabet
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG8==?="));    // too much padding
  CHECK_FALSE(decode_header_value("=?base64?SGVs bG8=?="));
  CHECK_FALSE(decode_header_value("=?base64?SGVsbG9=?="));     // non-zero trailing bits
  CHECK_FALSE(decode_header_value("=?base64?_w==?="));         // URL alphabet
  CHECK_FALSE(decode_header_value("=?base64?/w==?="));         // decodes to 0xFF, not UTF-8

  // Only one marker, or upper-case markers: a literal.
  CHECK(decode_header_value("=?base64?SGVsbG8=") == std::optional<std::string>("=?base64?SGVsbG8="));
  CHECK(decode_header_value("SGVsbG8=?=") == std::optional<std::string>("SGVsbG8=?="));
  CHECK(decode_header_value("=?BASE64?SGVsbG8=?=") == std::optional<std::string>("=?BASE64?SGVsbG8=?="));
  CHECK(decode_header_value("=?base64?=") == std::optional<std::string>("=?base64?="));

  CHECK_FALSE(decode_header_value("a\r\nb"));
  CHECK_FALSE(decode_header_value("a\nb"));
  CHECK_FALSE(decode_header_value(std::string("a\0b", 3)));
  CHECK_FALSE(decode_header_value("a\x7f"));
  CHECK_FALSE(decode_header_value("caf\xc3\xa9"));  // non-ASCII must come base64-encoded
}

TEST_CASE("header_params finds x-mcp-header properties reachable through properties only", "[headers]") {
  const json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"},
      "count": {"type": "integer", "x-mcp-header": "Count"},
      "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
      "ratio": {"type": "number", "x-mcp-header": "Ratio"},
      "spaced": {"type": "string", "x-mcp-header": "Bad Name"},
      "empty": {"type": "string", "x-mcp-header": ""},
      "dupe": {"type": "string", "x-mcp-header": "REGION"},
      "target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}},
      "list": {"type": "array", "items": {"type": "object",
               "properties": {"inner": {"type": "string", "x-mcp-header": "Inner"}}}},
      "choice": {"anyOf": [{"type": "string", "x-mcp-header": "Choice"}]}
    }
  })");
  std::map<std::string, std::vector<std::string>> found;
  for (const auto& p : d::header_params(schema)) found[p.header] = p.path;
  CHECK(found.size() == 4);
  CHECK(found["Count"] == std::vector<std::string>{"count"});
  CHECK(found["Dry-Run"] == std::vector<std::string>{"dry"});
  CHECK(found["Zone"] == std::vector<std::string>{"target", "zone"});
  // A case-insensitive repeat keeps the first in (sorted) key order: "dupe" comes before "region".
  CHECK(found["REGION"] == std::vector<std::string>{"dupe"});
  CHECK(found.count("Region") == 0);
  CHECK(found.count("Ratio") == 0);
  CHECK(found.count("Inner") == 0);
  CHECK(found.count("Choice") == 0);

  CHECK(d::header_params(json::object()).empty());
  CHECK(d::header_params(json::parse(R"({"properties": 5})")).empty());
  CHECK(d::header_params(json()).empty());

  CHECK(d::check_header_annotations(schema).has_value());
  CHECK_FALSE(d::check_header_annotations(json::parse(
      R"({"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"integer","x-mcp-header":"B"}}})")));
  CHECK(d::check_header_annotations(json::parse(
            R"({"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}})"))
            ->find("more than once") != std::string::npos);
  CHECK(d::check_header_annotations(json::parse(R"({"properties":{"r":{"type":"number","x-mcp-header":"R"}}})"))
            ->find("type") != std::string::npos);
  CHECK(d::check_header_annotations(json::parse(R"({"properties":{"r":{"type":"string","x-mcp-header":"R\r\n"}}})"))
            ->find("token") != std::string::npos);
}

namespace {

// Headers as a client would send them, with names in any case; lookups are by lower-case name.
struct fake_headers {
  std::map<std::string, std::string> values;
  std::vector<std::string> asked;

  fake_headers(std::initializer_list<std::pair<const std::string, std::string>> init) {
    for (const auto& [name, value] : init) values[d::ascii_lower(name)] = value;
  }
  std::optional<std::string> check(const json& message, const std::vector<d::header_param>& params = {}) {
    return d::check_standard_headers(
        [this](std::string_view name) -> std::optional<std::string> {
          asked.emplace_back(name);
          const auto it = values.find(std::string(name));
          if (it == values.end()) return std::nullopt;
          return it->second;
        },
        message, params);
  }
};

json request(const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

TEST_CASE("Mcp-Method is required and compared case-sensitively", "[headers]") {
  CHECK_FALSE(fake_headers{{"Mcp-Method", "tools/list"}}.check(request("tools/list")));
  CHECK_FALSE(fake_headers{{"MCP-METHOD", " tools/list\t"}}.check(request("tools/list")));
  CHECK_FALSE(fake_headers{{"mcp-method", "=?base64?dG9vbHMvbGlzdA==?="}}.check(request("tools/list")));
  CHECK_FALSE(fake_headers{{"Mcp-Method", "notifications/cancelled"}}.check(
      {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}}));

  const auto upper = fake_headers{{"Mcp-Method", "TOOLS/LIST"}}.check(request("tools/list"));
  REQUIRE(upper);
  CHECK(*upper == "Mcp-Method header 'TOOLS/LIST' does not match the body's method 'tools/list'");

  const auto missing = fake_headers{}.check(request("tools/list"));
  REQUIRE(missing);
  CHECK(missing->find("Mcp-Method") != std::string::npos);

  const auto invalid = fake_headers{{"Mcp-Method", "=?base64?dG9vbHMvbGlzdA?="}}.check(request("tools/list"));
  REQUIRE(invalid);
  CHECK(invalid->find("Mcp-Method") != std::string::npos);
  CHECK(fake_headers{{"Mcp-Method", "tools/list\r\nX: y"}}.check(request("tools/list")));

  fake_headers lower{{"Mcp-Method", "tools/list"}};
  lower.check(request("tools/list"));
  CHECK(lower.asked == std::vector<std::string>{"mcp-method"});
}

TEST_CASE("Mcp-Name is required for tools/call, prompts/get and resources/read", "[headers]") {
  const json call = request("tools/call", {{"name", "get_weather"}, {"arguments", json::object()}});
  CHECK_FALSE(fake_headers{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "get_weather"}}.check(call));
  CHECK_FALSE(fake_headers{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "  get_weather  "}}.check(call));

  const auto missing = fake_headers{{"Mcp-Method", "tools/call"}}.check(call);
  REQUIRE(missing);
  CHECK(missing->find("Mcp-Name") != std::string::npos);

  const auto wrong_case = fake_headers{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "Get_Weather"}}.check(call);
  REQUIRE(wrong_case);
  CHECK(wrong_case->find("Get_Weather") != std::string::npos);

  const json unicode = request("tools/call", {{"name", "m\xc3\xa9t\xc3\xa9o \xe2\x98\x95"}});
  CHECK_FALSE(fake_headers{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "=?base64?bcOpdMOpbyDimJU=?="}}.check(unicode));
  CHECK(fake_headers{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "=?base64?bcOpdMOpbyDimJU?="}}.check(unicode));

  const json prompt = request("prompts/get", {{"name", "greet"}});
  CHECK_FALSE(fake_headers{{"Mcp-Method", "prompts/get"}, {"Mcp-Name", "greet"}}.check(prompt));
  CHECK(fake_headers{{"Mcp-Method", "prompts/get"}}.check(prompt));
  CHECK(fake_headers{{"Mcp-Method", "prompts/get"}, {"Mcp-Name", "greeting"}}.check(prompt));

  const json read = request("resources/read", {{"uri", "file:///notes.txt"}, {"name", "ignored"}});
  CHECK_FALSE(fake_headers{{"Mcp-Method", "resources/read"}, {"Mcp-Name", "file:///notes.txt"}}.check(read));
  CHECK(fake_headers{{"Mcp-Method", "resources/read"}, {"Mcp-Name", "ignored"}}.check(read));
  CHECK(fake_headers{{"Mcp-Method", "resources/read"}}.check(read));

  // Other methods do not need it.
  CHECK_FALSE(fake_headers{{"Mcp-Method", "prompts/list"}}.check(request("prompts/list")));
}

TEST_CASE("Mcp-Param headers must mirror the annotated tool arguments", "[headers]") {
  const std::vector<d::header_param> params = {
      {"Region", {"region"}}, {"Count", {"count"}}, {"Dry-Run", {"dry"}}, {"Zone", {"target", "zone"}}};
  const auto call = [](json arguments) {
    return request("tools/call", {{"name", "deploy"}, {"arguments", std::move(arguments)}});
  };
  const json full = call({{"region", "us-west"}, {"count", 42}, {"dry", true}, {"target", {{"zone", "b"}}}});
  const auto with = [](std::initializer_list<std::pair<const std::string, std::string>> extra) {
    fake_headers h{{"Mcp-Method", "tools/call"}, {"Mcp-Name", "deploy"}};
    for (const auto& [k, v] : extra) h.values[d::ascii_lower(k)] = v;
    return h;
  };

  CHECK_FALSE(with({{"Mcp-Param-Region", "us-west"}, {"Mcp-Param-Count", "42"}, {"Mcp-Param-Dry-Run", "true"},
                    {"Mcp-Param-Zone", "b"}})
                  .check(full, params));
  CHECK_FALSE(with({{"MCP-PARAM-REGION", " us-west "}, {"Mcp-Param-Count", "42.0"}, {"Mcp-Param-Dry-Run", "true"},
                    {"Mcp-Param-Zone", "=?base64?Yg==?="}})
                  .check(full, params));
  CHECK_FALSE(with({{"Mcp-Param-Region", "us-west"}, {"Mcp-Param-Count", "4.2e1"}, {"Mcp-Param-Dry-Run", "true"},
                    {"Mcp-Param-Zone", "b"}})
                  .check(full, params));

  const auto missing = with({{"Mcp-Param-Count", "42"}, {"Mcp-Param-Dry-Run", "true"}, {"Mcp-Param-Zone", "b"}})
                           .check(full, params);
  REQUIRE(missing);
  CHECK(missing->find("Mcp-Param-Region") != std::string::npos);

  for (const auto& [header, value] : std::vector<std::pair<std::string, std::string>>{
           {"Mcp-Param-Region", "US-WEST"},
           {"Mcp-Param-Region", "us-west\n"},
           {"Mcp-Param-Region", "=?base64?dXMtd2VzdA?="},
           {"Mcp-Param-Count", "43"},
           {"Mcp-Param-Count", "42.5"},
           {"Mcp-Param-Count", "forty-two"},
           {"Mcp-Param-Count", "0x2A"},
           {"Mcp-Param-Count", ""},
           {"Mcp-Param-Dry-Run", "True"},
           {"Mcp-Param-Dry-Run", "1"},
           {"Mcp-Param-Zone", "a"}}) {
    auto h = with({{"Mcp-Param-Region", "us-west"}, {"Mcp-Param-Count", "42"}, {"Mcp-Param-Dry-Run", "true"},
                   {"Mcp-Param-Zone", "b"}});
    h.values[d::ascii_lower(header)] = value;
    INFO(header << ": " << value);
    const auto problem = h.check(full, params);
    REQUIRE(problem);
    CHECK(problem->find(header) != std::string::npos);
  }

  // Absent or null in the body: no header expected, and one sent anyway is a disagreement.
  const json sparse = call({{"region", nullptr}, {"count", 0}, {"dry", false}});
  CHECK_FALSE(with({{"Mcp-Param-Count", "0"}, {"Mcp-Param-Dry-Run", "false"}}).check(sparse, params));
  CHECK(with({{"Mcp-Param-Count", "0"}, {"Mcp-Param-Dry-Run", "false"}, {"Mcp-Param-Region", "eu"}})
            .check(sparse, params));
  CHECK(with({{"Mcp-Param-Count", "0"}, {"Mcp-Param-Dry-Run", "false"}, {"Mcp-Param-Zone", "b"}})
            .check(sparse, params));
  CHECK_FALSE(with({}).check(request("tools/call", {{"name", "deploy"}}), params));

  // Negative and large integers compare by value.
  const std::vector<d::header_param> count_only = {{"Count", {"count"}}};
  CHECK_FALSE(with({{"Mcp-Param-Count", "-7"}}).check(call({{"count", -7}}), count_only));
  CHECK(with({{"Mcp-Param-Count", "7"}}).check(call({{"count", -7}}), count_only));
  CHECK_FALSE(with({{"Mcp-Param-Count", "18446744073709551615"}})
                  .check(call({{"count", 18446744073709551615ULL}}), count_only));
  CHECK(with({{"Mcp-Param-Count", "-1"}}).check(call({{"count", 18446744073709551615ULL}}), count_only));

  // Mcp-Param headers are a tools/call matter only.
  CHECK_FALSE(fake_headers{{"Mcp-Method", "tools/list"}}.check(request("tools/list"), params));
}

}  // namespace test_crypto_headers
