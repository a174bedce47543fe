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

#include <mcp/config.hpp>
#include <mcp/error.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/violation.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <vector>

namespace mcp {
inline namespace v0 {

// A schema that can not be used to validate tool arguments; the message says what is wrong.
class schema_error : public error {
 public:
  explicit schema_error(const std::string& message) : error(error_code::invalid_schema, message) {}
};

class validator;

namespace detail {
struct compiled_schema;  // detail/compiled_schema.hpp
class plain_schema;      // detail/validation_fast_path.hpp
// The compiled parts of a validator (fast path, valijson, the walk), for the differential tests
// that keep them in agreement (include <mcp/validation/detail/compiled_schema.hpp>).
const compiled_schema& compiled_of(const validator& v);
// The fast path alone (null when the schema is not plain enough for it), for readers that follow
// it without the rest (detail/typed_reader.hpp). Lives as long as the validator and its copies.
const plain_schema* fast_path_of(const validator& v);
}

// Checks values against one JSON Schema. Copies share what was compiled; validate() is safe to call
// from several threads at once, on one validator or on copies.
class validator {
 public:
  // What the root may be: tool arguments are always an object; a 2026-07-28 output may be anything.
  enum class root { object, any };

  // Checks and compiles `schema` once; throws schema_error saying exactly what is wrong.
  explicit validator(const json& schema, root r = root::object);

  // Every violation of the schema by `instance`; empty when it is valid. Safe to call concurrently.
  // A value nested more than `max_depth` levels deep (arrays and objects, counted from the
  // instance) gets one "depth" violation and is not looked into: the walks that explain a failure
  // recurse into the value. The tool pipeline passes the server's max_json_depth less the two
  // levels of the message around the arguments.
  std::vector<violation> validate(const json& instance, std::size_t max_depth = detail::default_max_json_depth) const;

  const json& schema() const;

 private:
  friend const detail::compiled_schema& detail::compiled_of(const validator& v);
  friend const detail::plain_schema* detail::fast_path_of(const validator& v);
  struct trusted {};
  // For the meta-schema itself, which is known good and whose root is not "type": "object".
  validator(const json& schema, trusted);
  static const validator& metaschema();
  std::vector<violation> unexplained(const json& instance) const;

  std::shared_ptr<const detail::compiled_schema> compiled_;
};

namespace detail {
// A node of the fast path as detail/typed_reader.hpp follows it, through these calls (defined with
// the validator), so that a file with typed tools needs not compile the fast path itself.
struct plain_shape {
  bool object_properties = false;  // checks objects by their properties alone (MCP_STRUCT's shape)
  bool array_items = false;        // checks arrays by their items and counts alone
  std::size_t required_count = 0;  // properties required
  const plain_schema* items = nullptr;
  std::uint64_t min_items = 0, max_items = 0;
};
plain_shape shape_of(const plain_schema& node);
// The schema of property `name` (null when it has none), and whether it is required.
const plain_schema* property_schema(const plain_schema& node, std::string_view name, bool& required);
// Whether the node accepts `value`, as the fast path answers (see validation_fast_path.hpp).
bool plain_accepts(const plain_schema& node, const json& value);
// plain_accepts for a string given by its text: the same check, without a json to hold it.
bool plain_accepts_string(const plain_schema& node, std::string_view text);
// plain_accepts for an integer given by its sign and magnitude (json_reader::read_integer's).
bool plain_accepts_integer(const plain_schema& node, bool negative, std::uint64_t magnitude);
// Whether the node's verdict on a string is known without plain_accepts_string: true with `choices`
// null when it takes every string, true with `choices` at its enum's strings (valid while the node
// is) when it takes exactly those; false when only the check can tell.
bool plain_decides_strings(const plain_schema& node, const std::vector<std::string_view>*& choices);

// "(2 problems):" and one line per violation ("\n- /path: message (keyword)"), at most 25.
std::string violation_list(const std::vector<violation>& v);
}  // namespace detail

// The isError text for the model: every violation, one per line, and what to do next.
std::string describe_violations(std::string_view tool_name, const std::vector<violation>& v, const json& schema);

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/validation/impl/validation.ipp>
#endif
