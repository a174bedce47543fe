// Appends to a std::string through a cursor, for the writers of JSON text. They append a byte or a
// few at a time, and std::string checks its capacity on each append and is not inlined there
// (push_back alone was 9% of the server's time returning a list of 100 records). text_out makes
// room in blocks, one resize of the string each (it zero-fills what it adds, which costs far less
// than the checks it saves), writes through a pointer, and cuts the string back to what was
// written when it is done.
//
// While a text_out is open on a string, nothing else may touch that string: its size() then
// counts the room not yet written. Threads: one at a time, as for the string.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace mcp {
inline namespace v0 {
namespace detail {

class text_out {
 public:
  explicit text_out(std::string& s) : s_(s), start_(s.size()), p_(s.data() + s.size()), end_(p_) {}
  ~text_out() { close(); }
  text_out(const text_out&) = delete;
  text_out& operator=(const text_out&) = delete;

  // At least n bytes writable from the returned cursor; commit() says where the writing ended.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(n);
    return p_;
  }
  void commit(char* end) { p_ = end; }

  void put(char c) { *room(1) = c, ++p_; }
  void put(std::string_view v) {
    char* d = room(v.size());
    copy(d, v.data(), v.size());
    p_ = d + v.size();
  }

  // memcpy, with the short copies writers make most (a key, a name, an email) done inline: a call
  // to memcpy cost more than copying a dozen bytes.
  static void copy(char* to, const char* from, std::size_t n) {
    if (n >= 8 && n <= 16) {  // two overlapping words
      std::memcpy(to, from, 8);
      std::memcpy(to + n - 8, from + n - 8, 8);
    } else if (n < 8) {
      for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
    } else {
      std::memcpy(to, from, n);
    }
  }

  // What the string holds of the text so far, the part written before this text_out included.
  std::size_t size() const { return static_cast<std::size_t>(p_ - s_.data()); }
  // The text written so far, from `from` (a size() taken earlier) to the cursor.
  std::string_view since(std::size_t from) const { return {s_.data() + from, size() - from}; }

  // Drops what was written past `size` (a size() taken earlier).
  void truncate(std::size_t size) { p_ = s_.data() + size; }

  // Cuts the string back to what was written; the text_out may go on writing after it.
  void close() {
    if (end_ == p_) return;
    s_.resize(size());
    p_ = end_ = s_.data() + s_.size();
  }

 private:
  void grow(std::size_t n) {
    const std::size_t used = size();
    // Doubling what this text_out wrote, so that a long text costs few resizes; at least a small
    // block, so that a short one costs one.
    s_.resize(used + std::max(n, std::max<std::size_t>(used - start_, 64)));
    p_ = s_.data() + used;
    end_ = s_.data() + s_.size();
  }

  std::string& s_;
  std::size_t start_;  // the string's size when this text_out began
  char* p_;
  char* end_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
