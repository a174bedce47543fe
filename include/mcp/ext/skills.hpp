// Skills (the io.modelcontextprotocol/skills extension, SEP-2640): folders of files, each with a
// SKILL.md whose YAML frontmatter names and describes it, served as skill:// resources and listed
// by skills/list and skills/get with a manifest of every file ({uri, digest, size}) so a host can
// verify what it reads. serve_skills(srv, folder) loads every skill under a folder with one call.
//
// Built on the server's public seams (extension, resource, method): a skill set is what any user
// could write, kept in one place.
#pragma once

#include <mcp/core/detail/sha256.hpp>
#include <mcp/ext/detail/skill_frontmatter.hpp>
#include <mcp/tools/features.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/core/server.hpp>
#include <mcp/json/detail/utf8.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

inline constexpr const char* skills_extension = "io.modelcontextprotocol/skills";

// One file of a skill, as loaded.
struct skill_file {
  std::string path;   // relative to the skill's folder, '/'-separated ("SKILL.md", "references/FORMS.md")
  std::string bytes;  // the raw content
};

// One skill: its name (the folder's name and the frontmatter's) and its files, SKILL.md among them.
struct skill {
  std::string name;
  std::vector<skill_file> files;
};

namespace detail {

inline std::string skill_uri(const std::string& name, const std::string& path) { return "skill://" + name + "/" + path; }

inline std::string sha256_text(std::string_view bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (auto b : sha256(bytes)) {
    out += hex[b >> 4];
    out += hex[b & 0xF];
  }
  return out;
}

inline std::string skill_mime_type(const std::string& path, std::string_view bytes) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends(".md")) return "text/markdown";
  if (ends(".json")) return "application/json";
  if (ends(".py")) return "text/x-python";
  if (ends(".sh")) return "text/x-shellscript";
  if (ends(".txt")) return "text/plain";
  return is_valid_utf8(bytes) ? "text/plain" : "application/octet-stream";
}

// A path segment the SDK writes into a URI unchanged: RFC 3986 unreserved characters.
inline bool plain_segment(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
          c == '_' || c == '~'))
      return false;
  return true;
}

// The Agent Skills naming rule: 1-64 characters of lower-case letters, digits and hyphens, no
// hyphen first, last or twice in a row.
inline bool valid_skill_name(std::string_view n) {
  if (n.empty() || n.size() > 64 || n.front() == '-' || n.back() == '-' || n.find("--") != std::string_view::npos)
    return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace detail

// The skills a server serves. Checks each skill when added (definition_error naming the skill
// and the rule), then answers skills/list, skills/get and the files' resources/read from memory.
//
// Threads: add() before serving; the handlers only read.
class skill_set {
 public:
  static constexpr std::size_t max_files = 512;                 // per skill (SEP-2640)
  static constexpr std::size_t max_bytes = 16u * 1024 * 1024;   // per skill, all files together

  // Checks and keeps a skill: its SKILL.md must begin with frontmatter holding a name equal to
  // the skill's name and a description; at most max_files files and max_bytes bytes.
  void add(skill s) {
    const std::string where = "Skill '" + s.name + "'";
    if (!detail::valid_skill_name(s.name))
      throw definition_error(where + ": a name is 1-64 lower-case letters, digits and hyphens, with no hyphen first, "
                                     "last or twice in a row");
    for (const auto& e : entries_)
      if (e->name == s.name) throw definition_error(where + " is already served");
    if (s.files.size() > max_files)
      throw definition_error(where + " has " + std::to_string(s.files.size()) + " files; a skill may have " +
                             std::to_string(max_files));
    std::size_t total = 0;
    const skill_file* manifest = nullptr;
    for (const auto& f : s.files) {
      total += f.bytes.size();
      std::size_t start = 0;
      for (;;) {
        const auto slash = f.path.find('/', start);
        if (!detail::plain_segment(std::string_view(f.path).substr(start, slash - start)))
          throw definition_error(where + ": the file path '" + f.path +
                                 "' must be segments of letters, digits, '-', '.', '_' and '~' (rename it)");
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
      if (f.path == "SKILL.md") manifest = &f;
    }
    if (total > max_bytes)
      throw definition_error(where + " holds " + std::to_string(total) + " bytes; a skill may hold " + std::to_string(max_bytes));
    if (!manifest) throw definition_error(where + " has no SKILL.md at its root");
    auto entry = std::make_shared<skill_entry>();
    entry->name = s.name;
    try {
      entry->frontmatter = detail::parse_skill_frontmatter(manifest->bytes);
    } catch (const std::exception& e) {
      throw definition_error(where + ", SKILL.md: " + e.what());
    }
    const auto name = entry->frontmatter.find("name");
    if (name == entry->frontmatter.end() || !name->is_string() || *name != s.name)
      throw definition_error(where + ", SKILL.md: the frontmatter's name must be \"" + s.name + "\", the skill's folder");
    const auto description = entry->frontmatter.find("description");
    if (description == entry->frontmatter.end() || !description->is_string() || description->get_ref<const std::string&>().empty())
      throw definition_error(where + ", SKILL.md: the frontmatter needs a description");
    entry->uri = detail::skill_uri(s.name, "SKILL.md");
    entry->files = std::move(s.files);
    std::sort(entry->files.begin(), entry->files.end(), [](const skill_file& a, const skill_file& b) {
      return std::make_pair(a.path != "SKILL.md", a.path) < std::make_pair(b.path != "SKILL.md", b.path);  // SKILL.md first
    });
    json manifest_list = json::array();
    for (const auto& f : entry->files)
      manifest_list.push_back({{"uri", detail::skill_uri(s.name, f.path)}, {"digest", detail::sha256_text(f.bytes)}, {"size", f.bytes.size()}});
    entry->listed = {{"uri", entry->uri}, {"frontmatter", entry->frontmatter}, {"resources", std::move(manifest_list)}};
    entries_.push_back(std::move(entry));
  }

  // Loads every skill under `folder`: each subfolder holding a SKILL.md is one skill, named by the
  // subfolder, with every regular file beneath it (symbolic links are not followed). Returns how
  // many; throws definition_error for one that breaks a rule.
  std::size_t load(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(folder)) throw definition_error("Skills folder '" + folder.string() + "' is not a directory");
    std::vector<fs::path> dirs;
    for (const auto& d : fs::directory_iterator(folder))
      if (d.is_directory() && !d.is_symlink() && fs::is_regular_file(d.path() / "SKILL.md")) dirs.push_back(d.path());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
      skill s;
      s.name = dir.filename().string();
      for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_symlink() || !it->is_regular_file()) continue;
        if (s.files.size() >= max_files) throw definition_error("Skill '" + s.name + "' has more than " + std::to_string(max_files) + " files");
        std::ifstream in(it->path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        s.files.push_back({fs::relative(it->path(), dir).generic_string(), bytes.str()});
      }
      add(std::move(s));
    }
    return dirs.size();
  }

  // Declares the extension and serves the skills on `srv`: skills/list, skills/get, and each
  // file as a resource (SKILL.md as text/markdown, named and described by its frontmatter). With
  // `directory_read`, also resources/directory/read: the children of a skill's folder or of a
  // folder within it (folders as inode/directory), declared as directoryRead in the extension.
  void serve(server& srv, bool directory_read = false) const {
    srv.extension(skills_extension, directory_read ? json{{"directoryRead", true}} : json::object());
    if (directory_read) serve_directories(srv);
    for (const auto& e : entries_)
      for (const auto& f : e->files) {
        resource_info info;
        info.uri = detail::skill_uri(e->name, f.path);
        info.mime_type = detail::skill_mime_type(f.path, f.bytes);
        info.size = f.bytes.size();
        if (f.path == "SKILL.md") {
          info.name = e->name;
          info.description = e->frontmatter["description"].get<std::string>();
        } else {
          info.name = f.path;
        }
        const std::string* bytes = &f.bytes;  // lives in the entry, which the handler keeps
        if (info.mime_type != "application/octet-stream")
          srv.resource(info, [keep = e, bytes] { return *bytes; });
        else
          srv.resource(info, [keep = e, bytes] { return blob{*bytes}; });
      }
    auto entries = entries_;
    srv.method("skills/list", {[entries, page_size = srv.options().page_size](context&, const json& params) {
      const page_window w = requested_page(params, entries.size(), page_size, "skills");
      json list = json::array();
      for (std::size_t i = w.begin; i < w.end; ++i) list.push_back(entries[i]->listed);
      json result{{"skills", std::move(list)}};
      if (w.next_cursor) result["nextCursor"] = *w.next_cursor;
      return result;
    }});
    srv.method("skills/get", {[entries](context&, const json& params) {
      auto uri = params.find("uri");
      if (uri == params.end() || !uri->is_string())
        throw protocol_error(error_code::invalid_params, "Invalid params: \"uri\" must be a skill's SKILL.md URI, a string");
      for (const auto& e : entries)
        if (e->uri == *uri) return json{{"skill", e->listed}};
      throw protocol_error(error_code::invalid_params, "Invalid params: no skill at '" + uri->get<std::string>() +
                                                           "'; skills/list names the skills this server serves");
    }});
  }

  std::size_t size() const { return entries_.size(); }

 private:
  void serve_directories(server& srv) const {
    // Every folder: the skill's own (skill://name) and each one a file path passes through.
    auto folders = std::make_shared<std::map<std::string, json>>();  // uri -> its children
    for (const auto& e : entries_) {
      const std::string root = "skill://" + e->name;
      (*folders)[root] = json::array();
      for (const auto& f : e->files) {
        std::string parent = root;
        std::size_t start = 0;
        for (auto slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', start)) {
          const std::string folder = root + "/" + f.path.substr(0, slash);
          if (!folders->count(folder)) {
            (*folders)[folder] = json::array();
            (*folders)[parent].push_back({{"uri", folder}, {"name", f.path.substr(start, slash - start)}, {"mimeType", "inode/directory"}});
          }
          parent = folder;
          start = slash + 1;
        }
        (*folders)[parent].push_back({{"uri", detail::skill_uri(e->name, f.path)},
                                      {"name", f.path.substr(start)},
                                      {"mimeType", detail::skill_mime_type(f.path, f.bytes)},
                                      {"size", f.bytes.size()}});
      }
    }
    srv.method("resources/directory/read", {[folders, page_size = srv.options().page_size](context&, const json& params) {
      auto uri = params.find("uri");
      if (uri == params.end() || !uri->is_string())
        throw protocol_error(error_code::invalid_params, "Invalid params: \"uri\" must be a folder's URI, a string");
      auto it = folders->find(uri->get<std::string>());
      if (it == folders->end())
        throw protocol_error(error_code::invalid_params, "Invalid params: '" + uri->get<std::string>() + "' is not a folder of a skill");
      const page_window w = requested_page(params, it->second.size(), page_size, "directory");
      json children = json::array();
      for (std::size_t i = w.begin; i < w.end; ++i) children.push_back(it->second[i]);
      json result{{"resources", std::move(children)}};
      if (w.next_cursor) result["nextCursor"] = *w.next_cursor;
      return result;
    }});
  }

  struct skill_entry {
    std::string name, uri;
    json frontmatter;
    std::vector<skill_file> files;
    json listed;  // the skills/list entry
  };
  std::vector<std::shared_ptr<const skill_entry>> entries_;
};

// Loads every skill under `folder` (skill_set::load) and serves them on `srv`. Returns how many.
inline std::size_t serve_skills(server& srv, const std::filesystem::path& folder, bool directory_read = false) {
  skill_set skills;
  const std::size_t n = skills.load(folder);
  skills.serve(srv, directory_read);
  return n;
}

}  // namespace v0
}  // namespace mcp
