// The walk that explains why a value does not fit a JSON Schema: which value (JSON Pointer), which
// rule, what was expected and what was received, for every violation at once. It does not decide
// validity: valijson does (see validation.hpp), and this walk runs after valijson refused a value,
// to say why. The rules the SDK checks itself (value_rules) are the same code here and there; for
// the rest (types, required, additionalProperties, items, combinators...) a differential test
// (tests/unit/test_validation_differential.cpp) checks that the walk finds nothing wrong exactly
// when valijson accepts. Nothing asks it for a verdict: coercion asks valijson too (a subschema
// of record, compiled_schema::fits).
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/detail/near_name.hpp>
#include <mcp/validation/detail/pattern_matcher.hpp>
#include <mcp/validation/detail/validation_rules.hpp>

#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Steps of the walk ($ref hops and combinators count too) before it gives up: a backstop, since
// validator refuses both self-referencing schemas and values nested deeper than its max_depth.
constexpr int max_walk_depth = 1000;

// Whether the object schema lists `name` in its "required" (the walk's advice on nulls, coercion's
// choice of which nulls to drop).
inline bool is_required(const json& schema, const std::string& name) {
  auto required = schema.find("required");
  if (required == schema.end() || !required->is_array()) return false;
  for (const auto& r : *required)
    if (r.is_string() && r.get_ref<const std::string&>() == name) return true;
  return false;
}

inline bool has_type(const json& value, std::string_view type) {
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  return false;
}

inline std::string with_article(std::string_view type) {
  if (type == "null") return "null";
  bool vowel = !type.empty() && std::string_view("aeiou").find(type[0]) != std::string_view::npos;
  return std::string(vowel ? "an " : "a ") + std::string(type);
}

inline std::string join_or(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

// The "type" keyword as a list of names (a string or an array of strings).
inline std::vector<std::string> schema_types(const json& type) {
  std::vector<std::string> out;
  if (type.is_string()) {
    out.push_back(type.get<std::string>());
  } else if (type.is_array()) {
    for (const auto& t : type) {
      if (t.is_string()) out.push_back(t.get<std::string>());
    }
  }
  return out;
}

// "a string or null"
inline std::string expected_types(const std::vector<std::string>& types) {
  std::vector<std::string> words;
  for (const auto& t : types) words.push_back(with_article(t));
  return join_or(words);
}

// --- the walk -----------------------------------------------------------------------------------

using regex_map = std::unordered_map<std::string, std::regex>;

class schema_walker {
 public:
  // `fixed`: patterns compiled up front (read-only, safe to share between threads).
  // `scratch`: where patterns missing from `fixed` get compiled, or null to skip them.
  schema_walker(const json& root, const regex_map* fixed, regex_map* scratch)
      : root_(root), fixed_(fixed), scratch_(scratch) {}

  // Appends every violation of `value` against `schema` to `out`, for a value valijson refused.
  // Its only entry: the walk explains, it does not decide (no yes-or-no answer leaves it; inside,
  // it asks itself which branch of an anyOf, if or not applies, to say what is wrong there).
  // tests/unit/test_validation_differential.cpp requires it to find nothing exactly when valijson
  // accepts.
  void explain(const json& value, const json& schema, std::string& pointer, std::vector<violation>& out) const {
    check(value, schema, pointer, &out);
  }

 private:
  // Appends every violation of `value` against `schema` to `out`; with `out` null, stops at the
  // first one. Returns whether the value is valid.
  bool check(const json& value, const json& schema, std::string& pointer, std::vector<violation>* out,
             int depth = 0) const {
    if (schema.is_boolean()) {
      if (schema.get<bool>()) return true;
      return fail(out, pointer, "false", "no value is allowed here, got " + describe_value(value));
    }
    if (!schema.is_object()) return true;
    if (depth > max_walk_depth) {
      return fail(out, pointer, "depth", "the value is nested too deeply to check (over " +
                                             std::to_string(max_walk_depth) + " levels)");
    }
    bool valid = true;
    auto done = [&] { return !valid && out == nullptr; };

    if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
      if (const json* target = resolve_ref(root_, ref->get<std::string>())) {
        valid = check(value, *target, pointer, out, depth + 1);
        if (done()) return false;
      }
    }
    if (auto type = schema.find("type"); type != schema.end()) {
      auto types = schema_types(*type);
      bool any = types.empty();
      for (const auto& t : types) any = any || has_type(value, t);
      // A wrong type makes the other rules moot: report it alone.
      if (!any) return fail(out, pointer, "type", "must be " + expected_types(types) + ", got " + describe_value(value));
    }
    // The rules the SDK checks itself: the same code decides them inside valijson.
    valid = value_rules(schema).check(value, pointer, out) && valid;
    if (done()) return false;
    if (value.is_string()) {
      valid = check_pattern(value, schema, pointer, out) && valid;
    } else if (value.is_array()) {
      valid = check_array(value, schema, pointer, out, depth) && valid;
    } else if (value.is_object()) {
      valid = check_object(value, schema, pointer, out, depth) && valid;
    }
    if (done()) return false;
    valid = check_combinators(value, schema, pointer, out, depth) && valid;
    return valid;
  }

  static bool fail(std::vector<violation>* out, const std::string& pointer, const char* keyword, std::string message) {
    if (out) out->push_back({pointer, keyword, std::move(message)});
    return false;
  }

  const std::regex* regex_for(const std::string& pattern) const {
    if (fixed_) {
      auto it = fixed_->find(pattern);
      if (it != fixed_->end()) return &it->second;
    }
    if (!scratch_) return nullptr;
    auto it = scratch_->find(pattern);
    if (it != scratch_->end()) return &it->second;
    try {
      return &scratch_->emplace(pattern, compile_pattern(pattern)).first->second;
    } catch (const std::regex_error&) {
      return nullptr;
    }
  }

  bool pattern_matches(const std::string& pattern, const std::string& text) const {
    const std::regex* re = regex_for(pattern);
    if (!re) return true;  // not compiled: nothing sound to say
    try {
      return std::regex_search(text, *re);
    } catch (const std::regex_error&) {
      return true;  // too complex for std::regex on this input; valijson has the last word
    }
  }

  bool check_pattern(const json& value, const json& schema, const std::string& pointer,
                     std::vector<violation>* out) const {
    auto it = schema.find("pattern");
    if (it == schema.end() || !it->is_string() ||
        pattern_matches(it->get_ref<const std::string&>(), value.get_ref<const std::string&>()))
      return true;
    return fail(out, pointer, "pattern", "must match the pattern '" + it->get<std::string>() + "', got " + render(value));
  }

  bool check_array(const json& value, const json& schema, std::string& pointer, std::vector<violation>* out,
                   int depth) const {
    bool valid = true;
    const auto n = static_cast<std::uint64_t>(value.size());
    if (std::uint64_t limit = 0; count_keyword(schema, "minItems", limit) && n < limit) {
      valid = fail(out, pointer, "minItems", "must have at least " + plural(limit, "item") +
                                                 ", got " + std::to_string(n));
      if (!out) return false;
    }
    if (std::uint64_t limit = 0; count_keyword(schema, "maxItems", limit) && n > limit) {
      valid = fail(out, pointer, "maxItems", "must have at most " + plural(limit, "item") +
                                                 ", got " + std::to_string(n));
      if (!out) return false;
    }
    auto items = schema.find("items");
    if (items != schema.end() && items->is_array()) {
      // Draft-07 tuple form: one schema per position, "additionalItems" for the rest.
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (i < items->size()) {
          pointer_scope scope(pointer, i);
          valid = check(value[i], (*items)[i], pointer, out, depth + 1) && valid;
        } else if (auto extra = schema.find("additionalItems"); extra != schema.end()) {
          if (extra->is_boolean() && !extra->get<bool>()) {
            valid = fail(out, pointer, "additionalItems", "must have at most " + plural(items->size(), "item") +
                                                             ", got " + std::to_string(value.size()));
            break;
          }
          pointer_scope scope(pointer, i);
          valid = check(value[i], *extra, pointer, out, depth + 1) && valid;
        }
        if (!valid && !out) return false;
      }
    } else if (items != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        pointer_scope scope(pointer, i);
        valid = check(value[i], *items, pointer, out, depth + 1) && valid;
        if (!valid && !out) return false;
      }
    }
    if (auto it = schema.find("contains"); it != schema.end()) {
      bool found = false;
      for (const auto& item : value) found = found || matches_at_depth(item, *it, depth + 1);
      if (!found) valid = fail(out, pointer, "contains", "must contain at least one item matching the 'contains' schema" +
                                                        std::string(value.empty() ? ", got an empty array" : ""));
    }
    return valid;
  }

  bool matches_at_depth(const json& value, const json& schema, int depth) const {
    std::string pointer;
    return check(value, schema, pointer, nullptr, depth);
  }

  static std::string field_summary(const json& schema, const std::string& name) {
    auto props = schema.find("properties");
    if (props == schema.end() || !props->is_object()) return "";
    auto p = props->find(name);
    if (p == props->end() || !p->is_object()) return "";
    std::string type, description;
    if (auto t = p->find("type"); t != p->end()) {
      auto types = schema_types(*t);
      for (std::size_t i = 0; i < types.size(); ++i) type += (i ? " or " : "") + types[i];
    }
    if (auto d = p->find("description"); d != p->end() && d->is_string()) description = d->get<std::string>();
    if (type.empty() && description.empty()) return "";
    if (type.empty()) return " (" + description + ")";
    if (description.empty()) return " (" + type + ")";
    return " (" + type + ": " + description + ")";
  }

  bool check_object(const json& value, const json& schema, std::string& pointer, std::vector<violation>* out,
                    int depth) const {
    bool valid = true;
    if (auto req = schema.find("required"); req != schema.end() && req->is_array()) {
      for (const auto& name : *req) {
        if (name.is_string() && !value.contains(name.get_ref<const std::string&>())) {
          valid = fail(out, pointer, "required", "missing required field '" + name.get<std::string>() + "'" +
                                                     field_summary(schema, name.get<std::string>()));
          if (!out) return false;
        }
      }
    }
    const auto n = static_cast<std::uint64_t>(value.size());
    if (std::uint64_t limit = 0; count_keyword(schema, "minProperties", limit) && n < limit) {
      valid = fail(out, pointer, "minProperties", "must have at least " + plural(limit, "field") +
                                                      ", got " + std::to_string(n));
      if (!out) return false;
    }
    if (std::uint64_t limit = 0; count_keyword(schema, "maxProperties", limit) && n > limit) {
      valid = fail(out, pointer, "maxProperties", "must have at most " + plural(limit, "field") +
                                                      ", got " + std::to_string(n));
      if (!out) return false;
    }
    if (auto deps = schema.find("dependencies"); deps != schema.end() && deps->is_object()) {
      for (auto d = deps->begin(); d != deps->end(); ++d) {
        if (!value.contains(d.key())) continue;
        if (d->is_array()) {
          for (const auto& needed : *d) {
            if (needed.is_string() && !value.contains(needed.get_ref<const std::string&>())) {
              valid = fail(out, pointer, "dependencies", "field '" + d.key() + "' requires field '" +
                                                             needed.get<std::string>() + "', which is missing");
            }
          }
        } else {
          valid = check(value, *d, pointer, out, depth + 1) && valid;
        }
        if (!valid && !out) return false;
      }
    }
    auto props = schema.find("properties");
    auto patterns = schema.find("patternProperties");
    auto additional = schema.find("additionalProperties");
    auto names = schema.find("propertyNames");
    std::vector<std::string> unknown;
    for (auto member = value.begin(); member != value.end(); ++member) {
      const std::string& key = member.key();
      bool known = false;
      if (props != schema.end() && props->is_object()) {
        if (auto p = props->find(key); p != props->end()) {
          known = true;
          pointer_scope scope(pointer, key);
          const std::size_t before = out ? out->size() : 0;
          const bool ok = check(*member, *p, pointer, out, depth + 1);
          // Models send null for a field they mean to leave out: where null is refused as a kind of
          // value, say what to do instead.
          if (!ok && out && member->is_null() && !is_required(schema, key)) {
            for (std::size_t i = before; i < out->size(); ++i) {
              const std::string& k = (*out)[i].keyword;
              const bool kind = k == "type" || k == "enum" || k == "const" || k == "anyOf" || k == "oneOf";
              if ((*out)[i].pointer != pointer || !kind) continue;
              (*out)[i].message += "; the field is optional: leave it out rather than send null";
              break;
            }
          }
          valid = ok && valid;
        }
      }
      if (patterns != schema.end() && patterns->is_object()) {
        for (auto p = patterns->begin(); p != patterns->end(); ++p) {
          if (!pattern_matches(p.key(), key)) continue;
          known = true;
          pointer_scope scope(pointer, key);
          valid = check(*member, *p, pointer, out, depth + 1) && valid;
        }
      }
      if (!known && additional != schema.end()) {
        if (additional->is_boolean() && !additional->get<bool>()) {
          unknown.push_back(key);
          valid = false;
        } else {
          pointer_scope scope(pointer, key);
          valid = check(*member, *additional, pointer, out, depth + 1) && valid;
        }
      }
      if (names != schema.end()) {
        std::vector<violation> name_problems;
        std::string name_pointer;
        if (!check(json(key), *names, name_pointer, out ? &name_problems : nullptr, depth + 1)) {
          valid = false;
          for (auto& p : name_problems) {
            fail(out, pointer, "propertyNames", "field name '" + key + "' is not allowed: it " + p.message);
          }
        }
      }
      if (!valid && !out) return false;
    }
    if (!unknown.empty()) fail(out, pointer, "additionalProperties", unknown_fields_message(unknown, schema));
    return valid;
  }

  // Names the unknown fields, each near miss of a known one with its likely meaning (near_name.hpp):
  // lossless coercion keeps exactly those, so under it they are all a refusal lists.
  static std::string unknown_fields_message(const std::vector<std::string>& unknown, const json& schema) {
    std::string msg = unknown.size() == 1 ? "unknown field " : "unknown fields ";
    auto props = schema.find("properties");
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      msg += (i ? ", '" : "'") + unknown[i] + "'";
      if (props == schema.end()) continue;
      if (const std::string* meant = near_miss(unknown[i], *props)) msg += " (did you mean '" + *meant + "'?)";
    }
    std::vector<std::string> valid;
    if (props != schema.end() && props->is_object()) {
      for (auto p = props->begin(); p != props->end(); ++p) valid.push_back(p.key());
    }
    if (auto patterns = schema.find("patternProperties"); patterns != schema.end() && patterns->is_object()) {
      for (auto p = patterns->begin(); p != patterns->end(); ++p) valid.push_back("names matching '" + p.key() + "'");
    }
    if (valid.empty()) return msg + "; this object takes no fields";
    msg += "; valid fields: ";
    for (std::size_t i = 0; i < valid.size(); ++i) msg += (i ? ", " : "") + valid[i];
    return msg;
  }

  // Ranks a failed branch: ones that accept the value's type come first, then fewer problems.
  static std::pair<int, std::size_t> branch_rank(const std::vector<violation>& problems, const std::string& pointer) {
    int type_mismatch = 0;
    for (const auto& p : problems) {
      if (p.pointer == pointer && (p.keyword == "type" || p.keyword == "false")) type_mismatch = 1;
    }
    return {type_mismatch, problems.size()};
  }

  bool check_alternatives(const json& value, const json& branches, bool exactly_one, std::string& pointer,
                          std::vector<violation>* out, int depth) const {
    const char* keyword = exactly_one ? "oneOf" : "anyOf";
    std::vector<std::size_t> matched;
    std::vector<std::vector<violation>> problems(branches.size());
    for (std::size_t i = 0; i < branches.size(); ++i) {
      bool ok = out ? check(value, branches[i], pointer, &problems[i], depth + 1)
                    : matches_at_depth(value, branches[i], depth + 1);
      if (ok) {
        matched.push_back(i);
        if (!exactly_one || matched.size() > 1) break;
      }
    }
    if (!matched.empty() && (!exactly_one || matched.size() == 1)) return true;
    if (!out) return false;
    if (matched.size() > 1) {
      return fail(out, pointer, keyword, "must match exactly one of " + std::to_string(branches.size()) +
                                             " alternatives, but matches alternatives " + std::to_string(matched[0] + 1) +
                                             " and " + std::to_string(matched[1] + 1));
    }
    // The closest branch's own problems are the most useful advice when one branch stands out.
    std::size_t best = 0;
    bool tie = false;
    for (std::size_t i = 1; i < problems.size(); ++i) {
      auto r = branch_rank(problems[i], pointer), b = branch_rank(problems[best], pointer);
      if (r < b) {
        best = i, tie = false;
      } else if (r == b) {
        tie = true;
      }
    }
    if (!problems.empty() && !tie && branch_rank(problems[best], pointer).first == 0) {
      out->insert(out->end(), problems[best].begin(), problems[best].end());
      return false;
    }
    bool all_types = true;
    std::vector<std::string> types;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      auto t = branches[i].is_object() ? branches[i].find("type") : json::const_iterator{};
      if (!branches[i].is_object() || t == branches[i].end() || problems[i].size() != 1 ||
          problems[i][0].keyword != "type" || problems[i][0].pointer != pointer) {
        all_types = false;
        break;
      }
      for (auto& name : schema_types(*t)) types.push_back(name);
    }
    if (all_types && !types.empty()) {
      return fail(out, pointer, keyword, "must be " + expected_types(types) + ", got " + describe_value(value));
    }
    std::string msg = "must match one of " + std::to_string(branches.size()) + " alternatives, but matches none";
    for (std::size_t i = 0; i < problems.size(); ++i) {
      if (problems[i].empty()) continue;
      const auto& p = problems[i][0];
      msg += std::string(i == 0 ? ": " : "; ") + "alternative " + std::to_string(i + 1) + ": " +
             (p.pointer == pointer ? "" : p.pointer + " ") + p.message;
    }
    return fail(out, pointer, keyword, msg);
  }

  bool check_combinators(const json& value, const json& schema, std::string& pointer, std::vector<violation>* out,
                         int depth) const {
    bool valid = true;
    if (auto all = schema.find("allOf"); all != schema.end() && all->is_array()) {
      for (const auto& branch : *all) {
        valid = check(value, branch, pointer, out, depth + 1) && valid;
        if (!valid && !out) return false;
      }
    }
    if (auto any = schema.find("anyOf"); any != schema.end() && any->is_array() && !any->empty()) {
      valid = check_alternatives(value, *any, false, pointer, out, depth) && valid;
      if (!valid && !out) return false;
    }
    if (auto one = schema.find("oneOf"); one != schema.end() && one->is_array() && !one->empty()) {
      valid = check_alternatives(value, *one, true, pointer, out, depth) && valid;
      if (!valid && !out) return false;
    }
    if (auto no = schema.find("not"); no != schema.end() && matches_at_depth(value, *no, depth + 1)) {
      valid = fail(out, pointer, "not", "must not match the schema under 'not', got " + render(value));
      if (!out) return false;
    }
    if (auto cond = schema.find("if"); cond != schema.end()) {
      const char* branch = matches_at_depth(value, *cond, depth + 1) ? "then" : "else";
      if (auto it = schema.find(branch); it != schema.end()) valid = check(value, *it, pointer, out, depth + 1) && valid;
    }
    return valid;
  }

  const json& root_;
  const regex_map* fixed_;
  regex_map* scratch_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
