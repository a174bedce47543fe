// What mcp::validator compiles from a schema (the fast path, valijson's schema, the patterns for
// the walk) and the survey of a schema's subschemas that the checks before compiling it need.
// Included by validation/impl/validation.ipp and impl/coercion.ipp, and by the differential tests
// that compare the parts.
#pragma once

#include <mcp/json/detail/pointer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/detail/validation_fast_path.hpp>
#include <mcp/validation/detail/validation_rules.hpp>
#include <mcp/validation/detail/validation_valijson.hpp>
#include <mcp/validation/detail/validation_walk.hpp>
#include <mcp/validation/violation.hpp>

#include <cstddef>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
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
  if (code == rc::error_backref) return "an invalid back-reference";
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

  // Whether `instance` fits the subschema at JSON Pointer `at` of `schema` ("" for the whole):
  // valijson's verdict, the question coercion asks of each reading it considers.
  bool fits(const json& instance, const std::string& at) const { return record->accepts_at(at, instance); }

  // The walk's account of what is wrong with `instance` (empty: the walk finds that it fits).
  std::vector<violation> explain(const json& instance) const {
    std::vector<violation> out;
    std::string pointer;
    schema_walker(schema, &regexes, nullptr).explain(instance, schema, pointer, out);
    return out;
  }
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
