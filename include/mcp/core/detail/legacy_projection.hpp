// How a tool's output reaches a 2025-era client. 2026-07-28 lets structuredContent be any JSON
// value and an output schema have any root; 2025-11-25 and earlier require objects. The value then
// travels as {"result": value} and the schema as an object with one required "result" property.
#pragma once

#include <mcp/json/json.hpp>

#include <string>

namespace mcp {
inline namespace v0 {
namespace detail {

// Templates over the JSON type: a derived schema is also kept as an nlohmann::ordered_json, its
// properties in declaration order (schema_of_ordered), and wrapped the same way.
template <class J>
bool is_object_schema(const J& schema) {
  if (!schema.is_object()) return false;
  auto type = schema.find("type");
  return type != schema.end() && type->is_string() && type->template get_ref<const std::string&>() == "object";
}

// Same-document references still point at the right place once the schema moves under
// properties.result: "#" becomes "#/properties/result", "#/x" becomes "#/properties/result/x".
template <class J>
void rebase_refs(J& node) {
  if (node.is_object()) {
    for (auto& [key, value] : node.items()) {
      if ((key == "$ref" || key == "$dynamicRef") && value.is_string()) {
        const std::string& ref = value.template get_ref<const std::string&>();
        if (ref == "#")
          value = "#/properties/result";
        else if (ref.rfind("#/", 0) == 0)
          value = "#/properties/result" + ref.substr(1);
      } else {
        rebase_refs(value);
      }
    }
  } else if (node.is_array()) {
    for (auto& item : node) rebase_refs(item);
  }
}

// null stays null (no output schema).
template <class J>
J legacy_output_schema(const J& schema) {
  if (schema.is_null() || is_object_schema(schema)) return schema;
  J inner = schema;
  J wrapped{{"type", "object"}};
  if (inner.is_object()) {
    if (auto dialect = inner.find("$schema"); dialect != inner.end()) {
      wrapped["$schema"] = *dialect;
      inner.erase("$schema");
    }
    rebase_refs(inner);
  }
  wrapped["properties"] = J{{"result", std::move(inner)}};
  wrapped["required"] = J::array({"result"});
  wrapped["additionalProperties"] = false;
  return wrapped;
}

// SEP-2106: structured content that is not an object comes with a text block of its JSON, for
// clients that read only content. A handler that built its own tool_result may have left it out.
inline void add_text_for_structured(json& result) {
  auto sc = result.find("structuredContent");
  if (sc == result.end() || sc->is_object()) return;
  json& content = result["content"];
  if (!content.is_array()) content = json::array();
  for (const auto& block : content)
    if (block.is_object() && block.value("type", "") == "text") return;
  content.push_back({{"type", "text"}, {"text", sc->dump(-1, ' ', false, json::error_handler_t::replace)}});
}

// A CallToolResult as a 2025-era client must see it.
inline void project_call_result(json& result, const json& output_schema) {
  auto sc = result.find("structuredContent");
  if (sc == result.end()) return;
  if (!sc->is_object() || (!output_schema.is_null() && !is_object_schema(output_schema)))
    *sc = json{{"result", std::move(*sc)}};
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
