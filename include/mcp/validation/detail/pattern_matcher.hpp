// A "pattern" check that skips std::regex for the simple patterns schemas mostly use
// (`^[A-Z]{3}-[0-9]{4}$`, `^[a-z0-9_-]+$`, `\d{3}`): a sequence of one-byte atoms (literal, escaped
// literal, `.`, `\d \D \s \S \w \W`, `[...]`, `[^...]`), each with at most one greedy quantifier
// (`? * + {n} {n,} {n,m}`), between an optional leading `^` and an optional trailing `$`.
// It must answer exactly what std::regex_search(subject, std::regex(pattern)) answers (libstdc++,
// ECMAScript, default flags, bytes not code points), so it mirrors libstdc++'s reading of a
// pattern and declines (the caller keeps std::regex) whatever it cannot mirror for certain.
// tests/unit/test_pattern_matcher.cpp and tests/fuzz/fuzz_pattern.cpp compare the two.
// What libstdc++ does, checked on every byte by the tests:
// - `.` matches every byte but '\n' and '\r';
// - `^` only at the start of the subject and `$` only at its end (not before a final "\n"),
//   as multiline is off by default;
// - `\d \s \w` are what the regex's traits say under its locale (the global one when it was
//   built; "C": [0-9], [\t\n\v\f\r ], [0-9A-Za-z_]); the tables are filled from the same traits.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <locale>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Compiles a "pattern" the way valijson does (std::regex, ECMAScript); throws std::regex_error.
// Every schema pattern reaches std::regex through here. libstdc++ reads a repetition count
// (`{n,m}`) or a back-reference number (`\n`) into a long without checking for overflow, which is
// undefined from 19 digits on, so a number of more than 9 digits there is refused first (as a bad
// count: no regex engine could run that many states anyway).
inline std::regex compile_pattern(const std::string& pattern) {
  auto digits_at = [&](std::size_t i) {
    std::size_t n = 0;
    while (i + n < pattern.size() && pattern[i + n] >= '0' && pattern[i + n] <= '9') ++n;
    return n;
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (digits_at(i + 1) > 9) throw std::regex_error(std::regex_constants::error_backref);
      ++i;  // an escaped '{' is a literal
    } else if (pattern[i] == '{') {
      for (std::size_t j = i + 1; j < pattern.size() && pattern[j] != '}'; ++j) {
        const std::size_t n = digits_at(j);
        if (n > 9) throw std::regex_error(std::regex_constants::error_badbrace);
        if (n == 0 && pattern[j] != ',') break;
        j += n ? n - 1 : 0;
      }
    }
  }
  return std::regex(pattern);
}

// A "pattern" compiled once: the small matcher when the pattern is in its subset, else std::regex.
// Immutable after construction: safe to use from several threads at once.
class pattern_check {
 public:
  // Throws std::regex_error for a pattern std::regex refuses (std::regex is always compiled first,
  // so errors stay identical), then builds the small matcher when it can.
  explicit pattern_check(const std::string& pattern) {
    regex_.emplace(compile_pattern(pattern));
    if (mirrors_std_regex && build(pattern, regex_->getloc())) regex_.reset();
  }

  // 1: a match exists somewhere in `subject` (regex_search semantics); 0: none; -1: std::regex
  // threw on this subject.
  int search(std::string_view subject) const {
    if (!regex_) return (fixed_ ? run_fixed(subject) : run(subject)) ? 1 : 0;
    try {
      return std::regex_search(subject.begin(), subject.end(), *regex_) ? 1 : 0;
    } catch (const std::regex_error&) {
      return -1;
    }
  }

  bool compiled_small() const { return !regex_; }
  // Whether the small matcher takes its fixed-length road (run_fixed).
  bool fixed_length() const { return fixed_; }

 private:
  // The small matcher mirrors libstdc++'s std::regex. libc++'s differs in corners (its 14 finds no
  // match for "$" in "a"), and others are untested: there, std::regex answers every pattern.
#if defined(__GLIBCXX__)
  static constexpr bool mirrors_std_regex = true;
#else
  static constexpr bool mirrors_std_regex = false;
#endif
  using byte_set = std::bitset<256>;
  // Expanded positions ({n,m} makes copies); above this the pattern stays with std::regex.
  static constexpr std::size_t max_positions = 255;
  using state_set = std::array<std::uint64_t, (max_positions + 1) / 64>;  // positions + the final state

  // Adds to `x` the positions a match may skip to from those in x, through optional positions:
  // adding x's part of a run of optional positions to the run carries through the run's end and
  // one past it, setting (after the xor) every position from x's first one in the run on.
  void close(state_set& x) const {
    std::uint64_t carry = 0;
    for (std::size_t w = 0; w < words_; ++w) {
      const std::uint64_t part = x[w] & optional_[w], sum = optional_[w] + part, total = sum + carry;
      carry = (sum < part) | (total < sum);
      x[w] |= total ^ optional_[w];
    }
  }

  // Bit-parallel position sets (one bit per position, a shift and an addition per byte): linear in
  // the subject whatever the pattern, unlike backtracking. Whether some match exists does not
  // depend on greediness, so the language is all that counts.
  bool run(std::string_view s) const {
    if (words_ == 1) return run_one_word(s);
    const std::size_t last_word = final_ / 64;
    const std::uint64_t final_bit = std::uint64_t{1} << (final_ % 64);
    state_set cur{};
    for (std::size_t p = 0;; ++p) {
      if (p == 0 || !begin_) {
        for (std::size_t w = 0; w < words_; ++w) cur[w] |= start_[w];  // a match may start here
      }
      if ((cur[last_word] & final_bit) != 0 && (!end_ || p == s.size())) return true;
      if (p == s.size()) return false;
      const std::uint64_t* takes = &accept_[static_cast<unsigned char>(s[p]) * words_];
      std::uint64_t carry = 0, alive = 0;
      for (std::size_t w = 0; w < words_; ++w) {
        const std::uint64_t took = cur[w] & takes[w];
        cur[w] = (took & loop_[w]) | (took << 1) | carry;  // stay on a loop, or go on to the next
        carry = took >> 63;
        alive |= took;
      }
      if (alive == 0 && begin_) return false;  // nothing left, and no later start for `^`
      close(cur);
    }
  }

  // run() for a pattern of at most 63 positions (most are), in one word: the same steps, with
  // no loop over words and no carry between them.
  bool run_one_word(std::string_view s) const {
    const std::uint64_t final_bit = std::uint64_t{1} << final_, start = start_[0], loop = loop_[0];
    const std::uint64_t optional = optional_[0];
    std::uint64_t cur = 0;
    for (std::size_t p = 0;; ++p) {
      if (p == 0 || !begin_) cur |= start;
      if ((cur & final_bit) != 0 && (!end_ || p == s.size())) return true;
      if (p == s.size()) return false;
      const std::uint64_t took = cur & accept_[static_cast<unsigned char>(s[p])];
      cur = (took & loop) | (took << 1);
      if (took == 0 && begin_) return false;
      cur |= ((cur & optional) + optional) ^ optional;  // close(): through optional positions
    }
  }

  // run_one_word() for a pattern of one byte set per position between `^` and `$` (no `?`, `*`,
  // `+` or `{n,m}` with n < m: `^[A-Z]{3}-[0-9]{4}$`, `^\d{4}-\d{2}-\d{2}$`). There its steps come
  // down to this: a match takes as many bytes as there are positions, byte p taken by position p.
  // A third of the instructions per byte of run_one_word (order's SKUs, tests/bench/results/history.md).
  bool run_fixed(std::string_view s) const {
    if (s.size() != final_) return false;
    for (std::size_t p = 0; p < s.size(); ++p)
      if ((accept_[static_cast<unsigned char>(s[p])] >> p & 1) == 0) return false;
    return true;
  }

  static bool ascii_alnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  // One atom's byte set from a character-class escape, through the regex's own traits.
  static byte_set class_set(char letter, const std::regex_traits<char>& traits) {
    const char lower = static_cast<char>(letter | 0x20);
    const auto mask = traits.lookup_classname(&lower, &lower + 1);
    byte_set set;
    for (std::size_t b = 0; b < 256; ++b) set[b] = traits.isctype(static_cast<char>(b), mask);
    return letter == lower ? set : ~set;
  }

  // The escape at p[i] == '\\'. A char (kind 'c'), a class (kind 's') or no (kind 0: decline).
  struct escaped {
    char kind = 0;
    char c = 0;
    byte_set set;
  };
  static escaped escape(std::string_view p, std::size_t& i, bool in_bracket, const std::regex_traits<char>& traits) {
    escaped out;
    if (i + 1 >= p.size()) return out;
    const char e = p[i + 1];
    i += 2;
    const std::string_view controls("0\0f\fn\nr\rt\tv\v", 12);  // libstdc++'s ECMAScript table
    if (std::string_view("dDsSwW").find(e) != std::string_view::npos) {
      out.kind = 's';
      out.set = class_set(e, traits);
    } else if (const auto at = controls.find(e); at != std::string_view::npos && at % 2 == 0) {
      out.kind = 'c';
      out.c = controls[at + 1];
    } else if (e == 'b' && in_bracket) {
      out.kind = 'c';
      out.c = '\b';
    } else if (static_cast<unsigned char>(e) < 0x80 && !ascii_alnum(e)) {
      out.kind = 'c';  // an identity escape: `\.`, `\-`, `\\`, `\/`...
      out.c = e;
    }  // else `\b`, `\B`, `\c`, `\x`, `\u`, back-references, other letters: declined
    return out;
  }

  // One term inside [...]: ']' (kind 'e'), an unescaped '-' (kind '-'), a char or a class.
  static escaped bracket_term(std::string_view p, std::size_t& i, const std::regex_traits<char>& traits) {
    escaped out;
    if (i >= p.size() || static_cast<unsigned char>(p[i]) >= 0x80) return out;
    const char c = p[i];
    if (c == '\\') return escape(p, i, true, traits);
    if (c == '[' && i + 1 < p.size() && (p[i + 1] == ':' || p[i + 1] == '.' || p[i + 1] == '=')) return out;
    ++i;
    out.kind = c == ']' ? 'e' : c == '-' ? '-' : 'c';
    out.c = c;
    return out;
  }

  // [...] at p[i] == '[', read term by term as libstdc++'s _M_expression_term does: a char waits
  // in `last` in case a '-' makes it the start of a range.
  static bool bracket(std::string_view p, std::size_t& i, const std::regex_traits<char>& traits, byte_set& set) {
    ++i;
    const bool negate = i < p.size() && p[i] == '^';
    if (negate) ++i;
    int last = -1;  // a char (as unsigned char) that may yet start a range
    bool last_is_class = false;
    const auto flush = [&] {
      if (last >= 0) set.set(static_cast<std::size_t>(last));
      last = -1;
      last_is_class = false;
    };
    const auto push = [&](char c) {
      flush();
      last = static_cast<unsigned char>(c);
    };
    for (bool first = true;; first = false) {
      escaped t = bracket_term(p, i, traits);
      if (t.kind == 0) return false;
      if (t.kind == 'e') break;
      if (t.kind == 'c' || (t.kind == '-' && first)) {
        push(t.c);
      } else if (t.kind == 's') {
        flush();
        last_is_class = true;
        set |= t.set;
      } else {  // a '-' after something
        std::size_t peek = i;
        escaped next = bracket_term(p, peek, traits);
        if (next.kind == 'e') {
          push('-');
          i = peek;
          break;
        }
        if (last_is_class) return false;  // "[\d-x]": std::regex refuses it
        if (last < 0) {
          push('-');  // after a range, ECMAScript takes '-' as a char
          continue;
        }
        if (next.kind != 'c' && next.kind != '-') return false;
        i = peek;
        if (last > static_cast<unsigned char>(next.c)) return false;  // std::regex refuses it
        for (int b = last; b <= static_cast<unsigned char>(next.c); ++b) set.set(static_cast<std::size_t>(b));
        last = -1;
      }
    }
    flush();
    if (negate) set.flip();
    return true;
  }

  // `{n}`, `{n,}` or `{n,m}` at p[i] == '{'.
  static bool braces(std::string_view p, std::size_t& i, std::size_t& lo, std::size_t& hi, bool& unbounded) {
    const auto number = [&](std::size_t& n) {
      const std::size_t start = ++i;
      const auto digit = [&] { return i < p.size() && p[i] >= '0' && p[i] <= '9'; };
      for (n = 0; digit() && i - start < 4; ++i) n = n * 10 + static_cast<std::size_t>(p[i] - '0');
      return i > start && i < p.size() && !digit();  // more than 4 digits: declined
    };
    if (!number(lo)) return false;
    hi = lo;
    if (p[i] == ',') {
      if (i + 1 < p.size() && p[i + 1] == '}') {
        unbounded = true;
        ++i;
      } else if (!number(hi)) {
        return false;
      }
    }
    if (p[i] != '}' || hi < lo) return false;
    ++i;
    return true;
  }

  bool build(std::string_view p, const std::locale& loc) {
    std::regex_traits<char> traits;
    traits.imbue(loc);
    struct atom {
      byte_set set;
      std::size_t first, copies;  // its positions
    };
    std::vector<atom> atoms;
    std::size_t i = 0;
    begin_ = !p.empty() && p[0] == '^';
    if (begin_) ++i;
    while (i < p.size()) {
      const char c = p[i];
      if (c == '$' && i + 1 == p.size()) {
        end_ = true;
        break;
      }
      byte_set set;
      if (static_cast<unsigned char>(c) >= 0x80) return false;
      if (c == '.') {
        set.set().reset('\n').reset('\r');
        ++i;
      } else if (c == '[') {
        if (!bracket(p, i, traits, set)) return false;
      } else if (c == '\\') {
        const escaped e = escape(p, i, false, traits);
        if (e.kind == 0) return false;
        if (e.kind == 'c') set.set(static_cast<unsigned char>(e.c));
        else set = e.set;
      } else if (std::string_view("^$*+?()[]{}|").find(c) != std::string_view::npos) {
        return false;  // `]` and `}` are literals to libstdc++, but not to every engine: declined
      } else {
        set.set(static_cast<unsigned char>(c));
        ++i;
      }
      std::size_t lo = 1, hi = 1;
      bool unbounded = false;
      if (i < p.size() && std::string_view("?*+{").find(p[i]) != std::string_view::npos) {
        if (p[i] == '{') {
          if (!braces(p, i, lo, hi, unbounded)) return false;
        } else {
          lo = p[i] == '+' ? 1 : 0;
          unbounded = p[i] != '?';
          ++i;
        }
        // A lazy `?` or a second quantifier: declined.
        if (i < p.size() && std::string_view("?*+{").find(p[i]) != std::string_view::npos) return false;
      }
      const std::size_t copies = unbounded ? (lo == 0 ? 1 : lo) : hi;
      if (final_ + copies > max_positions) return false;
      if (copies != 0) atoms.push_back({set, final_, copies});
      for (std::size_t n = 0; n < copies; ++n, ++final_) {
        if (unbounded ? lo == 0 : n >= lo) optional_[final_ / 64] |= std::uint64_t{1} << (final_ % 64);
        if (unbounded && n + 1 == copies) loop_[final_ / 64] |= std::uint64_t{1} << (final_ % 64);
      }
    }
    words_ = final_ / 64 + 1;
    accept_.assign(256 * words_, 0);
    for (const atom& a : atoms) {
      for (std::size_t b = 0; b < 256; ++b) {
        for (std::size_t at = a.first; a.set[b] && at < a.first + a.copies; ++at)
          accept_[b * words_ + at / 64] |= std::uint64_t{1} << (at % 64);
      }
    }
    start_[0] = 1;
    close(start_);
    fixed_ = words_ == 1 && begin_ && end_ && optional_[0] == 0 && loop_[0] == 0;
    return true;
  }

  std::vector<std::uint64_t> accept_;  // accept_[byte * words_ + w]: the positions that take byte
  state_set optional_{};               // may be skipped
  state_set loop_{};                   // may take more bytes
  state_set start_{};                  // where a match begins
  std::size_t final_ = 0;              // the final state, after the last position
  std::size_t words_ = 1;
  bool begin_ = false;  // `^`
  bool end_ = false;    // `$`
  bool fixed_ = false;  // run_fixed() answers
  std::optional<std::regex> regex_;  // only when the pattern is not in the subset
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
