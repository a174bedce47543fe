// Whether a field name an object schema does not know is a near miss of one it does ("limt" for
// "limit"). Lossless coercion drops the unknown arguments hosts add (Gemini CLI sends
// "wait_for_previous" to every tool); a near miss it keeps, so validation refuses it and the message
// asks "did you mean 'limit'?": a misspelt optional field must not fall back to its default in
// silence.
//
// The rule, on names folded to ASCII lower case with '_' and '-' taken out ("Limit", "max-results"
// and "maxResults" fold to what "max_results" folds to): a name is near a known one when the two
// fold to the same text, or when the optimal-string-alignment distance between the folded names
// (one insertion, deletion, substitution, or swap of two neighbours, each counting 1) is at most 1
// for a known name of 3 to 5 folded characters and at most 2 for 6 to 64; a known name of 1 or 2
// characters (or more than 64) is matched by folding alone, since one edit reaches half the
// short names there are. "wait_for_previous" folds to 15 characters, so only a known name of 13
// to 17 folded characters within two edits of it could claim it.
#pragma once

#include <mcp/json/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

// A name as the rule compares it: ASCII lower case, without '_' and '-'.
inline std::string fold_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '_' || c == '-') continue;
    out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

// The edits allowed between a name and the known name `known` (folded), as the rule above says.
inline std::size_t near_name_edits(std::string_view known) {
  if (known.size() <= 2 || known.size() > 64) return 0;
  return known.size() <= 5 ? 1 : 2;
}

// The optimal-string-alignment distance between `a` and `b` when it is at most `bound`, else
// bound + 1. Both at most 64 characters where bound > 0 (near_name_edits), so the rows fit.
inline std::size_t bounded_edit_distance(std::string_view a, std::string_view b, std::size_t bound) {
  const std::size_t over = bound + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > bound) return over;
  if (bound == 0) return a == b ? 0 : over;
  if (a.size() > 64 || b.size() > 64) return over;
  std::array<std::size_t, 66> before{}, previous{}, current{};  // rows i - 2, i - 1 and i
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    std::size_t row_min = current[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t d = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, before[j - 2] + 1);
      current[j] = d;
      row_min = std::min(row_min, d);
    }
    if (row_min > bound) return over;  // every later row is at least this
    before = previous;
    previous = current;
  }
  return std::min(previous[b.size()], over);
}

// The name among `properties` (an object schema's "properties") that `sent` is a near miss of,
// the closest one (the first in the schema's order on a tie), or null. `sent` is not one of them.
inline const std::string* near_miss(std::string_view sent, const json& properties) {
  if (!properties.is_object() || sent.size() > 1024) return nullptr;
  const std::string folded = fold_name(sent);
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (auto p = properties.begin(); p != properties.end(); ++p) {
    const std::string known = fold_name(p.key());
    const std::size_t allowed = near_name_edits(known);
    const std::size_t d = bounded_edit_distance(folded, known, allowed);
    if (d > allowed || (best && d >= best_distance)) continue;
    best = &p.key();
    best_distance = d;
  }
  return best;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
