// Lossless argument coercion, guided by the schema and done before validation: fixes the shapes
// language models commonly send ("5" for 5, "true" for true, one value for a one-element list, an
// object serialised into a string, null for an optional field they mean to leave out) without
// ever guessing. A value is changed only where the schema does not accept it and exactly one
// lossless reading fits.
//
// Unknown arguments: where an object's schema has "additionalProperties": false, a member whose
// name it does not know (not in "properties", matching no "patternProperties") is left out, at
// every level of the value: hosts add their own (Gemini CLI sends "wait_for_previous" to every
// tool), as the official TypeScript SDK and pydantic drop them. A name that is a near miss of a
// known field ("limt" for "limit", detail/near_name.hpp) is kept, so validation refuses it with
// "did you mean 'limit'?": a misspelt optional field must not fall back to its default in silence.
//
// "Fits" here is valijson's verdict, the validator of record, on the subschema where the value
// sits (detail/compiled_schema.hpp, compiled_schema::fits): whether a wrapped value fits as the
// list's item, whether null is one of an optional field's values, which branch of an anyOf or
// oneOf takes a reading. Coercion only transforms; it decides nothing itself, and after it the
// verdict is valijson's again: the tool pipeline validates the coerced value with the validator.
// tests/unit/test_validation_differential.cpp holds coercion to that over the schema cases.
//
//   auto report = mcp::coerce(args, validator);   // report.count changes, report.log says which
//
// JSON inside a string is read with the SDK's one reader (detail/json_reader.hpp), under the same
// depth limit as the message: the levels around the string count, so the arguments never end up
// nested deeper than `max_depth` in all, and a NUL byte or anything after the value makes the
// text unreadable rather than cut short.
#pragma once

#include <mcp/config.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/validation/violation.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

enum class coercion { off, lossless };

struct coercion_report {
  int count = 0;                  // values changed (a null or an unknown argument left out counts as one)
  std::vector<std::string> log;   // one line per change: "/limit: string \"5\" -> integer 5"
  // count by kind, the kinds summing to count: "number_from_string" ("5" -> 5),
  // "boolean_from_string", "json_from_string" (an array or object sent as its JSON text),
  // "integer_from_float" (5.0 -> 5), "wrapped_in_array" (one value for a list), "null_left_out"
  // (null for an optional field), "unknown_argument" (a field the schema does not know, left out).
  std::map<std::string, int> by_kind;
  // Strings given where an array or object is expected whose JSON is nested deeper than max_depth
  // allows: left as they are, each with a "depth" violation saying why, for the error message.
  std::vector<violation> refused;
};

// Coerces `value` in place, guided by the validator's schema, under `policy`. Never lossy: "5.5"
// stays a string where an integer is expected, "yes" is not a boolean, "007" is not an integer.
// `max_depth`: the most levels of arrays and objects `value` may have after coercion, counted
// from `value` itself; JSON in a string is read only if the whole stays within it. The tool
// pipeline passes the server's max_json_depth less the two levels of the message around the
// arguments (argument_depth_limit), so coerced arguments are never deeper than a message may be.
// A value already deeper than max_depth is left alone: validation refuses it.
// Safe to call from several threads at once, with one validator or its copies (each subschema
// coercion asks about is compiled once, under a lock, and kept by the validator).
coercion_report coerce(json& value, const validator& v, coercion policy = coercion::lossless,
                       std::size_t max_depth = detail::default_max_json_depth);

// The same for a schema not compiled yet: compiles a validator for it first (validator::root::any),
// so it throws schema_error where the schema is bad. A schema that is not an object changes
// nothing. Keep a validator and call the overload above where a schema is used more than once.
coercion_report coerce(json& value, const json& schema, coercion policy = coercion::lossless,
                       std::size_t max_depth = detail::default_max_json_depth);

namespace detail {
// The depth limit for a tool's arguments: the message and its params enclose them.
inline std::size_t argument_depth_limit(std::size_t max_json_depth) {
  return max_json_depth > 2 ? max_json_depth - 2 : 0;
}
}  // namespace detail

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/validation/impl/coercion.ipp>
#endif
