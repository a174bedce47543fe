// The two roads a typed tool's arguments can take (issue #24), for the tests that keep them equal:
// from the text straight into the type (detail::typed_reader), and through the tree (read, valijson
// the validator of record, decode), and the text road into an object that held an earlier value. Used by
// tests/unit/test_typed_reader.cpp and tests/fuzz/fuzz_arguments.cpp.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/validation/detail/compiled_schema.hpp>
#include <mcp/validation/detail/typed_reader.hpp>
#include <mcp/validation/detail/validator_for.hpp>
#include <mcp/schema/reflect.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace typed_roads {

// What the text road makes of `text`: the value it read, encoded, or nullopt when it gave up.
template <class T>
std::optional<mcp::json> by_text(const mcp::detail::typed_reader<T>& reader, std::string_view text, std::size_t max_depth) {
  T out{};
  if (!reader.read(text, max_depth, out)) return std::nullopt;
  return mcp::encode(out);
}

// by_text into an object that holds what the texts read before this one left in it, as a tool's
// kept argument objects do (core/detail/kept_arguments.hpp): it must answer as by_text does.
template <class T>
std::optional<mcp::json> by_text_reused(const mcp::detail::typed_reader<T>& reader, std::string_view text,
                                        std::size_t max_depth) {
  static T reused{};  // one per T, for the whole run: read into over and over, given up on or not
  if (!reader.read(text, max_depth, reused)) return std::nullopt;
  return mcp::encode(reused);
}

// What the tree road makes of it: the decoded value, encoded, or nullopt when it is refused. The
// verdict is valijson's, the validator of record, asked directly: validate() answers first with the
// fast path, whose nodes the text road follows too, so a fault in them would pass on both roads.
// (tree_verdicts_agree holds validate() to the same verdict.)
template <class T>
std::optional<mcp::json> by_tree(std::string_view text, std::size_t max_depth) {
  mcp::json tree;
  if (mcp::detail::read_json(text, tree, max_depth) != mcp::detail::read_result::ok) return std::nullopt;
  if (!mcp::detail::compiled_of(mcp::detail::validator_for<T>()).record->accepts(tree)) return std::nullopt;
  try {
    return mcp::encode(mcp::detail::decode_checked_depth<T>(tree));
  } catch (const mcp::decode_error&) {
    return std::nullopt;
  }
}

// Whether validate(), the tool's own tree road, gives valijson's verdict on `text` (true for a text
// that is not JSON within the depth: no tree to judge).
template <class T>
bool tree_verdicts_agree(std::string_view text, std::size_t max_depth) {
  mcp::json tree;
  if (mcp::detail::read_json(text, tree, max_depth) != mcp::detail::read_result::ok) return true;
  const mcp::validator& v = mcp::detail::validator_for<T>();
  return v.validate(tree, max_depth).empty() == mcp::detail::compiled_of(v).record->accepts(tree);
}

// Whether `text` is what mcp::message keeps as text for the reader: one object, JSON within the depth.
inline bool kept_as_text(std::string_view text, std::size_t max_depth) {
  mcp::detail::json_reader in(text, max_depth);
  return in.peek('{') && in.skip_value(0) && in.at_end();
}

struct outcome {
  bool text_accepted = false, tree_accepted = false;
  bool leading_accepted = false;  // the reader took the object the text starts with (check_leading)
  std::string disagreement;  // empty: whatever the text road accepted, the tree road accepted as the same value
};

// The reader as mcp::message uses it, on the object `text` starts with, whatever follows: what it
// took must be exactly what skip_value takes there (the message relies on that instead of checking
// the text first), and the tree road must accept that part as the same value. Empty when it holds;
// `taken`: the bytes it took (0: it gave up).
template <class T>
std::string check_leading(const mcp::detail::typed_reader<T>& reader, std::string_view text, std::size_t max_depth,
                          std::size_t& taken) {
  T read{};
  taken = reader.read_leading(text, max_depth, read);
  if (!taken) return {};
  mcp::detail::json_reader in(text, max_depth);
  if (!in.peek('{') || !in.skip_value(0) || in.position() != text.data() + taken)
    return "the leading read took " + std::to_string(taken) + " bytes, not the object skip_value takes";
  const auto tree = by_tree<T>(text.substr(0, taken), max_depth);
  if (!tree) return "the leading read accepted what the tree road refuses";
  if (*tree != mcp::encode(read)) return "the leading read and the tree road decoded different values";
  return {};
}

template <class T>
outcome compare(const mcp::detail::typed_reader<T>& reader, std::string_view text, std::size_t max_depth) {
  outcome o;
  std::size_t taken = 0;
  o.disagreement = check_leading(reader, text, max_depth, taken);
  o.leading_accepted = taken != 0;
  if (!o.disagreement.empty()) return o;
  const auto tree = by_tree<T>(text, max_depth);
  o.tree_accepted = tree.has_value();
  if (!tree_verdicts_agree<T>(text, max_depth)) {
    o.disagreement = "validate() and valijson gave different verdicts";
    return o;
  }
  if (!kept_as_text(text, max_depth)) return o;  // the message builds the tree for anything else
  const auto read = by_text<T>(reader, text, max_depth);
  o.text_accepted = read.has_value();
  if (read && !tree) o.disagreement = "the text road accepted what the tree road refuses";
  if (read && tree && *read != *tree) o.disagreement = "the roads decoded different values: " + read->dump() + " vs " + tree->dump();
  // Read with the message or when the call runs, the reader decides alike.
  if (read.has_value() != (taken != 0)) o.disagreement = "the leading read and the whole read decided differently";
  if (by_text_reused<T>(reader, text, max_depth) != read)
    o.disagreement = "read into an object that held an earlier value, the text road answered otherwise";
  return o;
}

}  // namespace typed_roads
