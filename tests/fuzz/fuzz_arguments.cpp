// Tool arguments as a typed tool sees them: coercion, validation against the reflected schema,
// then decoding. Oracles (beyond no crash, no UB, no leak):
//  - a value the validator accepts must decode (the schema and the decoder agree);
//  - coercion leaves an already valid value alone;
//  - what decode produced encodes to a value that is valid again and decodes to the same thing;
//  - the fast path (which the reflected schema always gets) accepts exactly what valijson accepts,
//    and within a depth exactly what it accepts and nested_deeper_than finds within it;
//  - the text road of a typed tool (detail::typed_reader, on the bytes as the arguments' text)
//    accepts only what the tree road accepts, and decodes it to the same value.
// And the differential oracle, on the same bytes read as choices: a random schema of the shapes
// MCP_STRUCT emits (or a runtime schema's) and values near it, on which the fast path and the walk
// that explains a refusal must agree with valijson, the validator of record (tests/schema_cases.hpp,
// the generator of tests/unit/test_validation_differential.cpp).
#include "../schema_cases.hpp"
#include "../typed_roads.hpp"
#include "fuzz_types.hpp"

#include <mcp/validation/coercion.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace fz {
// What the text road follows: patterns, bounds, lengths, enums, nested structs, arrays, optionals.
struct plain_order {
  std::string customer;
  std::vector<line> lines;
  std::optional<point> at;
  std::vector<tag> tags;
  std::optional<color> accent;
  bool rush = false;
};
MCP_STRUCT(plain_order, (customer, "Customer", mcp::min_length(1)), (lines, "Lines", mcp::max_items(4)), (at, "Where"),
           (tags, "Tags", mcp::default_value(std::vector<tag>{})), (accent, "Accent"), (rush, "Rush", mcp::default_value(false)));
// The same shape declared with MCP_STRUCT_DEF, whose every member is a field: an object read into
// again is made fresh in place (typed_reader), where plain_order's is remade and its storage swapped back.
MCP_STRUCT_DEF(def_line, (std::string, sku, "SKU", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")),
               (int, qty, "Quantity", mcp::minimum(1), mcp::maximum(1000), mcp::default_value(1)),
               (std::vector<std::string>, tags, "Tags", mcp::max_items(8), mcp::default_value(std::vector<std::string>{"none"})));
MCP_STRUCT_DEF(def_order, (std::string, customer, "Customer", mcp::min_length(1)),
               (std::vector<def_line>, lines, "Lines", mcp::max_items(4)), (std::optional<point>, at, "Where"),
               (def_line, first, "First", mcp::default_value(def_line{"AAA-0000", 2, {"x"}})),
               (std::vector<tag>, tags, "Tags", mcp::default_value(std::vector<tag>{})), (std::optional<color>, accent, "Accent"),
               (bool, rush, "Rush", mcp::default_value(false)));
}  // namespace fz

namespace {

[[noreturn]] void disagree(const char* what, const mcp::json& value, const std::string& detail) {
  std::fprintf(stderr, "%s\nvalue: %s\ndetail: %s\n", what, value.dump(-1, ' ', false, mcp::json::error_handler_t::replace).c_str(),
               detail.c_str());
  std::abort();
}

void check_decodes(const mcp::validator& v, const mcp::json& value) {
  fz::rich decoded;
  try {
    decoded = mcp::decode<fz::rich>(value);
  } catch (const mcp::decode_error& e) {
    // Known gap, reported: the schema of a float field is plain "number", so 1e39 passes
    // validation and only decode sees that it does not fit. The tool pipeline turns this into an
    // argument error for the model.
    if (e.pointer == "/single") return;
    disagree("the validator accepted a value that decode refuses", value, e.what());
  }
  mcp::json again = mcp::encode(decoded);
  auto problems = v.validate(again);
  if (!problems.empty())
    disagree("encode produced a value the schema refuses", again, mcp::describe_violations("rich", problems, v.schema()));
  mcp::json twice = mcp::encode(mcp::decode<fz::rich>(again));
  if (twice != again) disagree("decode(encode(x)) changed the value", again, twice.dump());
}

// The bytes steer the generator: its first choice, the low bit of the first byte, picks the runtime
// shapes too.
void hunt_disagreements(const std::uint8_t* data, std::size_t size) {
  schema_cases::entropy e(data, size);
  const bool extended = e.one_in(2);
  schema_cases::generator gen(e, extended);
  const mcp::json schema = gen.arguments();
  std::unique_ptr<mcp::validator> v;
  try {
    v = std::make_unique<mcp::validator>(schema);
  } catch (const mcp::schema_error& err) {
    disagree("the generator made a schema the validator refuses", schema, err.what());
  }
  for (int i = 0; i < 4; ++i) {
    const mcp::json value = gen.value(schema);
    const std::string d = schema_cases::disagreement(schema_cases::judge(*v, value));
    if (!d.empty()) disagree("the validation engines disagree", value, "schema " + schema_cases::text(schema) + "\n" + d);
  }
}

}  // namespace

// The bytes as a typed tool's arguments text, down both roads.
template <class T>
void compare_roads(const char* name, const std::uint8_t* data, std::size_t size) {
  static const auto reader = mcp::detail::typed_reader<T>::make(mcp::detail::fast_path_of(mcp::detail::validator_for<T>()));
  if (!reader) disagree("the text road does not follow a type", nullptr, name);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::size_t depth : {126, 3}) {
    const auto o = typed_roads::compare(*reader, text, depth);
    if (!o.disagreement.empty())
      disagree("the text and tree roads disagree", nullptr, std::string(name) + ": " + o.disagreement + "\ntext: " + std::string(text));
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hunt_disagreements(data, size);
  compare_roads<fz::plain_order>("plain_order", data, size);
  compare_roads<fz::def_order>("def_order", data, size);
  static const mcp::validator v(mcp::schema_of<fz::rich>());
  mcp::json args = mcp::json::parse(data, data + size, nullptr, false);
  if (args.is_discarded()) return 0;

  const auto& compiled = mcp::detail::compiled_of(v);
  if (!compiled.fast) disagree("the reflected schema has no fast path", args, v.schema().dump());
  if (compiled.fast->accepts(args) != compiled.record->accepts(args))
    disagree("the fast path and valijson disagree", args, compiled.fast->accepts(args) ? "fast path accepts" : "fast path refuses");
  for (std::size_t depth : {2, 3, 5, 128})  // validate()'s depth check, made on the fast path's walk
    if (compiled.fast->accepts_within(args, depth) != (compiled.fast->accepts(args) && !mcp::detail::nested_deeper_than(args, depth)))
      disagree("accepts_within is not accepts and the depth check", args, "depth " + std::to_string(depth));

  auto problems = v.validate(args);
  (void)mcp::describe_violations("rich", problems, v.schema());
  mcp::json coerced = args;
  auto report = mcp::coerce(coerced, v);
  if (problems.empty()) {
    if (report.count != 0 || coerced != args)
      disagree("coercion changed a valid value", args, coerced.dump());
    check_decodes(v, args);
    return 0;
  }
  // Decoding an invalid value may succeed (constraints are the validator's job) or throw
  // decode_error; nothing else.
  try {
    (void)mcp::decode<fz::rich>(args);
  } catch (const mcp::decode_error&) {
  }
  if (report.count > 0 && v.validate(coerced).empty()) check_decodes(v, coerced);
  return 0;
}
