// The resource-server side of MCP's HTTP authorization: the auth hook's request and answer (a
// verified identity, or a refusal with its challenge), the Bearer challenges of RFC 6750 (401 for
// a missing or bad token, 403 insufficient_scope), and the protected-resource metadata of RFC 9728
// that tells a client where to get a token. Verifying a token is the hook's job: the SDK needs no
// JWT or OAuth library (examples/jwt verifies JWTs with libjwt).
//
//   o.authorize = [&](const mcp::http::auth_request& r) {
//     if (auto who = verify(r.authorization)) return mcp::http::auth_result::allow(*who);
//     return mcp::http::auth_result::refuse();   // 401 with the challenge built from the metadata
//   };
//   o.protected_resource_metadata = mcp::http::protected_resource_metadata{
//       "https://mcp.example/mcp", {"https://auth.example"}, {"notes:read", "notes:write"}};
#pragma once

#include <mcp/core/identity.hpp>
#include <mcp/json/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace http {

// What the auth hook sees of a request.
struct auth_request {
  std::string_view method, path;
  std::optional<std::string_view> authorization;  // the Authorization header
};

// The hook's answer. Admitted with a caller: every message of the request carries it
// (context::caller()), and tools, resources and prompts with required scopes check it (403 when one
// is missing). Admitted without one: nothing is checked. Refused: 401 with www_authenticate.
struct auth_result {
  bool allowed = true;
  std::string www_authenticate;            // refused: the WWW-Authenticate value; empty: built by the endpoint
  std::shared_ptr<const identity> caller;  // admitted: who is calling (null: nobody in particular)

  static auth_result allow(identity who) {
    auth_result r;
    r.caller = std::make_shared<const identity>(std::move(who));
    return r;
  }
  // `challenge` empty: `Bearer resource_metadata="..."` when the endpoint serves metadata, else `Bearer`.
  static auth_result refuse(std::string challenge = {}) {
    auth_result r;
    r.allowed = false;
    r.www_authenticate = std::move(challenge);
    return r;
  }
};

// A Bearer challenge (RFC 6750 §3, with RFC 9728 §5.1's resource_metadata), for WWW-Authenticate.
// A value: build it, print it with to_string().
struct bearer_challenge {
  std::string resource_metadata;    // the metadata's URL (RFC 9728), so the client finds the AS
  std::vector<std::string> scopes;  // scopes the request needs (SEP-835: incremental consent)
  std::string error;                // "invalid_token", "insufficient_scope", or empty
  std::string error_description;

  // `Bearer resource_metadata="...", scope="a b", error="...", error_description="..."`, the empty
  // ones left out; quotes and backslashes in values escaped (RFC 9110 quoted-string).
  std::string to_string() const {
    std::string out = "Bearer";
    bool first = true;
    auto param = [&](const char* name, std::string_view value) {
      if (value.empty()) return;
      out += first ? " " : ", ";
      first = false;
      out += name;
      out += "=\"";
      for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\r' || c == '\n') c = ' ';  // never split the header
        out += c;
      }
      out += '"';
    };
    std::string scope;
    for (const auto& s : scopes) scope += (scope.empty() ? "" : " ") + s;
    param("error", error);
    param("scope", scope);
    param("resource_metadata", resource_metadata);
    param("error_description", error_description);
    return out;
  }
};

// Protected-resource metadata (RFC 9728 §2), served at /.well-known/oauth-protected-resource and at
// that name followed by the resource's path (§3.1: /.well-known/oauth-protected-resource/mcp for an
// endpoint at /mcp). A value.
struct protected_resource_metadata {
  std::string resource;                            // the resource identifier: the endpoint's absolute URL
  std::vector<std::string> authorization_servers;  // issuer URLs of the authorization servers
  std::vector<std::string> scopes_supported;
  std::vector<std::string> bearer_methods_supported = {"header"};  // MCP takes the token in the header only
  std::string resource_name;                       // for people
  std::string resource_documentation;              // a URL
  std::string jwks_uri;
  std::vector<std::string> resource_signing_alg_values_supported;
  json extra = json::object();                     // other members, merged in as they are

  // The metadata document; empty members are left out.
  json to_json() const {
    json out = extra.is_object() ? extra : json::object();
    out["resource"] = resource;
    auto list = [&out](const char* name, const std::vector<std::string>& v) {
      if (!v.empty()) out[name] = v;
    };
    auto text = [&out](const char* name, const std::string& v) {
      if (!v.empty()) out[name] = v;
    };
    list("authorization_servers", authorization_servers);
    list("scopes_supported", scopes_supported);
    list("bearer_methods_supported", bearer_methods_supported);
    text("resource_name", resource_name);
    text("resource_documentation", resource_documentation);
    text("jwks_uri", jwks_uri);
    list("resource_signing_alg_values_supported", resource_signing_alg_values_supported);
    return out;
  }

  // Where the metadata of `resource` is published (RFC 9728 §3.1): the well-known name inserted
  // between the host and the path, e.g. https://mcp.example/mcp ->
  // https://mcp.example/.well-known/oauth-protected-resource/mcp. Empty when `resource` is not an
  // absolute http(s) URL.
  static std::string metadata_url(std::string_view resource) {
    const auto scheme = resource.find("://");
    if (scheme == std::string_view::npos || scheme == 0) return {};
    auto path_at = resource.find('/', scheme + 3);
    std::string_view origin = resource.substr(0, path_at), path;
    if (path_at != std::string_view::npos) path = resource.substr(path_at);
    path = path.substr(0, path.find_first_of("?#"));  // RFC 9728 §1.2: no query or fragment in a resource
    if (path == "/") path = {};
    return std::string(origin) + "/.well-known/oauth-protected-resource" + std::string(path);
  }
  std::string metadata_url() const { return metadata_url(resource); }
};

// So handler_options::protected_resource_metadata (a json) takes the struct as it is.
inline void to_json(json& out, const protected_resource_metadata& m) { out = m.to_json(); }

}  // namespace http
}  // namespace v0
}  // namespace mcp
