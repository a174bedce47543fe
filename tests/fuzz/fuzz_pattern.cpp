// pattern_check's small matcher against std::regex_search, the engine of record for "pattern".
// Input: a pattern, a NUL byte, a subject (pattern at most 64 bytes, subject at most 256). Oracle:
// whenever pattern_check takes the pattern in its subset, it answers exactly what std::regex_search
// answers; a pattern std::regex refuses throws the same from both (pattern_check builds it first).
#include <mcp/validation/detail/pattern_matcher.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace {

std::string shown(std::string_view s) {
  std::string out;
  char buf[8];
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  if (nul == std::string_view::npos || nul > 64) return 0;
  const std::string pattern(input.substr(0, nul));
  std::string_view subject = input.substr(nul + 1);
  // compile_pattern, as every schema pattern: it refuses the counts libstdc++ would overflow on
  // (undefined behaviour the sanitizers here would report).
  std::optional<std::regex> re;
  try {
    re.emplace(mcp::detail::compile_pattern(pattern));
  } catch (const std::regex_error&) {
    try {
      mcp::detail::pattern_check check(pattern);
    } catch (const std::regex_error&) {
      return 0;
    }
    std::fprintf(stderr, "std::regex refuses pattern %s, pattern_check accepts it\n", shown(pattern).c_str());
    std::abort();
  }
  const mcp::detail::pattern_check check(pattern);
  if (!check.compiled_small()) return 0;  // then it is std::regex itself

  // std::regex backtracks: about length^quantifiers steps, so fewer bytes for more quantifiers.
  int quantifiers = 0;
  for (char c : pattern) quantifiers += c == '*' || c == '+' || c == '?' || c == '{';
  const double longest = quantifiers < 2 ? 256 : std::pow(2e6, 1.0 / quantifiers);
  if (subject.size() > 256) subject = subject.substr(0, 256);
  if (static_cast<double>(subject.size()) > longest) subject = subject.substr(0, static_cast<std::size_t>(longest));

  const int want = std::regex_search(subject.begin(), subject.end(), *re) ? 1 : 0;
  const int got = check.search(subject);
  if (got != want) {
    std::fprintf(stderr, "pattern %s subject \"%s\": small matcher %d, std::regex %d\n", shown(pattern).c_str(),
                 shown(subject).c_str(), got, want);
    std::abort();
  }
  return 0;
}
