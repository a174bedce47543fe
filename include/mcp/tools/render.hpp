// Text renderings of a structured tool result, for the text block that sits beside
// structuredContent: compact JSON (the spec's recommendation) or a Markdown block of
// `Field: value` lines that models read easily.
#pragma once

#include <mcp/config.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {


// Compact; invalid UTF-8 inside strings becomes U+FFFD instead of throwing halfway through a reply.
inline std::string render_json(const json& value) { return detail::to_json_text(value); }

namespace detail {

// `s` with each invalid UTF-8 sequence replaced by U+FFFD, as nlohmann's serializer replaces them.
std::string valid_utf8(const std::string& s);

template <class J = json>
const J& null_json() {
  static const J n;
  return n;
}

// The schema that describes `value`: follows local "$ref"s (recursive types) and picks the
// anyOf/oneOf branch whose type matches (e.g. an optional rendered as [T, null]).
// S is the schema's JSON type: json, or ordered_json to keep the declaration order of properties.
template <class S>
const S& schema_for_value(const S& schema, const json& value, const S& root, int depth = 0) {
  if (!schema.is_object() || depth > 16) return null_json<S>();
  auto ref = schema.find("$ref");
  if (ref != schema.end() && ref->is_string()) {
    const std::string& r = ref->template get_ref<const std::string&>();
    if (r.size() < 1 || r[0] != '#') return null_json<S>();
    try {
      return schema_for_value(root.at(typename S::json_pointer(r.substr(1))), value, root, depth + 1);
    } catch (const typename S::exception&) {
      return null_json<S>();
    }
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    auto branches = schema.find(key);
    if (branches == schema.end() || !branches->is_array()) continue;
    for (const auto& b : *branches) {
      const S& resolved = schema_for_value(b, value, root, depth + 1);
      auto type = resolved.is_object() ? resolved.find("type") : resolved.end();
      if (type == resolved.end() || !type->is_string()) continue;
      const std::string& t = type->template get_ref<const std::string&>();
      if ((t == "object" && value.is_object()) || (t == "array" && value.is_array())) return resolved;
    }
  }
  return schema;
}

// "word_count" -> "Word count", unless the property's schema carries a title.
template <class S>
std::string field_label(const std::string& name, const S& property_schema, const S& resolved) {
  for (const S* s : {&property_schema, &resolved}) {
    if (!s->is_object()) continue;
    auto title = s->find("title");
    if (title != s->end() && title->is_string() && !title->template get_ref<const std::string&>().empty())
      return title->template get<std::string>();
  }
  std::string label = name;
  std::replace(label.begin(), label.end(), '_', ' ');
  const auto first = label.find_first_not_of(' ');
  if (first == std::string::npos) return name;
  label = label.substr(first, label.find_last_not_of(' ') - first + 1);
  label[0] = char(std::toupper(static_cast<unsigned char>(label[0])));
  return label;
}

std::vector<std::string> split_lines(const std::string& s);

// Walks the value one level of arrays and objects at a time, at most max_depth levels deep: what
// lies deeper is shown as a note, never recursed into.
template <class S>
class markdown_writer {
 public:
  markdown_writer(const S& root_schema, std::size_t max_depth) : root_(root_schema), max_depth_(max_depth) {}

  // Lines for any value at the top of a block, without indentation. `level`: the levels of
  // arrays and objects around it.
  std::vector<std::string> block(const json& value, const S& schema, std::size_t level = 0) const {
    if (value.is_structured() && level >= max_depth_)
      return {"(nested more than " + std::to_string(max_depth_) + " levels deep; not shown)"};
    const S& s = schema_for_value(schema, value, root_);
    if (value.is_object()) return object_lines(value, s, level + 1);
    if (value.is_array()) return array_lines(value, s, level + 1);
    return scalar_lines(value);
  }

 private:
  static bool is_composite(const json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

  static std::vector<std::string> scalar_lines(const json& v) {
    if (v.is_null()) return {"N/A"};
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s.empty()) return {"(empty)"};
      return split_lines(s);
    }
    if (v.is_object() || v.is_array()) return {"(none)"};  // empty ones; the others are composite
    return {v.dump(-1, ' ', false, json::error_handler_t::replace)};
  }

  void field(std::vector<std::string>& out, const std::string& label, const json& value, const S& schema,
             std::size_t level) const {
    std::vector<std::string> body = is_composite(value) ? block(value, schema, level) : scalar_lines(value);
    if (!is_composite(value) && body.size() == 1) {
      out.push_back(label + ": " + body[0]);
      return;
    }
    out.push_back(label + ":");
    for (auto& line : body) out.push_back("  " + line);
  }

  std::vector<std::string> object_lines(const json& value, const S& schema, std::size_t level) const {
    std::vector<std::string> out;
    const S* props = nullptr;
    if (schema.is_object()) {
      auto p = schema.find("properties");
      if (p != schema.end() && p->is_object()) props = &*p;
    }
    if (props) {
      for (auto it = props->begin(); it != props->end(); ++it) {
        auto v = value.find(it.key());
        const json& item = v == value.end() ? null_json() : *v;
        field(out, field_label(it.key(), it.value(), schema_for_value(it.value(), item, root_)), item, it.value(),
              level);
      }
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (props && props->contains(it.key())) continue;
      field(out, field_label(it.key(), null_json<S>(), null_json<S>()), it.value(), null_json<S>(), level);
    }
    return out;
  }

  std::vector<std::string> array_lines(const json& value, const S& schema, std::size_t level) const {
    const S* items = &null_json<S>();
    if (schema.is_object()) {
      auto i = schema.find("items");
      if (i != schema.end() && i->is_object()) items = &*i;
    }
    std::vector<std::string> out;
    std::size_t n = 0;
    for (const auto& item : value) {
      const std::string marker = std::to_string(++n) + ". ";
      std::vector<std::string> body = is_composite(item) ? block(item, *items, level) : scalar_lines(item);
      out.push_back(marker + body[0]);
      for (std::size_t k = 1; k < body.size(); ++k) out.push_back(std::string(marker.size(), ' ') + body[k]);
    }
    return out;
  }

  const S& root_;
  std::size_t max_depth_;
};

std::size_t longest_backtick_run(std::string_view s);

// A fence longer than any backtick run inside, so no content can close the block early.
std::string fenced(const std::string& body);

}  // namespace detail

// One fenced block of `Field: value` lines. With a schema, its properties come first and in its
// order, with `N/A` for those absent or null; fields the schema does not list follow.
// The schema may be an nlohmann::ordered_json (mcp::schema_of_ordered) to list fields in declaration order.
// What is nested more than `max_depth` levels deep is replaced by a note.
template <class Schema = json>
std::string render_markdown(const json& value, const Schema& schema = Schema(),
                            std::size_t max_depth = detail::default_max_json_depth) {
  std::string body;
  for (const auto& line : detail::markdown_writer<Schema>(schema, max_depth).block(value, schema)) {
    if (!body.empty()) body += '\n';
    body += line;
  }
  return detail::fenced(detail::valid_utf8(body));
}

// "Found N <nouns>:" and one fenced block per record, or "No <nouns> found." for none.
// "Found 1 <noun>:" uses noun_singular when given.
template <class Schema = json>
std::string render_markdown_list(const json& records, const Schema& item_schema, std::string_view noun_plural,
                                 std::string_view noun_singular = {}) {
  if (!records.is_array()) return render_markdown(records, item_schema);
  const std::string noun(records.size() == 1 && !noun_singular.empty() ? noun_singular : noun_plural);
  if (records.empty()) return "No " + noun + " found.";
  std::string out = "Found " + std::to_string(records.size()) + " " + noun + ":";
  for (const auto& record : records) out += "\n\n" + render_markdown(record, item_schema);
  return out;
}

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/tools/impl/render.ipp>
#endif
