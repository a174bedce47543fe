// Resources: what resources/list shows, and the contents a read returns.
#pragma once

#include <mcp/json/detail/base64.hpp>
#include <mcp/json/json.hpp>

#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <vector>
#include <string_view>

namespace mcp {
inline namespace v0 {

struct resource_info {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::optional<std::uint64_t> size;
  json annotations = nullptr;
  json icons = nullptr;
  json meta = nullptr;
  // Scopes a caller must have (identity::scopes) to see it in resources/list and to read it (else
  // insufficient_scope, 403 over HTTP). Callers nobody authenticated are not checked. Ignored on a
  // resource a template lists: the template's scopes apply to its whole family.
  std::vector<std::string> scopes;
};

// A family of resources named by an RFC 6570 level-1 template, e.g. "notes://{title}". The read
// handler gets each variable percent-decoded, never empty, "." or "..", and without '/', '\' or
// control bytes: a URI that would give it one does not match (detail/uri_template.hpp).
struct resource_template_info {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  json annotations = nullptr;
  json icons = nullptr;
  json meta = nullptr;
  // Scopes a caller must have to see the template (and the resources its list gives) and to read
  // any URI it matches, as resource_info::scopes.
  std::vector<std::string> scopes;
  // Optional: the resources of this family that exist now, listed by resources/list after the
  // fixed ones (each URI must match the template; one that does not is left out and logged).
  // Called for every resources/list, outside the server's locks; it may run concurrently.
  std::function<std::vector<resource_info>()> list;
};

// Binary contents: a read handler returns this to answer with a base64 blob.
struct blob {
  std::string bytes;
};

// One item of a resources/read result.
inline json text_contents(std::string_view uri, std::string_view text, std::string_view mime_type = {}) {
  json c{{"uri", uri}};
  if (!mime_type.empty()) c["mimeType"] = mime_type;
  c["text"] = text;
  return c;
}
inline json blob_contents(std::string_view uri, std::string_view bytes, std::string_view mime_type = {}) {
  json c{{"uri", uri}};
  if (!mime_type.empty()) c["mimeType"] = mime_type;
  c["blob"] = detail::base64_encode(bytes);
  return c;
}

namespace detail {

template <class Info>
json describe_resource(const Info& info, const char* uri_key, const std::string& uri) {
  json r{{uri_key, uri}, {"name", info.name}};
  if (!info.title.empty()) r["title"] = info.title;
  if (!info.description.empty()) r["description"] = info.description;
  if (!info.mime_type.empty()) r["mimeType"] = info.mime_type;
  if (!info.annotations.is_null()) r["annotations"] = info.annotations;
  if (!info.icons.is_null()) r["icons"] = info.icons;
  if (!info.meta.is_null()) r["_meta"] = info.meta;
  return r;
}

inline json to_json(const resource_info& info) {
  json r = describe_resource(info, "uri", info.uri);
  if (info.size) r["size"] = *info.size;
  return r;
}
inline json to_json(const resource_template_info& info) { return describe_resource(info, "uriTemplate", info.uri_template); }

}  // namespace detail
}  // namespace v0
}  // namespace mcp
