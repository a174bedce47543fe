// The text road of a typed tool (issue #24): its arguments read from their text straight into the
// handler's type (detail::typed_reader), against the tree road (read, the validator of record,
// decode). Whatever the text road accepts, the tree road must accept and decode to an equal value;
// for the types it follows it must give up on nothing the tree road accepts, or it would be a road
// no call takes. tests/fuzz/fuzz_arguments.cpp compares the roads on arbitrary bytes.
#include "catch.hpp"
#include "order_types.hpp"
#include "schema_cases.hpp"
#include "typed_roads.hpp"

#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/core/detail/kept_arguments.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

using mcp::json;

namespace test_typed_reader {  // a namespace per file: CMake's unity build compiles several test files as one

namespace tr {
using order_types::item;
using order_types::order;
using order_types::priority;

struct point {
  double x = 0;
  double y = 0;
};
MCP_STRUCT(point, (x, "X", mcp::minimum(-1000), mcp::maximum(1000)), (y, "Y"));

// Every kind of field the reader follows, with every constraint it checks through the schema.
struct plain {
  std::string title;
  std::optional<std::string> nickname;
  std::string email;
  std::int64_t step = 0;
  std::uint8_t level = 0;
  std::uint64_t huge = 0;
  double ratio = 0.5;
  float single = 0;
  bool flag = false;
  priority prio = priority::low;
  std::optional<priority> accent;
  point origin;
  std::vector<point> path;
  std::vector<std::optional<int>> holes;
  std::optional<std::vector<std::string>> aliases;
  std::vector<std::vector<int>> grid;
};
MCP_STRUCT(plain, (title, "Title", mcp::min_length(1), mcp::max_length(12)), (nickname, "Nickname", mcp::max_length(3)),
           (email, "Mail", mcp::format("email"), mcp::default_value("a@b.c")),
           (step, "Step", mcp::multiple_of(5), mcp::exclusive_maximum(100), mcp::default_value(0)),
           (level, "Level", mcp::default_value(3)), (huge, "Huge", mcp::default_value(0)),
           (ratio, "Ratio", mcp::exclusive_minimum(0), mcp::maximum(1), mcp::default_value(0.5)),
           (single, "Single", mcp::default_value(0.0f)), (flag, "Flag", mcp::default_value(true)),
           (prio, "Priority", mcp::default_value(priority::high)), (accent, "Accent"),
           (origin, "Origin", mcp::default_value(point{1, 2})),
           (path, "Path", mcp::max_items(3), mcp::default_value(std::vector<point>{})),
           (holes, "Holes", mcp::default_value(std::vector<std::optional<int>>{})), (aliases, "Aliases", mcp::min_items(1)),
           (grid, "Grid", mcp::min_items(1), mcp::default_value(std::vector<std::vector<int>>{{0}})));

// Integers of each width against bounds the schema gives as fractions, exclusive or beyond the
// type, and divisors: read without a json on the text road (issue #24's integer lane).
struct counts {
  std::int8_t small = 0;
  std::int64_t step = 0;
  std::uint64_t big = 0;
  std::int32_t below = -1;
  std::uint16_t halves = 0;
  std::vector<std::int64_t> ids;
};
MCP_STRUCT(counts, (small, "Small", mcp::minimum(-3.5), mcp::exclusive_maximum(100.5)),
           (step, "Step", mcp::exclusive_minimum(-9.3e18), mcp::multiple_of(3), mcp::default_value(0)),
           (big, "Big", mcp::maximum(18446744073709551615.0), mcp::default_value(0)),
           (below, "Below", mcp::maximum(-0.5), mcp::default_value(-1)),
           (halves, "Halves", mcp::multiple_of(2.5), mcp::exclusive_minimum(-1), mcp::default_value(0)),
           (ids, "Ids", mcp::max_items(4), mcp::default_value(std::vector<std::int64_t>{})));

// Narrow integers, read below through a schema with no bounds, where only the type's range refuses.
struct narrow {
  std::int8_t n = 0;
  std::uint8_t u = 0;
  std::uint64_t w = 0;
};
MCP_STRUCT(narrow, (n, "N"), (u, "U"), (w, "W"));

// The same kinds of field declared with MCP_STRUCT_DEF, whose every member is a field: an object
// read into again is made fresh in place (no member moved or swapped), its absent fields copied
// from a fresh one.
MCP_STRUCT_DEF(point_def, (double, x, "X", mcp::minimum(-1000), mcp::maximum(1000)), (double, y, "Y", mcp::default_value(-1.0)));
MCP_STRUCT_DEF(plain_def, (std::string, title, "Title", mcp::min_length(1), mcp::max_length(12)),
               (std::optional<std::string>, nickname, "Nickname", mcp::max_length(3)),
               (std::string, email, "Mail", mcp::format("email"), mcp::default_value("a@b.c")),
               (std::int64_t, step, "Step", mcp::multiple_of(5), mcp::exclusive_maximum(100), mcp::default_value(0)),
               (std::uint8_t, level, "Level", mcp::default_value(3)), (double, ratio, "Ratio", mcp::exclusive_minimum(0),
                                                                      mcp::maximum(1), mcp::default_value(0.5)),
               (bool, flag, "Flag", mcp::default_value(true)), (priority, prio, "Priority", mcp::default_value(priority::high)),
               (std::optional<priority>, accent, "Accent"), (point_def, origin, "Origin", mcp::default_value(point_def{1, 2})),
               (std::vector<point_def>, path, "Path", mcp::max_items(3), mcp::default_value(std::vector<point_def>{{3, 4}})),
               (std::vector<std::optional<int>>, holes, "Holes", mcp::default_value(std::vector<std::optional<int>>{})),
               (std::optional<std::vector<std::string>>, aliases, "Aliases", mcp::min_items(1)),
               (std::vector<std::vector<int>>, grid, "Grid", mcp::min_items(1), mcp::default_value(std::vector<std::vector<int>>{{0}})));
MCP_STRUCT_DEF(item_def, (std::string, sku, "SKU", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")),
               (int, qty, "Quantity", mcp::minimum(1), mcp::maximum(1000)), (priority, prio, "Priority", mcp::json_name("priority")),
               (std::vector<std::string>, tags, "Tags", mcp::max_items(8)));
MCP_STRUCT_DEF(order_def, (std::string, customer, "Customer"), (std::vector<item_def>, items, "Items"));

// Types it does not follow: the tool keeps the tree road alone.
struct node {
  std::string name;
  std::vector<node> children;
};
MCP_STRUCT(node, (name, "Name"), (children, "Children"));
struct with_map {
  std::map<std::string, int> counts;
};
MCP_STRUCT(with_map, (counts, "Counts"));
struct with_unique {
  std::vector<int> ids;
};
MCP_STRUCT(with_unique, (ids, "Ids", mcp::unique_items()));
struct with_json {
  json extra;
};
MCP_STRUCT(with_json, (extra, "Anything"));
struct with_set {
  std::set<int> ids;
};
MCP_STRUCT(with_set, (ids, "Ids"));
}  // namespace tr

namespace {

constexpr std::size_t depth_limit = 126;  // a message's 128 less the envelope and params

template <class T>
const mcp::detail::typed_reader<T>& reader_for() {
  static const auto reader = mcp::detail::typed_reader<T>::make(mcp::detail::fast_path_of(mcp::detail::validator_for<T>()));
  REQUIRE(reader);
  return *reader;
}

// Texts of one value as a client may write it: compact, indented, ASCII-escaped.
std::vector<std::string> spellings(const json& value) {
  return {value.dump(), value.dump(2), value.dump(-1, ' ', true)};
}

struct tally {
  int texts = 0, tree_accepted = 0, text_accepted = 0, leading_accepted = 0;
  std::string first;
  void add(const typed_roads::outcome& o, const std::string& text) {
    ++texts;
    tree_accepted += o.tree_accepted;
    text_accepted += o.text_accepted;
    leading_accepted += o.leading_accepted;
    if (!o.disagreement.empty() && first.empty()) first = o.disagreement + "\ntext: " + text;
  }
};

// A value made valid from `value` field by field: each of its members that keeps `base` valid
// replaces base's, and an array member keeps those of its items that do. The generator's values
// are mostly invalid somewhere (it aims at the edges), so this is where the valid ones come from.
template <class T>
json made_valid(const json& value, json base) {
  auto valid = [](const json& v) { return typed_roads::by_tree<T>(v.dump(), depth_limit).has_value(); };
  if (!value.is_object()) return base;
  for (const auto& [key, member] : value.items()) {
    json trial = base;
    trial[key] = member;
    if (valid(trial)) {
      base = std::move(trial);
    } else if (member.is_array()) {
      trial[key] = json::array();
      for (const auto& item : member) {
        trial[key].push_back(item);
        if (!valid(trial)) trial[key].erase(trial[key].size() - 1);
      }
      if (valid(trial)) base = std::move(trial);
    }
  }
  return base;
}

// Random values near T's schema (the differential tests' generator) and valid ones made from them
// over `base`, each in several spellings, and broken texts made from them.
template <class T>
tally run(std::uint64_t seed, int values, const json& base) {
  const json schema = mcp::schema_of<T>();
  schema_cases::entropy e(seed);
  schema_cases::generator gen(e, false);
  tally whole, broken;
  for (int i = 0; i < values; ++i) {
    const json near = gen.value(schema);
    for (const json& value : {near, made_valid<T>(near, base)}) {
      for (const std::string& text : spellings(value))
        whole.add(typed_roads::compare(reader_for<T>(), text, depth_limit), text);
      const std::string text = value.dump();
      // A repeated key (the tree keeps the last), a cut, a changed byte.
      if (value.is_object() && !value.empty()) {
        const std::string twice = "{" + json(value.begin().key()).dump() + ":0," + text.substr(1);
        broken.add(typed_roads::compare(reader_for<T>(), twice, depth_limit), twice);
      }
      // As mcp::message meets it: the rest of the message after the arguments.
      const std::string followed = text + R"(,"_meta":{}},"id":1})";
      broken.add(typed_roads::compare(reader_for<T>(), followed, depth_limit), followed);
      const std::string cut = text.substr(0, e.below(text.size() + 1));
      broken.add(typed_roads::compare(reader_for<T>(), cut, depth_limit), cut);
      std::string changed = text;
      if (!changed.empty()) changed[e.below(changed.size())] = "0\"x,:]}[{-.e9 "[e.below(14)];
      broken.add(typed_roads::compare(reader_for<T>(), changed, depth_limit), changed);
    }
  }
  INFO("first disagreement on a broken text: " << broken.first);
  CHECK(broken.first.empty());
  CHECK(broken.text_accepted > 0);
  CHECK(broken.leading_accepted > broken.text_accepted);  // the followed texts: only the leading read takes them
  return whole;
}

// Each keyword of the schemas check_roads ran on: how many texts the text road accepted and refused
// on a schema that has it (the keywords of every node, typed_roads' tree road being valijson).
using keyword_verdicts = std::map<std::string, std::pair<int, int>>;

template <class T>
void check_roads(std::uint64_t seed, int values, const json& base, keyword_verdicts& seen) {
  const tally t = run<T>(seed, values, base);
  for (const auto& [at, node] : mcp::detail::survey_all(mcp::schema_of<T>()).subschemas) {
    if (!node->is_object()) continue;
    for (auto k = node->begin(); k != node->end(); ++k) {
      seen[k.key()].first += t.text_accepted;
      seen[k.key()].second += t.texts - t.text_accepted;
    }
  }
  INFO(t.texts << " texts, the tree road accepted " << t.tree_accepted << ", the text road " << t.text_accepted
               << "; first disagreement: " << t.first);
  CHECK(t.first.empty());
  // The text road takes every valid spelling of a value (no repeated keys here), and both verdicts came up.
  CHECK(t.text_accepted == t.tree_accepted);
  CHECK(t.tree_accepted > t.texts / 10);
  CHECK(t.tree_accepted < t.texts * 9 / 10);
}

}  // namespace

// And every keyword the fast path reads (plain_schema::keywords(), the nodes the text road checks
// through) is on a schema of these types, with texts of both verdicts, or is one of `not_met`:
// annotations, which decide nothing; what the reader gives up on (uniqueItems, "$ref" and its
// definitions: the test below); const and oneOf, which MCP_STRUCT writes for a variant, a type the
// reader leaves to the tree road (typed_reader.hpp), and allOf, which it never writes. The list is
// held true: a keyword on it that these schemas carry fails. On a scalar the reader asks the node
// itself (plain_accepts), whose every keyword test_validation_differential compares with valijson.
TEST_CASE("typed reader: the text road accepts exactly what the tree road accepts, as the same value",
          "[typed-reader][differential]") {
  keyword_verdicts seen;
  check_roads<tr::order>(24, 600, {{"customer", "c"}, {"items", json::array()}}, seen);
  check_roads<tr::item>(2024, 600, {{"sku", "ABC-1234"}, {"qty", 1}, {"priority", "low"}, {"tags", json::array()}}, seen);
  check_roads<tr::plain>(20261126, 600, {{"title", "t"}}, seen);
  check_roads<tr::counts>(20261127, 600, {{"small", 0}}, seen);
  check_roads<tr::plain_def>(20261205, 600, {{"title", "t"}}, seen);
  check_roads<tr::order_def>(2412, 600, {{"customer", "c"}, {"items", json::array()}}, seen);
  const std::set<std::string> not_met = {"title",    "examples", "deprecated", "readOnly", "writeOnly",  "$comment",
                                         "$schema",  "$defs",    "definitions", "$ref",    "uniqueItems", "const",
                                         "oneOf",    "allOf"};
  for (const auto k : mcp::detail::plain_schema::keywords()) {
    const std::string keyword(k);
    INFO("keyword " << keyword << ": the text road accepted " << seen[keyword].first << " texts, refused "
                    << seen[keyword].second);
    if (not_met.count(keyword)) {
      CHECK(seen[keyword].first + seen[keyword].second == 0);  // the list stays true
    } else {
      CHECK(seen[keyword].first >= 100);
      CHECK(seen[keyword].second >= 100);
    }
  }
}

TEST_CASE("typed reader: corner cases of the text, each as the tree road decides them", "[typed-reader]") {
  const auto& reader = reader_for<tr::item>();
  struct corner {
    const char* text;
    bool valid;
  };
  const corner corners[] = {
      {R"({"sku":"ABC-1234","qty":5,"priority":"high","tags":["a","b"]})", true},
      {R"( { "sku" : "ABC-1234" , "qty" : 5 ,"priority":"low","tags":[ ] } )", true},  // white space
      {R"({"\u0073ku":"ABC-1234","qty":5,"priority":"low","tags":[]})", true},          // an escaped key
      {R"({"sku":"\u0041BC-1234","qty":5,"priority":"low","tags":["\u00e9"]})", true},  // escaped values
      {R"({"sku":"ABC-1234","qty":5,"priority":"low"})", false},                         // tags are required
      {R"({"sku":"ABC-1234","qty":5.0})", false},                              // 5.0 is not an integer
      {R"({"sku":"ABC-1234","qty":1e2})", false},
      {R"({"sku":"ABC-1234","qty":1001})", false},
      {R"({"sku":"abc-1234","qty":5})", false},                                // the pattern
      {R"({"sku":"ABC-1234","qty":5,"priority":"urgent"})", false},            // not in the enum
      {R"({"sku":"ABC-1234","qty":5,"prio":"high"})", false},                  // the member's name is not the JSON name
      {R"({"sku":"ABC-1234","qty":5,"tags":["1","2","3","4","5","6","7","8","9"]})", false},  // maxItems
      {R"({"sku":"ABC-1234","qty":5,"tags":[1]})", false},
      {R"({"sku":"ABC-1234","qty":null})", false},
      {R"({"qty":5})", false},                                                 // sku is required
      {R"({"sku":"ABC-1234","qty":5,"extra":1})", false},                      // additionalProperties: false
      {R"({"sku":"ABC-1234","qty":5,"tags":[],"priority":"high"})", true},
  };
  for (const auto& c : corners) {
    INFO(c.text);
    const auto tree = typed_roads::by_tree<tr::item>(c.text, depth_limit);
    const auto text = typed_roads::by_text<tr::item>(reader, c.text, depth_limit);
    CHECK(tree.has_value() == c.valid);
    CHECK(text.has_value() == c.valid);
    if (tree && text) CHECK(*tree == *text);
  }
  // A repeated key: the tree keeps the last; the text road gives up and leaves it to the tree.
  const char* twice = R"({"sku":"XYZ-0000","sku":"ABC-1234","qty":5,"priority":"low","tags":[]})";
  CHECK(typed_roads::by_tree<tr::item>(twice, depth_limit) ==
        json{{"sku", "ABC-1234"}, {"qty", 5}, {"priority", "low"}, {"tags", json::array()}});
  CHECK_FALSE(typed_roads::by_text<tr::item>(reader, twice, depth_limit));
  // Depth: the limit counts from the arguments, as validate()'s does; order is three levels deep.
  const char* deep = R"({"customer":"c","items":[{"sku":"ABC-1234","qty":1,"priority":"low","tags":["x"]}]})";
  CHECK(typed_roads::by_text<tr::order>(reader_for<tr::order>(), deep, 4));
  CHECK_FALSE(typed_roads::by_text<tr::order>(reader_for<tr::order>(), deep, 3));
  CHECK_FALSE(typed_roads::by_tree<tr::order>(deep, 3));
}

namespace tr {
// Members MCP_STRUCT does not name, with values of their own: an object read into again must get
// them as new, whatever its handler left in them.
struct marked_line {
  std::string sku;
  std::vector<std::string> tags;
  int visits = 7;  // not reflected
};
MCP_STRUCT(marked_line, (sku, "SKU"), (tags, "Tags", mcp::default_value(std::vector<std::string>{"none"})));
struct marked_order {
  std::string customer;
  std::vector<marked_line> lines;
  std::vector<int> seen = {1, 2};  // not reflected
  marked_line first;
  std::optional<std::string> note;
};
MCP_STRUCT(marked_order, (customer, "Customer"), (lines, "Lines"), (first, "First", mcp::default_value(marked_line{})),
           (note, "Note"));
}  // namespace tr

TEST_CASE("typed reader: read into an object that held an earlier value, it ends as a fresh one would",
          "[typed-reader]") {
  const auto& reader = reader_for<tr::marked_order>();
  const char* big = R"({"customer":"a long customer name, past any small-string buffer","note":"n",)"
                    R"("first":{"sku":"F","tags":["x","y","z"]},)"
                    R"("lines":[{"sku":"A","tags":["t1","t2","t3"]},{"sku":"B","tags":["u"]},{"sku":"C"}]})";
  const char* small = R"({"lines":[{"sku":"D","tags":["v"]}],"customer":"c"})";
  tr::marked_order reused;
  REQUIRE(reader.read(big, depth_limit, reused));
  CHECK(reused.lines[2].tags == std::vector<std::string>{"none"});  // the default of an absent list
  // What a handler could leave behind in members the reader does not name.
  reused.seen.push_back(3);
  reused.lines[0].visits = 99;
  reused.first.visits = 99;
  const std::string* tags_storage = reused.lines[0].tags.data();
  const tr::marked_line* lines_storage = reused.lines.data();

  REQUIRE(reader.read(small, depth_limit, reused));
  tr::marked_order fresh;
  REQUIRE(reader.read(small, depth_limit, fresh));
  CHECK(mcp::encode(reused) == mcp::encode(fresh));
  CHECK(reused.seen == std::vector<int>{1, 2});
  CHECK(reused.lines.size() == 1);
  CHECK(reused.lines[0].visits == 7);
  CHECK(reused.first.visits == 7);
  CHECK(reused.first.tags.empty());  // absent this time: its default (marked_line{}), not "x y z"
  CHECK_FALSE(reused.note.has_value());
  // The storage came back: the list of lines and the first line's tags were read over, not made anew.
  CHECK(reused.lines.data() == lines_storage);
  CHECK(reused.lines[0].tags.data() == tags_storage);

  // A read that gave up leaves an object that reads the next text as a fresh one does.
  CHECK_FALSE(reader.read(R"({"customer":"c","lines":[{"sku":"E","tags":["w"]},{"sku":1}]})", depth_limit, reused));
  REQUIRE(reader.read(big, depth_limit, reused));
  tr::marked_order fresh_big;
  REQUIRE(reader.read(big, depth_limit, fresh_big));
  CHECK(mcp::encode(reused) == mcp::encode(fresh_big));
}

TEST_CASE("typed reader: an MCP_STRUCT_DEF object read into again is made fresh in place", "[typed-reader]") {
  const auto& reader = reader_for<tr::plain_def>();
  const char* full = R"({"title":"a title","nickname":"nn","email":"x@y.z","step":-5,"level":9,"ratio":0.25,)"
                     R"("flag":false,"prio":"low","accent":"normal","origin":{"x":5,"y":6},)"
                     R"("path":[{"x":1},{"x":2,"y":2},{"x":3,"y":3}],"holes":[1,null,3],"aliases":["p","q"],)"
                     R"("grid":[[1,2,3],[4,5,6]]})";
  const char* sparse = R"({"path":[{"x":7}],"grid":[[8]],"title":"t"})";
  tr::plain_def reused;
  REQUIRE(reader.read(full, depth_limit, reused));
  const std::vector<int>* grid_storage = reused.grid.data();
  const int* row_storage = reused.grid[0].data();
  REQUIRE(reader.read(sparse, depth_limit, reused));
  // Every field left out is as a fresh object has it: declared defaults, and none for optionals.
  const tr::plain_def fresh{};
  CHECK_FALSE(reused.nickname.has_value());
  CHECK(reused.email == fresh.email);
  CHECK(reused.step == 0);
  CHECK(reused.level == 3);
  CHECK(reused.ratio == 0.5);
  CHECK(reused.flag);
  CHECK(reused.prio == tr::priority::high);
  CHECK_FALSE(reused.accent.has_value());
  CHECK(reused.origin.x == 1);
  CHECK(reused.origin.y == 2);
  CHECK_FALSE(reused.aliases.has_value());
  CHECK(reused.holes.empty());
  // Fields read over what they held: an item's absent member takes its default, the rest is cut.
  REQUIRE(reused.path.size() == 1);
  CHECK(reused.path[0].x == 7);
  CHECK(reused.path[0].y == -1);
  CHECK(reused.grid == std::vector<std::vector<int>>{{8}});
  CHECK(reused.grid.data() == grid_storage);  // the storage came back, not made anew
  CHECK(reused.grid[0].data() == row_storage);
  tr::plain_def once;
  REQUIRE(reader.read(sparse, depth_limit, once));
  CHECK(mcp::encode(reused) == mcp::encode(once));
  // A read that gave up halfway leaves an object that reads the next text as a fresh one does.
  CHECK_FALSE(reader.read(R"({"title":"t","path":[{"x":1},{"x":"no"}]})", depth_limit, reused));
  REQUIRE(reader.read(full, depth_limit, reused));
  tr::plain_def once_full;
  REQUIRE(reader.read(full, depth_limit, once_full));
  CHECK(mcp::encode(reused) == mcp::encode(once_full));
}

TEST_CASE("typed reader: a tool keeps a few argument objects between calls, within a budget of text",
          "[typed-reader]") {
  using kept_type = mcp::detail::kept_arguments<tr::order>;
  auto kept = std::make_shared<kept_type>();
  auto a = kept->take();
  a->customer = "earlier";
  auto* address = a.get();
  {
    const auto held = kept->hold(std::move(a), 100);
    CHECK(kept->kept() == 0);  // the call holds it
  }
  CHECK(kept->kept() == 1);  // back when the call let go
  auto again = kept->take();
  CHECK(again.get() == address);
  CHECK(again->customer == "earlier");  // as it was left: the reader makes it fresh (above)
  {
    const auto held = kept->hold(std::move(again), kept_type::text_bytes + 1);  // large arguments
  }
  CHECK(kept->kept() == 0);  // freed, not kept
  std::vector<std::unique_ptr<tr::order>> many;
  for (std::size_t i = 0; i < kept_type::count + 3; ++i) many.push_back(kept->take());
  for (auto& m : many) kept->give_back(std::move(m), 100);
  CHECK(kept->kept() == kept_type::count);
  // The texts of those kept total at most text_bytes: two of a little more than half, one kept.
  for (auto& m : many) m = kept->take();
  CHECK(kept->kept() == 0);
  kept->give_back(std::move(many[0]), kept_type::text_bytes / 2 + 1);
  kept->give_back(std::move(many[1]), kept_type::text_bytes / 2 + 1);
  CHECK(kept->kept() == 1);
  kept->give_back(std::move(many[2]), kept_type::text_bytes / 2 - 1);  // fits beside it
  CHECK(kept->kept() == 2);
  kept->take();
  kept->take();
  kept->give_back(std::move(many[3]), kept_type::text_bytes);  // room again once taken
  CHECK(kept->kept() == 1);
}

TEST_CASE("typed reader: types and schemas it does not follow keep the tree road alone", "[typed-reader]") {
  using mcp::detail::typed_reader;
  using mcp::detail::validator_for;
  using mcp::detail::fast_path_of;
  CHECK_FALSE(typed_reader<tr::node>::make(fast_path_of(validator_for<tr::node>())));  // recursive: a "$ref"
  CHECK_FALSE(typed_reader<tr::with_map>::make(fast_path_of(validator_for<tr::with_map>())));
  CHECK_FALSE(typed_reader<tr::with_unique>::make(fast_path_of(validator_for<tr::with_unique>())));
  CHECK_FALSE(typed_reader<tr::with_json>::make(fast_path_of(validator_for<tr::with_json>())));
  CHECK_FALSE(typed_reader<tr::with_set>::make(fast_path_of(validator_for<tr::with_set>())));
  CHECK(typed_reader<tr::plain>::make(fast_path_of(validator_for<tr::plain>())));
}

// The plan skips a string's check where the node decides strings simply (plain_decides_strings):
// what it says must be what the check answers, on every string.
TEST_CASE("typed reader: a node that decides strings simply answers as its check does", "[typed-reader]") {
  enum rule { other, any, enum_strings };
  const std::vector<std::string> texts = {"", "low", "normal", "high", "Low", "low ", "lo", "highs", "a", "b", "x",
                                          "ABC-1234", "abc-1234", "a@b.c", "caf\xC3\xA9", std::string(40, 'z'), "1"};
  int count[3] = {0, 0, 0};
  const auto check_node = [&](const mcp::detail::plain_schema& node, const std::string& where) {
    const std::vector<std::string_view>* choices = nullptr;
    const rule r = !mcp::detail::plain_decides_strings(node, choices) ? other : choices ? enum_strings : any;
    ++count[r];
    if (r != other)
      for (const std::string& t : texts) {
        INFO(where << " on \"" << t << "\"");
        const bool listed = choices && std::find(choices->begin(), choices->end(), t) != choices->end();
        CHECK(mcp::detail::plain_accepts_string(node, t) == (r == any || listed));
      }
    return r;
  };
  // What MCP_STRUCT makes: an enum's node decides by its wire names, a bare string takes any, a
  // pattern or lengths leave it to the check.
  bool required = false;
  const auto* item = mcp::detail::fast_path_of(mcp::detail::validator_for<tr::item>());
  REQUIRE(item);
  CHECK(check_node(*mcp::detail::property_schema(*item, "priority", required), "priority") == enum_strings);
  CHECK(check_node(*mcp::detail::property_schema(*item, "sku", required), "sku") == other);
  CHECK(check_node(*mcp::detail::shape_of(*mcp::detail::property_schema(*item, "tags", required)).items, "tags") == any);
  const auto* plain = mcp::detail::fast_path_of(mcp::detail::validator_for<tr::plain>());
  REQUIRE(plain);
  for (const char* field : {"title", "nickname", "email"})
    CHECK(check_node(*mcp::detail::property_schema(*plain, field, required), field) == other);
  // Run-time nodes around the edges of the rule.
  for (const char* node : {R"({"type":"string"})", R"({})", R"(true)", R"(false)", R"({"type":"integer"})",
                           R"({"type":["string","null"],"enum":["low","x",null]})", R"({"enum":["a",1,"b","a"]})",
                           R"({"type":"string","enum":["a","b"],"const":"a"})", R"({"enum":["a","b"],"pattern":"a"})",
                           R"({"type":"string","minLength":2})", R"({"maxLength":3})", R"({"format":"email"})",
                           R"({"type":"string","minimum":3,"multipleOf":2,"uniqueItems":true})",
                           R"({"anyOf":[{"type":"string"},{"type":"null"}]})", R"({"enum":["low","normal","high"],"description":"d"})"}) {
    const mcp::validator v(json{{"type", "object"}, {"properties", {{"p", json::parse(node)}}}});
    REQUIRE(mcp::detail::fast_path_of(v));
    check_node(*mcp::detail::property_schema(*mcp::detail::fast_path_of(v), "p", required), node);
  }
  CHECK(count[any] >= 5);
  CHECK(count[enum_strings] >= 4);
  CHECK(count[other] >= 8);
}

TEST_CASE("typed reader: a tool answers the same on either road", "[typed-reader]") {
  // The same server, once as it is (the text road) and once with a middleware that reads params
  // whole before the tool runs, which builds the arguments' tree and so sends the call down the
  // tree road.
  auto answers = [](bool through_tree) {
    mcp::server_info info;
    info.name = "roads";
    info.version = "1.0";
    mcp::server srv(info);
    if (through_tree)
      srv.use([](mcp::request_info& r, const std::function<void()>& next) {
        (void)r.params();
        next();
      });
    srv.tool("order", "Sums an order.", [](const tr::order& in) {
      tr::point out{static_cast<double>(in.items.size()), 0};
      for (const auto& i : in.items) out.y += i.qty;
      return out;
    });
    mcp::testing::client c(srv);
    c.initialize();
    std::vector<json> got;
    for (const json& args :
         {json{{"customer", "c"},
               {"items",
                {{{"sku", "ABC-1234"}, {"qty", 2}, {"priority", "low"}, {"tags", json::array()}},
                 {{"sku", "XYZ-0001"}, {"qty", 3}, {"priority", "high"}, {"tags", {"a"}}}}}},
          json{{"customer", "c"}, {"items", {{{"sku", "bad"}, {"qty", 2}, {"priority", "low"}, {"tags", json::array()}}}}},
          json{{"customer", "c"}, {"items", json::array()}, {"unknown", 1}}, json::object()})
      got.push_back(c.call_tool("order", args));
    return got;
  };
  const auto by_text = answers(false);
  const auto by_tree = answers(true);
  REQUIRE(by_text.size() == by_tree.size());
  for (std::size_t i = 0; i < by_text.size(); ++i) CHECK(by_text[i] == by_tree[i]);
  CHECK(by_text[0]["structuredContent"] == json{{"x", 2.0}, {"y", 5.0}});
  CHECK(by_text[1]["isError"] == true);  // worded by the tree road: the text road gave up
  CHECK(by_text[1]["content"][0]["text"].get<std::string>().find("pattern") != std::string::npos);
}

namespace tr {
// order's members in another order in memory: arguments read for order must never reach it.
struct order_reversed {
  std::vector<item> items;
  std::string customer;
};
MCP_STRUCT(order_reversed, (items, "Items"), (customer, "Customer"));
}  // namespace tr

namespace {
// The server's decoder, asked through this one, which keeps what each question took.
struct counting_decoder final : mcp::detail::arguments_decoder {
  explicit counting_decoder(const mcp::detail::arguments_decoder& real) : real(real) {}
  std::size_t decode(std::string_view name, std::string_view text, mcp::detail::decoded_arguments& out) const override {
    taken.push_back(real.decode(name, text, out));
    return taken.back();
  }
  const mcp::detail::arguments_decoder& real;
  mutable std::vector<std::size_t> taken;
};

tr::point sum_order(const tr::order& in) {
  tr::point out{static_cast<double>(in.items.size()), 0};
  for (const auto& i : in.items) out.y += i.qty;
  return out;
}

mcp::server_info roads_info() {
  mcp::server_info info;
  info.name = "roads";
  info.version = "1.0";
  return info;
}

void initialize(mcp::connection& conn) {
  conn.receive(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
               R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  conn.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
}

std::string call_text(int id, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":)" + params + "}";
}
}  // namespace

TEST_CASE("typed reader: arguments read with the message take one pass and answer as the other roads do",
          "[typed-reader]") {
  // Each text as "arguments" on three roads: read with the message (the server's decoder, as stdio
  // reads a call it runs itself), read when the call runs (the message read without it), and the
  // tree road (a middleware that reads params whole first).
  const std::string items = R"([{"sku":"ABC-1234","qty":2,"priority":"low","tags":[]},)"
                            R"({"sku":"XYZ-0001","qty":3,"priority":"high","tags":["a"]}])";
  struct argument_text {
    std::string text;
    bool read;   // the reader takes it
    bool valid;  // the call runs (the tree road's verdict, after lossless coercion)
  };
  const argument_text texts[] = {
      {R"({"customer":"c","items":)" + items + "}", true, true},
      {R"( { "customer" : "c" , "items" : [ ] } )", true, true},
      {R"({"\u0063ustomer":"c","items":[]})", true, true},  // an escaped key
      {R"({"customer":"c","items":[{"sku":"bad","qty":2,"priority":"low","tags":[]}]})", false, false},  // the pattern
      // A name the type lacks: the reader gives up, the tree road leaves it out (issue #56) and runs
      // the call, at the top and in an item; a near miss of a field is refused.
      {R"({"customer":"c","items":[],"unknown":1})", false, true},
      {R"({"customer":"c","wait_for_previous":true,"items":)" + items + "}", false, true},
      {R"({"customer":"c","items":[{"sku":"ABC-1234","qty":2,"priority":"low","tags":[],"wait_for_previous":1}]})",
       false, true},
      {R"({"customer":"c","items":[],"itmes":[]})", false, false},
      {R"({})", false, false},
  };
  mcp::server srv(roads_info());
  srv.tool("order", "Sums an order.", sum_order);
  mcp::server tree_srv(roads_info());
  tree_srv.use([](mcp::request_info& r, const std::function<void()>& next) {
    (void)r.params();
    next();
  });
  tree_srv.tool("order", "Sums an order.", sum_order);
  auto box = std::make_shared<mcp::testing::inbox>();
  mcp::connection conn(srv, box);
  initialize(conn);
  mcp::testing::client tree_c(tree_srv);
  tree_c.initialize();
  auto reply = [&](int id) {
    auto r = box->take([&](const json& m) { return m.contains("id") && m["id"] == id; }, std::chrono::seconds(10));
    REQUIRE(r);
    return *r;
  };
  counting_decoder decoder(*mcp::detail::server_access::arguments_reader(srv));
  const std::size_t depth = srv.options().max_json_depth;
  int id = 100;
  for (const auto& a : texts) {
    INFO(a.text);
    ++id;
    const std::string name_first = call_text(id, R"({"name":"order","arguments":)" + a.text + "}");
    const std::string name_last = call_text(id, R"({"arguments":)" + a.text + R"(,"name":"order"})");
    // The decoder is asked only where "name" came first, and takes the object exactly.
    decoder.taken.clear();
    mcp::message first = mcp::detail::message_access::read_one_pass(name_first, depth, &decoder);
    const mcp::message last = mcp::detail::message_access::read_one_pass(name_last, depth, &decoder);
    CHECK(first.readable());
    CHECK(last.readable());
    REQUIRE(decoder.taken.size() == 1);
    const auto object = a.text.substr(a.text.find('{'), a.text.rfind('}') - a.text.find('{') + 1);
    CHECK(decoder.taken[0] == (a.read ? object.size() : 0));
    CHECK(first.params() == last.params());  // params whole, whichever way they were read
    conn.receive(std::move(first));
    const json by_message = reply(id);
    conn.receive(name_first);
    const json by_call = reply(id);
    tree_c.send_text(name_first);
    const json by_tree = tree_c.wait_response(id);
    REQUIRE(by_message.contains("result"));
    CHECK(by_message["result"] == by_call["result"]);
    CHECK(by_message["result"] == by_tree["result"]);
    CHECK(by_message["result"].value("isError", false) == !a.valid);
  }
  // A broken or too deep "arguments" refuses the message as it does without the decoder.
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  for (const std::string& bad : {std::string(R"({"customer":"c","items":[1,]})"), std::string(R"({"customer":"c","items":[)"),
                                 R"({"customer":"c","items":[],"x":)" + deep + "}"}) {
    INFO(bad);
    const std::string text = call_text(1, R"({"name":"order","arguments":)" + bad + "}");
    const auto with = mcp::detail::message_access::read_one_pass(text, srv.options().max_json_depth, &decoder);
    auto without = mcp::message::read(text, srv.options().max_json_depth);
    without.check();  // the arguments, which read() only delimits
    CHECK_FALSE(with.readable());
    CHECK(with.refusal() == without.refusal());
  }
}

TEST_CASE("typed reader: arguments read with the message go only to the tool they were read for", "[typed-reader]") {
  // The tool is replaced, by one of another argument type, between reading the message and running
  // the call: the call runs the new one, which reads the arguments itself.
  mcp::server srv(roads_info());
  srv.tool("order", "Sums an order.", sum_order);
  auto box = std::make_shared<mcp::testing::inbox>();
  mcp::connection conn(srv, box);
  initialize(conn);
  counting_decoder decoder(*mcp::detail::server_access::arguments_reader(srv));
  const std::string args = R"({"customer":"c","items":[{"sku":"ABC-1234","qty":2,"priority":"low","tags":[]}]})";
  mcp::message m = mcp::detail::message_access::read_one_pass(call_text(7, R"({"name":"order","arguments":)" + args + "}"),
                                      srv.options().max_json_depth, &decoder);
  REQUIRE(decoder.taken == std::vector<std::size_t>{args.size()});
  REQUIRE(srv.remove_tool("order"));
  srv.tool("order", "Counts the lines ten times.", [](const tr::order_reversed& in) {
    return tr::point{static_cast<double>(in.items.size() * 10), static_cast<double>(in.customer.size())};
  });
  conn.receive(std::move(m));
  const auto reply = box->take([](const json& r) { return r.contains("id") && r["id"] == 7; }, std::chrono::seconds(10));
  REQUIRE(reply);
  INFO(reply->dump());
  REQUIRE(reply->contains("result"));
  CHECK((*reply)["result"]["structuredContent"] == json{{"x", 10.0}, {"y", 1.0}});
}

TEST_CASE("typed reader: an integer the schema lets through is taken within its type's range, as decode takes it",
          "[typed-reader]") {
  // MCP_STRUCT's schema already bounds each integer by its type: a schema without bounds leaves
  // the range to the reader alone, as a hand-written schema could.
  const json unbounded = {{"type", "object"},
                          {"properties", {{"n", {{"type", "integer"}}}, {"u", {{"type", "integer"}}}, {"w", {{"type", "integer"}}}}},
                          {"required", {"n", "u", "w"}},
                          {"additionalProperties", false}};
  const mcp::validator v(unbounded);
  const auto reader = mcp::detail::typed_reader<tr::narrow>::make(mcp::detail::fast_path_of(v));
  REQUIRE(reader);
  int accepted = 0, refused = 0;
  for (const json& n : schema_cases::edge_numbers()) {
    if (!n.is_number_integer()) continue;
    for (const char* field : {"n", "u", "w"}) {
      json value = {{"n", 0}, {"u", 0}, {"w", 0}};
      value[field] = n;
      INFO(value.dump());
      std::optional<tr::narrow> decoded;
      try {
        decoded = mcp::detail::decode_checked_depth<tr::narrow>(value);
      } catch (const mcp::decode_error&) {
      }
      tr::narrow read;
      const bool taken = reader->read(value.dump(), depth_limit, read);
      CHECK(taken == decoded.has_value());
      if (taken && decoded) CHECK((read.n == decoded->n && read.u == decoded->u && read.w == decoded->w));
      (taken ? accepted : refused) += 1;
    }
  }
  CHECK(accepted > 10);
  CHECK(refused > 10);
}

}  // namespace test_typed_reader
