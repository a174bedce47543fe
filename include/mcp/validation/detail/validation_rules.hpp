// The rules of JSON Schema that the SDK checks with its own code rather than valijson's: enum,
// const, the numeric bounds, multipleOf, minLength/maxLength, format and uniqueItems (why each, in
// validation_valijson.hpp's list of overrides). One function, value_rules::check, serves both
// uses: inside valijson, where it decides validity, and in the walk that explains a refusal, where
// it says what is wrong. So the verdict and the explanation of these rules can not drift apart.
// Also the small helpers every validation message is made of, and what a "$ref" points to.
#pragma once

#include <mcp/json/detail/pointer.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/utf8.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/violation.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

namespace detail {

// The pointer a check is given when it only answers yes or no (no violation is written with it).
inline const std::string& no_pointer() {
  static const std::string empty;
  return empty;
}

// Restores a pointer to its previous length when a walk step returns.
class pointer_scope {
 public:
  pointer_scope(std::string& pointer, std::string_view token) : pointer_(pointer), size_(pointer.size()) {
    append_pointer_token(pointer, token);
  }
  pointer_scope(std::string& pointer, std::size_t index) : pointer_scope(pointer, std::to_string(index)) {}
  ~pointer_scope() { pointer_.resize(size_); }
  pointer_scope(const pointer_scope&) = delete;
  pointer_scope& operator=(const pointer_scope&) = delete;

 private:
  std::string& pointer_;
  std::size_t size_;
};

inline std::string plural(std::uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// A non-negative integer given as a number without a fraction (2.0), which draft-07 counts as an
// integer; below 2^64. validator reads such keywords as integers before compiling a schema
// (normalise_counts, in validation/impl/validation.ipp), so this is for a part used alone.
inline bool whole_count(const json& v, std::uint64_t& n) {
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  if (!(d >= 0 && d < 18446744073709551616.0) || d != std::floor(d)) return false;  // NaN fails the first test
  n = static_cast<std::uint64_t>(d);
  return true;
}

// A non-negative integer keyword ("minLength": 3), whether stored signed or unsigned, or written
// with a zero fraction ("minLength": 3.0).
inline bool count_keyword(const json& schema, const char* keyword, std::uint64_t& n) {
  auto it = schema.find(keyword);
  if (it == schema.end()) return false;
  if (it->is_number_float()) return whole_count(*it, n);
  if (!it->is_number_integer()) return false;
  if (!it->is_number_unsigned() && it->get<std::int64_t>() < 0) return false;
  n = it->get<std::uint64_t>();
  return true;
}

// --- $ref: pointers into a schema -------------------------------------------------------------

// The JSON Pointer of a same-document reference ("#/definitions/a%20b" -> "/definitions/a b");
// false for a reference to another document.
inline bool ref_pointer(const std::string& ref, std::string& pointer) {
  if (ref.empty() || ref[0] != '#') return false;
  pointer.clear();
  for (std::size_t i = 1; i < ref.size(); ++i) {
    auto hex_digit = [](char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); };
    if (ref[i] == '%' && i + 2 < ref.size() && hex_digit(ref[i + 1]) && hex_digit(ref[i + 2])) {
      auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
      pointer += static_cast<char>(hex(ref[i + 1]) * 16 + hex(ref[i + 2]));
      i += 2;
    } else {
      pointer += ref[i];
    }
  }
  return true;
}

// The schema node at a JSON Pointer of `root` ("" for the root, "/$defs/node"); null if there is
// none, or it is not a schema (an object or a boolean).
inline const json* resolve_pointer(const json& root, const std::string& pointer) {
  if (pointer.empty()) return &root;
  if (pointer[0] != '/') return nullptr;
  const json* node = &root;
  std::size_t pos = 1;
  while (true) {
    auto end = pointer.find('/', pos);
    std::string token = pointer.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    std::string unescaped;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        unescaped += token[++i] == '0' ? '~' : '/';
      } else {
        unescaped += token[i];
      }
    }
    if (node->is_object()) {
      auto it = node->find(unescaped);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      if (unescaped.empty() || unescaped.size() > 9 || unescaped.find_first_not_of("0123456789") != std::string::npos)
        return nullptr;
      auto index = std::stoul(unescaped);
      if (index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return node->is_object() || node->is_boolean() ? node : nullptr;
}

// Resolves a same-document reference ("#", "#/$defs/node", "#/definitions/a%20b"); null if it can't.
inline const json* resolve_ref(const json& root, const std::string& ref) {
  std::string pointer;
  if (!ref_pointer(ref, pointer)) return nullptr;
  return resolve_pointer(root, pointer);
}

// --- numbers, exactly ---------------------------------------------------------------------------

inline int compare_numbers(const json& a, const json& b);

// An integer against a double, exactly: against the double's whole part, then its fraction.
inline int compare_integer_to_double(const json& i, double d) {
  if (std::isnan(d)) return 0;  // no order (JSON text has no NaN)
  if (d >= 18446744073709551616.0) return -1;  // 2^64: beyond every integer JSON holds
  if (d < -9223372036854775808.0) return 1;    // -2^63
  const double whole = std::floor(d);
  const json w = whole < 0 ? json(static_cast<std::int64_t>(whole)) : json(static_cast<std::uint64_t>(whole));
  const int c = compare_numbers(i, w);
  return c != 0 ? c : (d > whole ? -1 : 0);
}

// -1, 0 or 1, exactly for any two JSON numbers: integers beyond 2^53 (where a double rounds) and
// beyond int64 (which a reading through int64 wraps) included.
inline int compare_numbers(const json& a, const json& b) {
  if (a.is_number_float() && b.is_number_float()) {
    double x = a.get<double>(), y = b.get<double>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_number_float()) return -compare_integer_to_double(b, a.get<double>());
  if (b.is_number_float()) return compare_integer_to_double(a, b.get<double>());
  bool a_neg = a.is_number_unsigned() ? false : a.get<std::int64_t>() < 0;
  bool b_neg = b.is_number_unsigned() ? false : b.get<std::int64_t>() < 0;
  if (a_neg != b_neg) return a_neg ? -1 : 1;
  if (a_neg) {
    auto x = a.get<std::int64_t>(), y = b.get<std::int64_t>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  auto x = a.get<std::uint64_t>(), y = b.get<std::uint64_t>();
  return x < y ? -1 : (x > y ? 1 : 0);
}

// The magnitude of a whole number below 2^64 (an integer, or a double without a fraction).
inline bool whole_magnitude(const json& n, std::uint64_t& out) {
  if (n.is_number_unsigned()) {
    out = n.get<std::uint64_t>();
    return true;
  }
  if (n.is_number_integer()) {
    const auto v = n.get<std::int64_t>();
    out = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    return true;
  }
  const double d = std::fabs(n.get<double>());
  if (!(d < 18446744073709551616.0) || d != std::floor(d)) return false;  // NaN fails the first test
  out = static_cast<std::uint64_t>(d);
  return true;
}

// multipleOf: exact for whole numbers, within a relative 1e-9 where a fraction is involved (0.3 is
// a multiple of 0.1, though not in binary floating point).
inline bool is_multiple_of(const json& value, const json& divisor) {
  std::uint64_t v = 0, d = 0;
  if (whole_magnitude(value, v) && whole_magnitude(divisor, d)) return d != 0 && v % d == 0;
  const double q = value.get<double>() / divisor.get<double>();
  if (!std::isfinite(q)) return false;
  return std::fabs(q - std::nearbyint(q)) <= 1e-9 * std::fmax(1.0, std::fabs(q));
}

// JSON Schema's equality (enum, const, uniqueItems): numbers by value (1 and 1.0 are equal, 2^53
// and 2^53 + 1 are not), arrays item by item, objects member by member.
inline bool same_value(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_value(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto member = a.begin(); member != a.end(); ++member) {
      auto other = b.find(member.key());
      if (other == b.end() || !same_value(*member, *other)) return false;
    }
    return true;
  }
  return a == b;
}

// --- formats (hand-written: no regex on the hot path) ------------------------------------------

inline bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

inline bool is_date(std::string_view s) {
  int y, m, d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!digits(s, 0, 4, y) || !digits(s, 5, 2, m) || !digits(s, 8, 2, d)) return false;
  if (m < 1 || m > 12 || d < 1) return false;
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= days[m - 1] + (m == 2 && leap ? 1 : 0);
}

inline bool is_time(std::string_view s) {
  int h, m, sec;
  if (s.size() < 9 || s[2] != ':' || s[5] != ':') return false;
  if (!digits(s, 0, 2, h) || !digits(s, 3, 2, m) || !digits(s, 6, 2, sec)) return false;
  if (h > 23 || m > 59 || sec > 60) return false;
  std::size_t i = 8;
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start) return false;
  }
  if (i + 1 == s.size() && (s[i] == 'Z' || s[i] == 'z')) return true;
  int oh, om;
  return i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && digits(s, i + 1, 2, oh) && s[i + 3] == ':' &&
         digits(s, i + 4, 2, om) && oh <= 23 && om <= 59;
}

inline bool is_date_time(std::string_view s) {
  return s.size() > 11 && (s[10] == 'T' || s[10] == 't') && is_date(s.substr(0, 10)) && is_time(s.substr(11));
}

inline bool is_email(std::string_view s) {
  auto at = s.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == s.size()) return false;
  for (char c : s) {
    if (static_cast<unsigned char>(c) <= ' ') return false;
  }
  std::string_view domain = s.substr(at + 1);
  return domain.find('@') == std::string_view::npos && domain.front() != '.' && domain.back() != '.';
}

// An absolute URI: scheme ":" and no whitespace or control characters.
inline bool is_uri(std::string_view s) {
  auto colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alpha(s[0])) return false;
  for (std::size_t i = 1; i < colon; ++i) {
    char c = s[i];
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return false;
  }
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u <= ' ' || u == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
        c == '{' || c == '|' || c == '}')
      return false;
  }
  return true;
}

inline bool is_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

inline bool is_ipv4(std::string_view s) {
  int parts = 0;
  std::size_t i = 0;
  while (parts < 4) {
    std::size_t start = i;
    int value = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) value = value * 10 + (s[i++] - '0');
    if (i == start || value > 255 || (s[start] == '0' && i - start > 1)) return false;
    if (++parts < 4) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
  }
  return i == s.size();
}

// The formats the SDK checks, with an example for the message. Other formats are annotations.
struct format_rule {
  const char* name;
  bool (*check)(std::string_view);
  const char* hint;
};

inline const format_rule* find_format(std::string_view name) {
  static const format_rule rules[] = {
      {"date-time", is_date_time, "an RFC 3339 date-time such as \"2025-01-31T14:00:00Z\""},
      {"date", is_date, "a date such as \"2025-01-31\""},
      {"time", is_time, "a time such as \"14:00:00Z\""},
      {"email", is_email, "an email address such as \"name@example.com\""},
      {"uri", is_uri, "an absolute URI such as \"https://example.com/page\""},
      {"uuid", is_uuid, "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\""},
      {"ipv4", is_ipv4, "an IPv4 address such as \"192.0.2.1\""},
  };
  for (const auto& r : rules) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

// --- the rules ----------------------------------------------------------------------------------

// The SDK's rules of one schema node, read from it once. The node must outlive this (a compiled
// schema keeps both). Immutable after construction: safe to share between threads.
class value_rules {
 public:
  // The keywords these rules take over from valijson.
  static const char* const* keywords() {
    static const char* const names[] = {"enum",      "const",     "minimum",   "maximum", "exclusiveMinimum",
                                        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "format",
                                        "uniqueItems",      nullptr};
    return names;
  }

  explicit value_rules(const json& schema) {
    if (!schema.is_object()) return;
    auto find = [&](const char* keyword) -> const json* {
      auto it = schema.find(keyword);
      return it == schema.end() ? nullptr : &*it;
    };
    if (const json* e = find("enum"); e && e->is_array()) {
      enum_ = e;
      for (const auto& candidate : *e)
        if (candidate.is_string()) enum_strings_.push_back(candidate.get_ref<const std::string&>());
    }
    const_ = find("const");
    for (std::size_t i = 0; i < 4; ++i) {
      const json* b = find(bound_keyword(i));
      if (b && b->is_number()) bounds_[i] = b, integer_bounds_[i] = integer_bound(*b);
    }
    if (const json* m = find("multipleOf"); m && m->is_number()) {
      multiple_of_ = m;
      whole_divisor_ = whole_magnitude(*m, divisor_);
    }
    has_min_length_ = count_keyword(schema, "minLength", min_length_);
    has_max_length_ = count_keyword(schema, "maxLength", max_length_);
    if (const json* f = find("format"); f && f->is_string()) format_ = find_format(f->get_ref<const std::string&>());
    const json* u = find("uniqueItems");
    unique_ = u && u->is_boolean() && u->get<bool>();
  }

  // check() for an integer given by its sign and magnitude (one json_reader::read_integer takes:
  // not below -2^63), stopping at the first broken rule: bounds and multipleOf compared as
  // compare_numbers and is_multiple_of compare, with nothing built; enum, const and a fractional
  // multipleOf on the json the reader would have made.
  bool holds_for_integer(bool negative, std::uint64_t magnitude) const {
    if (enum_ || const_ || (multiple_of_ && !whole_divisor_)) {
      const json value = negative ? json(negative_of(magnitude)) : json(magnitude);
      return check(value, no_pointer(), nullptr);
    }
    for (std::size_t i = 0; i < 4; ++i)
      if (bounds_[i] && !bound_holds(i, integer_bounds_[i].compare(negative, magnitude))) return false;
    return !multiple_of_ || (divisor_ != 0 && magnitude % divisor_ == 0);
  }

  bool empty() const {
    return !enum_ && !const_ && !bounds_[0] && !bounds_[1] && !bounds_[2] && !bounds_[3] && !multiple_of_ &&
           !has_min_length_ && !has_max_length_ && !format_ && !unique_;
  }

  // Whether a string can break one of these rules at all; and whether, for a string, these rules are
  // the enum alone (check_string then answers "one of enum_strings()"). typed_reader's plan asks.
  bool reach_strings() const { return enum_ || const_ || has_min_length_ || has_max_length_ || format_; }
  bool strings_by_enum_alone() const { return enum_ && !const_ && !has_min_length_ && !has_max_length_ && !format_; }
  const std::vector<std::string_view>& enum_strings() const { return enum_strings_; }

  // Whether an array or object can break one of these rules (else only its scalars need reading).
  bool looks_into_containers() const { return enum_ || const_ || unique_; }

  // Checks `value`. Appends a violation at `pointer` for each broken rule to `out`, or with `out`
  // null stops at the first. Returns whether every rule holds.
  bool check(const json& value, const std::string& pointer, std::vector<violation>* out) const {
    if (value.is_string()) return check_string(value.get_ref<const std::string&>(), pointer, out);
    findings result{pointer, out};
    if (enum_) {
      bool found = false;
      for (const auto& candidate : *enum_) found = found || same_value(candidate, value);
      if (!found && !result.broken("enum", "must be one of " + list_values(*enum_) + ", got " + render(value)))
        return false;
    }
    if (const_ && !same_value(*const_, value) &&
        !result.broken("const", "must be " + render(*const_) + ", got " + render(value)))
      return false;
    if (value.is_number()) {
      static const char* const phrases[] = {"at least", "at most", "greater than", "less than"};
      for (std::size_t i = 0; i < 4; ++i) {
        if (!bounds_[i]) continue;
        if (bound_holds(i, compare_numbers(value, *bounds_[i]))) continue;
        if (!result.broken(bound_keyword(i),
                           std::string("must be ") + phrases[i] + " " + render(*bounds_[i]) + ", got " + render(value)))
          return false;
      }
      if (multiple_of_ && !is_multiple_of(value, *multiple_of_) &&
          !result.broken("multipleOf", "must be a multiple of " + render(*multiple_of_) + ", got " + render(value)))
        return false;
    } else if (value.is_array() && unique_) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        for (std::size_t j = i + 1; j < value.size(); ++j) {
          if (!same_value(value[i], value[j])) continue;
          result.broken("uniqueItems", "must not contain duplicates, but items " + std::to_string(i) + " and " +
                                    std::to_string(j) + " are both " + render(value[i]));
          return false;
        }
      }
    }
    return result.valid;
  }

  // check() for a string, on its text alone: where strings are decided, for a json string and for
  // text read without building one (detail/typed_reader.hpp). enum and const match only strings
  // equal to it, as same_value does.
  bool check_string(std::string_view text, const std::string& pointer, std::vector<violation>* out) const {
    findings result{pointer, out};
    auto shown = [&] { return render(json(std::string(text))); };
    if (enum_ && std::find(enum_strings_.begin(), enum_strings_.end(), text) == enum_strings_.end() &&
        !result.broken("enum", "must be one of " + list_values(*enum_) + ", got " + shown()))
      return false;
    if (const_ && !(const_->is_string() && const_->get_ref<const std::string&>() == text) &&
        !result.broken("const", "must be " + render(*const_) + ", got " + shown()))
      return false;
    const std::size_t length = has_min_length_ || has_max_length_ ? count_code_points(text) : 0;
    if (has_min_length_ && length < min_length_ &&
        !result.broken("minLength", "must be at least " + plural(min_length_, "character") + " long, got " + shown()))
      return false;
    if (has_max_length_ && length > max_length_ &&
        !result.broken("maxLength", "must be at most " + plural(max_length_, "character") + " long, got " +
                                 plural(length, "character") + ": " + shown()))
      return false;
    if (format_ && !format_->check(text) &&
        !result.broken("format", std::string("must be ") + format_->hint + ", got " + shown()))
      return false;
    return result.valid;
  }

 private:
  // What check() and check_string() found: every broken rule goes into `out` when it collects
  // them; without it, the first one ends the check.
  struct findings {
    const std::string& pointer;
    std::vector<violation>* out;
    bool valid = true;
    // Records a broken rule; says whether to go on looking for more.
    bool broken(const char* keyword, std::string message) {
      valid = false;
      if (out) out->push_back({pointer, keyword, std::move(message)});
      return out != nullptr;
    }
  };

  // A bound as compare_numbers compares an integer with it, worked out once: its whole part
  // (floor) and whether a fraction is left, or one answer for every integer JSON holds (a double
  // beyond them; NaN, which compare_numbers calls equal).
  struct integer_bound {
    int fixed = 2;  // -1, 0 or 1: the answer for every integer; 2: compare with the whole part
    bool negative = false;
    std::uint64_t whole = 0;  // the whole part's magnitude
    bool fraction = false;

    integer_bound() = default;
    explicit integer_bound(const json& b) {
      if (b.is_number_unsigned()) {
        whole = b.get<std::uint64_t>();
      } else if (b.is_number_integer()) {
        const auto v = b.get<std::int64_t>();
        negative = v < 0;
        whole = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      } else {
        const double d = b.get<double>();
        if (std::isnan(d)) fixed = 0;
        else if (d >= 18446744073709551616.0) fixed = -1;  // 2^64
        else if (d < -9223372036854775808.0) fixed = 1;    // -2^63
        if (fixed != 2) return;
        const double floor = std::floor(d);
        negative = floor < 0;
        whole = negative ? static_cast<std::uint64_t>(-floor) : static_cast<std::uint64_t>(floor);
        fraction = d > floor;
      }
    }
    // -1, 0 or 1 as the integer is below, at or above the bound.
    int compare(bool value_negative, std::uint64_t magnitude) const {
      if (fixed != 2) return fixed;
      if (value_negative != negative) return value_negative ? -1 : 1;
      if (magnitude != whole) return (magnitude < whole) != value_negative ? -1 : 1;
      return fraction ? -1 : 0;
    }
  };

  static const char* bound_keyword(std::size_t i) {
    static const char* const names[] = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"};
    return names[i];
  }

  // Whether bound `i` (in bound_keyword's order) holds for a value that compared `c` to it.
  static bool bound_holds(std::size_t i, int c) { return i == 0 ? c >= 0 : i == 1 ? c <= 0 : i == 2 ? c > 0 : c < 0; }

  static std::string list_values(const json& values) {
    std::string out;
    std::size_t shown = 0;
    for (const auto& v : values) {
      if (shown == 20) return out + ", ... (" + std::to_string(values.size() - shown) + " more)";
      if (shown++ > 0) out += ", ";
      out += render(v);
    }
    return out;
  }

  const json* enum_ = nullptr;
  std::vector<std::string_view> enum_strings_;  // enum_'s strings: all a string can equal
  const json* const_ = nullptr;
  const json* bounds_[4] = {};  // in bound_keyword's order
  integer_bound integer_bounds_[4];  // bounds_ as integers compare with them
  const json* multiple_of_ = nullptr;
  bool whole_divisor_ = false;  // multiple_of_ is a whole number below 2^64,
  std::uint64_t divisor_ = 0;   // of this magnitude
  std::uint64_t min_length_ = 0, max_length_ = 0;
  bool has_min_length_ = false, has_max_length_ = false;
  const format_rule* format_ = nullptr;
  bool unique_ = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
