// RFC 6570 level-1 URI templates ("file:///{path}"): parsing, checking and matching a URI back to
// its variables. A variable matches one or more characters other than '/', '?' and '#', and its
// value is percent-decoded.
//
// What a handler receives, so that a value joined to a folder's path cannot leave it: a value is
// never empty, "." or "..", and holds no '/', no '\', and no control byte (0x00-0x1F, 0x7F), whether
// written plainly or percent-encoded (%2F, %5C, %00, %2E%2E...). A URI that would give a variable
// such a value does not match (resources/read: resource not found); neither does one with a '%'
// not followed by two hex digits. Any other byte may arrive, including ones that are not UTF-8
// (%FF). That is not a safe file name yet (Windows, for one, trims trailing dots and spaces): a
// handler still decides which names it serves.
#pragma once

#include <mcp/error.hpp>

#include <cctype>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

class uri_template {
 public:
  // Throws definition_error saying what is wrong with the template.
  explicit uri_template(std::string text) : text_(std::move(text)) {
    std::size_t i = 0;
    while (i < text_.size()) {
      std::size_t open = text_.find('{', i);
      std::size_t stray = text_.find('}', i);
      if (stray < open) fail("a '}' without its '{' at offset " + std::to_string(stray));
      if (open == std::string::npos) {
        parts_.push_back({false, text_.substr(i)});
        break;
      }
      if (open > i) parts_.push_back({false, text_.substr(i, open - i)});
      std::size_t close = text_.find('}', open);
      if (close == std::string::npos) fail("a '{' at offset " + std::to_string(open) + " is never closed");
      std::string name = text_.substr(open + 1, close - open - 1);
      if (name.empty()) fail("an empty variable '{}' at offset " + std::to_string(open));
      if (std::string_view("+#./;?&=,!@|").find(name[0]) != std::string_view::npos)
        fail("'{" + name + "}' uses an operator; only level-1 variables like {name} are supported");
      for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
          fail("variable '{" + name + "}' may contain only letters, digits and '_'");
      if (!parts_.empty() && parts_.back().is_variable)
        fail("variables '{" + parts_.back().text + "}' and '{" + name + "}' are adjacent; they cannot be told apart");
      for (const auto& p : parts_)
        if (p.is_variable && p.text == name) fail("variable '{" + name + "}' appears twice");
      parts_.push_back({true, name});
      i = close + 1;
    }
  }

  const std::string& text() const { return text_; }
  std::vector<std::string> variables() const {
    std::vector<std::string> names;
    for (const auto& p : parts_)
      if (p.is_variable) names.push_back(p.text);
    return names;
  }

  // Longer URIs never match: it bounds the work of matching a hostile one.
  static constexpr std::size_t max_uri_length = 2048;

  // The variables of `uri`, or nullopt when it does not fit the template.
  std::optional<std::map<std::string, std::string>> match(std::string_view uri) const {
    if (uri.size() > max_uri_length) return std::nullopt;
    std::map<std::string, std::string> vars;
    std::vector<bool> failed((parts_.size() + 1) * (uri.size() + 1), false);
    if (!match_from(0, uri, uri.size(), vars, failed)) return std::nullopt;
    return vars;
  }

 private:
  struct part {
    bool is_variable;
    std::string text;
  };

  [[noreturn]] void fail(const std::string& why) const {
    throw definition_error("Invalid URI template '" + text_ + "': " + why);
  }

  // Of the URI as written: these end a variable.
  static bool allowed_in_value(char c) { return c != '/' && c != '?' && c != '#'; }
  // Of a value once decoded (see the top of the file).
  static bool allowed_decoded(unsigned char c) { return c >= 0x20 && c != 0x7F && c != '/' && c != '\\'; }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // `failed` remembers (part, position) pairs already known not to match, which keeps the search
  // polynomial however the template and URI are made.
  bool match_from(std::size_t index, std::string_view rest, std::size_t total, std::map<std::string, std::string>& vars,
                  std::vector<bool>& failed) const {
    if (index == parts_.size()) return rest.empty();
    const std::size_t slot = index * (total + 1) + (total - rest.size());
    if (failed[slot]) return false;
    const part& p = parts_[index];
    bool ok = false;
    if (!p.is_variable) {
      ok = rest.substr(0, p.text.size()) == p.text && match_from(index + 1, rest.substr(p.text.size()), total, vars, failed);
    } else {
      // Try every value length that ends after a whole character or %XX, decoding as it goes; the
      // literal after it decides which one fits. A byte a value may not hold, or a broken %, is in
      // every longer value too: the search stops there.
      std::string value;
      std::size_t len = 0;
      while (!ok && len < rest.size() && allowed_in_value(rest[len])) {
        int byte = static_cast<unsigned char>(rest[len]);
        std::size_t width = 1;
        if (rest[len] == '%') {
          const int hi = len + 2 < rest.size() ? hex_digit(rest[len + 1]) : -1;
          const int lo = hi >= 0 ? hex_digit(rest[len + 2]) : -1;
          if (lo < 0) break;
          byte = hi * 16 + lo;
          width = 3;
        }
        if (!allowed_decoded(static_cast<unsigned char>(byte))) break;
        value += static_cast<char>(byte);
        len += width;
        if (value == "." || value == "..") continue;
        if (match_from(index + 1, rest.substr(len), total, vars, failed)) {
          vars[p.text] = value;
          ok = true;
        }
      }
    }
    if (!ok) failed[slot] = true;
    return ok;
  }

  std::string text_;
  std::vector<part> parts_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
