// The notes store: one JSON file, rewritten atomically on every change (mcp::replace_file: temp
// file, fsync, rename, fsync of the folder), so a kill at any moment leaves the old file or the
// new one, never a torn one. A store that cannot be read is reported and never overwritten.
#pragma once

#include <mcp/stores/durable_file.hpp>
#include <mcp/json/json.hpp>
#include <mcp/json/parse.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <string>

namespace notes {

struct note {
  std::string title;
  std::string body;
  std::string visibility;  // "private" | "team"
  std::string created;     // ISO-8601 UTC
  std::string last_modified;
  std::string folded;      // title + body in ASCII lower case, kept for search
};

inline std::string fold_case(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

inline std::string now_iso8601() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
#ifdef _WIN32
  gmtime_s(&tm, &t);
#else
  gmtime_r(&t, &tm);
#endif
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

class store {
 public:
  explicit store(std::string path) : path_(std::move(path)) { load(); }

  // Why the store cannot be used, or empty when it can.
  const std::string& problem() const { return problem_; }
  const std::string& path() const { return path_; }

  // Reads run side by side (searches are the common call); a write waits for them and excludes them.
  template <class F>
  auto read(F&& f) const {
    std::shared_lock lock(mutex_);
    return f(notes_);
  }
  // Applies a change and persists it before returning; on a failed write the change is undone.
  template <class F>
  auto write(F&& f) {
    std::unique_lock lock(mutex_);
    auto before = notes_;
    auto result = f(notes_);
    for (auto& [title, n] : notes_) n.folded = fold_case(n.title + "\n" + n.body);
    if (std::string err = persist(); !err.empty()) {
      notes_ = std::move(before);
      throw std::runtime_error(err);
    }
    return result;
  }

 private:
  // {"notes": [{...}]} is three levels; the rest is room for fields a later version may add.
  static constexpr std::size_t max_store_depth = 16;

  void load() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
      if (errno == ENOENT) return;  // a new store: created on the first write
      problem_ = "The notes store '" + path_ + "' cannot be read: " + std::strerror(errno) + ".";
      return;
    }
    std::stringstream text;
    text << in.rdbuf();
    // The store is only ever {"notes": [{...}]}: three levels. Read as messages are, so a damaged
    // file (a NUL byte, junk after the value, deep nesting) is reported, never half read.
    std::string why;
    std::optional<mcp::json> read = mcp::parse_json(text.str(), max_store_depth, &why);
    if (!read) {
      problem_ = "The notes store '" + path_ + "' is " + why +
                 ". It has not been changed; repair it or move it aside, then restart the server.";
      return;
    }
    mcp::json& doc = *read;
    std::string where;
    if (!doc.is_object() || !doc.contains("notes") || !doc["notes"].is_array()) where = "the top level must be {\"notes\": [...]}";
    for (std::size_t i = 0; where.empty() && i < doc["notes"].size(); ++i) {
      const auto& n = doc["notes"][i];
      if (!n.is_object() || !n.value("title", mcp::json()).is_string() || !n.value("body", mcp::json()).is_string())
        where = "/notes/" + std::to_string(i) + " needs string fields \"title\" and \"body\"";
      else
        notes_[n["title"]] = note{n["title"], n["body"], n.value("visibility", "team"), n.value("created", ""),
                                  n.value("last_modified", ""), fold_case(n["title"].get<std::string>() + "\n" +
                                                                          n["body"].get<std::string>())};
    }
    if (!where.empty()) {
      notes_.clear();
      problem_ = "The notes store '" + path_ + "' has an unexpected shape: " + where +
                 ". It has not been changed; repair it or move it aside, then restart the server.";
    }
  }

  std::string persist() const {
    mcp::json doc{{"notes", mcp::json::array()}};
    for (const auto& [title, n] : notes_)
      doc["notes"].push_back({{"title", n.title}, {"body", n.body}, {"visibility", n.visibility},
                              {"created", n.created}, {"last_modified", n.last_modified}});
    const std::string text = doc.dump(1) + "\n";
    return mcp::replace_file(path_, text);
  }

  std::string path_;
  std::string problem_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, note> notes_;
};

}  // namespace notes
