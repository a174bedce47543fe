// Keeping large results inside a model's context window: pages with opaque cursors, and a text
// budget that cuts with a marker saying how to get the rest.
#pragma once

#include <mcp/core/jsonrpc.hpp>
#include <mcp/error.hpp>
#include <mcp/json/detail/base64.hpp>
#include <mcp/json/detail/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

namespace detail {

// FNV-1a: cursors carry a short fingerprint of the tag rather than the tag itself.
inline std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

inline std::string to_hex(std::uint64_t v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[std::size_t(i)] = digits[v & 15];
  return out;
}

inline std::optional<std::size_t> parse_decimal(std::string_view s) {
  if (s.empty() || s.size() > 20 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::size_t d = std::size_t(c - '0');
    if (v > (std::numeric_limits<std::size_t>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

}  // namespace detail

// At most `budget` bytes of `text`, never splitting a UTF-8 sequence, then a marker for the model:
// "\n[truncated: showed 4000 of 12873 characters; <how_to_continue>]". Text within budget is returned
// unchanged. Characters are counted as Unicode code points.
inline std::string truncate_text(std::string_view text, std::size_t budget, std::string_view how_to_continue) {
  if (text.size() <= budget) return std::string(text);
  std::size_t cut = budget;
  // Back up over continuation bytes to the start of the sequence the budget would split.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out(text.substr(0, cut));
  out += "\n[truncated: showed " + std::to_string(detail::count_code_points(out)) + " of " +
         std::to_string(detail::count_code_points(text)) + " characters";
  if (!how_to_continue.empty()) {
    out += "; ";
    out.append(how_to_continue.data(), how_to_continue.size());
  }
  out += "]";
  return out;
}

// An opaque cursor for `offset`. A cursor made with one tag is refused under another, so a
// cursor from one query (or list) cannot be replayed against a different one.
inline std::string make_cursor(std::size_t offset, std::string_view tag = {}) {
  return detail::base64url_encode("c1:" + std::to_string(offset) + ":" + detail::to_hex(detail::fnv1a(tag)));
}

// The offset inside a cursor from make_cursor with the same tag; nullopt for anything else.
inline std::optional<std::size_t> read_cursor(std::string_view cursor, std::string_view tag = {}) {
  auto payload = detail::base64url_decode(cursor);
  if (!payload) return std::nullopt;
  std::string_view p(*payload);
  if (p.substr(0, 3) != "c1:") return std::nullopt;
  p.remove_prefix(3);
  const auto colon = p.find(':');
  if (colon == std::string_view::npos || p.substr(colon + 1) != detail::to_hex(detail::fnv1a(tag)))
    return std::nullopt;
  return detail::parse_decimal(p.substr(0, colon));
}

// One page of a typed tool output.
template <class T>
struct page {
  std::vector<T> items;
  std::optional<std::string> next_cursor;
};

// The slice [begin, end) to return, and the cursor for the next page (nullopt on the last one).
struct page_window {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::optional<std::string> next_cursor;
};

// page_size 0 means everything in one page. A cursor past the end (the list shrank since) gives an
// empty last page. Throws mcp::error (error_code::invalid_cursor) for a cursor that is not ours or was altered.
inline page_window paginate(std::size_t total, std::size_t page_size, const std::optional<std::string>& cursor,
                            std::string_view tag = {}) {
  page_window w;
  if (cursor) {
    auto offset = read_cursor(*cursor, tag);
    if (!offset)
      throw error(error_code::invalid_cursor,
                  "invalid cursor: pass back a nextCursor exactly as received from the same list, or omit the "
                  "cursor to start from the beginning");
    w.begin = std::min(*offset, total);
  }
  w.end = page_size == 0 ? total : w.begin + std::min(page_size, total - w.begin);
  if (w.end < total) w.next_cursor = make_cursor(w.end, tag);
  return w;
}

// The page a list request asks for: its params' "cursor" read and checked, as every list method of
// the protocol reads it. Throws protocol_error (-32602) for a cursor that is not a string or that
// this list did not hand out.
inline page_window requested_page(const json& params, std::size_t total, std::size_t page_size, std::string_view tag) {
  std::optional<std::string> cursor;
  if (auto c = params.find("cursor"); c != params.end() && !c->is_null()) {
    if (!c->is_string()) throw protocol_error(error_code::invalid_params, "Invalid params: \"cursor\" must be a string");
    cursor = c->get<std::string>();
  }
  try {
    return paginate(total, page_size, cursor, tag);
  } catch (const error& e) {  // error_code::invalid_cursor
    throw protocol_error(error_code::invalid_params, std::string("Invalid params: ") + e.what());
  }
}

}  // namespace v0
}  // namespace mcp
