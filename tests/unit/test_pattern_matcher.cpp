// Differential tests of pattern_check's small matcher against std::regex_search (the engine of
// record for "pattern"): on the SDK's patterns, on every single byte, on random subjects mixing a
// pattern's bytes with edge bytes, and on random patterns drawn from the subset's grammar, so that
// the proof covers the subset and not a handful of examples. tests/fuzz/fuzz_pattern.cpp goes on
// from there.
#include "catch.hpp"

#include <mcp/validation/detail/pattern_matcher.hpp>

#include <cstdint>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

using mcp::detail::pattern_check;

namespace test_pattern_matcher {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

// The small matcher mirrors libstdc++'s std::regex; with another standard library pattern_check
// keeps std::regex for every pattern, and these tests check only that it answers the same.
#if defined(__GLIBCXX__)
constexpr bool mirrored = true;
#else
constexpr bool mirrored = false;
#endif

std::string shown(const std::string& s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Subjects: every byte alone, then random strings (length 0..40, one in eight up to 160, for the
// patterns of more than 64 positions) over the pattern's own bytes, digits and letters, and the
// bytes a byte-level matcher gets wrong first.
std::vector<std::string> subjects_for(const std::string& pattern, std::mt19937& rng, int count) {
  std::string alphabet = pattern + "aZ09_- .\n\r\t";
  alphabet += std::string("\0\x7f\x80\xff", 4);
  std::vector<std::string> out;
  for (int b = 0; b < 256; ++b) out.emplace_back(1, static_cast<char>(b));
  std::uniform_int_distribution<std::size_t> length(0, 40), longer(41, 160), pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> any_byte(0, 255), coin(0, 15);
  for (int n = 0; n < count; ++n) {
    std::string s(coin(rng) < 2 ? longer(rng) : length(rng), ' ');
    for (char& c : s) c = coin(rng) == 0 ? static_cast<char>(any_byte(rng)) : alphabet[pick(rng)];
    out.push_back(std::move(s));
  }
  return out;
}

// The number of subjects on which the two disagree; the first one is reported.
int differences(const std::string& pattern, const std::vector<std::string>& subjects) {
  const pattern_check check(pattern);
  const std::regex re(pattern);
  int differ = 0;
  for (const std::string& s : subjects) {
    const int want = std::regex_search(s, re) ? 1 : 0;
    const int got = check.search(s);
    if (got != want && differ++ == 0) {
      UNSCOPED_INFO("pattern " << shown(pattern) << " subject \"" << shown(s) << "\": small " << got
                               << ", std::regex " << want);
    }
  }
  return differ;
}

// A random pattern from the subset's grammar, with some of std::regex's errors on purpose.
std::string random_pattern(std::mt19937& rng) {
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  static const std::vector<std::string> singles = {
      "a", "b", "Z", "0", "7", "-", "_", " ", "@", "/", ",", "=", "'", "\"", "#", "%", "&", "~", "<", ":",
      "\\.", "\\-", "\\\\", "\\/", "\\+", "\\*", "\\?", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "\\|", "\\^",
      "\\$", "\\n", "\\r", "\\t", "\\f", "\\v", "\\0", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", ".", ".",
      std::string(1, '\0'), "\n", "\t", "\x7f"};
  static const std::vector<std::string> in_bracket = {
      "a", "z", "A", "Z", "0", "9", "-", "_", ".", "+", "*", "$", "^", "(", "|", "[", "{", "}", " ", "/",
      "\\]", "\\-", "\\\\", "\\[", "\\^", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\n", "\\b", "\\0", "\\.",
      "a-z", "A-Z", "0-9", "a-f", " -~", "+--", "!-/", "9-0", "a-\\d", "\\d-z", "--0"};
  static const std::vector<std::string> quantifiers = {"", "", "", "?", "*", "+", "{0}", "{1}", "{2}", "{3}",
                                                       "{0,}", "{2,}", "{0,1}", "{1,3}", "{2,4}", "{3,2}", "{12}",
                                                       "{0,70}", "{63,}", "{40,66}"};
  std::string p = pick(3) == 0 ? "" : "^";
  for (int atoms = pick(6); atoms > 0; --atoms) {
    if (pick(3) == 0) {
      p += '[';
      if (pick(3) == 0) p += '^';
      if (pick(5) == 0) p += '-';
      for (int terms = pick(4); terms > 0; --terms) p += in_bracket[pick(static_cast<int>(in_bracket.size()))];
      if (pick(5) == 0) p += '-';
      p += ']';
    } else {
      p += singles[pick(static_cast<int>(singles.size()))];
    }
    p += quantifiers[pick(static_cast<int>(quantifiers.size()))];
  }
  if (pick(2) == 0) p += '$';
  return p;
}

}  // namespace

TEST_CASE("pattern: '.', '\\d', '\\s', '\\w' and their negations match std::regex on every byte", "[pattern]") {
  for (const std::string p : {".", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "[\\d]", "[^\\D]", "[\\s\\w]", "[^.]"}) {
    CAPTURE(p);
    REQUIRE(pattern_check(p).compiled_small() == mirrored);
    std::vector<std::string> bytes;
    for (int b = 0; b < 256; ++b) bytes.emplace_back(1, static_cast<char>(b));
    REQUIRE(differences(p, bytes) == 0);
  }
  // What those are, as found (ECMAScript in libstdc++, "C" locale, bytes).
  const pattern_check dot("."), digit("\\d");
  int dots = 0, digits = 0;
  for (int b = 0; b < 256; ++b) {
    dots += dot.search(std::string(1, static_cast<char>(b)));
    digits += digit.search(std::string(1, static_cast<char>(b)));
  }
  CHECK(dots == 254);  // all but '\n' and '\r'
  CHECK(digits == 10);
  CHECK(dot.search("\n") == 0);
  CHECK(dot.search("\r") == 0);
  CHECK(dot.search("\xe2\x80\xa8") == 1);  // U+2028 is three bytes, none a line terminator
}

TEST_CASE("pattern: '^' and '$' hold at the ends of the subject only, as std::regex", "[pattern]") {
  const pattern_check anchored("^abc$"), tail("abc$"), head("^abc");
  for (const std::string s : {"abc", "abc\n", "abc\r", "\nabc", "xabc", "abcx", "ab\nc", ""}) {
    CAPTURE(shown(s));
    CHECK(anchored.search(s) == (std::regex_search(s, std::regex("^abc$")) ? 1 : 0));
    CHECK(tail.search(s) == (std::regex_search(s, std::regex("abc$")) ? 1 : 0));
    CHECK(head.search(s) == (std::regex_search(s, std::regex("^abc")) ? 1 : 0));
  }
  CHECK(anchored.search("abc\n") == 0);  // no match before a final newline
  CHECK(tail.search("\nabc") == 1);
  CHECK(head.search("x\nabc") == 0);  // not after a newline either
}

TEST_CASE("pattern: the SDK's patterns and the subset's corners agree with std::regex", "[pattern]") {
  const std::vector<std::string> patterns = {
      "^[A-Z]{3}-[0-9]{4}$", "^[a-z0-9_-]+$", "^[a-z][a-z0-9-]*$", "\\d{3}", "^.{2,5}$", "a?b*c+", "^a?b*c+$",
      "[^a-z]", "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", "^\\d{4}-\\d{2}-\\d{2}$", "\\.", "a\\.b\\-c\\\\d\\/e\\+",
      "^$", "", "^", "$", "x{0}", "^x{0,2}y{2,}$", "[-a]", "[a-]", "[--/]", "[a-c-e]", "[\\--z]", "[]", "[^]",
      "^[^\\n]*$", "\\w+@\\w+", "[\\b]", "\\0", "^\\S+$", "^[ -~]*$",
      "^[a-c0]{60,70}$", "x{0,100}y", "^.{63,66}z?$", "[ab]{62,}c", "a{0,64}b{0,64}c{0,64}d{60}", "^q?.{61,64}q$"};
  std::mt19937 rng(20240611);
  int small = 0;
  for (const std::string& p : patterns) {
    CAPTURE(shown(p));
    small += pattern_check(p).compiled_small() ? 1 : 0;
    REQUIRE(differences(p, subjects_for(p, rng, 1500)) == 0);
  }
  CHECK(small == (mirrored ? static_cast<int>(patterns.size()) : 0));
  for (const std::string p : {"^[A-Z]{3}-[0-9]{4}$", "^[a-z0-9_-]+$", "\\d{3}", "^.{2,5}$", "a?b*c+", "[^a-z]", ""}) {
    CAPTURE(p);
    CHECK(pattern_check(p).compiled_small() == mirrored);
  }
}

TEST_CASE("pattern: fixed-length patterns agree with std::regex on every byte at every position", "[pattern]") {
  // Random subjects seldom match these, so each is tried with a match it has: that match, every
  // byte at every position, every prefix, every byte added at the end or the front.
  const std::vector<std::pair<std::string, std::string>> fixed = {
      {"^[A-Z]{3}-[0-9]{4}$", "ABC-1234"}, {"^\\d{4}-\\d{2}-\\d{2}$", "2026-11-28"}, {"^$", ""},
      {"^x{0}$", ""}, {"^a$", "a"}, {"^.\\s[^a-z]\\W\\w\\S\\D$", "q\tQ-_x."}, {"^x{0}ab{1}c{2,2}$", "abcc"},
      {"^[a-c0]{63}$", std::string(63, 'c')}};
  const std::vector<std::string> not_fixed = {"^[A-Z]{3}-[0-9]{4}", "[A-Z]{3}-[0-9]{4}$", "^a?$", "^a*$", "^a+$",
                                              "^a{1,2}$", "^a{2,}$", "^[a-c0]{64}$"};
  for (const auto& [pattern, match] : fixed) {
    CAPTURE(shown(pattern));
    REQUIRE(pattern_check(pattern).fixed_length() == mirrored);
    std::vector<std::string> subjects = {match};
    for (std::size_t at = 0; at <= match.size(); ++at) {
      subjects.push_back(match.substr(0, at));
      for (int b = 0; b < 256; ++b) {
        std::string s = match;
        if (at < s.size()) {
          s[at] = static_cast<char>(b);
          subjects.push_back(s);
        }
        subjects.push_back(match.substr(0, at) + static_cast<char>(b) + match.substr(at));
      }
    }
    REQUIRE(pattern_check(pattern).search(match) == 1);
    REQUIRE(differences(pattern, subjects) == 0);
  }
  std::mt19937 rng(4);
  for (const std::string& pattern : not_fixed) {
    CAPTURE(pattern);
    CHECK_FALSE(pattern_check(pattern).fixed_length());
    REQUIRE(differences(pattern, subjects_for(pattern, rng, 300)) == 0);
  }
}

TEST_CASE("pattern: what is outside the subset stays with std::regex, and answers as std::regex", "[pattern]") {
  const std::vector<std::string> outside = {
      "(ab)+", "a|b", "(?:a)", "(?=a)a", "(a)\\1", "\\bword\\b", "a*?", "a+?", "a??", "a{1,2}?", "[[:alpha:]]+",
      "\\x41", "^[\\x20]*$", "\\u0041", "\\cA", "]", "}", "a^b", "a$b", "caf\xc3\xa9", "[\xc3\xa9]", "a{300}",
      "a{1,999}", "a{00001}", "\\a"};
  std::mt19937 rng(7);
  for (const std::string& p : outside) {
    CAPTURE(shown(p));
    try {
      std::regex re(p);
    } catch (const std::regex_error&) {
      continue;  // libc++ refuses "\\a", "]" and "}"
    }
    CHECK_FALSE(pattern_check(p).compiled_small());
    REQUIRE(differences(p, subjects_for(p, rng, 100)) == 0);
  }
}

TEST_CASE("pattern: a pattern std::regex refuses throws the same regex_error", "[pattern]") {
  for (const std::string p : {"[a-", "a{2,1}", "[z-a]", "*a", "a\\", "(a", "a{", "[\\d-z]", "a{1"}) {
    CAPTURE(p);
    int want = -1;  // std::regex accepts it (libc++ takes "[z-a]")
    try {
      std::regex re(p);
    } catch (const std::regex_error& e) {
      want = e.code();
    }
    int got = -1;
    try {
      pattern_check check(p);
    } catch (const std::regex_error& e) {
      got = e.code();
    }
    CHECK(got == want);
    if (mirrored) CHECK(want != -1);
  }
}

TEST_CASE("pattern: random patterns of the subset's grammar agree with std::regex", "[pattern]") {
  std::mt19937 rng(99);
  int compiled = 0, small = 0;
  for (int n = 0; n < 700; ++n) {
    const std::string p = random_pattern(rng);
    try {
      std::regex re(p);
    } catch (const std::regex_error&) {
      continue;  // the constructor throws the same (previous test)
    }
    ++compiled;
    CAPTURE(shown(p));
    small += pattern_check(p).compiled_small() ? 1 : 0;
    REQUIRE(differences(p, subjects_for(p, rng, 40)) == 0);
  }
  // The grammar is the subset's, so nearly every pattern std::regex accepts gets the small matcher.
  CHECK(compiled > 400);
  CHECK(small > (mirrored ? compiled * 9 / 10 : -1));
}

TEST_CASE("pattern: long subjects and many positions stay linear", "[pattern]") {
  if (!mirrored) return;  // libc++'s std::regex throws error_complexity on the first one
  const pattern_check many("^a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaaaaaaaaaaaaaaaa$");
  REQUIRE(many.compiled_small());
  CHECK(many.search(std::string(24, 'a')) == 1);
  CHECK(many.search(std::string(49, 'a')) == 0);
  const pattern_check wide("[a-z]{100,250}x");
  REQUIRE(wide.compiled_small());
  CHECK(wide.search(std::string(20000, 'q')) == 0);
  CHECK(wide.search(std::string(300, 'q') + "x") == 1);
}

}  // namespace test_pattern_matcher
