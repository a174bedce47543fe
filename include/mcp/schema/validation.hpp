// Argument validation: a JSON Schema is checked and compiled once, then values are validated
// against it with every violation reported: where (JSON Pointer), which rule, what was expected,
// what was received. Works on plain JSON Schemas, so typed tools (schema from a C++ struct) and
// runtime tools (schema loaded from a file) share it.
//
//   mcp::validator v(schema);                          // throws mcp::schema_error if the schema is bad
//   auto problems = v.validate(arguments);             // empty: valid
//   if (!problems.empty()) return mcp::tool_error(mcp::describe_violations("create_note", problems, schema));
//
// One validator of record decides: valijson (draft-07 rules), with the SDK's overrides listed in
// detail/validation_valijson.hpp. A fast path for the plain schemas MCP_STRUCT emits answers the
// common valid value without it, proven equal to it by differential tests. When a value is
// refused, a walk over the schema explains why (detail/validation_walk.hpp); it never decides.
//
// Formats checked: date-time, date, time, email, uri, uuid, ipv4; other formats are annotations.
#pragma once

#include <mcp/error.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/detail/validation_fast_path.hpp>
#include <mcp/schema/detail/validation_metaschema.hpp>
#include <mcp/schema/detail/validation_rules.hpp>
#include <mcp/schema/detail/validation_valijson.hpp>
#include <mcp/schema/detail/validation_walk.hpp>

#include <cstddef>
#include <exception>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

// A schema that can not be used to validate tool arguments; the message says what is wrong.
class schema_error : public error {
 public:
  explicit schema_error(const std::string& message) : error(error_code::invalid_schema, message) {}
};

namespace detail {

// Everything about a schema that the checks before compilation need, gathered in one pass.
struct schema_survey {
  std::vector<std::pair<std::string, const json*>> subschemas;  // pointer -> node
  bool has_ref = false;
};

// Keywords whose meaning in 2020-12 has no draft-07 equivalent: valijson would silently skip them.
inline const char* const* unsupported_keywords() {
  static const char* const names[] = {"prefixItems",   "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",
                                      "$dynamicAnchor", "$recursiveRef",        "$recursiveAnchor", "dependentSchemas",
                                      "dependentRequired", "minContains",        "maxContains",      nullptr};
  return names;
}

inline void survey_schema(const json& node, std::string& pointer, schema_survey& out) {
  if (!node.is_object() && !node.is_boolean()) return;
  out.subschemas.emplace_back(pointer, &node);
  if (!node.is_object()) return;
  if (node.contains("$ref")) out.has_ref = true;
  for (const char* key : {"additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then",
                          "else", "items"}) {
    if (auto it = node.find(key); it != node.end() && !it->is_array()) {
      pointer_scope scope(pointer, key);
      survey_schema(*it, pointer, out);
    }
  }
  for (const char* key : {"items", "allOf", "anyOf", "oneOf"}) {
    if (auto it = node.find(key); it != node.end() && it->is_array()) {
      pointer_scope outer(pointer, key);
      for (std::size_t i = 0; i < it->size(); ++i) {
        pointer_scope scope(pointer, i);
        survey_schema((*it)[i], pointer, out);
      }
    }
  }
  for (const char* key : {"properties", "patternProperties", "definitions", "$defs", "dependencies"}) {
    if (auto it = node.find(key); it != node.end() && it->is_object()) {
      pointer_scope outer(pointer, key);
      for (auto member = it->begin(); member != it->end(); ++member) {
        pointer_scope scope(pointer, member.key());
        survey_schema(*member, pointer, out);
      }
    }
  }
}

// Every subschema of `root`: those under the keywords above, and those a "$ref" reaches elsewhere.
inline schema_survey survey_all(const json& root) {
  schema_survey out;
  std::string pointer;
  survey_schema(root, pointer, out);
  std::set<const json*> seen;
  for (std::size_t i = 0, noted = 0; i < out.subschemas.size(); ++i) {
    for (; noted < out.subschemas.size(); ++noted) seen.insert(out.subschemas[noted].second);
    const json& node = *out.subschemas[i].second;
    if (!node.is_object()) continue;
    auto ref = node.find("$ref");
    if (ref == node.end() || !ref->is_string()) continue;
    const json* target = resolve_ref(root, ref->get<std::string>());
    if (target && !seen.count(target) && ref_pointer(ref->get<std::string>(), pointer))
      survey_schema(*target, pointer, out);
  }
  return out;
}

inline std::string regex_problem(std::regex_constants::error_type code) {
  namespace rc = std::regex_constants;
  if (code == rc::error_brack) return "an unmatched '['";
  if (code == rc::error_paren) return "an unmatched '(' or ')'";
  if (code == rc::error_brace) return "an unmatched '{'";
  if (code == rc::error_badbrace) return "an invalid {n,m} repetition";
  if (code == rc::error_range) return "an invalid character range";
  if (code == rc::error_escape) return "an invalid escape";
  if (code == rc::error_badrepeat) return "a repetition with nothing to repeat";
  if (code == rc::error_collate || code == rc::error_ctype) return "an invalid character class";
  return "invalid syntax";
}

inline std::string join_violations(const std::string& prefix, const std::vector<violation>& problems) {
  std::string out;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) out += "; ";
    std::string where = prefix + problems[i].pointer;
    out += (where.empty() ? "" : where + ": ") + problems[i].message;
  }
  return out;
}

// What a validator compiles once from its schema, shared by its copies. Immutable once built (the
// valijson pool inside locks): safe to use from several threads at once.
struct compiled_schema {
  json schema;
  regex_map regexes;                        // every pattern in the schema, compiled, for the walk
  std::unique_ptr<plain_schema> fast;       // the fast path, when the schema is plain enough for it
  std::unique_ptr<valijson_record> record;  // the validator of record

  // The walk's account of what is wrong with `instance` (empty: the walk finds that it fits).
  std::vector<violation> explain(const json& instance) const {
    std::vector<violation> out;
    std::string pointer;
    schema_walker(schema, &regexes, nullptr).check(instance, schema, pointer, &out);
    return out;
  }
};

}  // namespace detail

// Checks values against one JSON Schema. Copies share what was compiled; validate() is safe to call
// from several threads at once, on one validator or on copies.
class validator {
 public:
  // What the root may be: tool arguments are always an object; a 2026-07-28 output may be anything.
  enum class root { object, any };

  // Checks and compiles `schema` once; throws schema_error saying exactly what is wrong.
  explicit validator(const json& schema, root r = root::object) {
    auto compiled = std::make_shared<detail::compiled_schema>();
    compiled->schema = shallow_enough(schema);
    const json& s = compiled->schema;
    check_dialect(s);
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
    for (const auto& [where, node] : survey.subschemas) {
      check_subschema(s, where, *node, where.empty() || is_defs_entry(where), compiled->regexes);
    }
    if (survey.has_ref) check_ref_cycles(s, survey);
    compile(*compiled, survey);
    compiled_ = std::move(compiled);
  }

  // Every violation of the schema by `instance`; empty when it is valid. Safe to call concurrently.
  // A value nested more than `max_depth` levels deep (arrays and objects, counted from the
  // instance) gets one "depth" violation and is not looked into: the walks that explain a failure
  // recurse into the value. The tool pipeline passes the server's max_json_depth less the two
  // levels of the message around the arguments.
  std::vector<violation> validate(const json& instance, std::size_t max_depth = detail::default_max_json_depth) const {
    const detail::compiled_schema& c = *compiled_;
    // The fast path follows the schema, never deeper than it.
    if (c.fast && c.fast->accepts(instance)) return {};
    if (detail::nested_deeper_than(instance, max_depth)) {
      return {{"", "depth", "the value is nested more than " + std::to_string(max_depth) +
                                " levels deep (arrays and objects); flatten it"}};
    }
    if (c.record->accepts(instance)) return {};
    std::vector<violation> out = c.explain(instance);
    if (out.empty()) out = unexplained(instance);
    return out;
  }

  const json& schema() const { return compiled_->schema; }

  // The compiled parts (fast path, valijson, the walk), for the differential tests that keep them
  // in agreement. A detail type: no stability promise.
  const detail::compiled_schema& compiled() const { return *compiled_; }

 private:
  struct trusted {};
  // For the meta-schema itself, which is known good and whose root is not "type": "object".
  validator(const json& schema, trusted) {
    auto compiled = std::make_shared<detail::compiled_schema>();
    compiled->schema = schema;
    compile(*compiled, detail::survey_all(compiled->schema));
    compiled_ = std::move(compiled);
  }

  // Copying the schema, and every check of it, recurses into it: a schema read from a file could be
  // hostile. 128 levels hold 60 levels of nested objects, more than any argument list needs.
  static const json& shallow_enough(const json& schema) {
    if (detail::nested_deeper_than(schema, detail::default_max_json_depth))
      throw schema_error("invalid schema: it is nested more than " + std::to_string(detail::default_max_json_depth) +
                         " levels deep");
    return schema;
  }

  static const validator& metaschema() {
    static const validator meta(
        [] {
          json schema;
          detail::read_json(detail::draft07_metaschema_text(), schema, detail::default_max_json_depth);
          return schema;
        }(),
        trusted{});
    return meta;
  }

  static void check_dialect(const json& schema) {
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
    throw schema_error("invalid schema: unsupported JSON Schema dialect \"$schema\": " + detail::render(*it) +
                       "; use draft-07 (\"http://json-schema.org/draft-07/schema#\") or 2020-12 "
                       "(\"https://json-schema.org/draft/2020-12/schema\"), or leave \"$schema\" out");
  }

  // The meta-schema does not look inside "$defs" (a 2020-12 name), so its entries get their own check.
  static bool is_defs_entry(const std::string& pointer) {
    auto last = pointer.rfind('/');
    if (last == std::string::npos || last == 0) return false;
    auto parent = pointer.rfind('/', last - 1);
    auto token = pointer.substr(parent + 1, last - parent - 1);
    return token == "$defs" || token == "definitions";
  }

  // `whole`: check this node against the meta-schema (the root, and $defs entries it does not reach).
  static void check_subschema(const json& root, const std::string& where, const json& node, bool whole,
                              detail::regex_map& regexes) {
    if (whole) {
      auto problems = metaschema().validate(node);
      if (!problems.empty()) throw schema_error("invalid schema: " + detail::join_violations(where, problems));
    }
    if (!node.is_object()) return;
    for (auto name = detail::unsupported_keywords(); *name; ++name) {
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
      if (!detail::resolve_ref(root, text)) {
        throw schema_error("invalid schema: " + where + "/$ref: \"" + text + "\" does not point to a schema in this document");
      }
    }
    if (auto p = node.find("pattern"); p != node.end()) compile_regex(where + "/pattern", p->get<std::string>(), regexes);
    if (auto pp = node.find("patternProperties"); pp != node.end()) {
      for (auto member = pp->begin(); member != pp->end(); ++member) {
        std::string at = where + "/patternProperties";
        detail::append_pointer_token(at, member.key());
        compile_regex(at, member.key(), regexes);
      }
    }
  }

  static void compile_regex(const std::string& where, const std::string& pattern, detail::regex_map& regexes) {
    if (regexes.count(pattern)) return;
    try {
      regexes.emplace(pattern, detail::compile_pattern(pattern));
    } catch (const std::regex_error& e) {
      throw schema_error("invalid schema: " + where + ": '" + pattern + "' is not a valid regular expression (" +
                         detail::regex_problem(e.code()) + ")");
    }
  }

  // A $ref or combinator chain that comes back to where it started without stepping into the value
  // would make validation loop forever.
  static void check_ref_cycles(const json& root, const detail::schema_survey& survey) {
    std::map<const json*, std::string> where;
    for (const auto& [pointer, node] : survey.subschemas) where.emplace(node, pointer);
    std::map<const json*, int> state;  // 1: on the current path, 2: done
    for (const auto& entry : survey.subschemas) visit_same_value(root, entry.second, where, state);
  }

  static void visit_same_value(const json& root, const json* node, const std::map<const json*, std::string>& where,
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
      if (const json* target = detail::resolve_ref(root, ref->get<std::string>()))
        visit_same_value(root, target, where, state);
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

  static void compile(detail::compiled_schema& c, const detail::schema_survey& survey) {
    try {
      c.record = std::make_unique<detail::valijson_record>(c.schema, survey.subschemas);
    } catch (const std::exception& e) {
      throw schema_error(std::string("invalid schema: valijson could not compile it: ") + e.what());
    }
    c.fast = detail::plain_schema::compile(c.schema, true);
  }

  // valijson refused a value in which the walk finds nothing wrong: the two disagree, which the
  // differential tests hunt. The answer stays a refusal, placed where valijson places it (its
  // context path, never its English words).
  std::vector<violation> unexplained(const json& instance) const {
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

  std::shared_ptr<const detail::compiled_schema> compiled_;
};

namespace detail {
// "(2 problems):" and one line per violation ("\n- /path: message (keyword)"), at most 25.
inline std::string violation_list(const std::vector<violation>& v) {
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

// The isError text for the model: every violation, one per line, and what to do next.
inline std::string describe_violations(std::string_view tool_name, const std::vector<violation>& v,
                                       [[maybe_unused]] const json& schema) {
  if (v.empty()) return std::string();
  std::string out = "Invalid arguments for tool '" + std::string(tool_name) + "' " + detail::violation_list(v);
  out += v.size() == 1 ? "\nFix this and call the tool again." : "\nFix these and call the tool again.";
  return out;
}

}  // namespace v0
}  // namespace mcp
