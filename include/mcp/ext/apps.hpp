// MCP Apps (the io.modelcontextprotocol/ui extension, ext-apps specification 2026-01-26): an HTML
// page the host shows beside a tool's result. The page is a ui:// resource served with the MIME
// type text/html;profile=mcp-app; a tool names it in _meta.ui.resourceUri (tool_options::app).
//
//   mcp::serve_app(srv, {.uri = "ui://notes/stats.html", .name = "Note statistics"}, html);
//   srv.tool("note_stats", "...", handler, mcp::tool_options{.app = mcp::app_link{"ui://notes/stats.html"}});
//
// tools/list is the same for every host: a tool always answers with meaningful text, and may ask
// ctx.client_supports_apps() inside the call whether a richer result is worth building.
//
// Built on the server's public seams (extension, resource), like skills.hpp. The extension's
// names and app_link are in core/app_link.hpp.
#pragma once

#include <mcp/core/app_link.hpp>
#include <mcp/tools/features.hpp>
#include <mcp/core/resource.hpp>
#include <mcp/core/server.hpp>
#include <mcp/error.hpp>
#include <mcp/json/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

// The origins an app may reach; each list maps to CSP directives the host sets (connect-src;
// img/script/style/font/media-src; frame-src; base-uri). Empty: none, the secure default.
struct app_csp {
  std::vector<std::string> connect_domains;
  std::vector<std::string> resource_domains;
  std::vector<std::string> frame_domains;
  std::vector<std::string> base_uri_domains;
};

// Sandbox permissions an app asks the host for.
struct app_permissions {
  bool camera = false;
  bool microphone = false;
  bool geolocation = false;
  bool clipboard_write = false;
};

// One app: a ui:// resource and what the host needs to know to show it (its _meta.ui).
struct app_resource {
  std::string uri;  // ui://...
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;  // empty: app_mime_type; any other value is refused
  std::optional<app_csp> csp;
  app_permissions permissions;
  std::string domain;                  // a dedicated origin the host may give the app
  std::optional<bool> prefers_border;  // whether the app would like the host to draw a border
  std::vector<std::string> scopes;     // as resource_info::scopes
  bool as_blob = false;                // send the HTML base64-encoded (blob) instead of as text
};

namespace detail {

inline json app_ui_meta(const app_resource& app) {
  json ui = json::object();
  if (app.csp) {
    json csp = json::object();
    auto put = [&](const char* key, const std::vector<std::string>& origins) {
      if (!origins.empty()) csp[key] = origins;
    };
    put("connectDomains", app.csp->connect_domains);
    put("resourceDomains", app.csp->resource_domains);
    put("frameDomains", app.csp->frame_domains);
    put("baseUriDomains", app.csp->base_uri_domains);
    ui["csp"] = std::move(csp);
  }
  json permissions = json::object();
  // Each permission is an empty object when asked for (the extension's marker), absent otherwise.
  if (app.permissions.camera) permissions["camera"] = json::object();
  if (app.permissions.microphone) permissions["microphone"] = json::object();
  if (app.permissions.geolocation) permissions["geolocation"] = json::object();
  if (app.permissions.clipboard_write) permissions["clipboardWrite"] = json::object();
  if (!permissions.empty()) ui["permissions"] = std::move(permissions);
  if (!app.domain.empty()) ui["domain"] = app.domain;
  if (app.prefers_border) ui["prefersBorder"] = *app.prefers_border;
  return ui;
}

}  // namespace detail

// Registers the app's page as a resource (listed and read with _meta.ui) and declares the
// extension. Throws definition_error for a URI that is not ui://, an empty name, or a MIME type
// other than app_mime_type. Register an app before the tools that link to it.
inline server& serve_app(server& srv, app_resource app, std::string html) {
  if (app.uri.rfind("ui://", 0) != 0 || app.uri.size() == 5)
    throw definition_error("App '" + app.uri + "': an app's URI must start with ui:// and name the page, e.g. ui://notes/stats.html");
  if (app.name.empty()) throw definition_error("App '" + app.uri + "' has no name");
  if (!app.mime_type.empty() && app.mime_type != app_mime_type)
    throw definition_error("App '" + app.uri + "': its MIME type is " + std::string(app_mime_type) +
                           " (leave mime_type empty), not '" + app.mime_type + "'");
  json meta = json::object();
  json ui = detail::app_ui_meta(app);
  if (!ui.empty()) meta["ui"] = ui;

  resource_info info;
  info.uri = app.uri;
  info.name = app.name;
  info.title = app.title;
  info.description = app.description;
  info.mime_type = app_mime_type;
  info.size = html.size();
  if (!meta.empty()) info.meta = meta;
  info.scopes = app.scopes;
  srv.extension(apps_extension, {{"mimeTypes", {app_mime_type}}});
  srv.resource(std::move(info), [uri = app.uri, meta = std::move(meta), html = std::move(html), blob = app.as_blob] {
    json contents = blob ? blob_contents(uri, html, app_mime_type) : text_contents(uri, html, app_mime_type);
    if (!meta.empty()) contents["_meta"] = meta;
    return std::vector<json>{std::move(contents)};
  });
  return srv;
}

}  // namespace v0
}  // namespace mcp
