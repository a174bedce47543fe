// The fast path of validation: a shortcut for the plain schemas MCP_STRUCT produces, so the common
// valid call does not run valijson. It answers only "surely valid"; anything else goes to valijson,
// the validator of record. tests/unit/test_validation_differential.cpp and the arguments fuzzer
// prove it equal to valijson where it applies: it accepts exactly what valijson accepts.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/schema/detail/validation_rules.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Types, properties, required, a boolean additionalProperties, items, minimum/maximum and string
// enums, nothing else: built only when every keyword of the schema is one of those. accepts()
// answers exactly what valijson (with the SDK's overrides) answers; a refusal goes on to valijson
// and the walk all the same, so every message stays the same.
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
  // value on the right side of `bound` (side 1: at least, -1: at most), compared exactly.
  static bool within(const json& value, const json& bound, int side) {
    if (bound.is_null()) return true;
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

}  // namespace detail
}  // namespace v0
}  // namespace mcp
