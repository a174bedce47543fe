// URI template parsing and matching, template and URI both from the input (split at the first
// newline). Oracles: a match binds exactly the template's variables, each a value a handler may
// receive (never empty, "." or "..", no '/', '\', control byte); and values percent-encoded into
// the template come back unchanged whenever the template's literals cannot be confused with
// encoded text, or, if one of them is not such a value, the URI does not match.
#include <mcp/core/detail/uri_template.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace {

std::string percent_encode_all(std::string_view value) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    out += '%';
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

// Literal text made of none of the characters an all-encoded value uses ('%', 0-9, A-F) ends
// every variable unambiguously.
bool unambiguous(std::string_view literal) {
  for (char c : literal)
    if (c == '%' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')) return false;
  return true;
}

// The rule of uri_template.hpp, written out again rather than called: the harness checks it.
bool handler_may_receive(std::string_view value) {
  if (value.empty() || value == "." || value == "..") return false;
  for (unsigned char c : value)
    if (c < 0x20 || c == 0x7F || c == '/' || c == '\\') return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto nl = input.find('\n');
  std::string_view text = input.substr(0, nl);
  std::string_view uri = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);

  std::optional<mcp::detail::uri_template> tpl;
  try {
    tpl.emplace(std::string(text));
  } catch (const mcp::definition_error&) {
    return 0;
  }
  const auto names = tpl->variables();

  if (auto vars = tpl->match(uri)) {
    if (vars->size() != names.size()) std::abort();
    for (const auto& n : names)
      if (!vars->count(n)) std::abort();
    for (const auto& [name, value] : *vars)
      if (!handler_may_receive(value)) std::abort();
  }

  // Round trip: rebuild a URI from the template with values cut from the input, then match it.
  if (names.empty()) return 0;
  std::string built;
  bool clean = true;
  bool all_allowed = true;
  std::map<std::string, std::string> expected;
  std::size_t var_index = 0, pos = 0;
  const std::size_t piece = std::max<std::size_t>(1, uri.size() / names.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto open = text.find('{', i);
    std::string_view literal = text.substr(i, open == std::string_view::npos ? std::string_view::npos : open - i);
    clean = clean && unambiguous(literal);
    built += literal;
    if (open == std::string_view::npos) break;
    auto close = text.find('}', open);
    std::string name(text.substr(open + 1, close - open - 1));
    std::string value(uri.substr(std::min(pos, uri.size()), piece));
    if (value.empty()) value = "v";
    pos += piece;
    ++var_index;
    all_allowed = all_allowed && handler_may_receive(value);
    expected[name] = value;
    built += percent_encode_all(value);
    i = close + 1;
  }
  if (var_index != names.size()) std::abort();
  auto got = tpl->match(built);
  if (built.size() > mcp::detail::uri_template::max_uri_length) {
    if (got) std::abort();
    return 0;
  }
  if (clean && all_allowed && (!got || *got != expected)) std::abort();
  if (clean && !all_allowed && got) std::abort();  // the only split gives a value no handler may get
  return 0;
}
