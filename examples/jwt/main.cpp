// jwt: a Streamable HTTP server that trusts an OAuth authorization server's JWTs, showing identity
// with scopes, middleware and tracing together.
//   - the auth hook verifies each request's bearer JWT with libjwt (HS256 with a shared secret,
//     RS256 with the authorization server's public key; iss, aud and exp checked) and hands the
//     SDK an mcp::identity: "sub" as the subject, the "scope" claim as its scopes;
//   - tools need scopes: add_note needs notes:write, list_notes needs notes:read; a caller without
//     them does not see them in tools/list and gets 403 insufficient_scope;
//   - a 401 names the protected-resource metadata (RFC 9728), served at the well-known paths;
//   - middleware: an audit log naming the verified subject (--audit FILE), spans as OpenTelemetry
//     JSON lines (--spans FILE), both shared with examples/middleware.
// Keys: --hs256-secret-file FILE or MCP_JWT_HS256_SECRET; --rs256-public-key FILE (PEM) or
// MCP_JWT_RS256_PUBLIC_KEY. Both eras are served: 2025-11-25 sessions and 2026-07-28 requests.
#include "../middleware/observe.hpp"
#include "verify.hpp"

#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct note_args {
  std::string title;
  std::string body;
};
MCP_STRUCT(note_args, (title, "Title of the note", mcp::min_length(1), mcp::max_length(80)),
           (body, "Text of the note"));

struct caller_info {
  std::string subject;
  std::vector<std::string> scopes;
};
MCP_STRUCT(caller_info, (subject, "Who the token says is calling (its sub claim)"),
           (scopes, "What the token lets the caller do (its scope claim)"));

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The token of an "Authorization: Bearer <token>" header (the scheme is case-insensitive).
std::string_view bearer_token(std::optional<std::string_view> header) {
  if (!header || header->size() < 7) return {};
  std::string scheme(header->substr(0, 7));
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "bearer ") return {};
  std::string_view token = header->substr(7);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  return token;
}

}  // namespace

int main(int argc, char** argv) {
  std::string address = "127.0.0.1:8080", resource, issuer, authorization_server, spans_path, audit_path;
  example::jwt_settings keys;
  if (const char* secret = std::getenv("MCP_JWT_HS256_SECRET")) keys.hs256_secret = secret;
  if (const char* pem = std::getenv("MCP_JWT_RS256_PUBLIC_KEY")) keys.rs256_public = pem;
  auto usage = [](std::ostream& out) {
    out << "Usage: jwt --issuer URL [--http HOST:PORT] [--resource URL] [--authorization-server URL]\n"
           "           [--hs256-secret-file FILE] [--rs256-public-key FILE] [--spans FILE] [--audit FILE]\n"
           "Keys may also come from MCP_JWT_HS256_SECRET and MCP_JWT_RS256_PUBLIC_KEY (PEM).\n";
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help") return usage(std::cout), 0;
    if (i + 1 >= argc) return usage(std::cerr), 2;
    const std::string value = argv[++i];
    if (arg == "--http") address = value;
    else if (arg == "--resource") resource = value;
    else if (arg == "--issuer") issuer = value;
    else if (arg == "--authorization-server") authorization_server = value;
    else if (arg == "--spans") spans_path = value;
    else if (arg == "--audit") audit_path = value;
    else if (arg == "--hs256-secret-file" || arg == "--rs256-public-key") {
      auto text = read_file(value);
      if (!text) return std::cerr << "jwt: cannot read " << value << '\n', 2;
      (arg == "--hs256-secret-file" ? keys.hs256_secret : keys.rs256_public) = *text;
    } else {
      return usage(std::cerr), 2;
    }
  }
  const auto host_port = mcp::http::parse_host_port(address);
  if (!host_port) return std::cerr << "jwt: --http wants HOST:PORT, not '" << address << "'\n", 2;
  if (issuer.empty()) return std::cerr << "jwt: --issuer is required (the iss of the tokens to accept)\n", 2;
  if (keys.hs256_secret.empty() && keys.rs256_public.empty())
    return std::cerr << "jwt: no key: give --hs256-secret-file, --rs256-public-key or their variables\n", 2;
  if (resource.empty()) resource = "http://" + address + "/mcp";
  keys.issuer = issuer;
  keys.audience = resource;  // RFC 8707: the token must be meant for this server
  const example::jwt_verifier verifier(keys);

  mcp::server srv({.name = "jwt-notes", .version = "1.0.0"});

  // Middleware, in order: the span covers the audit line and the call.
  example::line_file spans(spans_path.empty() ? "/dev/null" : spans_path);
  if (!spans_path.empty())
    srv.use(mcp::tracing({.on_end = [&](const mcp::span& s) { spans.write(example::otlp_span(s)); }}));
  example::line_file audit(audit_path.empty() ? "/dev/null" : audit_path);
  if (!audit_path.empty()) srv.use(example::audit_log(audit));

  std::mutex notes_mutex;
  std::map<std::string, std::map<std::string, std::string>> notes;  // by subject, then title

  srv.tool("whoami", "Who the server thinks is calling, and with which scopes.", [](mcp::context& ctx) {
    return caller_info{ctx.caller()->subject, ctx.caller()->scopes};  // the hook admits only verified callers
  });
  mcp::tool_options writes, reads;
  writes.scopes = {"notes:write"};
  reads.scopes = {"notes:read"};
  srv.tool("add_note", "Save a note for the caller. Needs the notes:write scope.",
           [&](const note_args& a, mcp::context& ctx) {
             std::lock_guard lock(notes_mutex);
             notes[ctx.caller()->subject][a.title] = a.body;
             return "Saved note '" + a.title + "' for " + ctx.caller()->subject + ".";
           },
           writes);
  srv.tool("list_notes", "Titles of the caller's notes. Needs the notes:read scope.",
           [&](mcp::context& ctx) {
             std::lock_guard lock(notes_mutex);
             std::vector<std::string> titles;
             for (const auto& [title, body] : notes[ctx.caller()->subject]) titles.push_back(title);
             return titles;
           },
           reads);

  mcp::http::protected_resource_metadata metadata;
  metadata.resource = resource;
  metadata.authorization_servers = {authorization_server.empty() ? issuer : authorization_server};
  metadata.scopes_supported = {"notes:read", "notes:write"};
  metadata.resource_name = "JWT notes example";

  mcp::http::options options;
  options.host = host_port->first;
  options.port = host_port->second;
  options.protected_resource_metadata = metadata;
  options.authorize = [&verifier, url = metadata.metadata_url()](const mcp::http::auth_request& r) {
    mcp::http::bearer_challenge challenge;
    challenge.resource_metadata = url;
    const std::string_view token = bearer_token(r.authorization);
    if (token.empty()) return mcp::http::auth_result::refuse(challenge.to_string());  // RFC 6750 §3.1: no error code
    std::string why;
    if (auto who = verifier.verify(token, why)) return mcp::http::auth_result::allow(std::move(*who));
    challenge.error = "invalid_token";
    challenge.error_description = why;
    return mcp::http::auth_result::refuse(challenge.to_string());
  };
  return mcp::http::serve(srv, options);
}
