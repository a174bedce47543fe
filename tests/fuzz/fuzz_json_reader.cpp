// The SDK's JSON reader and writer against nlohmann on arbitrary bytes. Oracles: both readers accept
// or both refuse the same text, and an accepted text gives the same value, down to the type of
// every number (unsigned, integer or float); a text nested deeper than the limit is refused as too
// deep when the reader reached the limit before any error; a raw NUL byte is refused (nlohmann would
// stop reading there). The writer gives dump()'s bytes for every value read, and for the input
// itself taken as a string (mostly invalid UTF-8, which both replace the same way); its own text of a
// value escapes as write_json_string escapes it (write_compact_json_as_string). skip_value
// accepts exactly what reading accepts, too deep where reading is; skip_brackets ends where
// skip_value ends on every array or object it accepts, and never takes what is too deep. Read over what reading the
// input's halves left (often a part-built tree), the input reads as it reads fresh.
#include <mcp/json/detail/reader.hpp>
#include <mcp/json/detail/writer.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

namespace {

using mcp::json;

// operator== says 1 == 1u == 1.0; this also compares the kinds of number.
bool same(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !same(*ia, *ib)) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same(a[i], b[i])) return false;
    return true;
  }
  if (a.is_number_float()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y && std::signbit(x) == std::signbit(y);
  }
  return a == b;
}

[[noreturn]] void fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "fuzz_json_reader: %s for %zu bytes: %.*s\n", what, text.size(),
               static_cast<int>(text.size() > 300 ? 300 : text.size()), text.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const json raw{std::string(text)};
  if (mcp::detail::to_json_text(raw) != raw.dump(-1, ' ', false, json::error_handler_t::replace))
    fail("wrote a string differently", text);
  constexpr std::size_t depth = 16;
  json ours;
  const auto result = mcp::detail::read_json(text, ours, depth);
  // skip_value (a tools/call's arguments kept as text) answers as reading does, building nothing.
  mcp::detail::json_reader skipper(text, depth);
  skipper.skip_bom();
  const bool skipped = skipper.skip_value(0) && skipper.at_end();
  if (skipped != (result == mcp::detail::read_result::ok)) fail("skip_value and read disagree", text);
  if (!skipped && skipper.too_deep() != (result == mcp::detail::read_result::too_deep))
    fail("skip_value and read disagree on depth", text);
  // skip_brackets (arguments checked later) ends where skip_value ends on any array or object
  // skip_value accepts; where it accepts what skip_value refuses, skip_value refuses it as invalid.
  {
    mcp::detail::json_reader brackets(text, depth), exact(text, depth);
    brackets.skip_bom();
    exact.skip_bom();
    const char first = exact.next();
    const bool delimited = brackets.skip_brackets(0);
    const bool accepted = exact.skip_value(0);
    if (accepted && (first == '{' || first == '[') && !(delimited && brackets.position() == exact.position()))
      fail("skip_brackets did not end where skip_value ends", text);
    if (delimited && !accepted && exact.too_deep()) fail("skip_brackets took what skip_value finds too deep", text);
  }
  json over;
  (void)mcp::detail::read_json(text.substr(0, size / 2), over, depth);
  (void)mcp::detail::read_json(text.substr(size / 2), over, depth);
  if (mcp::detail::read_json(text, over, depth) != result) fail("read over an earlier value, answered differently", text);
  if (result == mcp::detail::read_result::ok && !same(over, ours)) fail("read over an earlier value, read a different value", text);
  // nlohmann takes a NUL byte for the end of the input; raw NUL is never valid JSON.
  if (text.find('\0') != std::string_view::npos) {
    if (result == mcp::detail::read_result::ok) fail("accepted a raw NUL byte", text);
    return 0;
  }
  const json theirs = json::parse(text.begin(), text.end(), nullptr, false);
  if (result == mcp::detail::read_result::ok) {
    if (theirs.is_discarded()) fail("accepted what nlohmann refuses", text);
    if (!same(ours, theirs)) fail("read a different value", text);
    const std::string written = mcp::detail::to_json_text(ours);
    if (written != theirs.dump(-1, ' ', false, json::error_handler_t::replace)) fail("wrote a value differently", text);
    // That text as a text block: the writer's mode for its own JSON escapes it as write_json_string does.
    std::string escaped, expected;
    mcp::detail::write_compact_json_as_string(written, escaped);
    mcp::detail::write_json_string(written, expected);
    if (escaped != expected) fail("escaped its own JSON differently", text);
  } else if (result == mcp::detail::read_result::invalid) {
    if (!theirs.is_discarded()) fail("refused what nlohmann accepts", text);
  }
  // too_deep: nlohmann may accept or refuse (the text may break later); either is right.

  return 0;
}
