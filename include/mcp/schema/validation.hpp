// Argument validation: a JSON Schema is checked and compiled once (valijson, draft-07 rules), then
// values are validated against it with every violation reported: where (JSON Pointer), which rule,
// what was expected, what was received. Works on plain JSON Schemas, so typed tools (schema from a
// C++ struct) and runtime tools (schema loaded from a file) share it.
//
//   mcp::validator v(schema);                          // throws mcp::schema_error if the schema is bad
//   auto problems = v.validate(arguments);             // empty: valid
//   if (!problems.empty()) return mcp::tool_error(mcp::describe_violations("create_note", problems, schema));
//
// Formats checked: date-time, date, time, email, uri, uuid, ipv4; other formats are annotations.
#pragma once

#include <mcp/error.hpp>
#include <mcp/schema/detail/validation_metaschema.hpp>
#include <mcp/schema/detail/validation_walk.hpp>
#include <mcp/json/json.hpp>

// Without this valijson reports a bad schema by printing and calling abort().
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif
#if !VALIJSON_USE_EXCEPTIONS
#error "mcp needs valijson's exceptions: define VALIJSON_USE_EXCEPTIONS=1 before including valijson"
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
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
  bool has_format = false;
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
  if (auto f = node.find("format"); f != node.end() && f->is_string() && find_format(f->get_ref<const std::string&>())) {
    out.has_format = true;
  }
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

// Turns valijson's context (["<root>", "[findings]", "[0]"]) into a JSON Pointer.
inline std::string context_pointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (std::size_t i = 1; i < context.size(); ++i) {
    const auto& part = context[i];
    bool bracketed = part.size() >= 2 && part.front() == '[' && part.back() == ']';
    append_pointer_token(pointer, bracketed ? std::string_view(part).substr(1, part.size() - 2) : part);
  }
  return pointer;
}

inline const char* keyword_from_description(const std::string& d) {
  static const std::pair<const char*, const char*> table[] = {
      {"Value type not permitted", "type"}, {"Missing required property", "required"},
      {"Failed to match against any enum", "enum"}, {"Failed to match regex", "pattern"},
      {"String should be a valid", "format"}, {"Failed to match expected value set by 'const'", "const"},
      {"Object contains a property", "additionalProperties"}, {"Missing dependency", "dependencies"},
      {"Expected number less than or equal", "maximum"}, {"Expected number less than", "exclusiveMaximum"},
      {"Expected number greater than or equal", "minimum"}, {"Expected number greater than", "exclusiveMinimum"},
      {"String should be no fewer", "minLength"}, {"String should be no more", "maxLength"},
      {"Array should contain no fewer", "minItems"}, {"Array should contain no more", "maxItems"},
      {"Value should be a multiple", "multipleOf"}, {"Elements at indexes", "uniqueItems"},
      {"Failed to validate against exactly one", "oneOf"}, {"Failed to validate against any schemas allowed by anyOf", "anyOf"},
  };
  for (const auto& [prefix, keyword] : table) {
    if (d.compare(0, std::char_traits<char>::length(prefix), prefix) == 0) return keyword;
  }
  return "schema";
}

inline bool beyond_int64(const json& v) {
  return v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}
// Looks `levels` deep at most (validate() has refused deeper values before it gets here).
inline bool holds_beyond_int64(const json& v, std::size_t levels) {
  if (v.is_structured()) {
    if (levels == 0) return false;
    for (const auto& item : v)
      if (holds_beyond_int64(item, levels - 1)) return true;
    return false;
  }
  return beyond_int64(v);
}

// The fast path of validation for the plain schemas MCP_STRUCT produces: types, properties,
// required, a boolean additionalProperties, items, numeric bounds and string enums, nothing else.
// accepts() answers true only where draft-07 surely accepts the value; otherwise (a violation, or
// a case it does not decide exactly, like 1.0 for "integer") the full validator runs, so every
// message stays the same. Built only when every keyword of the schema is one of those below.
class plain_schema {
 public:
  static std::unique_ptr<plain_schema> compile(const json& node, bool root) {
    if (!node.is_object()) return nullptr;
    auto out = std::make_unique<plain_schema>();
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& key = it.key();
      const json& v = *it;
      if (key == "description" || key == "title" || key == "default" || key == "examples" || key == "$comment" ||
          key == "deprecated" || key == "readOnly" || key == "writeOnly" || (root && key == "$schema")) {
        continue;  // annotations: no effect on validity
      } else if (key == "type") {
        out->types_ = 0;
        if (v.is_string()) {
          if (!out->add_type(v.get_ref<const std::string&>())) return nullptr;
        } else if (v.is_array() && !v.empty()) {
          for (const auto& t : v)
            if (!t.is_string() || !out->add_type(t.get_ref<const std::string&>())) return nullptr;
        } else {
          return nullptr;
        }
      } else if (key == "properties" && v.is_object()) {
        for (auto p = v.begin(); p != v.end(); ++p) {
          auto child = compile(*p, false);
          if (!child) return nullptr;
          out->properties_.push_back({p.key(), std::move(child), false});  // in the instance's key order
        }
      } else if (key == "required" && v.is_array()) {
        for (const auto& name : v)
          if (!name.is_string()) return nullptr;
        out->required_ = v;
      } else if (key == "additionalProperties" && v.is_boolean()) {
        out->closed_ = !v.get<bool>();
      } else if (key == "items" && v.is_object()) {
        out->items_ = compile(v, false);
        if (!out->items_) return nullptr;
      } else if ((key == "minimum" || key == "maximum") && v.is_number()) {
        (key == "minimum" ? out->minimum_ : out->maximum_) = v;
      } else if (key == "enum" && v.is_array() && !v.empty()) {
        for (const auto& e : v)
          if (!e.is_string()) return nullptr;
        out->enum_ = v;
      } else {
        return nullptr;
      }
    }
    std::size_t named = 0;
    for (const auto& name : out->required_) {
      const std::string& n = name.get_ref<const std::string&>();
      auto p = std::find_if(out->properties_.begin(), out->properties_.end(), [&](const property& x) { return x.name == n; });
      if (p == out->properties_.end() || p->required) return nullptr;  // unknown or repeated: leave it to the full path
      p->required = true;
      ++named;
    }
    out->required_count_ = named;
    return out;
  }

  bool accepts(const json& value) const {
    if (!(types_ & type_bit(value))) return false;
    if (beyond_int64(value)) return false;  // rare: left to the full path, which handles it exactly
    if (!enum_.is_null() && !value.is_string()) return false;  // every enum value is a string
    if (value.is_object()) {
      std::size_t p = 0, required_seen = 0;
      for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string& key = it.key();
        while (p < properties_.size() && properties_[p].name < key) ++p;
        if (p < properties_.size() && properties_[p].name == key) {
          if (!properties_[p].schema->accepts(*it)) return false;
          if (properties_[p].required) ++required_seen;
          ++p;
        } else if (closed_) {
          return false;
        }
      }
      return required_seen == required_count_;
    }
    if (value.is_array() && items_) {
      for (const auto& item : value)
        if (!items_->accepts(item)) return false;
      return true;
    }
    if (value.is_number()) return within(value, minimum_, 1) && within(value, maximum_, -1);
    if (value.is_string() && !enum_.is_null()) {
      for (const auto& e : enum_)
        if (e.get_ref<const std::string&>() == value.get_ref<const std::string&>()) return true;
      return false;
    }
    return true;
  }

  plain_schema() = default;

 private:
  struct property {
    std::string name;
    std::unique_ptr<plain_schema> schema;
    bool required;
  };
  enum : unsigned { t_null = 1, t_boolean = 2, t_integer = 4, t_float = 8, t_string = 16, t_array = 32, t_object = 64 };

  // "integer" takes only values stored as integers: 1.0 is an integer to draft-07, and is left to
  // the full path rather than decided here.
  bool add_type(const std::string& t) {
    if (t == "null") types_ |= t_null;
    else if (t == "boolean") types_ |= t_boolean;
    else if (t == "integer") types_ |= t_integer;
    else if (t == "number") types_ |= t_integer | t_float;
    else if (t == "string") types_ |= t_string;
    else if (t == "array") types_ |= t_array;
    else if (t == "object") types_ |= t_object;
    else return false;
    return true;
  }
  static unsigned type_bit(const json& v) {
    switch (v.type()) {
      case json::value_t::null: return t_null;
      case json::value_t::boolean: return t_boolean;
      case json::value_t::number_integer:
      case json::value_t::number_unsigned: return t_integer;
      case json::value_t::number_float: return t_float;
      case json::value_t::string: return t_string;
      case json::value_t::array: return t_array;
      case json::value_t::object: return t_object;
      default: return 0;
    }
  }
  // value on the right side of `bound` (side 1: at least, -1: at most). Mixed integer/float
  // comparisons beyond 2^53 are not exact in double: left to the full path.
  static bool within(const json& value, const json& bound, int side) {
    if (bound.is_null()) return true;
    if (value.is_number_integer() != bound.is_number_integer()) {
      const json& whole = value.is_number_integer() ? value : bound;
      if (std::fabs(whole.get<double>()) > 9007199254740992.0) return false;
    }
    int c = compare_numbers(value, bound);
    return side > 0 ? c >= 0 : c <= 0;
  }

  unsigned types_ = ~0u;
  std::vector<property> properties_;
  json required_;
  std::size_t required_count_ = 0;
  bool closed_ = false;
  std::unique_ptr<plain_schema> items_;
  json minimum_, maximum_, enum_;
};

// The compiled form shared by copies of a validator. valijson's Validator caches the regexes it
// builds, so it is not safe to share between threads: a small pool lends one to each call.
struct compiled_schema {
  valijson::Schema schema;
  regex_map regexes;
  bool walk_always = false;  // formats are the walk's job (see validator::compile)
  std::unique_ptr<plain_schema> plain;  // set when the schema is plain enough for the fast path

  std::mutex mutex;
  std::vector<std::unique_ptr<valijson::Validator>> idle;

  enum class verdict { accepted, refused, failed };

  // Runs valijson. `failed`: it threw (e.g. a "format" on a non-string value, a regex too complex
  // for std::regex), so its answer means nothing and the walk decides.
  verdict run(const json& instance, valijson::ValidationResults* results) {
    std::unique_ptr<valijson::Validator> v;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!idle.empty()) {
        v = std::move(idle.back());
        idle.pop_back();
      }
    }
    if (!v) v = std::make_unique<valijson::Validator>();
    verdict result = verdict::failed;
    try {
      result = v->validate(schema, valijson::adapters::NlohmannJsonAdapter(instance), results) ? verdict::accepted
                                                                                               : verdict::refused;
    } catch (const std::exception&) {
    }
    std::lock_guard<std::mutex> lock(mutex);
    idle.push_back(std::move(v));
    return result;
  }
};

}  // namespace detail

class validator {
 public:
  // What the root may be: tool arguments are always an object; a 2026-07-28 output may be anything.
  enum class root { object, any };

  // Checks and compiles `schema` once; throws schema_error saying exactly what is wrong.
  explicit validator(const json& schema, root r = root::object) : schema_(shallow_enough(schema)) {
    check_dialect();
    if (r == root::any && !schema_.is_object())
      throw schema_error("invalid schema: a schema is a JSON object, got " + detail::describe_value(schema_));
    if (r == root::object && (!schema_.is_object() || !schema_.contains("type") || schema_["type"] != "object")) {
      std::string got = !schema_.is_object()          ? "got " + detail::describe_value(schema_)
                        : !schema_.contains("type") ? "got no \"type\""
                                                      : "got \"type\": " + detail::render(schema_["type"]);
      throw schema_error("invalid schema: the root must be an object schema with \"type\": \"object\" (tool arguments "
                         "are a JSON object), " + got);
    }
    detail::schema_survey survey;
    std::string pointer;
    detail::survey_schema(schema_, pointer, survey);
    detail::regex_map regexes;
    for (const auto& [where, node] : survey.subschemas) {
      check_subschema(where, *node, where.empty() || is_defs_entry(where), regexes);
    }
    compile(survey, std::move(regexes));
  }

  // Every violation of the schema by `instance`; empty when it is valid. Safe to call concurrently.
  // A value nested more than `max_depth` levels deep (arrays and objects, counted from the
  // instance) gets one "depth" violation and is not looked into: the walks that explain a failure
  // recurse into the value. The tool pipeline passes the server's max_json_depth less the two
  // levels of the message around the arguments.
  std::vector<violation> validate(const json& instance, std::size_t max_depth = detail::default_max_json_depth) const {
    std::vector<violation> out;
    // The fast path follows the schema, never deeper than it.
    if (compiled_->plain && compiled_->plain->accepts(instance)) return out;
    if (detail::nested_deeper_than(instance, max_depth)) {
      out.push_back({"", "depth", "the value is nested more than " + std::to_string(max_depth) +
                                      " levels deep (arrays and objects); flatten it"});
      return out;
    }
    using verdict = detail::compiled_schema::verdict;
    verdict answer = compiled_->run(instance, nullptr);
    // valijson also reads integers beyond int64 in the value as wrapped negatives (2^64 - 1 as -1,
    // which it would accept for an int16): where the value has one, the walk (exact for them)
    // decides alone.
    const bool wrapped = detail::holds_beyond_int64(instance, max_depth);
    if (answer == verdict::accepted && !compiled_->walk_always && !wrapped) return out;
    detail::schema_walker walker(schema_, &compiled_->regexes, nullptr);
    std::string pointer;
    walker.check(instance, schema_, pointer, &out);
    if (out.empty() && answer == verdict::refused && !wrapped) out = valijson_violations(instance);
    return out;
  }

  const json& schema() const { return schema_; }

 private:
  struct trusted {};
  // For the meta-schema itself, which is known good and whose root is not "type": "object".
  validator(const json& schema, trusted) : schema_(schema) {
    detail::schema_survey survey;
    std::string pointer;
    detail::survey_schema(schema_, pointer, survey);
    compile(survey, {});
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

  void check_dialect() const {
    if (!schema_.is_object()) return;
    auto it = schema_.find("$schema");
    if (it == schema_.end()) return;
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
  void check_subschema(const std::string& where, const json& node, bool whole, detail::regex_map& regexes) const {
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
      if (!detail::resolve_ref(schema_, text)) {
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
  void check_ref_cycles(const detail::schema_survey& survey) const {
    std::map<const json*, std::string> where;
    for (const auto& [pointer, node] : survey.subschemas) where.emplace(node, pointer);
    std::map<const json*, int> state;  // 1: on the current path, 2: done
    for (const auto& entry : survey.subschemas) visit_same_value(entry.second, where, state);
  }

  void visit_same_value(const json* node, const std::map<const json*, std::string>& where,
                        std::map<const json*, int>& state) const {
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
      if (const json* target = detail::resolve_ref(schema_, ref->get<std::string>())) visit_same_value(target, where, state);
    }
    for (const char* key : {"allOf", "anyOf", "oneOf"}) {
      if (auto it = node->find(key); it != node->end()) {
        for (const auto& branch : *it) visit_same_value(&branch, where, state);
      }
    }
    for (const char* key : {"not", "if", "then", "else"}) {
      if (auto it = node->find(key); it != node->end()) visit_same_value(&*it, where, state);
    }
    state[node] = 2;
  }

  void compile(const detail::schema_survey& survey, detail::regex_map regexes) {
    if (survey.has_ref) check_ref_cycles(survey);
    auto compiled = std::make_shared<detail::compiled_schema>();
    // valijson checks few formats, and throws on a non-string value (where "format" does not
    // apply), so formats are left to the walk.
    // And draft-07 ignores the siblings of a "$ref" where 2020-12 applies them: wrapping the
    // reference in "allOf" means the 2020-12 reading under both.
    json for_valijson = schema_;
    for (const auto& entry : survey.subschemas) {
      if (!entry.second->is_object()) continue;
      json& node = for_valijson[json::json_pointer(entry.first)];
      node.erase("format");
      // valijson reads every integer as int64, so a bound beyond it would wrap to a negative one.
      for (const char* bound : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) {
        auto it = node.find(bound);
        if (it != node.end() && detail::beyond_int64(*it)) *it = it->get<double>();
      }
      auto ref = node.find("$ref");
      if (ref != node.end() && node.size() > 1) {
        json target = {{"$ref", *ref}};
        node.erase(ref);
        node["allOf"].push_back(std::move(target));
      }
    }
    try {
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(for_valijson), compiled->schema);
    } catch (const std::exception& e) {
      throw schema_error(std::string("invalid schema: valijson could not compile it: ") + e.what());
    }
    compiled->regexes = std::move(regexes);
    compiled->walk_always = survey.has_format;
    compiled->plain = detail::plain_schema::compile(schema_, true);
    compiled_ = std::move(compiled);
  }

  // Used only when valijson refuses a value and the walk can't say why: its own words, placed.
  std::vector<violation> valijson_violations(const json& instance) const {
    valijson::ValidationResults results;
    compiled_->run(instance, &results);
    std::vector<violation> out;
    for (const auto& error : results) {
      if (error.description.rfind("Failed to validate against schema associated", 0) == 0 ||
          error.description.rfind("Failed to validate item #", 0) == 0)
        continue;  // a parent echoing a child's failure
      out.push_back({detail::context_pointer(error.context), detail::keyword_from_description(error.description),
                     error.description});
    }
    if (out.empty()) out.push_back({"", "schema", "the value does not match the schema"});
    return out;
  }

  json schema_;
  std::shared_ptr<detail::compiled_schema> compiled_;
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
