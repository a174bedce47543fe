// The fast path of validation: a shortcut for the schemas MCP_STRUCT produces, so the common valid
// call does not run valijson. It answers only "surely valid"; anything else goes to valijson, the
// validator of record. tests/unit/test_validation_differential.cpp and the arguments fuzzer prove it
// equal to valijson where it applies: it accepts exactly what valijson accepts.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/detail/pattern_matcher.hpp>
#include <mcp/validation/detail/validation_rules.hpp>
#include <mcp/validation/detail/validation_walk.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Built only when every keyword of the schema is one it knows; otherwise compile() gives null and
// every call goes to valijson. The keywords: every one MCP_STRUCT emits (type, properties,
// required, additionalProperties as a boolean or a schema, items, minItems/maxItems, pattern,
// anyOf/oneOf for optionals and variants, $ref into $defs for recursive types, and value_rules'
// enum, const, the four numeric bounds, multipleOf, minLength/maxLength, format, uniqueItems),
// plus allOf, boolean schemas and the annotations. Not "not": MCP_STRUCT never emits it, and
// tests/unit/test_json_depth.cpp counts on a schema with "not" taking the full path (its depth limit).
//
// Same code as valijson where the SDK overrides it: value_rules::check decides the value_rules
// keywords here as it does inside valijson. The same answers for "pattern" as valijson's
// std::regex_search (ECMAScript): detail::pattern_check, compiled once here, runs a small matcher
// proven equal to it for simple patterns (tests/unit/test_pattern_matcher.cpp, fuzz_pattern) and
// std::regex itself for the rest.
//
// accepts() answers exactly what valijson (with the SDK's overrides) answers, or gives up: inside it
// every node answers yes, no or "unknown" (a pattern std::regex can not run on this value, on which
// valijson refuses, or a recursion too deep to follow); an unknown answer goes on to valijson, so
// "oneOf" never turns it into a wrong verdict. A refusal goes on to valijson and the walk
// all the same, so every message stays the same.
class plain_schema {
 public:
  // `root`: `node` is the whole schema, which "$ref"s resolve against ("#/$defs/..."); without it a
  // "$ref" makes the schema not plain. The result keeps copies of what it reads (names, keywords,
  // compiled patterns): `node` need not outlive it.
  static std::unique_ptr<plain_schema> compile(const json& node, bool root) {
    compiler c{root ? &node : nullptr, {}, {}};
    auto out = std::make_unique<plain_schema>();
    if (root) c.refs.emplace(&node, out.get());
    if (!out->build(node, c)) return nullptr;
    out->targets_ = std::move(c.targets);
    return out;
  }

  bool accepts(const json& value) const { return check(value, 0, 0, unlimited) == verdict::yes; }
  // accepts(), and `value` has at most `max_depth` levels of arrays and objects
  // (!nested_deeper_than(value, max_depth)), found on the same walk: validator::validate's depth
  // check, which otherwise walks the whole value once more before this one. Every array or object
  // the walk reaches is held to the limit where it is; a member or item the schema does not look
  // into is measured with nested_deeper_than. Never deeper than the limit into the value, so it is
  // safe on a value of any depth.
  bool accepts_within(const json& value, std::size_t max_depth) const {
    return check(value, 0, 0, max_depth) == verdict::yes;  // (no value is deeper than `unlimited`)
  }
  // accepts() for a string known by its text alone: the same check, on the text (typed_reader's).
  bool accepts_string(std::string_view text) const { return check(string_text{text}, 0, 0, unlimited) == verdict::yes; }
  // accepts() for an integer known by its sign and magnitude (json_reader::read_integer's).
  bool accepts_integer(bool negative, std::uint64_t magnitude) const {
    return check(integer_value{negative, magnitude}, 0, 0, unlimited) == verdict::yes;
  }

  // What detail/typed_reader.hpp follows over a text without a tree: a node that checks objects by
  // their properties alone (MCP_STRUCT's shape), or arrays by their items and counts alone. With
  // anything more on the node the reader does not follow it; scalars it checks with accepts().
  bool checks_only_properties() const {
    return !never_ && types_ == t_object && closed_ && !additional_ && !rules_ && !pattern_ && !ref_ &&
           any_of_.empty() && one_of_.empty() && all_of_.empty() && other_required_.empty();
  }
  bool checks_only_items() const {
    return !never_ && types_ == t_array && items_ && !rules_ && !pattern_ && !ref_ && any_of_.empty() &&
           one_of_.empty() && all_of_.empty();
  }
  // Whether its verdict on a string is known without accepts_string() (plain_decides_strings in
  // validation.hpp): `choices` null when it takes every string, else its enum's strings, all it takes.
  bool decides_strings(const std::vector<std::string_view>*& choices) const {
    choices = nullptr;
    if (never_ || !(types_ & t_string) || pattern_ || ref_ || !any_of_.empty() || !one_of_.empty() || !all_of_.empty())
      return false;
    if (!rules_ || !rules_->reach_strings()) return true;
    if (!rules_->strings_by_enum_alone()) return false;
    choices = &rules_->enum_strings();
    return true;
  }
  // Every keyword build() reads (with "$schema" at the root only); a node with any other makes the
  // schema not plain. tests/unit/test_validation_differential.cpp requires each of them to have
  // been compared with valijson, both verdicts seen: a keyword added here needs its cases there.
  static const std::vector<std::string_view>& keywords() {
    static const std::vector<std::string_view> names = {
        "description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
        "$schema", "$defs", "definitions", "type", "properties", "required", "additionalProperties", "items",
        "minItems", "maxItems", "pattern", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "format", "uniqueItems", "anyOf", "oneOf",
        "allOf", "$ref"};
    return names;
  }

  // The schema of property `name` (null when it has none), and whether it is required.
  const plain_schema* property_schema(std::string_view name, bool& required) const {
    for (const auto& p : properties_)
      if (p.name == name) {
        required = p.required;
        return p.schema.get();
      }
    return nullptr;
  }
  std::size_t required_count() const { return required_count_; }
  const plain_schema* items() const { return items_.get(); }
  std::uint64_t min_items() const { return min_items_.value_or(0); }
  std::uint64_t max_items() const { return max_items_.value_or(std::numeric_limits<std::uint64_t>::max()); }

  plain_schema() = default;
  plain_schema(const plain_schema&) = delete;  // value_rules and "$ref"s point into it
  plain_schema& operator=(const plain_schema&) = delete;

 private:
  enum class verdict { no, yes, unknown };
  // check()'s `limit` when no depth limit is checked on the way (accepts()).
  static constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

  // The value check() reads: a json, a string's text or an integer without one. It asks a value
  // only these.
  struct string_text {
    std::string_view text;
  };
  struct integer_value {
    bool negative;
    std::uint64_t magnitude;
  };
  static bool is_string(const json& v) { return v.is_string(); }
  static bool is_string(const string_text&) { return true; }
  static std::string_view string_of(const json& v) { return v.get_ref<const std::string&>(); }
  static std::string_view string_of(const string_text& v) { return v.text; }
  static bool is_structured(const json& v) { return v.is_structured(); }
  template <class V>
  static bool is_structured(const V&) { return false; }
  static unsigned type_bit(const string_text&) { return t_string; }
  static unsigned type_bit(const integer_value&) { return t_integer; }
  // An integer as json_reader::read_integer gives one (sign and magnitude), the way typed_reader
  // checks it: bounds compared without converting to double.
  bool rules_hold(const json& v) const {
    std::uint64_t magnitude = 0;
    if (v.is_number_integer() && whole_magnitude(v, magnitude))  // number_unsigned too
      return rules_->holds_for_integer(!v.is_number_unsigned() && v.get<std::int64_t>() < 0, magnitude);
    return rules_->check(v, no_pointer(), nullptr);
  }
  bool rules_hold(const string_text& v) const { return rules_->check_string(v.text, no_pointer(), nullptr); }
  bool rules_hold(const integer_value& v) const { return rules_->holds_for_integer(v.negative, v.magnitude); }

  struct property {
    std::string name;
    std::unique_ptr<plain_schema> schema;
    bool required;
  };

  struct compiler {
    const json* document;                          // what "$ref" resolves against, or null
    std::map<const json*, plain_schema*> refs;     // each "$ref" target, compiled once
    std::vector<std::unique_ptr<plain_schema>> targets;
  };

  enum : unsigned { t_null = 1, t_boolean = 2, t_integer = 4, t_float = 8, t_string = 16, t_array = 32, t_object = 64 };

  static std::unique_ptr<plain_schema> child(const json& node, compiler& c) {
    auto out = std::make_unique<plain_schema>();
    if (!out->build(node, c)) return nullptr;
    return out;
  }

  // A list of subschemas (anyOf, oneOf, allOf): non-empty, every one plain.
  static bool build_list(const json& v, compiler& c, std::vector<std::unique_ptr<plain_schema>>& out) {
    if (!v.is_array() || v.empty()) return false;
    for (const auto& s : v) {
      out.push_back(child(s, c));
      if (!out.back()) return false;
    }
    return true;
  }

  // minItems/maxItems as valijson reads them: a non-negative int64 (2.0 as 2, as validator gives
  // valijson such a count: see whole_count).
  static bool item_count(const json& v, std::optional<std::uint64_t>& out) {
    if (std::uint64_t n = 0; whole_count(v, n)) {
      if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
      out = n;
      return true;
    }
    if (!v.is_number_integer()) return false;
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                               : v.get<std::int64_t>() < 0)
      return false;
    out = v.get<std::uint64_t>();
    return true;
  }

  static bool is_rules_keyword(const std::string& key) {
    for (auto name = value_rules::keywords(); *name; ++name)
      if (key == *name) return true;
    return false;
  }

  // Reads one schema node into *this; false when some keyword is one the fast path does not know.
  bool build(const json& node, compiler& c) {
    if (node.is_boolean()) {
      never_ = !node.get<bool>();
      return true;
    }
    if (!node.is_object()) return false;
    const bool is_root = c.document == &node;
    json rules = json::object();
    const auto& known = keywords();
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& key = it.key();
      const json& v = *it;
      if (std::find(known.begin(), known.end(), key) == known.end()) return false;  // the list is the whole truth
      if (key == "description" || key == "title" || key == "default" || key == "examples" || key == "$comment" ||
          key == "deprecated" || key == "readOnly" || key == "writeOnly" || (is_root && key == "$schema")) {
        continue;  // annotations: no effect on validity
      } else if (key == "$defs" || key == "definitions") {
        continue;  // schemas reached only through "$ref", compiled there
      } else if (key == "type") {
        types_ = 0;
        if (v.is_string()) {
          if (!add_type(v.get_ref<const std::string&>())) return false;
        } else if (v.is_array() && !v.empty()) {
          for (const auto& t : v)
            if (!t.is_string() || !add_type(t.get_ref<const std::string&>())) return false;
        } else {
          return false;
        }
      } else if (key == "properties" && v.is_object()) {
        for (auto p = v.begin(); p != v.end(); ++p) {
          auto s = child(*p, c);
          if (!s) return false;
          properties_.push_back({p.key(), std::move(s), false});  // in key order, as the instance's keys are
        }
      } else if (key == "required" && v.is_array()) {
        for (const auto& name : v)
          if (!name.is_string()) return false;
        required_ = v;
      } else if (key == "additionalProperties" && v.is_boolean()) {
        closed_ = !v.get<bool>();
      } else if (key == "additionalProperties" && v.is_object()) {
        additional_ = child(v, c);
        if (!additional_) return false;
      } else if (key == "items" && (v.is_object() || v.is_boolean())) {
        items_ = child(v, c);
        if (!items_) return false;
      } else if (key == "minItems") {
        if (!item_count(v, min_items_)) return false;
      } else if (key == "maxItems") {
        if (!item_count(v, max_items_)) return false;
      } else if (key == "pattern" && v.is_string()) {
        try {
          pattern_ = std::make_unique<pattern_check>(v.get<std::string>());
        } catch (const std::regex_error&) {
          return false;  // the validator refuses such a schema before it gets here
        }
      } else if (is_rules_keyword(key)) {
        rules[key] = v;  // decided by value_rules, the same code valijson runs for them
      } else if (key == "anyOf") {
        if (!build_list(v, c, any_of_)) return false;
      } else if (key == "oneOf") {
        if (!build_list(v, c, one_of_)) return false;
      } else if (key == "allOf") {
        if (!build_list(v, c, all_of_)) return false;
      } else if (key == "$ref" && v.is_string() && c.document) {
        // Applied with its siblings (the 2020-12 reading, valijson's too: see validation_valijson.hpp).
        const json* target = resolve_ref(*c.document, v.get_ref<const std::string&>());
        if (!target) return false;
        auto known = c.refs.find(target);
        if (known != c.refs.end()) {
          ref_ = known->second;  // compiled, or being compiled further up: a recursive type
        } else {
          c.targets.push_back(std::make_unique<plain_schema>());
          plain_schema* t = c.targets.back().get();
          c.refs.emplace(target, t);
          ref_ = t;
          if (!t->build(*target, c)) return false;
        }
      } else {
        return false;
      }
    }
    for (const auto& name : required_) {
      const std::string& n = name.get_ref<const std::string&>();
      auto p = std::find_if(properties_.begin(), properties_.end(), [&](const property& x) { return x.name == n; });
      if (p == properties_.end()) {
        if (std::find(other_required_.begin(), other_required_.end(), n) == other_required_.end())
          other_required_.push_back(n);
      } else if (!p->required) {
        p->required = true;
        ++required_count_;
      }
    }
    if (!rules.empty()) {
      rules_node_ = std::move(rules);
      value_rules r(rules_node_);  // points into rules_node_, which stays where it is
      if (!r.empty()) rules_.emplace(r);
    }
    return true;
  }

  // "integer" takes only values stored as integers, as valijson's "type" does (see the overrides in
  // validation_valijson.hpp for why 1.0 stays refused).
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

  // `depth`: levels of the value above this one; `steps`: nodes on the way here, "$ref" hops and
  // combinators included. A "$ref" can follow a value as deep as it goes: past the depth that
  // validate() allows by default, the full path answers (with its "depth" violation). The steps are
  // a backstop, as in the walk.
  // `limit`: the levels of arrays and objects the whole value may have (unlimited: not checked);
  // an array or object here may then have limit - depth.
  template <class V>
  verdict check(const V& value, std::size_t depth, int steps, std::size_t limit) const {
    if (++steps > max_walk_depth || (depth >= default_max_json_depth && is_structured(value))) return verdict::unknown;
    if constexpr (std::is_same_v<V, json>) {
      if (limit != unlimited && value.is_structured()) {
        if (depth >= limit) return verdict::unknown;  // too deep: the full path says so
        // enum, const and uniqueItems compare whole values, recursing through them: measured first
        if (rules_ && rules_->looks_into_containers() && nested_deeper_than(value, limit - depth))
          return verdict::unknown;
      }
    }
    if (never_ || !(types_ & type_bit(value))) return verdict::no;
    if (rules_ && !rules_hold(value)) return verdict::no;
    if constexpr (!std::is_same_v<V, integer_value>) {
      if (pattern_ && is_string(value)) {
        const int found = pattern_->search(string_of(value));
        if (found == 0) return verdict::no;
        if (found < 0) return verdict::unknown;  // too complex for std::regex on this value: valijson refuses it
      }
    }
    if constexpr (std::is_same_v<V, json>) {
      if (verdict v = check_members(value, depth, steps, limit); v != verdict::yes) return v;
    }
    if (ref_) {
      if (verdict v = ref_->check(value, depth, steps, limit); v != verdict::yes) return v;
    }
    for (const auto& s : all_of_)
      if (verdict v = s->check(value, depth, steps, limit); v != verdict::yes) return v;
    if (!any_of_.empty()) {
      verdict found = verdict::no;
      for (const auto& s : any_of_) {
        const verdict v = s->check(value, depth, steps, limit);
        if (v == verdict::yes) {
          found = v;
          break;
        }
        if (v == verdict::unknown) found = v;
      }
      if (found != verdict::yes) return found;
    }
    if (!one_of_.empty()) {
      std::size_t matched = 0;
      bool unsure = false;
      for (const auto& s : one_of_) {
        const verdict v = s->check(value, depth, steps, limit);
        if (v == verdict::yes && ++matched > 1) return verdict::no;
        if (v == verdict::unknown) unsure = true;
      }
      if (unsure) return verdict::unknown;
      if (matched != 1) return verdict::no;
    }
    return verdict::yes;
  }

  // An object's properties or an array's items (yes for other values). Under a limit, a member or
  // item no schema looks into is measured here.
  // (Over the containers themselves: json's own iterator costs a switch on the type per step.)
  verdict check_members(const json& value, std::size_t depth, int steps, std::size_t limit) const {
    // `depth` < `limit` here when limited (check() made sure): a child may have limit - depth - 1 levels
    const auto too_deep = [&](const json& child) {
      return limit != unlimited && child.is_structured() && nested_deeper_than(child, limit - depth - 1);
    };
    if (value.is_object()) {
      const auto& members = value.get_ref<const json::object_t&>();
      std::size_t p = 0, required_seen = 0;
      for (const auto& [key, child] : members) {
        int order = 1;  // of properties_[p].name against key: one compare a step
        while (p < properties_.size() && (order = compare_names(properties_[p].name, key)) < 0) ++p;
        if (order == 0) {
          if (verdict v = properties_[p].schema->check(child, depth + 1, steps, limit); v != verdict::yes) return v;
          if (properties_[p].required) ++required_seen;
          ++p;
        } else if (closed_) {
          return verdict::no;
        } else if (additional_) {
          if (verdict v = additional_->check(child, depth + 1, steps, limit); v != verdict::yes) return v;
        } else if (too_deep(child)) {
          return verdict::unknown;
        }
      }
      if (required_seen != required_count_) return verdict::no;
      for (const auto& name : other_required_)
        if (members.find(name) == members.end()) return verdict::no;
    } else if (value.is_array()) {
      const auto& items = value.get_ref<const json::array_t&>();
      const std::uint64_t n = items.size();
      if ((min_items_ && n < *min_items_) || (max_items_ && n > *max_items_)) return verdict::no;
      for (const auto& item : items) {
        if (items_) {
          if (verdict v = items_->check(item, depth + 1, steps, limit); v != verdict::yes) return v;
        } else if (too_deep(item)) {
          return verdict::unknown;
        }
      }
    }
    return verdict::yes;
  }

  // std::string::compare's order (bytes as unsigned, then length), without a call to memcmp: the
  // names compared here are short, and most differ in their first byte.
  static int compare_names(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  }

  bool never_ = false;  // the schema `false`
  unsigned types_ = ~0u;
  std::vector<property> properties_;  // in key order
  json required_;
  std::size_t required_count_ = 0;         // of properties_
  std::vector<std::string> other_required_;  // required, but not among the properties
  bool closed_ = false;
  std::unique_ptr<plain_schema> additional_, items_;
  std::optional<std::uint64_t> min_items_, max_items_;
  std::unique_ptr<pattern_check> pattern_;
  json rules_node_;                   // the value_rules keywords of this node, copied
  std::optional<value_rules> rules_;  // reads rules_node_
  std::vector<std::unique_ptr<plain_schema>> any_of_, one_of_, all_of_;
  const plain_schema* ref_ = nullptr;  // owned by the root's targets_
  std::vector<std::unique_ptr<plain_schema>> targets_;  // the root's: every "$ref" target
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
