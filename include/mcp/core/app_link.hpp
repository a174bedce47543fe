// The names of the MCP Apps extension and how a tool links to its app (ext/apps.hpp registers
// the app itself). Apart so that tool options and the request context can name them without the
// server.
#pragma once

#include <mcp/json/json.hpp>

#include <string>

namespace mcp {
inline namespace v0 {

inline constexpr const char* apps_extension = "io.modelcontextprotocol/ui";
inline constexpr const char* app_mime_type = "text/html;profile=mcp-app";

// A tool's link to the app that shows its results (tool_options::app), sent as _meta.ui.
// Registration refuses a URI that is not ui:// or that names no registered resource.
struct app_link {
  std::string resource_uri;  // the app's ui:// URI (serve_app)
  bool model = true;         // visibility: the model may see and call the tool
  bool app = true;           // visibility: the app may call it (from this server only)
  bool legacy_key = false;   // also the flat _meta["ui/resourceUri"] some hosts from before 2026-01-26 read
};

namespace detail {

// _meta.ui of a linked tool ("visibility" only when it is not the default, both).
inline json app_link_meta(const app_link& link) {
  json ui{{"resourceUri", link.resource_uri}};
  if (!(link.model && link.app)) {
    json visibility = json::array();
    if (link.model) visibility.push_back("model");
    if (link.app) visibility.push_back("app");
    ui["visibility"] = std::move(visibility);
  }
  return ui;
}

// The ui:// URI a Tool's _meta names (either spelling), or empty when it names none.
inline std::string linked_app_uri(const json& meta) {
  if (!meta.is_object()) return {};
  auto ui = meta.find("ui");
  if (ui != meta.end() && ui->is_object()) {
    auto uri = ui->find("resourceUri");
    if (uri != ui->end() && uri->is_string()) return uri->get<std::string>();
  }
  auto legacy = meta.find("ui/resourceUri");
  if (legacy != meta.end() && legacy->is_string()) return legacy->get<std::string>();
  return {};
}

}  // namespace detail

}  // namespace v0
}  // namespace mcp
