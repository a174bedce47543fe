// Reflection: MCP_STRUCT / MCP_ENUM, encode/decode, schema_of (golden files + valijson).
#include "catch.hpp"

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/detail/reflect_writer.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace test_reflect {  // a namespace per file: CMake's unity build compiles several test files as one

namespace reflect_test {

enum class visibility { private_, team };
MCP_ENUM(visibility, (private_, "private"), (team, "team", "Everyone on the team"));

struct create_note_args {
  std::string title;
  std::string body;
  visibility vis = visibility::team;
  std::optional<int> limit;
};
MCP_STRUCT(create_note_args,
  (title, "Unique title for the note", mcp::min_length(3), mcp::max_length(80)),
  (body,  "Note body"),
  (vis,   "Who can see the note", mcp::default_value(visibility::team)),
  (limit, "Max results", mcp::minimum(1), mcp::maximum(50)));

enum class color { red, green, blue };
MCP_ENUM(color, (red, "red", "Warm"), (green, "green"), (blue));  // blue keeps its C++ name

struct point {
  double x;
  double y;
};
MCP_STRUCT(point, (x, "Horizontal"), (y, "Vertical"));

struct circle {
  point center;
  double radius;
};
MCP_STRUCT(circle, (center, "Centre"), (radius, "Radius", mcp::exclusive_minimum(0)));

struct square {
  point corner;
  double side;
};
MCP_STRUCT(square, (corner, "Top-left corner"), (side, "Side length", mcp::minimum(0)));

// Every supported field type and every constraint.
struct everything {
  bool flag;
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
  long long ll;
  float f32;
  double f64;
  std::string text;
  std::optional<int> maybe_int;
  std::optional<point> maybe_point;
  std::vector<std::string> tags;
  std::array<int, 3> rgb;
  std::set<std::string> labels;
  std::map<std::string, int> counts;
  point origin;
  std::vector<point> path;
  std::map<std::string, point> places;
  color shade = color::green;
  std::vector<color> palette;
  std::variant<circle, square> shape;
  mcp::json extra;
  // constrained
  int percent;
  double ratio;
  int step;
  std::string code;
  std::string email;
  std::vector<int> scores;
  std::uint8_t retries = 3;
  int level;
  std::string mode;
  bool legacy;
  std::string nickname;
  std::optional<std::string> note;
};
MCP_STRUCT(everything,
  (flag, "A switch"),
  (i8, "int8"), (u8, "uint8"), (i16, "int16"), (u16, "uint16"), (i32, "int32"), (u32, "uint32"),
  (i64, "int64"), (u64, "uint64"), (ll, "long long"),
  (f32, "float"), (f64, "double"), (text, "Free text"),
  (maybe_int, "Optional number"), (maybe_point, "Optional point"),
  (tags, "Tags"), (rgb, "Colour triple"), (labels, "Unique labels"), (counts, "Counts by name"),
  (origin, "Origin"), (path, "Points in order"), (places, "Named points"),
  (shade, "Shade", mcp::default_value(color::green)), (palette, "Colours"), (shape, "A circle or a square"), (extra, "Anything"),
  (percent, "Percent", mcp::minimum(0), mcp::maximum(100)),
  (ratio, "Open interval", mcp::exclusive_minimum(0), mcp::exclusive_maximum(1)),
  (step, "Multiple of five", mcp::multiple_of(5)),
  (code, "Three capitals", mcp::pattern("^[A-Z]{3}$"), mcp::min_length(3), mcp::max_length(3)),
  (email, "Mail address", mcp::format("email")),
  (scores, "Scores", mcp::min_items(1), mcp::max_items(10), mcp::unique_items()),
  (retries, "Retries", mcp::default_value(3)),
  (level, "Level", mcp::default_value(2)),
  (mode, "Mode", mcp::examples("fast", "slow")),
  (legacy, "Old switch", mcp::deprecated()),
  (nickname, "Nickname", mcp::title("Display name")),
  (note));  // no description

// A recursive type: its schema needs $defs/$ref.
struct tree {
  std::string name;
  std::vector<tree> children;
};
MCP_STRUCT(tree, (name, "Node name"), (children, "Child nodes"));

// Mutual recursion through two types.
struct department;
struct employee {
  std::string name;
  std::vector<department> manages;
};
struct department {
  std::string title;
  std::vector<employee> staff;
};
MCP_STRUCT(employee, (name, "Name"), (manages, "Departments run"));
MCP_STRUCT(department, (title, "Title"), (staff, "Staff"));

// Private members, reached through MCP_STRUCT_FRIEND.
class account {
  MCP_STRUCT_FRIEND(account);
  std::string owner_;
  int balance_ = 0;

 public:
  account() = default;
  account(std::string owner, int balance) : owner_(std::move(owner)), balance_(balance) {}
  const std::string& owner() const { return owner_; }
  int balance() const { return balance_; }
};
MCP_STRUCT(account, (owner_, "Owner"), (balance_, "Balance in cents"));

struct no_args {};
MCP_STRUCT(no_args);

// The one rule: required unless std::optional or declared with mcp::default_value. A member
// initializer alone declares nothing (seven, hello), whatever its value.
struct defaults {
  int zero = 0;
  int seven = 7;
  std::string empty;
  std::string hello = "hello";
  std::optional<int> five = 5;
};
MCP_STRUCT(defaults, (zero, "Declared default", mcp::default_value(0)), (seven, "Initialised, so still required"),
           (empty, "Required"), (hello, "Initialised string, still required"), (five, "Optional with a value"));

// The same in one place: the default slot is the member's initial value and its declared default.
MCP_STRUCT_DEF(defaults_def,
  (bool, dry_run, "Only report what would change", mcp::default_value(false), mcp::json_name("dryRun")),
  (int, offset, "Skip this many", mcp::default_value(0)),
  (visibility, vis, "Who can see it", mcp::default_value(visibility::private_)),
  (int, limit, "At most this many", mcp::default_value(10), mcp::minimum(1)),
  (std::string, query, "What to find"),
  (std::optional<int> , page, "Page number"));

struct odd_keys {
  std::map<std::string, int> by_path;
};
MCP_STRUCT(odd_keys, (by_path, "Keys that need escaping in a JSON Pointer"));

struct numbers {
  std::vector<int> ints;
  std::set<int> unique;
};
MCP_STRUCT(numbers, (ints, "Ints"), (unique, "Unique ints"));

// At the macros' limit: 128 fields and 128 enumerators.
struct wide {
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15;
  int f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31;
  int f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47;
  int f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63;
  int f64, f65, f66, f67, f68, f69, f70, f71, f72, f73, f74, f75, f76, f77, f78, f79;
  int f80, f81, f82, f83, f84, f85, f86, f87, f88, f89, f90, f91, f92, f93, f94, f95;
  int f96, f97, f98, f99, f100, f101, f102, f103, f104, f105, f106, f107, f108, f109, f110, f111;
  int f112, f113, f114, f115, f116, f117, f118, f119, f120, f121, f122, f123, f124, f125, f126, f127;
};
MCP_STRUCT(wide,
  (f0, "field 0"), (f1, "field 1"), (f2, "field 2"), (f3, "field 3"), (f4, "field 4"), (f5, "field 5"),
  (f6, "field 6"), (f7, "field 7"), (f8, "field 8"), (f9, "field 9"), (f10, "field 10"), (f11, "field 11"),
  (f12, "field 12"), (f13, "field 13"), (f14, "field 14"), (f15, "field 15"), (f16, "field 16"), (f17, "field 17"),
  (f18, "field 18"), (f19, "field 19"), (f20, "field 20"), (f21, "field 21"), (f22, "field 22"), (f23, "field 23"),
  (f24, "field 24"), (f25, "field 25"), (f26, "field 26"), (f27, "field 27"), (f28, "field 28"), (f29, "field 29"),
  (f30, "field 30"), (f31, "field 31"), (f32, "field 32"), (f33, "field 33"), (f34, "field 34"), (f35, "field 35"),
  (f36, "field 36"), (f37, "field 37"), (f38, "field 38"), (f39, "field 39"), (f40, "field 40"), (f41, "field 41"),
  (f42, "field 42"), (f43, "field 43"), (f44, "field 44"), (f45, "field 45"), (f46, "field 46"), (f47, "field 47"),
  (f48, "field 48"), (f49, "field 49"), (f50, "field 50"), (f51, "field 51"), (f52, "field 52"), (f53, "field 53"),
  (f54, "field 54"), (f55, "field 55"), (f56, "field 56"), (f57, "field 57"), (f58, "field 58"), (f59, "field 59"),
  (f60, "field 60"), (f61, "field 61"), (f62, "field 62"), (f63, "field 63"), (f64, "field 64"), (f65, "field 65"),
  (f66, "field 66"), (f67, "field 67"), (f68, "field 68"), (f69, "field 69"), (f70, "field 70"), (f71, "field 71"),
  (f72, "field 72"), (f73, "field 73"), (f74, "field 74"), (f75, "field 75"), (f76, "field 76"), (f77, "field 77"),
  (f78, "field 78"), (f79, "field 79"), (f80, "field 80"), (f81, "field 81"), (f82, "field 82"), (f83, "field 83"),
  (f84, "field 84"), (f85, "field 85"), (f86, "field 86"), (f87, "field 87"), (f88, "field 88"), (f89, "field 89"),
  (f90, "field 90"), (f91, "field 91"), (f92, "field 92"), (f93, "field 93"), (f94, "field 94"), (f95, "field 95"),
  (f96, "field 96"), (f97, "field 97"), (f98, "field 98"), (f99, "field 99"), (f100, "field 100"), (f101, "field 101"),
  (f102, "field 102"), (f103, "field 103"), (f104, "field 104"), (f105, "field 105"), (f106, "field 106"), (f107, "field 107"),
  (f108, "field 108"), (f109, "field 109"), (f110, "field 110"), (f111, "field 111"), (f112, "field 112"), (f113, "field 113"),
  (f114, "field 114"), (f115, "field 115"), (f116, "field 116"), (f117, "field 117"), (f118, "field 118"), (f119, "field 119"),
  (f120, "field 120"), (f121, "field 121"), (f122, "field 122"), (f123, "field 123"), (f124, "field 124"), (f125, "field 125"),
  (f126, "field 126"), (f127, "field 127"));
enum class many {
  e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15,
  e16, e17, e18, e19, e20, e21, e22, e23, e24, e25, e26, e27, e28, e29, e30, e31,
  e32, e33, e34, e35, e36, e37, e38, e39, e40, e41, e42, e43, e44, e45, e46, e47,
  e48, e49, e50, e51, e52, e53, e54, e55, e56, e57, e58, e59, e60, e61, e62, e63,
  e64, e65, e66, e67, e68, e69, e70, e71, e72, e73, e74, e75, e76, e77, e78, e79,
  e80, e81, e82, e83, e84, e85, e86, e87, e88, e89, e90, e91, e92, e93, e94, e95,
  e96, e97, e98, e99, e100, e101, e102, e103, e104, e105, e106, e107, e108, e109, e110, e111,
  e112, e113, e114, e115, e116, e117, e118, e119, e120, e121, e122, e123, e124, e125, e126, e127
};
MCP_ENUM(many,
  (e0, "v0"), (e1, "v1"), (e2, "v2"), (e3, "v3"), (e4, "v4"), (e5, "v5"), (e6, "v6"), (e7, "v7"),
  (e8, "v8"), (e9, "v9"), (e10, "v10"), (e11, "v11"), (e12, "v12"), (e13, "v13"), (e14, "v14"), (e15, "v15"),
  (e16, "v16"), (e17, "v17"), (e18, "v18"), (e19, "v19"), (e20, "v20"), (e21, "v21"), (e22, "v22"), (e23, "v23"),
  (e24, "v24"), (e25, "v25"), (e26, "v26"), (e27, "v27"), (e28, "v28"), (e29, "v29"), (e30, "v30"), (e31, "v31"),
  (e32, "v32"), (e33, "v33"), (e34, "v34"), (e35, "v35"), (e36, "v36"), (e37, "v37"), (e38, "v38"), (e39, "v39"),
  (e40, "v40"), (e41, "v41"), (e42, "v42"), (e43, "v43"), (e44, "v44"), (e45, "v45"), (e46, "v46"), (e47, "v47"),
  (e48, "v48"), (e49, "v49"), (e50, "v50"), (e51, "v51"), (e52, "v52"), (e53, "v53"), (e54, "v54"), (e55, "v55"),
  (e56, "v56"), (e57, "v57"), (e58, "v58"), (e59, "v59"), (e60, "v60"), (e61, "v61"), (e62, "v62"), (e63, "v63"),
  (e64, "v64"), (e65, "v65"), (e66, "v66"), (e67, "v67"), (e68, "v68"), (e69, "v69"), (e70, "v70"), (e71, "v71"),
  (e72, "v72"), (e73, "v73"), (e74, "v74"), (e75, "v75"), (e76, "v76"), (e77, "v77"), (e78, "v78"), (e79, "v79"),
  (e80, "v80"), (e81, "v81"), (e82, "v82"), (e83, "v83"), (e84, "v84"), (e85, "v85"), (e86, "v86"), (e87, "v87"),
  (e88, "v88"), (e89, "v89"), (e90, "v90"), (e91, "v91"), (e92, "v92"), (e93, "v93"), (e94, "v94"), (e95, "v95"),
  (e96, "v96"), (e97, "v97"), (e98, "v98"), (e99, "v99"), (e100, "v100"), (e101, "v101"), (e102, "v102"), (e103, "v103"),
  (e104, "v104"), (e105, "v105"), (e106, "v106"), (e107, "v107"), (e108, "v108"), (e109, "v109"), (e110, "v110"), (e111, "v111"),
  (e112, "v112"), (e113, "v113"), (e114, "v114"), (e115, "v115"), (e116, "v116"), (e117, "v117"), (e118, "v118"), (e119, "v119"),
  (e120, "v120"), (e121, "v121"), (e122, "v122"), (e123, "v123"), (e124, "v124"), (e125, "v125"), (e126, "v126"), (e127, "v127"));

// Keys kept in another order than a json object's: written sorted all the same.
struct reversed {
  std::map<std::string, int, std::greater<>> by_name;
  std::vector<std::map<std::string, std::optional<double>>> rows;
  std::optional<tree> outline;
};
MCP_STRUCT(reversed, (by_name, "Descending keys"), (rows, "Rows"), (outline, "A tree"));

// Two structs that both accept {}, for the order rule of variants.
struct maybe_a {
  std::optional<int> a;
};
MCP_STRUCT(maybe_a, (a, "A"));
struct maybe_b {
  std::optional<std::string> b;
};
MCP_STRUCT(maybe_b, (b, "B"));

// Optionals before, between and after members that are always there: write_encoded knows where a
// comma goes when the code is made only after a member that is always written.
struct gaps_around {
  std::optional<int> first;
  std::optional<std::string> second;
  int always = 0;
  std::optional<double> between;
  bool flag = false;
  std::optional<point> last;
};
MCP_STRUCT(gaps_around, (first, "First"), (second, "Second"), (always, "Always"), (between, "Between"),
           (flag, "Flag"), (last, "Last"));

// Bounds against the type's own range.
struct bounded {
  float f32 = 0;
  double f64 = 0;
  std::uint8_t u8_loose = 0;
  float f32_loose = 0;
  float unit = 0;
  std::uint8_t positive = 1;
  std::int16_t both = 3;
};
MCP_STRUCT(bounded, (f32, "float"), (f64, "double"),
           (u8_loose, "A looser minimum than the type's", mcp::minimum(-1000)),
           (f32_loose, "A looser maximum than the type's", mcp::maximum(1e300)),
           (unit, "0 to 1", mcp::minimum(0), mcp::maximum(1)),
           (positive, "Above zero", mcp::exclusive_minimum(0)),
           (both, "Two lower bounds", mcp::minimum(2), mcp::exclusive_minimum(1)));

// Every kind of field, none constrained, for the property test of schema and decode.
struct disc {
  point center;
  double radius;
};
MCP_STRUCT(disc, (center, "Centre"), (radius, "Radius"));
struct box {
  point corner;
  float side;
  std::optional<std::string> label;
};
MCP_STRUCT(box, (corner, "Corner"), (side, "Side"), (label, "Label"));
struct kinds {
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
  long long ll;
  float f32;
  double f64;
  bool flag;
  std::string text;
  color shade;
  mcp::json anything;
  std::optional<float> maybe_f32;
  std::optional<std::uint64_t> maybe_u64;
  std::optional<point> maybe_point;
  std::vector<float> floats;
  std::vector<std::int64_t> ints;
  std::array<std::int8_t, 2> pair;
  std::set<std::int16_t> unique;
  std::set<std::string> labels;
  std::map<std::string, double> by_name;
  std::map<std::string, std::optional<point>> places;
  std::variant<std::int64_t, double> number;
  std::variant<double, std::uint8_t> number_reversed;
  std::variant<std::uint8_t, float, std::string, bool> scalar;
  std::variant<color, std::int16_t> shade_or_number;
  std::variant<disc, box> shape;
  std::variant<point, std::vector<point>> one_or_many;
  std::optional<std::variant<int, std::string>> maybe_either;
  std::vector<std::variant<float, std::uint64_t>> mixed;
  std::map<std::string, std::variant<std::int8_t, double>> mixed_by_name;
  point origin;
  std::vector<box> boxes;
  std::vector<std::optional<std::int8_t>> gaps;
  std::int32_t loose;  // a bound looser than its range: dropped, so random values all fit
};
MCP_STRUCT(kinds, (i8, "i8"), (u8, "u8"), (i16, "i16"), (u16, "u16"), (i32, "i32"), (u32, "u32"), (i64, "i64"),
           (u64, "u64"), (ll, "ll"), (f32, "f32"), (f64, "f64"), (flag, "flag"), (text, "text"), (shade, "shade"),
           (anything, "anything"), (maybe_f32, "maybe_f32"), (maybe_u64, "maybe_u64"), (maybe_point, "maybe_point"),
           (floats, "floats"), (ints, "ints"), (pair, "pair"), (unique, "unique"), (labels, "labels"),
           (by_name, "by_name"), (places, "places"), (number, "number"), (number_reversed, "number_reversed"),
           (scalar, "scalar"), (shade_or_number, "shade_or_number"), (shape, "shape"), (one_or_many, "one_or_many"),
           (maybe_either, "maybe_either"), (mixed, "mixed"), (mixed_by_name, "mixed_by_name"), (origin, "origin"),
           (boxes, "boxes"), (gaps, "gaps"), (loose, "loose", mcp::minimum(-1e12), mcp::maximum(1e12)));

// Types that count their constructions: building a schema constructs a probe T{}.
struct counting {
  counting() { ++constructions; }
  static inline std::atomic<int> constructions{0};
};
struct counted_a : counting {
  int n = 0;
};
MCP_STRUCT(counted_a, (n, "A number"));
struct counted_b : counting {
  std::string s;
};
MCP_STRUCT(counted_b, (s, "A string"));


// A type of the user's own, mapped through mcp::json_type.
struct uuid {
  std::string text;
};
}  // namespace reflect_test

// A variant told apart by a "kind" field.
using tagged_shape = std::variant<reflect_test::square, reflect_test::circle>;
}  // namespace test_reflect  // a specialisation of mcp's lives outside the file's namespace

template <>
struct mcp::json_type<test_reflect::reflect_test::uuid> {
  using uuid = test_reflect::reflect_test::uuid;
  static mcp::json schema() { return {{"type", "string"}, {"format", "uuid"}}; }
  static mcp::json encode(const uuid& u) { return u.text; }
  static uuid decode(const mcp::json& j) {
    if (!j.is_string() || j.get<std::string>().size() != 36) throw std::invalid_argument("not a UUID");
    return {j.get<std::string>()};
  }
};

template <>
struct mcp::json_type<test_reflect::tagged_shape> : mcp::tagged_variant<test_reflect::tagged_shape> {
  static constexpr const char* tag = "kind";
};

namespace test_reflect {

namespace reflect_test {
MCP_STRUCT_DEF(drawing, (std::vector<tagged_shape>, shapes, "Shapes, each saying its kind"));

MCP_STRUCT_DEF(mapped,
  (uuid, id, "Record id", mcp::pattern("^[0-9a-f-]+$")),
  (std::chrono::system_clock::time_point, at, "When it happened"),
  (std::chrono::milliseconds, timeout, "How long to wait", mcp::default_value(std::chrono::milliseconds(1500))),
  (std::optional<std::chrono::seconds>, ttl, "Time to live"),
  ((std::map<std::string, uuid>), owners, "Owner of each part"));

// Names C++ cannot spell, and a member that shares its type's name.
MCP_STRUCT_DEF(renamed,
  (bool, private_, "Only for you", mcp::json_name("private"), mcp::default_value(false)),
  (int, default_, "The default", mcp::json_name("default")),
  (std::string, renamed_, "The type's own name", mcp::json_name("renamed")));

// Two fields with one JSON name, known only at run time (a literal would not compile: see
// tests/compile_fail/duplicate_json_name.cpp): refused when first used.
inline const char* const x_name = "x";
MCP_STRUCT_DEF(clashing, (int, a, "A", mcp::json_name(x_name)), (int, x, "X"));
}  // namespace reflect_test

namespace {

using mcp::json;
namespace rt = reflect_test;

static_assert(mcp::is_reflected_v<rt::create_note_args>);
static_assert(mcp::is_reflected_v<rt::account>);
static_assert(!mcp::is_reflected_v<rt::visibility>);
static_assert(!mcp::is_reflected_v<int>);
static_assert(!mcp::is_reflected_v<std::string>);
static_assert(mcp::is_reflected_enum_v<rt::visibility>);
static_assert(!mcp::is_reflected_enum_v<rt::point>);
static_assert(mcp::is_reflected<rt::tree>::value && mcp::is_reflected_enum<rt::many>::value);

nlohmann::ordered_json load_golden(const std::string& name) {
  std::ifstream in(std::string(MCP_TEST_SOURCE_DIR) + "/golden/" + name);
  REQUIRE(in.good());
  return nlohmann::ordered_json::parse(in);
}

// Compares T's schema with the golden file, keys in the same order (properties in declaration
// order); on a mismatch shows both and leaves the actual output beside the build.
template <class T>
void check_golden(const std::string& name) {
  const auto expected = load_golden(name);
  const auto& actual = mcp::schema_of_ordered<T>();
  if (actual.dump() != expected.dump()) {
    std::ofstream(std::string(MCP_TEST_BINARY_DIR) + "/" + name + ".actual") << actual.dump(2) << "\n";
    std::cerr << "golden mismatch for " << name << "\n--- expected\n"
              << expected.dump(2) << "\n--- actual\n"
              << actual.dump(2) << "\n--- diff (patch turning expected into actual)\n"
              << json::diff(json::parse(expected.dump()), json::parse(actual.dump())).dump(2) << "\n";
  }
  CHECK(actual.dump() == expected.dump());
  CHECK(mcp::schema_of<T>() == json::parse(expected.dump()));  // the sorted copy holds the same schema
}

// A draft-07 schema compiled by valijson (throws if valijson rejects the schema).
struct compiled_schema {
  explicit compiled_schema(const json& document) : doc(document) {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, schema);
  }
  bool accepts(const json& instance) const { return why_not(instance).empty(); }
  // valijson's reasons for rejecting instance ("" if it accepts it): CHECK(v.why_not(x) == "")
  // shows them when it fails.
  std::string why_not(const json& instance) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter adapter(instance);
    if (validator.validate(schema, adapter, &results)) return "";
    std::string out = "rejected";
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      out += "\n  ";
      for (const auto& part : error.context) out += part;
      out += ": " + error.description;
    }
    return out;
  }
  json doc;
  valijson::Schema schema;
};

template <class T>
T round_trip(const T& value) {
  return mcp::decode<T>(mcp::encode(value));
}

// The JSON Pointer of the decode_error that decoding j as T throws ("<none>" if it does not throw).
template <class T>
std::string error_pointer(const json& j, std::string* reason = nullptr) {
  try {
    (void)mcp::decode<T>(j);
  } catch (const mcp::decode_error& e) {
    if (reason) *reason = e.reason;
    return e.pointer;
  }
  return "<none>";
}

rt::everything sample_everything() {
  rt::everything e;
  e.flag = true;
  e.i8 = -128;
  e.u8 = 255;
  e.i16 = -32768;
  e.u16 = 65535;
  e.i32 = std::numeric_limits<std::int32_t>::min();
  e.u32 = std::numeric_limits<std::uint32_t>::max();
  e.i64 = std::numeric_limits<std::int64_t>::min();
  e.u64 = std::numeric_limits<std::uint64_t>::max();
  e.ll = -5;
  e.f32 = 1.5f;
  e.f64 = -0.25;
  e.text = "h\xC3\xA9llo \"quoted\"";
  e.maybe_int = 4;
  e.maybe_point = rt::point{1, 2};
  e.tags = {"a", "b", "a"};
  e.rgb = {1, 2, 3};
  e.labels = {"x", "y"};
  e.counts = {{"one", 1}, {"two", 2}};
  e.origin = {0.5, -0.5};
  e.path = {{1, 1}, {2, 2}};
  e.places = {{"home", {3, 4}}};
  e.shade = rt::color::blue;
  e.palette = {rt::color::red, rt::color::red};
  e.shape = rt::square{{0, 0}, 2};
  e.extra = json{{"any", {1, "two", nullptr}}};
  e.percent = 50;
  e.ratio = 0.5;
  e.step = 15;
  e.code = "ABC";
  e.email = "a@b.c";
  e.scores = {3, 1, 2};
  e.retries = 9;
  e.level = 4;
  e.mode = "fast";
  e.legacy = false;
  e.nickname = "nick";
  return e;
}

TEST_CASE("reflect: create_note_args schema matches the golden file and validates", "[reflect]") {
  const json& schema = mcp::schema_of<rt::create_note_args>();
  check_golden<rt::create_note_args>("create_note_args.json");
  CHECK(schema["required"] == json({"title", "body"}));
  CHECK(schema["properties"]["vis"]["default"] == "team");
  CHECK(schema["properties"]["vis"]["enum"] == json({"private", "team"}));

  compiled_schema v(schema);
  CHECK(v.accepts({{"title", "abc"}, {"body", ""}}));
  CHECK(v.accepts({{"title", "abc"}, {"body", ""}, {"vis", "private"}, {"limit", 50}}));
  CHECK_FALSE(v.accepts({{"title", "ab"}, {"body", ""}}));                       // too short
  CHECK_FALSE(v.accepts({{"title", "abc"}}));                                    // body missing
  CHECK_FALSE(v.accepts({{"title", "abc"}, {"body", ""}, {"limit", 51}}));       // over maximum
  CHECK_FALSE(v.accepts({{"title", "abc"}, {"body", ""}, {"vis", "public"}}));   // not in enum
  CHECK_FALSE(v.accepts({{"title", "abc"}, {"body", ""}, {"colour", "red"}}));   // unknown property
}

TEST_CASE("reflect: the ordered schema keeps declaration order", "[reflect]") {
  const auto& ordered = mcp::schema_of_ordered<rt::create_note_args>();
  std::vector<std::string> keys;
  for (const auto& item : ordered["properties"].items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"title", "body", "vis", "limit"});
  CHECK(json::parse(ordered.dump()) == mcp::schema_of<rt::create_note_args>());
}

TEST_CASE("reflect: a struct with every type and constraint matches the golden file", "[reflect]") {
  const json& schema = mcp::schema_of<rt::everything>();
  check_golden<rt::everything>("everything.json");

  compiled_schema v(schema);
  json good = mcp::encode(sample_everything());
  // valijson's nlohmann adapter reads integers as int64_t, so it cannot check values above 2^63.
  good["u64"] = std::numeric_limits<std::int64_t>::max();
  CHECK(v.why_not(good) == "");
  auto with = [&](const char* key, json value) {
    json j = good;
    j[key] = std::move(value);
    return j;
  };
  auto without = [&](const char* key) {
    json j = good;
    j.erase(key);
    return j;
  };
  CHECK_FALSE(v.accepts(with("u8", 256)));
  CHECK_FALSE(v.accepts(with("i8", -129)));
  CHECK_FALSE(v.accepts(with("i32", 1.5)));
  CHECK_FALSE(v.accepts(with("percent", 101)));
  CHECK_FALSE(v.accepts(with("ratio", 1)));
  CHECK_FALSE(v.accepts(with("ratio", 0)));
  CHECK_FALSE(v.accepts(with("step", 7)));
  CHECK_FALSE(v.accepts(with("code", "ABCD")));
  CHECK_FALSE(v.accepts(with("code", "abc")));
  CHECK_FALSE(v.accepts(with("scores", json::array())));
  CHECK_FALSE(v.accepts(with("scores", {1, 1})));
  CHECK_FALSE(v.accepts(with("rgb", {1, 2})));
  CHECK_FALSE(v.accepts(with("labels", {"x", "x"})));
  CHECK_FALSE(v.accepts(with("counts", {{"one", "1"}})));
  CHECK_FALSE(v.accepts(with("shade", "purple")));
  CHECK_FALSE(v.accepts(with("origin", {{"x", 1}})));
  CHECK_FALSE(v.accepts(with("origin", {{"x", 1}, {"y", 2}, {"z", 3}})));
  CHECK_FALSE(v.accepts(with("shape", {{"radius", 1}})));
  CHECK_FALSE(v.accepts(with("maybe_int", nullptr)));  // optional is not nullable
  CHECK_FALSE(v.accepts(without("text")));
  CHECK(v.why_not(with("extra", "a string is fine too")) == "");
  CHECK(v.why_not(with("shape", {{"center", {{"x", 0}, {"y", 0}}}, {"radius", 1}})) == "");
  CHECK(v.why_not(without("maybe_int")) == "");
  CHECK(v.why_not(without("retries")) == "");
  CHECK(v.why_not(without("level")) == "");
  CHECK(v.why_not(without("shade")) == "");
}

TEST_CASE("reflect: every type round-trips through encode/decode", "[reflect]") {
  const rt::everything e = sample_everything();
  const json j = mcp::encode(e);
  CHECK(j["u64"].get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
  CHECK(j["i64"].get<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
  CHECK(j["shade"] == "blue");
  CHECK(j["palette"] == json({"red", "red"}));
  CHECK(j["shape"] == json({{"corner", {{"x", 0.0}, {"y", 0.0}}}, {"side", 2.0}}));
  CHECK(j["labels"] == json({"x", "y"}));
  CHECK(j["counts"] == json({{"one", 1}, {"two", 2}}));
  CHECK_FALSE(j.contains("note"));  // absent optional: key left out

  const auto back = mcp::decode<rt::everything>(j);
  CHECK(back.u64 == e.u64);
  CHECK(back.i64 == e.i64);
  CHECK(back.i8 == e.i8);
  CHECK(back.f32 == e.f32);
  CHECK(back.text == e.text);
  CHECK(back.maybe_point.has_value());
  CHECK(back.maybe_point->y == 2);
  CHECK(back.tags == e.tags);
  CHECK(back.rgb == e.rgb);
  CHECK(back.labels == e.labels);
  CHECK(back.counts == e.counts);
  CHECK(back.places.at("home").x == 3);
  CHECK(back.shade == rt::color::blue);
  CHECK(back.palette == e.palette);
  REQUIRE(back.shape.index() == 1);
  CHECK(std::get<rt::square>(back.shape).side == 2);
  CHECK(back.extra == e.extra);
  CHECK(back.scores == e.scores);
  CHECK_FALSE(back.note.has_value());
  CHECK(mcp::encode(back) == j);

  // Top-level values of each kind.
  CHECK(round_trip(std::vector<int>{1, 2, 3}) == std::vector<int>{1, 2, 3});
  CHECK(round_trip(std::vector<bool>{true, false}) == std::vector<bool>{true, false});
  CHECK(round_trip(std::optional<std::string>("x")) == std::optional<std::string>("x"));
  CHECK(round_trip(std::optional<std::string>()) == std::nullopt);
  CHECK(round_trip(std::map<std::string, rt::color>{{"a", rt::color::green}}).at("a") == rt::color::green);
  CHECK(mcp::encode(rt::color::red) == "red");
  CHECK(mcp::decode<rt::color>("blue") == rt::color::blue);
  CHECK(mcp::encode(std::variant<int, std::string>("s")) == "s");
  CHECK(mcp::decode<std::variant<int, std::string>>(7).index() == 0);
}

TEST_CASE("reflect: nlohmann conversions use the reflection", "[reflect]") {
  rt::create_note_args args{"Title", "Body", rt::visibility::private_, 3};
  json j = args;
  CHECK(j == json({{"title", "Title"}, {"body", "Body"}, {"vis", "private"}, {"limit", 3}}));
  auto back = j.get<rt::create_note_args>();
  CHECK(back.title == "Title");
  CHECK(back.vis == rt::visibility::private_);
  CHECK(back.limit == 3);

  json e = rt::visibility::team;
  CHECK(e == "team");
  CHECK(json("private").get<rt::visibility>() == rt::visibility::private_);
  CHECK_THROWS_AS(json(1).get<rt::visibility>(), mcp::decode_error);  // no silent integer fallback

  std::vector<rt::point> points{{1, 2}, {3, 4}};
  json list = points;
  CHECK(list == json::parse(R"([{"x":1.0,"y":2.0},{"x":3.0,"y":4.0}])"));
  CHECK(list.get<std::vector<rt::point>>()[1].y == 4);

  rt::point p;
  json({{"x", 5}, {"y", 6}}).get_to(p);
  CHECK(p.x == 5);
}

TEST_CASE("reflect: required fields and defaults", "[reflect]") {
  const json& schema = mcp::schema_of<rt::defaults>();
  CHECK(schema["required"] == json({"seven", "empty", "hello"}));
  CHECK(schema["properties"]["zero"]["default"] == 0);
  CHECK_FALSE(schema["properties"]["seven"].contains("default"));  // an initializer is not a declaration
  CHECK_FALSE(schema["properties"]["hello"].contains("default"));
  CHECK_FALSE(schema["properties"]["five"].contains("default"));
  CHECK_FALSE(schema["properties"]["empty"].contains("default"));

  const auto d = mcp::decode<rt::defaults>(json{{"empty", "e"}, {"seven", 8}, {"hello", "hi"}});
  CHECK(d.zero == 0);
  CHECK(d.seven == 8);
  CHECK(d.hello == "hi");
  CHECK(d.five == 5);  // absent optional: the initializer stays
  CHECK(mcp::decode<rt::defaults>(json{{"empty", "e"}, {"seven", 8}, {"hello", "hi"}, {"five", nullptr}}).five ==
        std::nullopt);
  std::string reason;
  try {
    (void)mcp::decode<rt::defaults>(json{{"empty", "e"}, {"hello", "hi"}});
  } catch (const mcp::decode_error& e) {
    reason = e.reason;
  }
  CHECK(reason == "missing required property \"seven\"");
}

TEST_CASE("reflect: MCP_STRUCT_DEF declares each field once, zero defaults included", "[reflect]") {
  const rt::defaults_def fresh;
  CHECK(fresh.dry_run == false);
  CHECK(fresh.offset == 0);
  CHECK(fresh.vis == rt::visibility::private_);
  CHECK(fresh.limit == 10);
  CHECK(fresh.query.empty());
  CHECK(fresh.page == std::nullopt);

  const json& schema = mcp::schema_of<rt::defaults_def>();
  CHECK(schema["required"] == json({"query"}));
  CHECK(schema["properties"]["dryRun"]["default"] == false);
  CHECK(schema["properties"]["offset"]["default"] == 0);
  CHECK(schema["properties"]["vis"]["default"] == "private");
  CHECK(schema["properties"]["limit"]["default"] == 10);
  CHECK(schema["properties"]["limit"]["minimum"] == 1);
  CHECK_FALSE(schema["properties"].contains("dry_run"));

  const auto v = mcp::decode<rt::defaults_def>(json{{"query", "x"}, {"dryRun", true}});
  CHECK(v.dry_run);
  CHECK(v.limit == 10);
  CHECK(v.vis == rt::visibility::private_);
  CHECK(mcp::encode(v) == json{{"dryRun", true}, {"offset", 0}, {"vis", "private"}, {"limit", 10}, {"query", "x"}});
  CHECK_THROWS_AS(mcp::decode<rt::defaults_def>(json{{"query", "x"}, {"dry_run", true}}), mcp::decode_error);
}

TEST_CASE("reflect: declared defaults fill absent fields", "[reflect]") {
  // mcp::default_value fills an absent field even when it differs from the initializer.
  const auto e = mcp::decode<rt::everything>(
      [] {
        json j = mcp::encode(sample_everything());
        j.erase("level");
        j.erase("retries");
        return j;
      }());
  CHECK(e.level == 2);
  CHECK(e.retries == 3);

  // absent optional -> nullopt; null -> nullopt
  const auto a = mcp::decode<rt::create_note_args>(json{{"title", "t"}, {"body", "b"}});
  CHECK_FALSE(a.limit.has_value());
  CHECK(a.vis == rt::visibility::team);
  CHECK_FALSE(mcp::decode<rt::create_note_args>(json{{"title", "t"}, {"body", "b"}, {"limit", nullptr}}).limit);
}

TEST_CASE("reflect: integer ranges in the schema and in decode", "[reflect]") {
  const json& p = mcp::schema_of<rt::everything>()["properties"];
  CHECK(p["u8"]["minimum"] == 0);
  CHECK(p["u8"]["maximum"] == 255);
  CHECK(p["i8"]["minimum"] == -128);
  CHECK(p["i64"]["minimum"].get<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
  // 2^64 - 1 is emitted as the double 2^64: validators that read integers as int64 see -1 otherwise.
  CHECK(p["u64"]["maximum"].is_number_float());
  CHECK(p["u64"]["maximum"].get<double>() == 18446744073709551616.0);
  CHECK(p["u32"]["maximum"].get<std::uint64_t>() == std::numeric_limits<std::uint32_t>::max());
  compiled_schema u64(mcp::schema_of<std::uint64_t>());
  CHECK(u64.why_not(5) == "");
  CHECK(u64.why_not(std::numeric_limits<std::int64_t>::max()) == "");
  CHECK_FALSE(u64.accepts(-1));
  CHECK(p["percent"]["minimum"] == 0);
  CHECK(p["percent"]["maximum"] == 100);
  CHECK_FALSE(p["ratio"].contains("minimum"));
  CHECK(mcp::schema_of<std::uint16_t>() == json({{"type", "integer"}, {"minimum", 0}, {"maximum", 65535}}));

  CHECK(mcp::decode<std::uint8_t>(255) == 255);
  CHECK(mcp::decode<std::uint8_t>(json(5.0)) == 5);  // a whole number written as a float
  CHECK(mcp::decode<std::int64_t>(json(std::numeric_limits<std::int64_t>::min())) ==
        std::numeric_limits<std::int64_t>::min());
  CHECK(mcp::decode<std::uint64_t>(json(std::numeric_limits<std::uint64_t>::max())) ==
        std::numeric_limits<std::uint64_t>::max());
  std::string reason;
  CHECK(error_pointer<std::uint8_t>(256, &reason).empty());
  CHECK(reason == "integer 256 is out of range [0, 255]");
  CHECK(error_pointer<std::uint32_t>(-1) == "");
  CHECK(error_pointer<std::int8_t>(-129) == "");
  CHECK(error_pointer<std::int64_t>(json(std::numeric_limits<std::uint64_t>::max())) == "");
  CHECK(error_pointer<std::int64_t>(json(9.3e18)) == "");  // beyond int64 as a float
  CHECK(error_pointer<int>(json(1.5), &reason) == "");
  CHECK(reason.find("not a whole number") != std::string::npos);
  CHECK(error_pointer<int>(json("5"), &reason) == "");
  CHECK(reason == "expected an integer, got string \"5\"");
  CHECK(error_pointer<float>(json(1e300)) == "");
  CHECK(error_pointer<bool>(json(1)) == "");
  CHECK(error_pointer<double>(json(1)) == "<none>");
}

TEST_CASE("reflect: decode errors carry the JSON Pointer of the bad value", "[reflect]") {
  json good = mcp::encode(sample_everything());
  auto pointer_with = [&](const std::string& path, json value) {
    json j = good;
    j[json::json_pointer(path)] = std::move(value);
    return error_pointer<rt::everything>(j);
  };
  CHECK(pointer_with("/path/1/y", "up") == "/path/1/y");
  CHECK(pointer_with("/places/home/x", nullptr) == "/places/home/x");
  CHECK(pointer_with("/palette/1", "purple") == "/palette/1");
  CHECK(pointer_with("/maybe_point/x", true) == "/maybe_point/x");
  CHECK(pointer_with("/tags/0", 1) == "/tags/0");
  CHECK(pointer_with("/rgb", {1, 2}) == "/rgb");
  CHECK(pointer_with("/labels", {"x", "x"}) == "/labels/1");
  CHECK(pointer_with("/u8", -1) == "/u8");
  CHECK(pointer_with("/shape", {{"radius", 1}}) == "/shape");
  CHECK(pointer_with("/origin/z", 1) == "/origin/z");

  std::string reason;
  json missing = good;
  missing.erase("text");
  CHECK(error_pointer<rt::everything>(missing, &reason) == "/text");
  CHECK(reason == "missing required property \"text\"");

  CHECK(error_pointer<rt::create_note_args>({{"title", "t"}, {"body", "b"}, {"vis", "public"}}, &reason) == "/vis");
  CHECK(reason == "unknown value \"public\"; expected one of \"private\", \"team\"");
  CHECK(error_pointer<rt::create_note_args>({{"title", "t"}, {"body", "b"}, {"titel", "x"}}, &reason) == "/titel");
  CHECK(reason == "unknown property \"titel\"; expected title, body, vis, limit");
  CHECK(error_pointer<rt::create_note_args>(json::array(), &reason) == "");
  CHECK(reason == "expected an object, got array []");

  // Keys with '/' and '~' are escaped in the pointer.
  CHECK(error_pointer<rt::odd_keys>({{"by_path", {{"a/b~c", "x"}}}}) == "/by_path/a~1b~0c");

  // The message of what() gives both.
  try {
    (void)mcp::decode<rt::numbers>({{"ints", {1, "two"}}, {"unique", json::array()}});
    FAIL("no exception");
  } catch (const mcp::decode_error& e) {
    CHECK(std::string(e.what()) == "/ints/1: expected an integer, got string \"two\"");
  }
}

TEST_CASE("reflect: a variant is anyOf its alternatives and decodes to the first that takes the value", "[reflect]") {
  using shape = std::variant<rt::circle, rt::square>;
  const auto c = mcp::decode<shape>({{"center", {{"x", 1}, {"y", 1}}}, {"radius", 2}});
  REQUIRE(c.index() == 0);
  CHECK(std::get<rt::circle>(c).radius == 2);
  std::string reason;
  CHECK(error_pointer<shape>({{"radius", 2}}, &reason) == "");
  CHECK(reason.find("matches none of the 2 alternatives") == 0);
  CHECK(reason.find("/center: missing required property") != std::string::npos);

  const json& schema = mcp::schema_of<shape>();
  CHECK_FALSE(schema.contains("oneOf"));
  REQUIRE(schema["anyOf"].size() == 2);
  CHECK(schema["anyOf"][0] == mcp::schema_of<rt::circle>());

  // 3 is an int and a double to JSON Schema: anyOf takes it (oneOf refused it), and a number goes
  // to the alternative of the kind it is written in, in either order of the alternatives.
  const mcp::validator numbers(mcp::schema_of<std::variant<int, double>>(), mcp::validator::root::any);
  CHECK(numbers.validate(3).empty());
  CHECK(std::get<int>(mcp::decode<std::variant<int, double>>(3)) == 3);
  CHECK(std::get<int>(mcp::decode<std::variant<double, int>>(3)) == 3);
  CHECK(std::get<double>(mcp::decode<std::variant<int, double>>(json(3.0))) == 3.0);
  CHECK(std::get<double>(mcp::decode<std::variant<double, int>>(json::parse("3e0"))) == 3.0);
  CHECK(std::get<double>(mcp::decode<std::variant<int, double>>(2.5)) == 2.5);
  // An integer beyond the integer alternative's range goes to the double; a whole float with no
  // double to go to goes to the integer.
  CHECK(std::get<double>(mcp::decode<std::variant<int, double>>(json(std::int64_t{1} << 40))) == 1099511627776.0);
  CHECK(std::get<int>(mcp::decode<std::variant<int, std::string>>(json(5.0))) == 5);
  // Two alternatives that both take the value: the first declared wins.
  CHECK(mcp::decode<std::variant<rt::maybe_a, rt::maybe_b>>(json::object()).index() == 0);
  CHECK(mcp::decode<std::variant<rt::maybe_a, rt::maybe_b>>(json{{"b", "x"}}).index() == 1);
  CHECK(mcp::decode<std::variant<rt::color, std::string>>("red").index() == 0);
  CHECK(mcp::decode<std::variant<rt::color, std::string>>("pink").index() == 1);
}

TEST_CASE("reflect: only a constraint lets a value break its type's schema", "[reflect]") {
  using mcp::detail::may_break_schema;
  CHECK_FALSE(may_break_schema<rt::kinds>());
  CHECK_FALSE(may_break_schema<rt::tree>());      // recursive: the walk ends
  CHECK_FALSE(may_break_schema<rt::employee>());  // mutually recursive
  CHECK_FALSE(may_break_schema<std::map<std::string, std::optional<rt::point>>>());
  CHECK_FALSE(may_break_schema<std::set<std::string>>());
  CHECK_FALSE(may_break_schema<rt::defaults>());  // default_value only describes
  CHECK(may_break_schema<rt::everything>());
  CHECK(may_break_schema<rt::create_note_args>());              // min_length
  CHECK(may_break_schema<std::vector<rt::circle>>());           // exclusive_minimum, in an item
  CHECK(may_break_schema<std::variant<int, rt::square>>());     // minimum, in an alternative
  CHECK(may_break_schema<std::optional<rt::numbers>>() == false);
  CHECK(may_break_schema<std::set<rt::maybe_a>>());             // items the set may tell apart by less than their JSON
}

TEST_CASE("reflect: float carries its range; a bound looser than the type's range is dropped", "[reflect]") {
  const json& f = mcp::schema_of<float>();
  CHECK(f["minimum"] == -static_cast<double>(std::numeric_limits<float>::max()));
  CHECK(f["maximum"] == static_cast<double>(std::numeric_limits<float>::max()));
  CHECK(mcp::schema_of<double>() == json{{"type", "number"}});  // no text beyond double parses
  CHECK_THROWS(json::parse("1e400"));

  const mcp::validator v(mcp::schema_of<rt::bounded>());
  auto accepted = [&](const char* field, json value) {
    json args = mcp::encode(rt::bounded{});
    args[field] = value;
    const bool valid = v.validate(args).empty();
    bool decodes = true;
    try {
      (void)mcp::decode<rt::bounded>(args);
    } catch (const mcp::decode_error&) {
      decodes = false;
    }
    if (valid) CHECK(decodes);  // what validates decodes
    return valid;
  };
  CHECK(accepted("f32", 3.0e38));
  CHECK_FALSE(accepted("f32", 1e39));
  CHECK_FALSE(accepted("f32", -1e39));
  CHECK(accepted("f32", static_cast<double>(std::numeric_limits<float>::max())));
  CHECK_FALSE(accepted("f32", std::nextafter(static_cast<double>(std::numeric_limits<float>::max()), 1e300)));
  CHECK(accepted("f64", 1e300));

  const json& p = mcp::schema_of<rt::bounded>()["properties"];
  // mcp::minimum(-1000) on a uint8_t would let -5 through to a failing decode: the type's 0 stays.
  CHECK(p["u8_loose"]["minimum"] == 0);
  CHECK(p["u8_loose"]["maximum"] == 255);
  CHECK_FALSE(accepted("u8_loose", -5));
  CHECK(p["f32_loose"]["maximum"] == static_cast<double>(std::numeric_limits<float>::max()));
  CHECK_FALSE(accepted("f32_loose", 1e39));
  // Tighter bounds replace the type's.
  CHECK(p["unit"] == json{{"type", "number"}, {"minimum", 0}, {"maximum", 1}, {"description", "0 to 1"}});
  CHECK_FALSE(accepted("unit", 1.5));
  CHECK(p["positive"]["exclusiveMinimum"] == 0);
  CHECK_FALSE(p["positive"].contains("minimum"));
  CHECK(p["positive"]["maximum"] == 255);
  // Both a lower bound and an exclusive one: both kept, the type's dropped.
  CHECK(p["both"]["minimum"] == 2);
  CHECK(p["both"]["exclusiveMinimum"] == 1);
  CHECK(p["both"]["maximum"] == std::numeric_limits<std::int16_t>::max());
}

TEST_CASE("reflect: recursive types use $defs and $ref", "[reflect]") {
  const json& schema = mcp::schema_of<rt::tree>();
  check_golden<rt::tree>("tree.json");
  CHECK(schema["type"] == "object");
  CHECK(schema["properties"]["children"]["items"] == json({{"$ref", "#/$defs/tree"}}));
  CHECK(schema["$defs"]["tree"]["properties"]["children"]["items"]["$ref"] == "#/$defs/tree");

  compiled_schema v(schema);
  const json deep = json::parse(R"({"name":"a","children":[{"name":"b","children":[{"name":"c","children":[]}]}]})");
  CHECK(v.accepts(deep));
  json bad = deep;
  bad["children"][0]["children"][0]["name"] = 5;
  CHECK_FALSE(v.accepts(bad));
  CHECK(error_pointer<rt::tree>(bad) == "/children/0/children/0/name");

  const auto t = mcp::decode<rt::tree>(deep);
  REQUIRE(t.children.size() == 1);
  CHECK(t.children[0].children[0].name == "c");
  CHECK(mcp::encode(t) == deep);

  // Mutual recursion: employee -> department -> employee.
  const json& org = mcp::schema_of<rt::employee>();
  CHECK(org["properties"]["manages"]["items"]["properties"]["staff"]["items"] == json({{"$ref", "#/$defs/employee"}}));
  CHECK(org["$defs"].size() == 1);
  compiled_schema vo(org);
  CHECK(vo.accepts(json::parse(R"({"name":"a","manages":[{"title":"t","staff":[{"name":"b","manages":[]}]}]})")));
  CHECK_FALSE(vo.accepts(json::parse(R"({"name":"a","manages":[{"title":"t","staff":[{"name":"b"}]}]})")));
  // A non-recursive struct has no $defs.
  CHECK_FALSE(mcp::schema_of<rt::everything>().contains("$defs"));
}

TEST_CASE("reflect: private members through MCP_STRUCT_FRIEND", "[reflect]") {
  const rt::account a("ann", 1200);
  const json j = mcp::encode(a);
  CHECK(j == json({{"owner_", "ann"}, {"balance_", 1200}}));
  const auto back = mcp::decode<rt::account>(j);
  CHECK(back.owner() == "ann");
  CHECK(back.balance() == 1200);
  CHECK(mcp::schema_of<rt::account>()["required"] == json({"owner_", "balance_"}));
}

TEST_CASE("reflect: a struct with no fields", "[reflect]") {
  CHECK(mcp::schema_of<rt::no_args>() ==
        json({{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}));
  CHECK(mcp::encode(rt::no_args{}) == json::object());
  (void)mcp::decode<rt::no_args>(json::object());
  std::string reason;
  CHECK(error_pointer<rt::no_args>({{"x", 1}}, &reason) == "/x");
  CHECK(reason == "unknown property \"x\"; expected no properties");
}

TEST_CASE("reflect: 128 fields and 128 enumerators", "[reflect]") {
  const json& schema = mcp::schema_of<rt::wide>();
  REQUIRE(schema["properties"].size() == 128);
  CHECK(schema["required"].size() == 128);
  CHECK(mcp::schema_of_ordered<rt::wide>()["required"][127] == "f127");
  CHECK(schema["properties"]["f127"]["description"] == "field 127");
  rt::wide w{};
  w.f0 = 1;
  w.f63 = 63;
  w.f127 = 127;
  const auto back = round_trip(w);
  CHECK(back.f0 == 1);
  CHECK(back.f63 == 63);
  CHECK(back.f127 == 127);
  CHECK_NOTHROW(compiled_schema{schema});

  const json& e = mcp::schema_of<rt::many>();
  REQUIRE(e["enum"].size() == 128);
  CHECK(e["enum"][127] == "v127");
  for (int i = 0; i < 128; ++i) {
    const auto v = static_cast<rt::many>(i);
    CHECK(mcp::decode<rt::many>(mcp::encode(v)) == v);
  }
  CHECK(mcp::encode(rt::many::e64) == "v64");
}

TEST_CASE("reflect: enum descriptions and names", "[reflect]") {
  const json& s = mcp::schema_of<rt::color>();
  CHECK(s["enum"] == json({"red", "green", "blue"}));
  CHECK(s["description"] == "Values:\n- \"red\": Warm\n- \"green\"\n- \"blue\"");
  // an unlisted value cannot be encoded
  CHECK_THROWS_AS(mcp::encode(static_cast<rt::color>(42)), mcp::error);
}

// Each thread asks for a schema no one has built yet, all at once: every one must get the same
// object, built once. (Asking on this thread first, as this test once did, built it before the
// threads started, so neither a rebuild on every call nor a per-thread copy made it fail.)
template <class T>
void check_built_once_across_threads() {
  const int before = rt::counting::constructions;
  constexpr int threads = 8;
  std::atomic<int> waiting{threads};
  std::vector<const json*> shared(threads, nullptr);
  std::vector<const nlohmann::ordered_json*> ordered(threads, nullptr);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i)
    pool.emplace_back([&, i] {
      for (--waiting; waiting > 0;) std::this_thread::yield();  // start together
      shared[static_cast<std::size_t>(i)] = &mcp::schema_of<T>();
      ordered[static_cast<std::size_t>(i)] = &mcp::schema_of_ordered<T>();
    });
  for (auto& t : pool) t.join();
  const int built = rt::counting::constructions - before;
  for (int i = 0; i < threads; ++i) {
    CHECK(shared[static_cast<std::size_t>(i)] == &mcp::schema_of<T>());
    CHECK(ordered[static_cast<std::size_t>(i)] == &mcp::schema_of_ordered<T>());
  }
  CHECK(*shared[0] == mcp::detail::convert_json<json>(mcp::detail::build_schema<T>()));
  // The required rule looks at declarations, not values: building a schema makes no T at all.
  CHECK(built == 0);
  CHECK(rt::counting::constructions - before == 0);
}

TEST_CASE("reflect: schemas are built once and shared across threads", "[reflect]") {
  check_built_once_across_threads<rt::counted_a>();
  check_built_once_across_threads<rt::counted_b>();  // the first type's build must not stand in for this one's
}

TEST_CASE("reflect: every schema in this file parses as draft-07 in valijson", "[reflect]") {
  const std::vector<json> schemas{
      mcp::schema_of<rt::create_note_args>(), mcp::schema_of<rt::everything>(), mcp::schema_of<rt::tree>(),
      mcp::schema_of<rt::employee>(),         mcp::schema_of<rt::department>(), mcp::schema_of<rt::account>(),
      mcp::schema_of<rt::no_args>(),          mcp::schema_of<rt::defaults>(),   mcp::schema_of<rt::odd_keys>(),
      mcp::schema_of<rt::numbers>(),          mcp::schema_of<rt::wide>(),       mcp::schema_of<rt::many>(),
      mcp::schema_of<rt::color>(),            mcp::schema_of<std::variant<rt::circle, rt::square>>()};
  for (const auto& s : schemas) {
    INFO(s.dump());
    CHECK_NOTHROW(compiled_schema{s});
  }
  compiled_schema d(mcp::schema_of<rt::defaults>());
  CHECK(d.accepts({{"empty", ""}, {"seven", 1}, {"hello", ""}}));
  CHECK_FALSE(d.accepts({{"empty", ""}}));
  CHECK_FALSE(d.accepts({{"empty", ""}, {"seven", 1}, {"hello", ""}, {"five", "5"}}));
  compiled_schema n(mcp::schema_of<rt::numbers>());
  CHECK(n.accepts({{"ints", {1, 1}}, {"unique", {1, 2}}}));
  CHECK_FALSE(n.accepts({{"ints", {1, 1}}, {"unique", {2, 2}}}));
}

}  // namespace

namespace {

// Random values of every reflected type, to compare the two ways of writing them.
struct value_maker {
  std::mt19937_64 rng;
  int depth = 0;
  bool finite = false;  // only what JSON text carries: no NaN or infinity, no invalid UTF-8

  std::size_t below(std::size_t n) { return static_cast<std::size_t>(rng() % n); }

  std::string text() {
    // Plain letters, characters that need escaping, valid multi-byte sequences and invalid bytes.
    static const std::vector<std::string> pieces = {"a",  "Z",  " ",  "\"", "\\", "/",    "\n", "\t", std::string(1, '\0'),
                                                    "\x1f", "\x7f", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                                    "{\"k\":1}", "\xC3", "\xFF", "\xED\xA0\x80"};
    const std::size_t valid_utf8 = pieces.size() - 3;
    std::string s;
    for (std::size_t n = below(8); n > 0; --n) s += pieces[below(finite ? valid_utf8 : pieces.size())];
    return s;
  }

  double real() {
    if (finite) {
      for (;;)
        if (const double d = any_real(); std::isfinite(d)) return d;
    }
    return any_real();
  }

  double any_real() {
    switch (below(6)) {
      case 0: return static_cast<double>(static_cast<std::int64_t>(rng() >> below(64)));  // whole numbers, some huge
      case 1: return std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(below(200)) - 100);
      case 2: {
        const std::uint64_t bits = rng();  // anything, NaN and infinities included
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
      }
      case 3: return below(2) ? -0.0 : 0.0;
      case 4: return 1e15 * (below(2) ? 1 : -1) + static_cast<double>(below(3));
      default: return static_cast<double>(below(1000)) / 8.0 - 60;
    }
  }

  template <class I>
  I integer() {
    using limits = std::numeric_limits<I>;
    switch (below(4)) {
      case 0: return limits::min();
      case 1: return limits::max();
      case 2: return static_cast<I>(below(200)) - static_cast<I>(limits::is_signed ? 100 : 0);
      default: return static_cast<I>(rng());
    }
  }

  json any_json() {
    switch (below(depth > 2 ? 5 : 7)) {
      case 0: return nullptr;
      case 1: return below(2) == 1;
      case 2: return integer<std::int64_t>();
      case 3: return real();
      case 4: return text();
      case 5: {
        ++depth;
        json a = json::array();
        for (std::size_t n = below(4); n > 0; --n) a.push_back(any_json());
        --depth;
        return a;
      }
      default: {
        ++depth;
        json o = json::object();
        for (std::size_t n = below(4); n > 0; --n) o[text()] = any_json();
        --depth;
        return o;
      }
    }
  }

  template <class T>
  void fill(T& out) {
    using mcp::detail::is_optional;
    if constexpr (std::is_same_v<T, bool>) {
      out = below(2) == 1;
    } else if constexpr (mcp::detail::is_integer_v<T>) {
      out = integer<T>();
    } else if constexpr (std::is_floating_point_v<T>) {
      using limits = std::numeric_limits<T>;
      switch (below(8)) {
        case 0: out = below(2) ? limits::max() : limits::lowest(); break;
        case 1: out = below(2) ? limits::denorm_min() : limits::min(); break;
        default: {
          double d = real();
          while (finite && std::fabs(d) > static_cast<double>(limits::max())) d = real();
          out = static_cast<T>(d);
        }
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      out = text();
    } else if constexpr (std::is_same_v<T, json>) {
      out = any_json();
    } else if constexpr (is_optional<T>::value) {
      if (below(2) == 0 || depth > 3) {
        out.reset();
      } else {
        out.emplace();
        fill(*out);
      }
    } else if constexpr (mcp::detail::is_std_array<T>::value) {
      for (auto& item : out) fill(item);
    } else if constexpr (mcp::detail::is_vector<T>::value || mcp::detail::is_set<T>::value) {
      out.clear();
      ++depth;
      for (std::size_t n = depth > 3 ? 0 : below(4); n > 0; --n) {
        typename T::value_type item{};
        fill(item);
        out.insert(out.end(), std::move(item));
      }
      --depth;
    } else if constexpr (mcp::detail::is_string_map<T>::value) {
      out.clear();
      ++depth;
      for (std::size_t n = depth > 3 ? 0 : below(4); n > 0; --n) fill(out[text()]);
      --depth;
    } else if constexpr (mcp::detail::is_variant<T>::value) {
      fill_variant(out, below(std::variant_size_v<T>), std::make_index_sequence<std::variant_size_v<T>>{});
    } else if constexpr (mcp::is_reflected_enum_v<T>) {
      const auto& entries = mcp::detail::enum_table_of<T>().entries;
      out = entries[below(entries.size())].value;
    } else {
      mcp::detail::for_each_field(mcp::detail::fields_of<T>(), [&](const auto& f, auto) { fill(out.*f.member); });
    }
  }

  template <class V, std::size_t... I>
  void fill_variant(V& out, std::size_t which, std::index_sequence<I...>) {
    ((which == I ? (out.template emplace<I>(), fill(std::get<I>(out)), 0) : 0), ...);
  }
};

// The oracle for write_encoded: encode's tree, built again as an ordered_json whose struct members
// go in declaration order (a string map's keys stay sorted, as a json object keeps them).
template <class T>
nlohmann::ordered_json ordered_encode(const T& value) {
  using ordered = nlohmann::ordered_json;
  namespace d = mcp::detail;
  if constexpr (d::has_json_type_v<T> || mcp::is_reflected_enum_v<T> || std::is_arithmetic_v<T> || d::is_string_v<T> ||
                std::is_same_v<T, json>) {
    return d::convert_json<ordered>(mcp::encode(value));
  } else if constexpr (d::is_optional<T>::value) {
    return value ? ordered_encode(*value) : ordered();
  } else if constexpr (d::is_array_like_v<T>) {
    ordered out = ordered::array();
    for (const auto& item : value) out.push_back(ordered_encode(static_cast<const typename T::value_type&>(item)));
    return out;
  } else if constexpr (d::is_string_map<T>::value) {
    std::map<std::string, ordered> sorted;
    for (const auto& [key, item] : value) sorted[key] = ordered_encode(item);
    ordered out = ordered::object();
    for (auto& [key, item] : sorted) out[key] = std::move(item);
    return out;
  } else if constexpr (d::is_variant<T>::value) {
    return std::visit([](const auto& alternative) { return ordered_encode(alternative); }, value);
  } else {
    ordered out = ordered::object();
    d::for_each_field(d::fields_of<T>(), [&](const auto& f, auto) {
      const auto& member = value.*f.member;
      using M = typename std::decay_t<decltype(f)>::member_type;
      if constexpr (d::is_optional<M>::value) {
        if (!member) return;
      }
      out[f.name] = ordered_encode(member);
    });
    return out;
  }
}

template <class T>
void check_written_like_encode(value_maker& make, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    T value{};
    make.fill(value);
    const std::string expected = ordered_encode(value).dump(-1, ' ', false, json::error_handler_t::replace);
    std::string written = "prefix:";  // appends, never overwrites
    mcp::detail::write_encoded(value, written);
    REQUIRE(written == "prefix:" + expected);
    if (i < 50)  // the oracle holds encode's tree (checked on a sample: two parses cost more than the rest)
      REQUIRE(json::parse(expected) == json::parse(mcp::detail::to_json_text(mcp::encode(value))));
  }
}

}  // namespace

// The same C++ value: numbers bit for bit (so 0.0 is not -0.0), variants holding the same alternative.
template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a == b && std::signbit(a) == std::signbit(b);
  } else if constexpr (std::is_same_v<T, json>) {
    return a.dump() == b.dump();  // json's == takes 5 for 5.0
  } else if constexpr (mcp::detail::is_optional<T>::value) {
    return a.has_value() == b.has_value() && (!a || same_value(*a, *b));
  } else if constexpr (mcp::detail::is_array_like_v<T>) {
    if (a.size() != b.size()) return false;
    return std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
      return same_value<typename T::value_type>(x, y);
    });
  } else if constexpr (mcp::detail::is_string_map<T>::value) {
    if (a.size() != b.size()) return false;
    return std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
      return x.first == y.first && same_value(x.second, y.second);
    });
  } else if constexpr (mcp::detail::is_variant<T>::value) {
    return a.index() == b.index() &&
           std::visit([&](const auto& x) { return same_value(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
  } else if constexpr (mcp::is_reflected_v<T>) {
    bool same = true;
    mcp::detail::for_each_field(mcp::detail::fields_of<T>(),
                                [&](const auto& f, auto) { same = same && same_value(a.*f.member, b.*f.member); });
    return same;
  } else {
    return a == b;
  }
}

std::string listed(const std::vector<mcp::violation>& problems) {
  std::string out;
  for (const auto& p : problems) out += "\n  " + p.pointer + " (" + p.keyword + "): " + p.message;
  return out;
}

// Random T values: encoded, each validates against schema_of<T>(); sent as text and read back,
// each decodes to the same value, of the same variant alternatives.
template <class T>
void check_encoded_values_validate_and_decode(value_maker& make, int rounds) {
  const mcp::validator v(mcp::schema_of<T>(), mcp::validator::root::any);
  for (int i = 0; i < rounds; ++i) {
    T value{};
    make.fill(value);
    const json tree = mcp::encode(value);
    const json wire = json::parse(mcp::detail::to_json_text(tree));  // numbers as a client reads them
    INFO(wire.dump());
    for (const json* j : {&tree, &wire}) {
      const auto problems = v.validate(*j);
      INFO(listed(problems));
      REQUIRE(problems.empty());
      T back{};
      REQUIRE_NOTHROW(back = mcp::decode<T>(*j));
      REQUIRE(same_value(value, back));
    }
  }
}

// Values that stress a schema's edges: the ends of each integer and float range, a step past
// them, whole numbers written as floats, and values of every other kind.
std::vector<json> edge_values() {
  const double float_max = std::numeric_limits<float>::max();
  std::vector<json> out = {0,     -1,    1,     json(0.0), json(-0.0), json(5.0), 2.5, json(127.0), 128,
                           -129,  255,   256,   65536,     -32769,     json(1e39), json(-1e39), float_max,
                           -float_max, std::nextafter(float_max, 1e300), 1e300, json(9.3e18), nullptr, true, false,
                           "",    "red", "x",   json::array(), json::object(), json::array({1, 2}),
                           json{{"x", 1}, {"y", 2}}, json{{"a", 1}}, json{{"b", "s"}}};
  for (std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                         std::int64_t{std::numeric_limits<std::int32_t>::min()} - 1,
                         std::int64_t{std::numeric_limits<std::uint32_t>::max()} + 1})
    out.push_back(v);
  out.push_back(std::numeric_limits<std::uint64_t>::max());
  out.push_back(json(18446744073709551616.0));  // 2^64: one past uint64_t, as a float
  out.push_back(json(-9223372036854775808.0));  // -2^63 as a float: in int64_t's range
  return out;
}

// Every pointer in j, the root ("") included.
void pointers_of(const json& j, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string member = at;
      mcp::detail::append_pointer_token(member, it.key());
      pointers_of(*it, member, out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) pointers_of(j[i], at + "/" + std::to_string(i), out);
  }
}

// Encoded T values with one part replaced by an edge value (or an object member dropped): every
// one that validates against schema_of<T>() must decode, and its decoded value validate again.
template <class T>
int check_valid_values_decode(value_maker& make, int rounds) {
  const mcp::validator v(mcp::schema_of<T>(), mcp::validator::root::any);
  static const std::vector<json> edges = edge_values();
  int valid = 0;
  for (int i = 0; i < rounds; ++i) {
    T value{};
    make.fill(value);
    json j = mcp::encode(value);
    std::vector<std::string> where;
    pointers_of(j, "", where);
    const std::string at = where[make.below(where.size())];
    if (!at.empty() && make.below(4) == 0) {
      const json::json_pointer p(at);
      json& parent = j[p.parent_pointer()];
      if (parent.is_object()) parent.erase(p.back());
    } else {
      j[json::json_pointer(at)] = edges[make.below(edges.size())];
    }
    if (!v.validate(j).empty()) continue;
    ++valid;
    INFO(j.dump());
    T back{};
    REQUIRE_NOTHROW(back = mcp::decode<T>(j));
    INFO(mcp::encode(back).dump());
    CHECK(v.validate(mcp::encode(back)).empty());
  }
  return valid;
}

// Each edge value that validates against schema_of<T>() decodes as T; returns how many did.
template <class T>
int check_edges_decode() {
  const mcp::validator v(mcp::schema_of<T>(), mcp::validator::root::any);
  int valid = 0;
  for (const json& j : edge_values()) {
    if (!v.validate(j).empty()) continue;
    ++valid;
    INFO(mcp::schema_of<T>().dump() << " takes " << j.dump());
    CHECK_NOTHROW(mcp::decode<T>(j));
  }
  return valid;
}

TEST_CASE("reflect: what a type encodes validates against its schema, and what validates decodes", "[reflect]") {
  // Every edge value against every scalar type (each takes some, so the checks run).
  CHECK(check_edges_decode<std::int8_t>() > 0);
  CHECK(check_edges_decode<std::uint8_t>() > 0);
  CHECK(check_edges_decode<std::int16_t>() > 0);
  CHECK(check_edges_decode<std::uint16_t>() > 0);
  CHECK(check_edges_decode<std::int32_t>() > 0);
  CHECK(check_edges_decode<std::uint32_t>() > 0);
  CHECK(check_edges_decode<std::int64_t>() > 0);
  CHECK(check_edges_decode<std::uint64_t>() > 0);
  CHECK(check_edges_decode<long long>() > 0);
  CHECK(check_edges_decode<float>() > 0);
  CHECK(check_edges_decode<double>() > 0);
  CHECK(check_edges_decode<bool>() > 0);
  CHECK(check_edges_decode<std::string>() > 0);
  CHECK(check_edges_decode<rt::color>() > 0);
  CHECK(check_edges_decode<std::optional<std::int8_t>>() > 0);
  CHECK(check_edges_decode<std::variant<std::int64_t, double>>() > 0);
  CHECK(check_edges_decode<std::variant<double, std::uint8_t>>() > 0);
  CHECK(check_edges_decode<std::variant<std::uint8_t, float, std::string, bool>>() > 0);
  CHECK(check_edges_decode<std::variant<rt::maybe_a, rt::maybe_b, rt::point>>() > 0);
  CHECK(check_edges_decode<std::vector<std::uint8_t>>() > 0);


  value_maker make{std::mt19937_64(20260519)};
  make.finite = true;
  check_encoded_values_validate_and_decode<rt::kinds>(make, 300);
  check_encoded_values_validate_and_decode<rt::tree>(make, 200);
  check_encoded_values_validate_and_decode<rt::department>(make, 200);
  check_encoded_values_validate_and_decode<std::variant<std::int64_t, double>>(make, 200);
  check_encoded_values_validate_and_decode<std::vector<std::variant<float, std::uint64_t, std::string>>>(make, 200);
  check_encoded_values_validate_and_decode<std::map<std::string, std::optional<std::uint64_t>>>(make, 200);

  // Alternatives that accept the same JSON: the first declared takes it, so the value may come
  // back as another alternative, but its JSON is the same and validates.
  const mcp::validator overlapping(mcp::schema_of<std::variant<rt::maybe_a, rt::maybe_b>>(), mcp::validator::root::any);
  for (const auto& value : {std::variant<rt::maybe_a, rt::maybe_b>(rt::maybe_b{}),
                            std::variant<rt::maybe_a, rt::maybe_b>(rt::maybe_b{"x"})}) {
    const json j = mcp::encode(value);
    CHECK(overlapping.validate(j).empty());
    CHECK(mcp::encode(mcp::decode<std::variant<rt::maybe_a, rt::maybe_b>>(j)) == j);
  }

  CHECK(check_valid_values_decode<rt::kinds>(make, 1500) > 300);
  CHECK(check_valid_values_decode<rt::tree>(make, 300) > 8);
  CHECK(check_valid_values_decode<std::variant<std::int64_t, double>>(make, 300) > 100);
  CHECK(check_valid_values_decode<std::vector<std::variant<float, std::uint64_t, std::string>>>(make, 300) > 50);
}

// The compile-time check of duplicate JSON names reads each field's name from its items' text.
namespace static_names_check {
using mcp::detail::static_name_of;
static_assert(static_name_of("dry_run", R"t("Only check", mcp::default_value(false), mcp::json_name("x"))t").json == "x");
static_assert(static_name_of("dry_run", R"t("Only check", mcp :: json_name ( "a" ), mcp::json_name("b"))t").json == "b");
static_assert(static_name_of("limit", R"t("Max, see json_name(\"x\")", mcp::maximum(5))t").json == "limit");
static_assert(static_name_of("limit", R"t(R"d(json_name("x"))d", mcp::maximum(5))t").json == "limit");
static_assert(static_name_of("limit", "").json == "limit");
static_assert(static_name_of("id", R"t("Id", mcp::json_name(kName))t").json.empty());     // known at run time only
static_assert(static_name_of("id", R"t("Id", mcp::json_name("a\"b"))t").json.empty());    // an escape: left to run time
static_assert(static_name_of("id", R"t("Id", mcp::json_name("a" "b"))t").json.empty());   // concatenated literals too
static_assert(mcp::detail::json_name_shared(
    mcp::detail::static_names(static_name_of("a", R"t(mcp::json_name("x"))t"), static_name_of("x", "")), "x"));
static_assert(!mcp::detail::json_name_shared(
    mcp::detail::static_names(static_name_of("a", R"t(mcp::json_name(v))t"), static_name_of("x", "")), "x"));
// Of the two fields, only the second is reported (one mistake, one error).
static_assert(!mcp::detail::json_name_shared(
    mcp::detail::static_names(static_name_of("a", R"t(mcp::json_name("x"))t"), static_name_of("x", "")), "a"));

// MCP_STRUCT_DEF's check of a member named like its type (tests/compile_fail/member_named_like_type*):
// unqualified uses of the member's name in the type are refused, qualified or elaborated ones and
// longer names that contain it are not.
using mcp::detail::type_names_member;
static_assert(type_names_member("visibility", "visibility"));
static_assert(type_names_member("std::optional<visibility>", "visibility"));
static_assert(type_names_member("(std::map<std::string, visibility>)", "visibility"));
static_assert(type_names_member("const visibility", "visibility"));
static_assert(!type_names_member("::visibility", "visibility"));
static_assert(!type_names_member("app :: visibility", "visibility"));
static_assert(!type_names_member("std::optional<app::visibility>", "visibility"));
static_assert(!type_names_member("enum visibility", "visibility"));
static_assert(!type_names_member("visibility_level", "visibility"));
static_assert(!type_names_member("std::string", "string"));
static_assert(!type_names_member("int", "count"));
}  // namespace static_names_check

TEST_CASE("reflect: mcp::json_name renames a property; duplicate names are refused", "[reflect]") {
  const json& schema = mcp::schema_of<rt::renamed>();
  CHECK(schema["properties"].contains("private"));
  CHECK(schema["properties"].contains("default"));
  CHECK(schema["properties"].contains("renamed"));
  CHECK(schema["required"] == json({"default", "renamed"}));
  CHECK_FALSE(schema["properties"]["private"].contains("json_name"));
  const auto r = mcp::decode<rt::renamed>(json{{"private", true}, {"default", 3}, {"renamed", "n"}});
  CHECK(r.private_);
  CHECK(r.default_ == 3);
  CHECK(mcp::encode(r) == json{{"private", true}, {"default", 3}, {"renamed", "n"}});
  std::string written;
  mcp::detail::write_encoded(r, written);
  CHECK(written == R"({"private":true,"default":3,"renamed":"n"})");  // declaration order

  std::string message;
  try {
    (void)mcp::schema_of<rt::clashing>();
  } catch (const mcp::error& e) {
    message = e.what();
  }
  CHECK(message.find("MCP_STRUCT(clashing): two fields have the JSON name \"x\"") != std::string::npos);
  CHECK_THROWS_AS(mcp::encode(rt::clashing{}), mcp::error);
}

TEST_CASE("reflect: mcp::json_type maps user types and std::chrono, constraints applying", "[reflect]") {
  using namespace std::chrono;
  const json& schema = mcp::schema_of<rt::mapped>();
  CHECK(schema["properties"]["id"] == json{{"type", "string"}, {"format", "uuid"}, {"description", "Record id"},
                                           {"pattern", "^[0-9a-f-]+$"}});
  CHECK(schema["properties"]["at"]["format"] == "date-time");
  CHECK(schema["properties"]["timeout"]["type"] == "integer");
  CHECK(schema["properties"]["timeout"]["description"] == "How long to wait\nA duration in milliseconds.");
  CHECK(schema["properties"]["timeout"]["default"] == 1500);
  CHECK(schema["properties"]["ttl"]["description"] == "Time to live\nA duration in seconds.");
  CHECK(schema["properties"]["owners"]["additionalProperties"]["format"] == "uuid");
  CHECK(schema["required"] == json({"id", "at", "owners"}));

  rt::mapped m;
  CHECK(m.timeout == milliseconds(1500));
  m.id.text = "123e4567-e89b-12d3-a456-426614174000";
  m.at = system_clock::time_point(seconds(1795796426) + milliseconds(250));
  m.ttl = seconds(90);
  m.owners["a"].text = m.id.text;
  const json j = mcp::encode(m);
  CHECK(j["at"] == "2026-11-27T16:20:26.25Z");
  CHECK(j["timeout"] == 1500);
  CHECK(j["ttl"] == 90);
  std::string written;
  mcp::detail::write_encoded(m, written);
  CHECK(json::parse(written) == j);  // the text path writes what the tree path encodes, in declaration order
  CHECK(written.find("\"id\"") < written.find("\"at\""));
  CHECK(written.find("\"ttl\"") < written.find("\"owners\""));

  const auto back = mcp::decode<rt::mapped>(j);
  CHECK(back.at == m.at);
  CHECK(back.timeout == m.timeout);
  CHECK(back.ttl == m.ttl);
  CHECK(back.owners.at("a").text == m.id.text);
  compiled_schema v(schema);
  CHECK(v.accepts(j));
  json bad_pattern = j;
  bad_pattern["id"] = "123E4567-E89B-12D3-A456-426614174000";
  CHECK_FALSE(v.accepts(bad_pattern));  // the field's pattern applies to the mapped type

  // Offsets, fractions and the epoch's far side.
  using tp = system_clock::time_point;
  auto at = [](const char* text) { return mcp::decode<tp>(json(text)); };
  CHECK(at("2026-11-27T17:20:26.25+01:00") == m.at);
  CHECK(at("1970-01-01T00:00:00Z") == tp());
  CHECK(mcp::encode(tp() - seconds(1)) == "1969-12-31T23:59:59Z");
  CHECK(mcp::encode(time_point<system_clock, seconds>(seconds(951782400))) == "2000-02-29T00:00:00Z");
  CHECK(at("2000-02-29T00:00:00Z") == tp(seconds(951782400)));

  auto reason = [](const json& value) {
    try {
      (void)mcp::decode<rt::mapped>(value);
    } catch (const mcp::decode_error& e) {
      return e.pointer + " " + e.reason;
    }
    return std::string("accepted");
  };
  json bad = j;
  bad["at"] = "2026-02-30T00:00:00Z";
  CHECK(reason(bad) == "/at \"2026-02-30T00:00:00Z\" is not an RFC 3339 date-time such as 2026-11-24T16:20:26Z");
  bad = j;
  bad["timeout"] = 1.5;
  CHECK(reason(bad) == "/timeout expected a whole number of milliseconds, got 1.5");
  bad = j;
  bad["owners"]["a"] = "short";
  CHECK(reason(bad) == "/owners/a not a UUID");
}

TEST_CASE("reflect: mcp::tagged_variant tells structs apart by a named field", "[reflect]") {
  rt::drawing d;
  d.shapes.push_back(rt::circle{{1, 2}, 3});
  d.shapes.push_back(rt::square{{0, 0}, 4});
  const json j = mcp::encode(d);
  CHECK(j["shapes"][0] == json{{"kind", "circle"}, {"center", {{"x", 1.0}, {"y", 2.0}}}, {"radius", 3.0}});
  CHECK(j["shapes"][1]["kind"] == "square");
  std::string written;
  mcp::detail::write_encoded(d, written);
  CHECK(written == mcp::detail::to_json_text(j));

  const auto back = mcp::decode<rt::drawing>(j);
  REQUIRE(back.shapes.size() == 2);
  CHECK(std::get<rt::circle>(back.shapes[0]).radius == 3);
  CHECK(std::get<rt::square>(back.shapes[1]).side == 4);

  const json schema = mcp::schema_of<rt::drawing>()["properties"]["shapes"]["items"];
  REQUIRE(schema["oneOf"].size() == 2);
  CHECK(schema["oneOf"][0]["properties"]["kind"] == json{{"const", "square"}});
  CHECK(schema["oneOf"][1]["required"][0] == "kind");
  compiled_schema v(mcp::schema_of<rt::drawing>());
  CHECK(v.accepts(j));
  json wrong = j;
  wrong["shapes"][0]["kind"] = "square";  // a circle's fields under the square's name
  CHECK_FALSE(v.accepts(wrong));

  auto reason = [](const json& value) {
    try {
      (void)mcp::decode<rt::drawing>(value);
    } catch (const mcp::decode_error& e) {
      return e.pointer + " " + e.reason;
    }
    return std::string("accepted");
  };
  CHECK(reason(wrong) == "/shapes/0/corner missing required property \"corner\"");
  json unknown = j;
  unknown["shapes"][1]["kind"] = "hexagon";
  CHECK(reason(unknown) == "/shapes/1 \"kind\": unknown value \"hexagon\"; expected one of \"square\", \"circle\"");
}

TEST_CASE("reflect: write_encoded writes the text of encode, struct members in declaration order", "[reflect]") {
  value_maker make{std::mt19937_64(20261123)};
  check_written_like_encode<rt::everything>(make, 2000);
  check_written_like_encode<rt::reversed>(make, 2000);
  check_written_like_encode<rt::gaps_around>(make, 500);
  check_written_like_encode<rt::maybe_a>(make, 50);
  check_written_like_encode<rt::tree>(make, 500);
  check_written_like_encode<rt::department>(make, 500);
  check_written_like_encode<rt::no_args>(make, 1);
  check_written_like_encode<std::vector<std::optional<rt::color>>>(make, 200);
  check_written_like_encode<std::variant<std::int64_t, std::string, rt::point>>(make, 200);

  // The sample holds the extremes of every integer type.
  std::string written;
  mcp::detail::write_encoded(sample_everything(), written);
  CHECK(written == ordered_encode(sample_everything()).dump(-1, ' ', false, json::error_handler_t::replace));

  // An enum value with no MCP_ENUM entry fails the same way in both.
  const auto stray = static_cast<rt::color>(42);
  CHECK_THROWS_AS(mcp::encode(stray), mcp::error);
  CHECK_THROWS_AS(mcp::detail::write_encoded(stray, written), mcp::error);
}

}  // namespace test_reflect
