// Verifies a bearer JWT with libjwt and turns it into an mcp::identity: the signature (HS256 with a
// shared secret, RS256 with the authorization server's public key), then the claims the resource
// server must check (iss, aud, exp, nbf). The identity's subject is "sub", its scopes the
// space-separated "scope" claim (RFC 9068) or a "scp" array, its claims the whole payload.
#pragma once

#include <mcp/mcp.hpp>

#include <jwt.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace example {

struct jwt_settings {
  std::string issuer;          // the "iss" every token must carry
  std::string audience;        // must be in "aud": this server's resource URL
  std::string hs256_secret;    // empty: HS256 tokens are refused
  std::string rs256_public;    // PEM; empty: RS256 tokens are refused
  std::chrono::seconds leeway{30};  // clock skew allowed on exp and nbf
};

// Threads: verify() from any thread; the settings are read only.
class jwt_verifier {
 public:
  explicit jwt_verifier(jwt_settings s) : s_(std::move(s)) {}

  // The identity a token proves, or nullopt with `why` saying what failed (for the 401's
  // error_description: it names the check, never the key).
  std::optional<mcp::identity> verify(std::string_view token, std::string& why) const {
    if (token.empty() || token.size() > 8192) return fail(why, "no token, or one longer than 8 KiB");
    const std::string text(token);
    // Each key checks only tokens of its own algorithm: an RS256 public key used as an HS256
    // secret (the classic algorithm confusion) or "alg": "none" never passes.
    std::unique_ptr<jwt_t, decltype(&jwt_free)> jwt(nullptr, jwt_free);
    for (const auto& [alg, key] : {std::pair{JWT_ALG_HS256, &s_.hs256_secret}, std::pair{JWT_ALG_RS256, &s_.rs256_public}}) {
      if (key->empty()) continue;
      jwt_t* decoded = nullptr;
      if (jwt_decode(&decoded, text.c_str(), reinterpret_cast<const unsigned char*>(key->data()),
                     static_cast<int>(key->size())) == 0) {
        std::unique_ptr<jwt_t, decltype(&jwt_free)> candidate(decoded, jwt_free);
        if (jwt_get_alg(decoded) == alg) {
          jwt = std::move(candidate);
          break;
        }
      }
    }
    if (!jwt) return fail(why, "the signature does not verify with this server's keys (HS256 or RS256)");

    std::unique_ptr<char, decltype(&std::free)> payload(jwt_get_grants_json(jwt.get(), nullptr), std::free);
    std::optional<mcp::json> parsed;
    if (payload) parsed = mcp::parse_json(payload.get(), 16);  // claims are shallow; a deep payload is refused
    if (!parsed || !parsed->is_object()) return fail(why, "the payload is not a JSON object of claims");
    mcp::json claims = std::move(*parsed);

    const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch()).count();
    auto number = [&](const char* name) -> std::optional<long long> {
      auto it = claims.find(name);
      if (it == claims.end() || !it->is_number()) return std::nullopt;
      return it->get<long long>();
    };
    if (claims.value("iss", std::string()) != s_.issuer) return fail(why, "the issuer is not " + s_.issuer);
    if (!has_audience(claims)) return fail(why, "the token is not for " + s_.audience);
    const auto exp = number("exp");
    if (!exp) return fail(why, "the token has no expiry");
    if (*exp + s_.leeway.count() <= now) return fail(why, "the token has expired");
    if (auto nbf = number("nbf"); nbf && *nbf - s_.leeway.count() > now) return fail(why, "the token is not valid yet");
    if (!claims.contains("sub") || !claims["sub"].is_string() || claims["sub"].get<std::string>().empty())
      return fail(why, "the token names no subject");

    mcp::identity who;
    who.subject = claims["sub"].get<std::string>();
    if (auto scope = claims.find("scope"); scope != claims.end() && scope->is_string()) {
      std::istringstream words(scope->get<std::string>());
      for (std::string s; words >> s;) who.scopes.push_back(s);
    } else if (auto scp = claims.find("scp"); scp != claims.end() && scp->is_array()) {
      for (const auto& s : *scp)
        if (s.is_string()) who.scopes.push_back(s.get<std::string>());
    }
    who.claims = std::move(claims);
    return who;
  }

 private:
  static std::optional<mcp::identity> fail(std::string& why, std::string reason) {
    why = std::move(reason);
    return std::nullopt;
  }
  bool has_audience(const mcp::json& claims) const {
    auto aud = claims.find("aud");
    if (aud == claims.end()) return false;
    if (aud->is_string()) return *aud == s_.audience;
    if (aud->is_array())
      for (const auto& a : *aud)
        if (a == s_.audience) return true;
    return false;
  }

  jwt_settings s_;
};

}  // namespace example
