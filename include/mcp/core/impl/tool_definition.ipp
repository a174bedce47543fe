// Out-of-line bodies of core/tool_definition.hpp, included once from its bottom (or compiled into
// the library in compiled mode).
#pragma once

#include <mcp/core/detail/legacy_projection.hpp>

#include <string>

namespace mcp {
inline namespace v0 {

MCP_DECL json tool_definition::to_json(bool stateless) const {
  json t{{"name", name}};
  if (!title.empty()) t["title"] = title;
  if (!description.empty()) t["description"] = description;
  t["inputSchema"] = input_schema;
  if (!output_schema.is_null()) t["outputSchema"] = stateless ? output_schema : detail::legacy_output_schema(output_schema);
  json a = json::object();  // no "title": add_tool moved it to the top (detail::tool_title)
  if (hints.read_only) a["readOnlyHint"] = *hints.read_only;
  if (hints.destructive) a["destructiveHint"] = *hints.destructive;
  if (hints.idempotent) a["idempotentHint"] = *hints.idempotent;
  if (hints.open_world) a["openWorldHint"] = *hints.open_world;
  if (!a.empty()) t["annotations"] = std::move(a);
  if (!icons.is_null()) t["icons"] = icons;
  if (!meta.is_null()) t["_meta"] = meta;
  return t;
}

MCP_DECL void check_tool_name(std::string_view name) {
  if (name.empty()) throw definition_error("Tool name is empty: give it 1 to 64 characters of A-Z a-z 0-9 _ . -");
  if (name.size() > 64)
    throw definition_error("Tool name '" + std::string(name.substr(0, 64)) + "...' is " +
                           std::to_string(name.size()) + " characters long; the limit is 64");
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-';
    if (!ok)
      throw definition_error("Tool name '" + std::string(name) + "' contains '" + std::string(1, c) +
                             "'; use only A-Z a-z 0-9 _ . -");
  }
}

}  // namespace v0
}  // namespace mcp
