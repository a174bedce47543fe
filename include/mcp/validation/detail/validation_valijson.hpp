// valijson, the validator of record: it decides whether a value fits a schema wherever the fast
// path does not. This file is the only one that talks to valijson, and the one place that lists
// where the SDK overrides it.
//
// Where the SDK overrides valijson's verdict, and why (each has a test in
// tests/unit/test_validation.cpp, tagged [override]):
//  1. enum, const, uniqueItems: valijson compares numbers as doubles, after reading integers as
//     int64: 2^53 + 1 equals 2^53 (so a std::set<int64_t> holding both is refused) and 2^64 - 1
//     equals -1. The SDK compares exactly, and 1 equals 1.0 as JSON Schema says.
//  2. minimum, maximum, exclusiveMinimum, exclusiveMaximum: compared as doubles, so 2^53 + 1 passes
//     "maximum": 2^53; and a bound beyond int64 wraps negative when valijson reads the schema, so
//     "maximum": 18446744073709551615 refuses 5. The SDK compares exactly.
//  3. multipleOf: with a whole divisor valijson cuts the value's fraction off first, so 10.5 and 0.5
//     pass "multipleOf": 5 (and the cut is undefined behaviour beyond int64). The SDK is exact for
//     whole numbers and allows a relative 1e-9 where a fraction is involved (0.3 is 3 x 0.1).
//  4. minLength, maxLength: valijson counts characters only up to the first NUL ("a\u0000bc", four
//     characters, counts as one) and reads past the end of its own table on some malformed UTF-8
//     (a value a handler returns is not checked for UTF-8). The SDK counts every code point.
//  5. format: valijson checks only date, time and date-time, accepts February 29 of any year, and
//     refuses a number where "format" applies to strings only. The SDK checks date-time, date,
//     time, email, uri, uuid and ipv4 on strings; other formats are annotations.
//     1-5 are one mechanism: the keywords leave valijson's copy of the schema, and a constraint of
//     the SDK's plugged into valijson (value_rules, validation_rules.hpp) checks them in their place,
//     so valijson still composes them (anyOf, not, $ref, if...) and decides.
//  6. Integers beyond int64 in the value: valijson reads every integer as int64 (2^64 - 1 as -1).
//     It is given a copy in which each is replaced by a stand-in, an int64 that the value does not
//     otherwise hold: its "type" check, the only thing valijson itself asks of a number once 1-3
//     are the SDK's, reads the stand-in as it would the real value (an integer), and the SDK's
//     constraint reads the real value back.
//  7. "$ref" with siblings: draft-07 ignores the siblings, MCP's dialect (2020-12) applies them. The
//     reference moves into an "allOf" beside them, which both dialects read the 2020-12 way.
// Not overridden, on purpose: 1.0 is not an "integer" to valijson, though draft-07 says it is. The
// SDK's decode refuses 1.0 for an integer field too, so accepting it would let through a value that
// can not be decoded; lossless coercion reads 1.0 as 1 instead. That is about values: in a schema,
// a count keyword written 2.0 ("maxLength": 2.0, valid draft-07) is read as 2 before valijson sees
// it (normalise_counts, validation/impl/validation.ipp), since valijson would refuse the schema.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/validation/detail/validation_rules.hpp>

// Without this valijson reports a bad schema by printing and calling abort().
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif
#if !VALIJSON_USE_EXCEPTIONS
#error "mcp needs valijson's exceptions: define VALIJSON_USE_EXCEPTIONS=1 before including valijson"
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// --- 6: integers beyond int64 -------------------------------------------------------------------

inline bool beyond_int64(const json& v) {
  return v.is_number_unsigned() &&
         v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

inline bool holds_beyond_int64(const json& v) {
  if (!v.is_structured()) return beyond_int64(v);
  for (const auto& item : v)
    if (holds_beyond_int64(item)) return true;
  return false;
}

// Stand-ins for the integers beyond int64 of one value, and the copy of it that holds them.
class stand_ins {
 public:
  explicit stand_ins(const json& value) {
    note_negatives(value);
    copy_ = value;
    replace(copy_);
  }
  const json& copy() const { return copy_; }

  // The real value behind `v`, read through int64 by valijson.
  json real(std::int64_t v) const {
    for (const auto& [stand_in, real] : pairs_)
      if (stand_in == v) return real;
    return v;
  }

  // The stand-ins of the value valijson is checking on this thread, or null (most values).
  static const stand_ins*& current() {
    thread_local const stand_ins* active = nullptr;
    return active;
  }

 private:
  void note_negatives(const json& v) {
    if (v.is_structured()) {
      for (const auto& item : v) note_negatives(item);
    } else if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0) {
      taken_.insert(v.get<std::int64_t>());
    }
  }
  void replace(json& v) {
    if (v.is_structured()) {
      for (auto& item : v) replace(item);
      return;
    }
    if (!beyond_int64(v)) return;
    for (const auto& [stand_in, real] : pairs_) {
      if (real == v) {
        v = stand_in;
        return;
      }
    }
    while (taken_.count(next_)) ++next_;  // the value holds fewer integers than int64 has below zero
    pairs_.emplace_back(next_, v.get<std::uint64_t>());
    v = next_++;
  }

  std::set<std::int64_t> taken_;
  std::int64_t next_ = std::numeric_limits<std::int64_t>::min();
  std::vector<std::pair<std::int64_t, json>> pairs_;
  json copy_;
};

// The value valijson's adapter shows, as JSON: exact, stand-ins read back.
inline json read_adapter(const valijson::adapters::Adapter& a) {
  if (a.isString()) return a.getString();
  if (a.isInteger()) {
    const std::int64_t v = a.getInteger();
    const stand_ins* s = stand_ins::current();
    return s ? s->real(v) : json(v);
  }
  if (a.isDouble()) return a.getDouble();
  if (a.isBool()) return a.getBool();
  if (a.isArray()) {
    json out = json::array();
    a.applyToArray([&](const valijson::adapters::Adapter& item) {
      out.push_back(read_adapter(item));
      return true;
    });
    return out;
  }
  if (a.isObject()) {
    json out = json::object();
    a.applyToObject([&](const std::string& name, const valijson::adapters::Adapter& member) {
      out[name] = read_adapter(member);
      return true;
    });
    return out;
  }
  return nullptr;
}

// --- 1-5: the SDK's rules inside valijson -------------------------------------------------------

// The keyword that carries the SDK's rules in valijson's copy of a schema: the index of a node's
// value_rules.
constexpr const char* rules_keyword = "$mcp:rules";

class rules_constraint : public valijson::constraints::PolyConstraint {
 public:
  explicit rules_constraint(const value_rules* rules) : rules_(rules) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if ((target.isArray() || target.isObject()) && !rules_->looks_into_containers()) return true;
    static const std::string nowhere;
    if (rules_->check(read_adapter(target), nowhere, nullptr)) return true;
    if (results) results->pushError(context, "refused by a rule the SDK checks (value_rules)");
    return false;
  }

 private:
  Constraint* cloneInto(void* where) const override { return new (where) rules_constraint(*this); }
  std::size_t sizeOf() const override { return sizeof(rules_constraint); }

  const value_rules* rules_;
};

class rules_builder : public valijson::ConstraintBuilder {
 public:
  explicit rules_builder(const std::vector<value_rules>& rules) : rules_(rules) {}
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& index) const override {
    return new rules_constraint(&rules_.at(static_cast<std::size_t>(index.getInteger())));
  }

 private:
  const std::vector<value_rules>& rules_;
};

// --- the validator of record --------------------------------------------------------------------

// valijson with the overrides above, compiled once for one schema. accepts(), accepts_at() and
// refused_at() are safe to call from several threads at once.
class valijson_record {
 public:

  // `subschemas` lists every subschema node of `schema` by JSON Pointer. Throws what valijson
  // throws on a schema it can not compile.
  valijson_record(const json& schema, const std::vector<std::pair<std::string, const json*>>& subschemas)
      : copy_(schema) {
    json& copy = copy_;
    rules_.reserve(subschemas.size());
    for (const auto& [pointer, node] : subschemas) {
      if (!node->is_object()) continue;
      json& mine = copy[json::json_pointer(pointer)];
      for (auto name = value_rules::keywords(); *name; ++name) mine.erase(*name);
      mine.erase(rules_keyword);
      value_rules rules(*node);
      if (!rules.empty()) {
        mine[rules_keyword] = rules_.size();
        rules_.push_back(rules);
      }
      auto ref = mine.find("$ref");
      if (ref != mine.end() && mine.size() > 1) {
        json target = {{"$ref", *ref}};
        mine.erase(ref);
        mine["allOf"].push_back(std::move(target));
      }
    }
    parse(copy_, schema_);
  }

  valijson_record(const valijson_record&) = delete;
  valijson_record& operator=(const valijson_record&) = delete;

  // The verdict of record.
  bool accepts(const json& instance) const { return run(schema_, instance, nullptr); }

  // The verdict of record on `instance` against the subschema at `pointer` (a JSON Pointer into
  // the schema; "" is the whole), its "$ref"s resolved against the whole schema as they are when
  // the whole is checked: the question coercion asks of a reading (does the one value fit the
  // list's items, does null fit the field, which branch of an anyOf takes it). valijson compiles
  // each subschema the first time it is asked about, and it is kept: a schema has a fixed number
  // of them. False where the pointer names no subschema.
  bool accepts_at(const std::string& pointer, const json& instance) const {
    if (pointer.empty()) return accepts(instance);
    const valijson::Schema* at = subschema_at(pointer);
    return at && run(*at, instance, nullptr);
  }

  // Where valijson places its refusal of `instance`: the JSON Pointers of the deepest values it
  // names (its context paths are data, not text).
  std::vector<std::string> refused_at(const json& instance) const {
    valijson::ValidationResults results;
    run(schema_, instance, &results);
    std::vector<std::string> pointers;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) pointers.push_back(context_pointer(error.context));
    std::sort(pointers.begin(), pointers.end());
    pointers.erase(std::unique(pointers.begin(), pointers.end()), pointers.end());
    std::vector<std::string> deepest;
    for (const auto& p : pointers) {
      const std::string below = p + "/";
      const bool has_child = std::any_of(pointers.begin(), pointers.end(),
                                         [&](const std::string& q) { return q.compare(0, below.size(), below) == 0; });
      if (!has_child) deepest.push_back(p);
    }
    return deepest;
  }

 private:
  // valijson's context (["<root>", "[findings]", "[0]"]) as a JSON Pointer.
  static std::string context_pointer(const std::vector<std::string>& context) {
    std::string pointer;
    for (std::size_t i = 1; i < context.size(); ++i) {
      const auto& part = context[i];
      bool bracketed = part.size() >= 2 && part.front() == '[' && part.back() == ']';
      append_pointer_token(pointer, bracketed ? std::string_view(part).substr(1, part.size() - 2) : part);
    }
    return pointer;
  }

  void parse(const json& document, valijson::Schema& into) const {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.addConstraintBuilder(rules_keyword, new rules_builder(rules_));
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(document), into);
  }

  // The subschema at `pointer` as valijson compiled it, or null. valijson has no call that checks a
  // value against one node of a document, but it reads a "$ref" alone, leaving its siblings as
  // data: so the document it compiles is the schema with a copy of the node beside the root's
  // keywords and a root "$ref" to that copy. Every "$ref" inside the copy resolves against the
  // same document as before.
  const valijson::Schema* subschema_at(const std::string& pointer) const {
    std::lock_guard<std::mutex> lock(at_mutex_);
    auto known = at_.find(pointer);
    if (known != at_.end()) return known->second.get();
    std::unique_ptr<valijson::Schema> made;
    if (const json* node = resolve_pointer(copy_, pointer)) {
      json document = copy_;
      std::string name = "$mcp:at";  // a member no "$ref" of the schema can point into
      while (document.contains(name)) name += '_';
      document[name] = *node;
      document["$ref"] = "#/" + name;  // no '/', '~' or '%' in it to escape
      made = std::make_unique<valijson::Schema>();
      try {
        parse(document, *made);
      } catch (const std::exception&) {
        made.reset();  // not expected (the whole compiled): then no value fits there
      }
    }
    return at_.emplace(pointer, std::move(made)).first->second.get();
  }

  // valijson's Validator caches the regexes it builds, so it is not safe to share between threads:
  // a small pool lends one to each call.
  bool run(const valijson::Subschema& schema, const json& instance, valijson::ValidationResults* results) const {
    std::unique_ptr<valijson::Validator> v;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        v = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    if (!v) v = std::make_unique<valijson::Validator>();
    bool accepted = false;
    std::unique_ptr<stand_ins> big;
    if (holds_beyond_int64(instance)) big = std::make_unique<stand_ins>(instance);
    struct scope {  // the stand-ins this thread's constraints read, for the length of the call
      const stand_ins* outer = stand_ins::current();
      explicit scope(const stand_ins* s) { stand_ins::current() = s; }
      ~scope() { stand_ins::current() = outer; }
    } active(big.get());
    try {
      accepted = v->validate(schema, valijson::adapters::NlohmannJsonAdapter(big ? big->copy() : instance), results);
    } catch (const std::exception&) {
      // No value is known to make valijson throw (patterns are compiled and checked up front); one
      // that did would be refused, never accepted.
    }
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(v));
    return accepted;
  }

  json copy_;                       // the schema as valijson reads it (1-5 and 7 applied)
  std::vector<value_rules> rules_;  // the constraints point into it: never resized after construction
  valijson::Schema schema_;
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<valijson::Validator>> idle_;
  mutable std::mutex at_mutex_;
  mutable std::map<std::string, std::unique_ptr<valijson::Schema>> at_;  // accepts_at's, by pointer
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
