// Out-of-line bodies of validation/coercion.hpp, included once from its bottom (or compiled into the
// library in compiled mode): the readings that are lossless, and the walk that applies them.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/validation/detail/near_name.hpp>
#include <mcp/validation/validation.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

namespace detail {

// "0", "-12", "42" but not "007", "+1", "-0", "1.0", " 1": only the text an integer prints as.
inline bool canonical_integer(const std::string& s, json& out) {
  std::size_t start = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() == start || s.size() - start > 20) return false;
  for (std::size_t i = start; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  if (s[start] == '0' && (s.size() > start + 1 || start == 1)) return false;
  errno = 0;
  if (start == 1) {
    long long v = std::strtoll(s.c_str(), nullptr, 10);
    if (errno == ERANGE) return false;
    out = static_cast<std::int64_t>(v);
  } else {
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE) return false;
    if (v <= static_cast<unsigned long long>(INT64_MAX)) {
      out = static_cast<std::int64_t>(v);
    } else {
      out = static_cast<std::uint64_t>(v);
    }
  }
  return true;
}

// A number whose text is exactly how it prints back ("2.5", "-3", "1.0e-7" is refused as it prints
// otherwise): nothing about it can be lost.
inline bool canonical_number(const std::string& s, json& out) {
  if (s.empty() || s.size() > 64) return false;
  json parsed;
  if (read_json(s, parsed, 0) != read_result::ok || !parsed.is_number()) return false;
  if (parsed.dump() != s) return false;
  out = std::move(parsed);
  return true;
}

// The same value read the same way: 3 and 3u are, 3 and 3.0 are not (one says integer).
inline bool same_reading(const json& a, const json& b) { return a == b && a.is_number_float() == b.is_number_float(); }

// The walk over the validator's schema (its own copy, c.schema). `at` is the JSON Pointer of
// `schema` in it, and `pointer` that of `value` in the root value. Every question of whether a
// value fits a subschema goes to valijson, the validator of record, on the subschema at `at`
// (compiled_schema::fits): the walk only finds the readings and applies them.
// `open` counts the levels of arrays and objects around `value` inside the root value
// (one per pointer token), `depth` the steps taken, $ref hops and combinators included. The root
// value is no deeper than max_depth (coerce() checks), and every value the walk builds stays
// within it, so the walk and everything it calls recurse at most max_depth levels into a value.
class coercer {
 public:
  coercer(const compiled_schema& c, coercion_report& report, std::size_t max_depth)
      : c_(c), report_(&report), max_depth_(max_depth) {}

  void apply(json& value, const json& schema, std::string& at, std::string& pointer, std::size_t open, int depth) {
    if (!schema.is_object() || depth > max_walk_depth) return;
    if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
      const std::string& text = ref->get_ref<const std::string&>();
      std::string target_at;
      const json* target = resolve_ref(c_.schema, text);
      if (target && ref_pointer(text, target_at)) apply(value, *target, target_at, pointer, open, depth + 1);
    }
    if (auto type = schema.find("type"); type != schema.end())
      convert(value, schema, at, schema_types(*type), pointer, open);
    if (value.is_object()) {
      apply_to_members(value, schema, at, pointer, open, depth);
    } else if (value.is_array()) {
      apply_to_items(value, schema, at, pointer, open, depth);
    }
    if (auto all = schema.find("allOf"); all != schema.end() && all->is_array()) {
      pointer_scope list(at, "allOf");
      for (std::size_t i = 0; i < all->size(); ++i) {
        pointer_scope branch(at, i);
        apply(value, (*all)[i], at, pointer, open, depth + 1);
      }
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      if (auto it = schema.find(key); it != schema.end() && it->is_array()) {
        pointer_scope list(at, key);
        apply_to_one_branch(value, *it, at, pointer, open, depth);
      }
    }
  }

 private:
  static std::string where(const std::string& pointer) { return pointer.empty() ? std::string("(root)") : pointer; }

  void record(const std::string& pointer, const json& before, const json& after, const char* kind) {
    count(kind);
    report_->log.push_back(where(pointer) + ": " + describe_value(before) + " -> " + describe_value(after));
  }
  void count(const char* kind) {
    ++report_->count;
    ++report_->by_kind[kind];
  }

  // Whether `s` opens as read_json reads it: a byte-order mark, which read_json skips, is skipped
  // here too, or a too-deep text behind one would be wrapped whole into a list, not refused.
  static bool opens_like_container(const std::string& s) {
    const std::size_t bom = s.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    const auto first = s.find_first_not_of(" \t\n\r", bom);
    return first != std::string::npos && (s[first] == '[' || s[first] == '{');
  }

  static bool allows(const std::vector<std::string>& types, const char* type) {
    for (const auto& t : types) {
      if (t == type) return true;
    }
    return false;
  }

  // JSON text held in a string, read as the message is: depth-limited, counting the `open` levels
  // around the string. A text nested too deeply is noted in the report.
  read_result read_embedded(const std::string& text, json& out, const std::string& pointer, std::size_t open) {
    const read_result r = read_json(text, out, max_depth_, open);
    if (r == read_result::too_deep) {
      const std::size_t room = max_depth_ > open ? max_depth_ - open : 0;
      report_->refused.push_back({pointer, "depth", "holds JSON nested more than " + std::to_string(room) +
                                                        " levels deep (arrays and objects), which is not read; "
                                                        "send the value itself, nested less deeply"});
    }
    return r;
  }

  // Whether `value` fits the subschema at `at`: valijson's verdict, never the walk's.
  bool fits(const json& value, const std::string& at) const { return c_.fits(value, at); }

  // Whether a member's name matches a "patternProperties" pattern: std::regex_search on the
  // pattern as compiled up front, valijson's own test. Not a verdict on a value: which subschemas
  // a member's coercion follows, and whether the member is known. A pattern std::regex can not
  // run on the name counts as a match, so that no member is left out on a doubt (valijson then
  // refuses the value, as it throws on the same name).
  bool name_matches(const std::string& pattern, const std::string& name) {
    auto it = c_.regexes.find(pattern);
    if (it == c_.regexes.end()) {
      try {
        it = scratch_.emplace(pattern, compile_pattern(pattern)).first;
      } catch (const std::regex_error&) {
        return true;  // the validator refused such a schema; this is for a part used alone
      }
    }
    try {
      return std::regex_search(name, it->second);
    } catch (const std::regex_error&) {
      return true;
    }
  }

  // Replaces `value` when its type is not allowed and exactly one lossless reading is.
  void convert(json& value, const json& schema, std::string& at, const std::vector<std::string>& types,
               const std::string& pointer, std::size_t open) {
    for (const auto& t : types) {
      if (has_type(value, t)) return;
    }
    std::vector<json> readings;
    std::vector<const char*> kinds;  // of each reading, for the report
    auto add = [&](json candidate, const char* kind) {
      for (const auto& r : readings) {
        if (same_reading(r, candidate)) return;
      }
      readings.push_back(std::move(candidate));
      kinds.push_back(kind);
    };
    json reading;
    bool meant_as_json = false;  // a string that opens like an array or object
    if (value.is_string()) {
      const auto& s = value.get_ref<const std::string&>();
      if (allows(types, "integer") && canonical_integer(s, reading)) add(reading, "number_from_string");
      if (allows(types, "number") && canonical_number(s, reading)) add(reading, "number_from_string");
      if (allows(types, "boolean") && (s == "true" || s == "false")) add(json(s == "true"), "boolean_from_string");
      if (allows(types, "object") || allows(types, "array")) {
        json parsed;
        const read_result r = read_embedded(s, parsed, pointer, open);
        meant_as_json = opens_like_container(s);
        if (r == read_result::ok &&
            ((parsed.is_object() && allows(types, "object")) || (parsed.is_array() && allows(types, "array")))) {
          add(std::move(parsed), "json_from_string");
        }
      }
    } else if (value.is_number_float() && allows(types, "integer")) {
      double d = value.get<double>();
      if (std::isfinite(d) && d == std::nearbyint(d) && std::fabs(d) < 9007199254740992.0) {
        add(json(static_cast<std::int64_t>(d)), "integer_from_float");
      }
    }
    if (readings.size() == 1) {
      record(pointer, value, readings.front(), kinds.front());
      value = std::move(readings.front());
      return;
    }
    // A string that opens like JSON but does not read as the value wanted (broken, cut by a NUL,
    // too deep, the other kind of container) is refused rather than wrapped whole as one string:
    // the sender surely meant the JSON, so that reading would be a guess.
    if (!readings.empty() || meant_as_json || !allows(types, "array")) return;
    // One value where a list is expected: wrap it, but only if it then fits as an element (and
    // the level the list adds stays within the limit).
    if (open >= max_depth_ || nested_deeper_than(value, max_depth_ - open - 1)) return;
    json wrapped = json::array({value});
    auto items = schema.find("items");
    if (items != schema.end() && (items->is_object() || items->is_boolean())) {
      coercion_report scratch;
      coercer inner(c_, scratch, max_depth_);
      std::string item_pointer = pointer + "/0";
      pointer_scope item_at(at, "items");
      inner.apply(wrapped[0], *items, at, item_pointer, open + 1, 0);
      if (!fits(wrapped[0], at)) return;
      record(pointer, value, wrapped, "wrapped_in_array");
      merge(scratch);
    } else {
      record(pointer, value, wrapped, "wrapped_in_array");
    }
    value = std::move(wrapped);
  }

  void merge(coercion_report& other) {
    report_->count += other.count;
    for (const auto& [kind, n] : other.by_kind) report_->by_kind[kind] += n;
    for (auto& line : other.log) report_->log.push_back(std::move(line));
    merge_refused(other);
  }
  void merge_refused(coercion_report& other) {
    for (auto& r : other.refused) {
      bool known = false;
      for (const auto& mine : report_->refused) known = known || mine.pointer == r.pointer;
      if (!known) report_->refused.push_back(std::move(r));
    }
    other.refused.clear();
  }

  // A null for a declared property that is neither required nor nullable: what a model sends for
  // a field it means to leave out. It is left out, and counted.
  void drop_optional_nulls(json& value, const json& schema, std::string& at, std::string& pointer) {
    auto props = schema.find("properties");
    if (props == schema.end() || !props->is_object()) return;
    std::vector<std::string> dropped;
    pointer_scope in_properties(at, "properties");
    for (auto member = value.begin(); member != value.end(); ++member) {
      if (!member->is_null()) continue;
      auto p = props->find(member.key());
      if (p == props->end() || is_required(schema, member.key())) continue;
      pointer_scope property_at(at, member.key());
      if (fits(*member, at)) continue;
      dropped.push_back(member.key());
    }
    for (const auto& name : dropped) {
      value.erase(name);
      pointer_scope scope(pointer, name);
      count("null_left_out");
      report_->log.push_back(pointer + ": null -> left out (optional, and null is not one of its values)");
    }
  }

  // Applies the members' schemas, and leaves out the members a closed object does not know, but
  // not a near miss of a known name: validation refuses that one, asking "did you mean ...?".
  void apply_to_members(json& value, const json& schema, std::string& at, std::string& pointer, std::size_t open,
                        int depth) {
    drop_optional_nulls(value, schema, at, pointer);
    auto props = schema.find("properties");
    auto patterns = schema.find("patternProperties");
    auto additional = schema.find("additionalProperties");
    const bool closed = additional != schema.end() && additional->is_boolean() && !additional->get<bool>();
    std::vector<std::string> unknown;
    for (auto member = value.begin(); member != value.end(); ++member) {
      bool known = false;
      pointer_scope scope(pointer, member.key());
      if (props != schema.end() && props->is_object()) {
        if (auto p = props->find(member.key()); p != props->end()) {
          known = true;
          pointer_scope property_at(at, "properties"), name_at(at, member.key());
          apply(*member, *p, at, pointer, open + 1, depth + 1);
        }
      }
      if (patterns != schema.end() && patterns->is_object()) {
        for (auto p = patterns->begin(); p != patterns->end(); ++p) {
          if (name_matches(p.key(), member.key())) {
            known = true;
            pointer_scope patterns_at(at, "patternProperties"), pattern_at(at, p.key());
            apply(*member, *p, at, pointer, open + 1, depth + 1);
          }
        }
      }
      if (!known && additional != schema.end() && additional->is_object()) {
        pointer_scope additional_at(at, "additionalProperties");
        apply(*member, *additional, at, pointer, open + 1, depth + 1);
      }
      if (!known && closed && !(props != schema.end() && near_miss(member.key(), *props))) {
        count("unknown_argument");
        report_->log.push_back(pointer + ": " + describe_value(*member) + " -> left out (unknown field)");
        unknown.push_back(member.key());
      }
    }
    for (const auto& name : unknown) value.erase(name);
  }

  void apply_to_items(json& value, const json& schema, std::string& at, std::string& pointer, std::size_t open,
                      int depth) {
    auto items = schema.find("items");
    if (items == schema.end()) return;
    const std::size_t at_size = at.size();
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json* item_schema = items->is_array() ? nullptr : &*items;
      at.resize(at_size);
      append_pointer_token(at, "items");
      if (items->is_array()) {
        if (i < items->size()) {
          item_schema = &(*items)[i];
          append_pointer_token(at, std::to_string(i));
        } else if (auto extra = schema.find("additionalItems"); extra != schema.end()) {
          item_schema = &*extra;
          at.resize(at_size);
          append_pointer_token(at, "additionalItems");
        }
      }
      if (!item_schema) continue;
      pointer_scope scope(pointer, i);
      apply(value[i], *item_schema, at, pointer, open + 1, depth + 1);
    }
    at.resize(at_size);
  }

  // Coerces through anyOf/oneOf only when the value fits no branch as it is and every branch that
  // accepts it after coercion reads it the same way. `at`: the pointer of the list of branches.
  void apply_to_one_branch(json& value, const json& branches, std::string& at, std::string& pointer,
                           std::size_t open, int depth) {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      pointer_scope branch_at(at, i);
      if (fits(value, at)) return;
    }
    json chosen;
    coercion_report chosen_report, refusals;
    int taken = 0;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      json candidate = value;
      coercion_report scratch;
      coercer inner(c_, scratch, max_depth_);
      pointer_scope branch_at(at, i);
      inner.apply(candidate, branches[i], at, pointer, open, depth + 1);
      refusals.refused.insert(refusals.refused.end(), scratch.refused.begin(), scratch.refused.end());
      if (scratch.count > 0 && fits(candidate, at)) {
        // Two branches reading the value differently is a guess; reading it the same is not.
        if (taken++ > 0 && !same_reading(candidate, chosen)) return;
        chosen = std::move(candidate);
        chosen_report = std::move(scratch);
      }
    }
    if (taken == 0) {
      merge_refused(refusals);  // why no branch could read it
      return;
    }
    value = std::move(chosen);
    merge(chosen_report);
  }

  const compiled_schema& c_;
  regex_map scratch_;  // patterns c_ lacks (none, when the validator checked its schema)
  coercion_report* report_;
  std::size_t max_depth_;
};

}  // namespace detail

MCP_DECL coercion_report coerce(json& value, const validator& v, coercion policy, std::size_t max_depth) {
  coercion_report report;
  if (policy == coercion::off || detail::nested_deeper_than(value, max_depth)) return report;
  const detail::compiled_schema& c = detail::compiled_of(v);
  detail::coercer walk(c, report, max_depth);
  std::string at, pointer;
  walk.apply(value, c.schema, at, pointer, 0, 0);
  return report;
}

MCP_DECL coercion_report coerce(json& value, const json& schema, coercion policy, std::size_t max_depth) {
  if (policy == coercion::off || !schema.is_object() || detail::nested_deeper_than(value, max_depth)) return {};
  return coerce(value, validator(schema, validator::root::any), policy, max_depth);
}

}  // namespace v0
}  // namespace mcp
