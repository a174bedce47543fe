// Out-of-line bodies of validation/validation.hpp, included once from its bottom (or compiled into the
// library in compiled mode): the checks a schema passes before it is compiled, and validate().
#pragma once

#include <mcp/json/detail/pointer.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/validation/detail/validation_metaschema.hpp>

#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Copying the schema, and every check of it, recurses into it: a schema read from a file could be
// hostile. 128 levels hold 60 levels of nested objects, more than any argument list needs.
inline const json& shallow_enough(const json& schema) {
  if (nested_deeper_than(schema, default_max_json_depth))
    throw schema_error("invalid schema: it is nested more than " + std::to_string(default_max_json_depth) +
                       " levels deep");
  return schema;
}

inline void check_dialect(const json& schema) {
  if (!schema.is_object()) return;
  auto it = schema.find("$schema");
  if (it == schema.end()) return;
  std::string uri = it->is_string() ? it->get<std::string>() : std::string();
  if (!uri.empty() && uri.back() == '#') uri.pop_back();
  for (const char* prefix : {"http://", "https://"}) {
    if (uri == prefix + std::string("json-schema.org/draft-07/schema") ||
        uri == prefix + std::string("json-schema.org/draft/2020-12/schema"))
      return;
  }
  throw schema_error("invalid schema: unsupported JSON Schema dialect \"$schema\": " + render(*it) +
                     "; use draft-07 (\"http://json-schema.org/draft-07/schema#\") or 2020-12 "
                     "(\"https://json-schema.org/draft/2020-12/schema\"), or leave \"$schema\" out");
}

// The meta-schema does not look inside "$defs" (a 2020-12 name), so its entries get their own check.
inline bool is_defs_entry(const std::string& pointer) {
  auto last = pointer.rfind('/');
  if (last == std::string::npos || last == 0) return false;
  auto parent = pointer.rfind('/', last - 1);
  auto token = pointer.substr(parent + 1, last - parent - 1);
  return token == "$defs" || token == "definitions";
}

inline void compile_regex(const std::string& where, const std::string& pattern, regex_map& regexes) {
  if (regexes.count(pattern)) return;
  try {
    regexes.emplace(pattern, compile_pattern(pattern));
  } catch (const std::regex_error& e) {
    throw schema_error("invalid schema: " + where + ": '" + pattern + "' is not a valid regular expression (" +
                       regex_problem(e.code()) + ")");
  }
}

// `meta`: check this node against the meta-schema (the root, and $defs entries it does not reach).
inline void check_subschema(const json& root, const std::string& where, const json& node, const validator* meta,
                            regex_map& regexes) {
  if (meta) {
    auto problems = meta->validate(node);
    if (!problems.empty()) throw schema_error("invalid schema: " + join_violations(where, problems));
  }
  if (!node.is_object()) return;
  for (auto name = unsupported_keywords(); *name; ++name) {
    if (node.contains(*name)) {
      throw schema_error("invalid schema: " + where + "/" + *name + ": keyword '" + *name +
                         "' is not supported: arguments are checked with draft-07 rules, which have no equivalent; "
                         "use only keywords that mean the same in draft-07 and 2020-12");
    }
  }
  if (auto ref = node.find("$ref"); ref != node.end()) {
    const auto& text = ref->get_ref<const std::string&>();  // a string: the meta-schema checked it
    if (text.empty() || text[0] != '#') {
      throw schema_error("invalid schema: " + where + "/$ref: \"" + text +
                         "\" refers to another document; only references within this schema (\"#/...\") are supported");
    }
    if (!resolve_ref(root, text)) {
      throw schema_error("invalid schema: " + where + "/$ref: \"" + text + "\" does not point to a schema in this document");
    }
  }
  if (auto p = node.find("pattern"); p != node.end()) compile_regex(where + "/pattern", p->get<std::string>(), regexes);
  if (auto pp = node.find("patternProperties"); pp != node.end()) {
    for (auto member = pp->begin(); member != pp->end(); ++member) {
      std::string at = where + "/patternProperties";
      append_pointer_token(at, member.key());
      compile_regex(at, member.key(), regexes);
    }
  }
}

inline void visit_same_value(const json& root, const json* node, const std::map<const json*, std::string>& where,
                             std::map<const json*, int>& state) {
  int& s = state[node];
  if (s == 2) return;
  if (s == 1) {
    auto it = where.find(node);
    throw schema_error("invalid schema: " + (it == where.end() ? std::string("a subschema") : "'" + it->second + "'") +
                       " refers back to itself through $ref/allOf/anyOf/oneOf/not/if without descending into the "
                       "value, so validation would never end");
  }
  if (!node->is_object()) {
    s = 2;
    return;
  }
  s = 1;
  if (auto ref = node->find("$ref"); ref != node->end()) {
    if (const json* target = resolve_ref(root, ref->get<std::string>())) visit_same_value(root, target, where, state);
  }
  for (const char* key : {"allOf", "anyOf", "oneOf"}) {
    if (auto it = node->find(key); it != node->end()) {
      for (const auto& branch : *it) visit_same_value(root, &branch, where, state);
    }
  }
  for (const char* key : {"not", "if", "then", "else"}) {
    if (auto it = node->find(key); it != node->end()) visit_same_value(root, &*it, where, state);
  }
  state[node] = 2;
}

// A $ref or combinator chain that comes back to where it started without stepping into the value
// would make validation loop forever.
inline void check_ref_cycles(const json& root, const schema_survey& survey) {
  std::map<const json*, std::string> where;
  for (const auto& [pointer, node] : survey.subschemas) where.emplace(node, pointer);
  std::map<const json*, int> state;  // 1: on the current path, 2: done
  for (const auto& entry : survey.subschemas) visit_same_value(root, entry.second, where, state);
}

// The keywords whose value draft-07 requires to be a non-negative integer.
inline const char* const* count_keywords() {
  static const char* const names[] = {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
                                      nullptr};
  return names;
}

// Each count keyword written as a number with a zero fraction ("maxLength": 2.0), which draft-07
// counts as an integer, rewritten as that integer in the validator's own copy of the schema,
// before it is checked: valijson takes a count only held as an integer (it refuses 2.0 where the
// meta-schema says "integer", and throws compiling "minItems": 2.0), and the fast path, valijson's
// rules, the walk and coercion then all read the same number. A fraction (2.5) or a number beyond
// 64 bits stays as it is, for the meta-schema to refuse.
inline void normalise_counts(json& root, const schema_survey& survey) {
  for (const auto& [pointer, node] : survey.subschemas) {
    if (!node->is_object()) continue;
    json& mine = pointer.empty() ? root : root[json::json_pointer(pointer)];
    for (auto name = count_keywords(); *name; ++name) {
      auto it = mine.find(*name);
      if (it == mine.end() || !it->is_number_float()) continue;
      const double d = it->get<double>();
      if (!std::isfinite(d) || d != std::floor(d)) continue;
      if (d >= 0 && d < 18446744073709551616.0)  // 2^64
        *it = static_cast<std::uint64_t>(d);
      else if (d < 0 && d >= -9223372036854775808.0)  // -2^63: then refused as below 0, not as a fraction
        *it = static_cast<std::int64_t>(d);
    }
  }
}

inline void compile(compiled_schema& c, const schema_survey& survey) {
  try {
    c.record = std::make_unique<valijson_record>(c.schema, survey.subschemas);
  } catch (const std::exception& e) {
    throw schema_error(std::string("invalid schema: valijson could not compile it: ") + e.what());
  }
  c.fast = plain_schema::compile(c.schema, true);
}

}  // namespace detail

MCP_DECL validator::validator(const json& schema, root r) {
  auto compiled = std::make_shared<detail::compiled_schema>();
  compiled->schema = detail::shallow_enough(schema);
  const json& s = compiled->schema;
  detail::check_dialect(s);
  if (r == root::any && !s.is_object())
    throw schema_error("invalid schema: a schema is a JSON object, got " + detail::describe_value(s));
  if (r == root::object && (!s.is_object() || !s.contains("type") || s["type"] != "object")) {
    std::string got = !s.is_object()          ? "got " + detail::describe_value(s)
                      : !s.contains("type") ? "got no \"type\""
                                              : "got \"type\": " + detail::render(s["type"]);
    throw schema_error("invalid schema: the root must be an object schema with \"type\": \"object\" (tool arguments "
                       "are a JSON object), " + got);
  }
  const detail::schema_survey survey = detail::survey_all(s);
  detail::normalise_counts(compiled->schema, survey);  // numbers change in place: the survey's pointers hold
  for (const auto& [where, node] : survey.subschemas) {
    bool whole = where.empty() || detail::is_defs_entry(where);
    detail::check_subschema(s, where, *node, whole ? &metaschema() : nullptr, compiled->regexes);
  }
  if (survey.has_ref) detail::check_ref_cycles(s, survey);
  detail::compile(*compiled, survey);
  compiled_ = std::move(compiled);
}

MCP_DECL validator::validator(const json& schema, trusted) {
  auto compiled = std::make_shared<detail::compiled_schema>();
  compiled->schema = schema;
  detail::compile(*compiled, detail::survey_all(compiled->schema));
  compiled_ = std::move(compiled);
}

MCP_DECL std::vector<violation> validator::validate(const json& instance, std::size_t max_depth) const {
  const detail::compiled_schema& c = *compiled_;
  // The fast path holds the value to max_depth on its walk; where it can not answer yes, the depth
  // check comes before valijson, which a recursive schema ($ref) can lead down past any depth.
  if (c.fast && c.fast->accepts_within(instance, max_depth)) return {};
  if (detail::nested_deeper_than(instance, max_depth)) {
    return {{"", "depth", "the value is nested more than " + std::to_string(max_depth) +
                              " levels deep (arrays and objects); flatten it"}};
  }
  if (c.record->accepts(instance)) return {};
  std::vector<violation> out = c.explain(instance);
  if (out.empty()) out = unexplained(instance);
  return out;
}

MCP_DECL const json& validator::schema() const { return compiled_->schema; }

MCP_DECL const detail::plain_schema* detail::fast_path_of(const validator& v) { return v.compiled_->fast.get(); }
MCP_DECL const detail::compiled_schema& detail::compiled_of(const validator& v) { return *v.compiled_; }

MCP_DECL detail::plain_shape detail::shape_of(const plain_schema& node) {
  plain_shape out;
  out.object_properties = node.checks_only_properties();
  out.array_items = node.checks_only_items();
  out.required_count = node.required_count();
  out.items = node.items();
  out.min_items = node.min_items();
  out.max_items = node.max_items();
  return out;
}

MCP_DECL const detail::plain_schema* detail::property_schema(const plain_schema& node, std::string_view name,
                                                             bool& required) {
  return node.property_schema(name, required);
}

MCP_DECL bool detail::plain_accepts(const plain_schema& node, const json& value) { return node.accepts(value); }

MCP_DECL bool detail::plain_accepts_string(const plain_schema& node, std::string_view text) {
  return node.accepts_string(text);
}

MCP_DECL bool detail::plain_decides_strings(const plain_schema& node, const std::vector<std::string_view>*& choices) {
  return node.decides_strings(choices);
}

MCP_DECL bool detail::plain_accepts_integer(const plain_schema& node, bool negative, std::uint64_t magnitude) {
  return node.accepts_integer(negative, magnitude);
}

MCP_DECL const validator& validator::metaschema() {
  static const validator meta(
      [] {
        json schema;
        detail::read_json(detail::draft07_metaschema_text(), schema, detail::default_max_json_depth);
        return schema;
      }(),
      trusted{});
  return meta;
}

// valijson refused a value in which the walk finds nothing wrong: the two disagree, which the
// differential tests hunt. The answer stays a refusal, placed where valijson places it (its
// context path, never its English words).
MCP_DECL std::vector<violation> validator::unexplained(const json& instance) const {
  std::vector<violation> out;
  for (auto& pointer : compiled_->record->refused_at(instance)) {
    std::string got;
    try {
      got = ", got " + detail::describe_value(instance.at(json::json_pointer(pointer)));
    } catch (const json::exception&) {
    }
    out.push_back({pointer, "schema", "is not accepted by the schema here" + got +
                                          "; check this value against the schema's rules for it"});
  }
  if (out.empty()) out.push_back({"", "schema", "is not accepted by the schema"});
  return out;
}

namespace detail {
MCP_DECL std::string violation_list(const std::vector<violation>& v) {
  constexpr std::size_t max_lines = 25;  // past this, more lines help no one
  std::string out = "(" + plural(v.size(), "problem") + "):";
  for (std::size_t i = 0; i < v.size() && i < max_lines; ++i) {
    out += "\n- ";
    if (!v[i].pointer.empty()) out += v[i].pointer + ": ";
    out += v[i].message + " (" + v[i].keyword + ")";
  }
  if (v.size() > max_lines) out += "\n- ... and " + plural(v.size() - max_lines, "more problem");
  return out;
}
}  // namespace detail

MCP_DECL std::string describe_violations(std::string_view tool_name, const std::vector<violation>& v,
                                         [[maybe_unused]] const json& schema) {
  if (v.empty()) return std::string();
  std::string out = "Invalid arguments for tool '" + std::string(tool_name) + "' " + detail::violation_list(v);
  out += v.size() == 1 ? "\nFix this and call the tool again." : "\nFix these and call the tool again.";
  return out;
}

}  // namespace v0
}  // namespace mcp
