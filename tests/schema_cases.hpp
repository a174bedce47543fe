// Random JSON Schemas of the shapes MCP_STRUCT emits (see include/mcp/schema/schema.hpp) and values
// near them, for the differential tests that keep the validation engines in agreement: the fast
// path and the walk that explains a refusal against valijson, the validator of record. Choices
// come from a seed (the unit test) or from a fuzzer's bytes (tests/fuzz/fuzz_arguments.cpp), so
// one generator serves both (MCP_STRUCT shapes include mcp::tagged_variant's oneOf and const).
// `extended` adds the keywords only runtime schemas use (oneOf, not,
// const, if/then/else, patternProperties, dependencies, contains, tuples, boolean schemas...).
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/validation/validation.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace schema_cases {

using mcp::json;

// Choices from a fuzzer's bytes while they last, then from a generator seeded by them (or by a
// seed of its own).
class entropy {
 public:
  explicit entropy(std::uint64_t seed) : state_(seed) {}
  entropy(const std::uint8_t* data, std::size_t size) : data_(data), left_(size) {
    for (std::size_t i = 0; i < size; ++i) state_ = (state_ ^ data[i]) * 1099511628211ULL;
  }

  // A number in [0, bound).
  std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    if (left_ > 0) {
      --left_;
      return *data_++ % bound;
    }
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state_ >> 33) % bound;
  }
  bool one_in(std::uint64_t n) { return below(n) == 0; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t left_ = 0;
  std::uint64_t state_ = 14695981039346656037ULL;
};

// Numbers near the edges: type ranges, 2^53, int64 and uint64 limits, -0, huge and tiny doubles.
inline const std::vector<json>& edge_numbers() {
  static const std::vector<json> numbers = [] {
    std::vector<json> n;
    for (std::int64_t v : {0LL, 1LL, -1LL, 2LL, 3LL, 5LL, 10LL, 12LL, 100LL, 127LL, -128LL, -129LL, 255LL, 256LL,
                           32767LL, -32768LL, 65535LL, 2147483647LL, -2147483648LL, 4294967295LL,
                           9007199254740991LL, 9007199254740992LL, 9007199254740993LL, -9007199254740993LL})
      n.push_back(v);
    n.push_back(std::numeric_limits<std::int64_t>::max());
    n.push_back(std::numeric_limits<std::int64_t>::min());
    n.push_back(static_cast<std::uint64_t>(9223372036854775808ULL));
    n.push_back(std::numeric_limits<std::uint64_t>::max());
    n.push_back(std::numeric_limits<std::uint64_t>::max() - 1);
    for (double v : {0.0, -0.0, 0.5, 1.0, -1.0, 1.5, 2.5, 0.1, 0.3, 10.5, 1e-7, 5e-324, 1e308, -1e308,
                     3.4028234663852886e38, -3.4028234663852886e38, 1e39, 9007199254740992.0,
                     9223372036854775808.0, 18446744073709551616.0, 127.5, 255.0, 1e20})
      n.push_back(v);
    return n;
  }();
  return numbers;
}

inline json integer_range(int which) {
  switch (which) {
    case 0: return {{"type", "integer"}, {"minimum", -128}, {"maximum", 127}};
    case 1: return {{"type", "integer"}, {"minimum", 0}, {"maximum", 255}};
    case 2: return {{"type", "integer"}, {"minimum", -32768}, {"maximum", 32767}};
    case 3: return {{"type", "integer"}, {"minimum", -2147483648LL}, {"maximum", 2147483647}};
    case 4: return {{"type", "integer"}, {"minimum", 0}, {"maximum", 4294967295LL}};
    case 5:
      return {{"type", "integer"},
              {"minimum", std::numeric_limits<std::int64_t>::min()},
              {"maximum", std::numeric_limits<std::int64_t>::max()}};
    default: return {{"type", "integer"}, {"minimum", 0}, {"maximum", 18446744073709551615.0}};  // as emitted
  }
}

class generator {
 public:
  generator(entropy& e, bool extended) : e_(e), extended_(extended) {}

  // A tool's argument schema: an object, sometimes with a recursive type under $defs.
  json arguments() {
    defs_ = json::object();
    root_ = object_schema(0);
    if (e_.one_in(6)) {
      defs_["node"] = json::parse(R"({"type":"object","properties":{"name":{"type":"string","minLength":1},
          "children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["name"],"additionalProperties":false})");
      root_["properties"]["tree"] = {{"$ref", "#/$defs/node"}};
    }
    if (!defs_.empty()) root_["$defs"] = defs_;
    return root_;
  }

  // A value near `schema` (a subschema of the last arguments()): mostly of its shape, with values
  // at and around its bounds, and now and then anything at all.
  json value(const json& schema, int depth = 0) {
    if (depth > 5 || e_.one_in(14) || !schema.is_object()) return any_value(depth);
    if (auto ref = schema.find("$ref"); ref != schema.end() && e_.below(4) != 0) {
      const std::string text = ref->get<std::string>();
      const json target = text == "#" ? root_ : root_.value(json::json_pointer(text.substr(1)), json::object());
      return value(target, depth + 1);
    }
    for (const char* key : {"anyOf", "oneOf", "allOf"}) {
      if (auto it = schema.find(key); it != schema.end() && e_.below(3) != 0) return value(e_.pick(it->get<std::vector<json>>()), depth + 1);
    }
    if (auto c = schema.find("const"); c != schema.end() && e_.one_in(2)) return *c;
    if (auto en = schema.find("enum"); en != schema.end() && e_.below(4) != 0) return e_.pick(en->get<std::vector<json>>());
    std::string type = "any";
    if (auto t = schema.find("type"); t != schema.end()) {
      type = t->is_string() ? t->get<std::string>() : e_.pick(t->get<std::vector<std::string>>());
    }
    if (type == "integer" || type == "number") return number_near(schema, type == "integer");
    if (type == "string") return string_near(schema);
    if (type == "boolean") return e_.one_in(2);
    if (type == "null") return nullptr;
    if (type == "array") return array_near(schema, depth);
    if (type == "object") return object_near(schema, depth);
    return any_value(depth);
  }

 private:
  // Containers only above depth 3, and nothing past depth 6: a fuzzer's bytes can choose the
  // deepest branch every time, and the validator refuses schemas nested too deep.
  json schema(int depth) {
    if (depth >= 6) return e_.one_in(2) ? integer_schema() : string_schema();
    const std::uint64_t kinds = depth >= 3 ? 7 : 14;
    const std::uint64_t kind = e_.below(extended_ ? kinds + 2 : kinds);
    if (kind >= kinds) return extended_schema(depth);
    switch (kind) {
      case 0: return integer_schema();
      case 1: return number_schema();
      case 2:
      case 3: return string_schema();
      case 4: return {{"type", "boolean"}};
      case 5: return enum_schema();
      case 6: return json::object();  // mcp::json: any value
      case 7: return object_schema(depth + 1);
      case 8: return array_schema(depth);
      case 9: return {{"type", "object"}, {"additionalProperties", schema(depth + 1)}};  // a std::map
      case 10: return nullable(schema(depth + 1));
      case 11: {  // a std::variant
        json list = json::array();
        for (std::uint64_t i = 0, n = 2 + e_.below(2); i < n; ++i) list.push_back(schema(depth + 1));
        return {{"anyOf", list}};
      }
      case 13: return tagged_variant(depth);
      default: return array_schema(depth);  // 12: arrays twice as often
    }
  }

  // mcp::tagged_variant: oneOf structs, each with the tag required and fixed by "const".
  json tagged_variant(int depth) {
    json list = json::array();
    for (const char* name : {"square", "circle"}) {
      json s = object_schema(depth + 1);
      s["properties"]["kind"] = {{"const", name}};
      json required = s.value("required", json::array());
      required.push_back("kind");
      s["required"] = required;
      list.push_back(s);
    }
    return {{"oneOf", list}};
  }

  json integer_schema() {
    json s = integer_range(static_cast<int>(e_.below(7)));
    if (e_.one_in(3)) {  // a constraint that narrows the range replaces the type's bound
      const bool lower = e_.one_in(2);
      const char* key = e_.one_in(3) ? (lower ? "exclusiveMinimum" : "exclusiveMaximum") : (lower ? "minimum" : "maximum");
      s.erase(lower ? "minimum" : "maximum");
      s[key] = e_.pick(edge_numbers());
    }
    if (e_.one_in(6)) s["multipleOf"] = e_.pick(std::vector<json>{2, 3, 5, 10, 0.5});
    annotate(s);
    return s;
  }

  json number_schema() {
    json s = {{"type", "number"}};
    if (e_.one_in(3)) s["minimum"] = -3.4028234663852886e38, s["maximum"] = 3.4028234663852886e38;  // float
    for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
      if (e_.one_in(5)) s[key] = e_.pick(edge_numbers());
    if (e_.one_in(6)) s["multipleOf"] = e_.pick(std::vector<json>{0.5, 0.1, 5, 2.5, 3});
    annotate(s);
    return s;
  }

  json string_schema() {
    json s = {{"type", "string"}};
    if (e_.one_in(3)) s["minLength"] = e_.below(4);
    if (e_.one_in(3)) s["maxLength"] = e_.below(7);
    if (e_.one_in(4)) s["pattern"] = e_.pick(patterns());
    if (e_.one_in(4)) s["format"] = e_.pick(std::vector<std::string>{"date-time", "date", "time", "email", "uri", "uuid",
                                                                      "ipv4", "made-up"});
    annotate(s);
    return s;
  }

  json enum_schema() {
    json names = json::array();
    for (std::uint64_t i = 0, n = 1 + e_.below(4); i < n; ++i) names.push_back(e_.pick(words()));  // duplicates too
    json s = {{"type", "string"}, {"enum", names}};
    if (e_.one_in(3)) s["description"] = "Values:\n- \"a\": the first";
    return s;
  }

  json array_schema(int depth) {
    json s = {{"type", "array"}, {"items", schema(depth + 1)}};
    switch (e_.below(5)) {
      case 0: {  // std::array
        const auto n = e_.below(3);
        s["minItems"] = n, s["maxItems"] = n;
        break;
      }
      case 1: s["uniqueItems"] = true; break;  // std::set, mcp::unique_items
      case 2: s[e_.one_in(2) ? "minItems" : "maxItems"] = e_.below(4); break;
      default: break;
    }
    return s;
  }

  json object_schema(int depth) {
    json properties = json::object();
    json required = json::array();
    for (std::uint64_t i = 0, n = e_.below(depth == 0 ? 6 : 4); i < n; ++i) {
      const std::string name = e_.pick(names());
      properties[name] = depth > 3 ? json{{"type", "integer"}} : schema(depth);
      if (e_.below(3) != 0) required.push_back(name);
    }
    json s = {{"type", "object"}, {"properties", properties}};
    // The same name twice in "required" would make a second copy of a field, which MCP_STRUCT never does.
    json unique = json::array();
    for (const auto& r : required)
      if (std::find(unique.begin(), unique.end(), r) == unique.end()) unique.push_back(r);
    if (!unique.empty()) s["required"] = unique;
    if (e_.below(5) != 0) s["additionalProperties"] = false;
    return s;
  }

  json nullable(json s) {
    if (e_.one_in(2) && s.contains("type") && s["type"].is_string()) {
      s["type"] = json::array({s["type"], "null"});  // {"type": ["string", "null"]}
      return s;
    }
    return {{"anyOf", json::array({s, {{"type", "null"}}})}};  // an optional outside a struct field
  }

  void annotate(json& s) {
    if (e_.one_in(4)) s["description"] = "a field";
    if (e_.one_in(6)) s["default"] = e_.pick(edge_numbers());
    if (e_.one_in(10)) s["title"] = "A title";
    if (e_.one_in(12)) s["deprecated"] = true;
  }

  // Keywords only a runtime schema has: the walk must explain them as valijson decides them.
  json extended_schema(int depth) {
    json sub = depth >= 3 ? json{{"type", "integer"}} : schema(depth + 1);
    switch (e_.below(16)) {
      case 0: return {{"oneOf", json::array({sub, schema(depth + 1)})}};
      case 1: return {{"allOf", json::array({sub, schema(depth + 1)})}};
      case 2: return {{"not", sub}};
      case 3: return {{"const", any_value(2)}};
      case 4: return {{"if", sub}, {"then", schema(depth + 1)}, {"else", schema(depth + 1)}};
      case 5:
        return {{"type", "object"}, {"patternProperties", {{e_.pick(patterns()), sub}}},
                {"additionalProperties", e_.one_in(2)}};
      case 6: return {{"type", "object"}, {"minProperties", e_.below(3)}, {"maxProperties", e_.below(4)}};
      case 7: return {{"dependencies", {{"a", json::array({"b"})}, {"c", sub}}}};
      case 8: return {{"propertyNames", {{"maxLength", e_.below(3)}, {"pattern", e_.pick(patterns())}}}};
      case 9: return {{"type", "array"}, {"contains", sub}};
      case 10: {
        json s = {{"type", "array"}, {"items", json::array({sub, schema(depth + 1)})}};
        if (!e_.one_in(3)) s["additionalItems"] = e_.one_in(2) ? json(false) : schema(depth + 1);
        return s;
      }
      case 11: return e_.one_in(2);  // a boolean schema
      case 12: return {{"minimum", e_.pick(edge_numbers())}, {"maxLength", e_.below(4)}};  // no type: per kind
      case 13: return {{"type", json::array({"integer", "string"})}, {"minimum", 0}, {"minLength", 2}};
      case 14: {
        // "$ref" with siblings (read the 2020-12 way): a recursive definition plus a bound.
        defs_["int"] = integer_schema();
        return {{"$ref", "#/$defs/int"}, {"maximum", e_.pick(edge_numbers())}};
      }
      default: return {{"enum", json::array({1, 1.0, "1", nullptr, json::array({1}), e_.pick(edge_numbers())})}};
    }
  }

  json number_near(const json& schema, bool integer) {
    std::vector<json> near;
    for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}) {
      auto b = schema.find(key);
      if (b == schema.end()) continue;
      near.push_back(*b);
      if (b->is_number_integer() && !b->is_number_unsigned()) {
        const auto v = b->get<std::int64_t>();
        if (v > std::numeric_limits<std::int64_t>::min()) near.push_back(v - 1);
        if (v < std::numeric_limits<std::int64_t>::max()) near.push_back(v + 1);
      } else if (b->is_number_unsigned()) {
        const auto v = b->get<std::uint64_t>();
        if (v > 0) near.push_back(v - 1);
        if (v < std::numeric_limits<std::uint64_t>::max()) near.push_back(v + 1);
      } else {
        near.push_back(b->get<double>() + 0.5);
        near.push_back(b->get<double>() - 0.5);
        near.push_back(b->get<double>() * 2);
      }
    }
    if (!near.empty() && e_.below(3) != 0) return e_.pick(near);
    if (integer && e_.below(3) != 0) return static_cast<std::int64_t>(e_.below(300)) - 150;
    return e_.pick(edge_numbers());
  }

  json string_near(const json& schema) {
    if (auto f = schema.find("format"); f != schema.end() && e_.below(3) != 0) {
      const std::string format = f->get<std::string>();
      static const std::vector<std::pair<std::string, std::vector<std::string>>> samples = {
          {"date-time", {"2025-01-31T14:00:00Z", "2024-02-29T00:00:00.5+02:00", "2023-02-29T00:00:00Z", "tomorrow"}},
          {"date", {"2025-01-31", "2024-02-29", "2023-02-29", "2025-13-01", "2025-1-1"}},
          {"time", {"14:00:00Z", "23:59:60+01:00", "24:00:00Z", "14:00"}},
          {"email", {"ada@example.com", "nobody", "a@b@c", "a@.com"}},
          {"uri", {"https://example.com/page", "urn:x", "not a uri", "1http://x"}},
          {"uuid", {"123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"}},
          {"ipv4", {"192.0.2.1", "256.0.0.1", "01.2.3.4", "1.2.3"}},
      };
      for (const auto& [name, values] : samples)
        if (name == format) return e_.pick(values);
    }
    if (auto p = schema.find("pattern"); p != schema.end() && e_.below(3) != 0) return e_.pick(pattern_samples());
    // Built from characters of 1 to 4 bytes, and NUL: lengths are code points, not bytes.
    static const std::vector<std::string> chars = {"a", "z", "A", "-", "0", "\xC3\xA9", "\xE6\x97\xA5",
                                                   "\xF0\x9F\x98\x80", std::string(1, '\0')};
    std::uint64_t length = e_.below(8);
    if (auto n = schema.find("minLength"); n != schema.end() && e_.one_in(2)) length = n->get<std::uint64_t>() + e_.below(2);
    if (auto n = schema.find("maxLength"); n != schema.end() && e_.one_in(2)) length = n->get<std::uint64_t>() + e_.below(2);
    std::string text;
    for (std::uint64_t i = 0; i < length; ++i) text += e_.pick(chars);
    return text;
  }

  json array_near(const json& schema, int depth) {
    std::uint64_t size = e_.below(4);
    if (auto n = schema.find("minItems"); n != schema.end() && e_.one_in(2)) size = n->get<std::uint64_t>();
    if (auto n = schema.find("maxItems"); n != schema.end() && e_.one_in(2)) size = n->get<std::uint64_t>() + e_.below(2);
    json out = json::array();
    auto items = schema.find("items");
    for (std::uint64_t i = 0; i < size && i < 6; ++i) {
      const json* item = items == schema.end() ? nullptr : &*items;
      if (item && item->is_array()) item = i < item->size() ? &(*item)[i] : nullptr;
      if (!out.empty() && e_.one_in(4)) {
        out.push_back(out[e_.below(out.size())]);  // a duplicate
      } else {
        out.push_back(item ? value(*item, depth + 1) : any_value(depth + 1));
      }
    }
    return out;
  }

  json object_near(const json& schema, int depth) {
    json out = json::object();
    auto required = schema.find("required");
    auto is_required = [&](const std::string& name) {
      return required != schema.end() && std::find(required->begin(), required->end(), name) != required->end();
    };
    if (auto props = schema.find("properties"); props != schema.end()) {
      for (auto p = props->begin(); p != props->end(); ++p) {
        if (is_required(p.key()) ? e_.one_in(12) : e_.one_in(2)) continue;  // left out
        out[p.key()] = !is_required(p.key()) && e_.one_in(8) ? json(nullptr) : value(*p, depth + 1);
      }
    }
    if (auto extra = schema.find("additionalProperties"); extra != schema.end() && extra->is_object()) {
      for (std::uint64_t i = 0, n = e_.below(3); i < n; ++i) out[e_.pick(names())] = value(*extra, depth + 1);
    }
    if (e_.one_in(6)) out[e_.pick(names())] = any_value(depth + 1);  // perhaps unknown
    return out;
  }

  json any_value(int depth) {
    switch (e_.below(depth > 3 ? 5 : 7)) {
      case 0: return nullptr;
      case 1: return e_.one_in(2);
      case 2: return e_.pick(edge_numbers());
      case 3: return e_.pick(words());
      case 4: return e_.pick(pattern_samples());
      case 5: {
        json a = json::array();
        for (std::uint64_t i = 0, n = e_.below(4); i < n; ++i) a.push_back(any_value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (std::uint64_t i = 0, n = e_.below(4); i < n; ++i) o[e_.pick(names())] = any_value(depth + 1);
        return o;
      }
    }
  }

  static const std::vector<std::string>& names() {
    static const std::vector<std::string> n = {"a", "b", "c", "title", "count", "tags", "a/b", "~x", "", "Z"};
    return n;
  }
  static const std::vector<std::string>& words() {
    static const std::vector<std::string> w = {"a", "b", "red", "green", "", "caf\xC3\xA9", "A", "1"};
    return w;
  }
  static const std::vector<std::string>& patterns() {
    static const std::vector<std::string> p = {"^[a-z][a-z0-9-]*$", "^[A-Z]{3}$", "[0-9]", "^$", "^.{2}$", "b",
                                               "^[A-Z]{3}-[0-9]{4}$", "(ab|cd)+"};
    return p;
  }
  static const std::vector<std::string>& pattern_samples() {
    static const std::vector<std::string> s = {"abc", "a-1", "ABC", "AB", "x9", "", "ab", "Abc", "b", "9",
                                               "ABC-1234", "ABC-123", "ABC-12345", "xABC-1234", "abc-1234",
                                               "\xC3\xA9\xC3\xA9", "abcd", "ABC-1234\n"};
    return s;
  }

  entropy& e_;
  bool extended_;
  json root_;
  json defs_;
};

// What each engine says of one value.
struct verdicts {
  bool record = false;     // valijson with the SDK's overrides: the verdict
  bool has_fast = false;   // the schema is plain enough for the fast path
  bool fast = false;       // the fast path accepts
  bool explained = false;  // the walk that explains a refusal finds something wrong
  bool validate = false;   // validate() finds nothing wrong
  // The fast path's check of a scalar as the typed reader holds it, without a json: a string by its
  // text, an integer by its sign and magnitude.
  bool has_bare = false;
  bool bare = false;
};

inline verdicts judge(const mcp::validator& v, const json& value) {
  const auto& c = mcp::detail::compiled_of(v);
  verdicts out;
  out.record = c.record->accepts(value);
  out.has_fast = c.fast != nullptr;
  out.fast = out.has_fast && c.fast->accepts(value);
  out.explained = !c.explain(value).empty();
  out.validate = v.validate(value).empty();
  if (out.has_fast && value.is_string()) {
    out.has_bare = true;
    out.bare = c.fast->accepts_string(value.get_ref<const std::string&>());
  } else if (out.has_fast && value.is_number_unsigned()) {
    out.has_bare = true;
    out.bare = c.fast->accepts_integer(false, value.get<std::uint64_t>());
  } else if (out.has_fast && value.is_number_integer()) {
    const auto n = value.get<std::int64_t>();
    out.has_bare = true;
    out.bare = c.fast->accepts_integer(n < 0, n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n));
  }
  return out;
}

inline std::string text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Empty when the engines agree with valijson on `value`; else what each said. The fast path must
// accept exactly what valijson accepts (on a json, and on a scalar without one), the walk must find
// something wrong exactly when valijson refuses, and validate() must follow valijson.
inline std::string disagreement(const verdicts& got) {
  const bool fast_bad = got.has_fast && got.fast != got.record;
  const bool walk_bad = got.explained == got.record;
  const bool validate_bad = got.validate != got.record;
  const bool bare_bad = got.has_bare && got.bare != got.record;
  if (!fast_bad && !walk_bad && !validate_bad && !bare_bad) return std::string();
  return std::string("valijson ") + (got.record ? "accepts" : "refuses") +
         (got.has_fast ? std::string(", fast path ") + (got.fast ? "accepts" : "refuses") : std::string()) +
         (got.has_bare ? std::string(", fast path without a json ") + (got.bare ? "accepts" : "refuses") : std::string()) +
         ", walk " + (got.explained ? "refuses" : "accepts") + ", validate() " + (got.validate ? "accepts" : "refuses");
}

}  // namespace schema_cases
