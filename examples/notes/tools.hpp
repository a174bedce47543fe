// The notes tools (create, update, search, read, stats, export, delete), shared by the notes example and
// the examples that serve them another way (examples/httplib). register_tools(srv, db) adds them,
// the MCP App that shows note_stats results (stats_app.hpp), each note as a resource
// (notes://{title}) and a prompt that asks for a review of one (review_note). `changed`, when given,
// hears of every note created, updated or deleted (the notes example raises note_changed with it).
#pragma once

#include <mcp/ext/apps.hpp>
#include <mcp/mcp.hpp>

#include "stats_app.hpp"
#include "store.hpp"

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace notes {

// Each field is declared once: (type, name, "description", constraints...). A field is required
// unless it is a std::optional or has an mcp::default_value.
enum class note_visibility { private_, team };
MCP_ENUM(note_visibility, (private_, "private", "Only you"), (team, "team", "Everyone on the team"));
MCP_STRUCT_DEF(create_note_args,
  (std::string, title, "Unique title for the new note", mcp::min_length(3), mcp::max_length(80)),
  (std::string, body, "Note body, plain text or Markdown"),
  (note_visibility, visibility, "Who can see the note", mcp::default_value(note_visibility::team)));
MCP_STRUCT_DEF(update_note_args, (std::string, title, "Title of an existing note", mcp::min_length(1)),
  (std::string, body, "The new body; replaces the old one entirely"));
MCP_STRUCT_DEF(title_arg, (std::string, title, "Exact title of an existing note", mcp::min_length(1)));
MCP_STRUCT_DEF(search_args,
  (std::string, query, "Words to look for in titles and bodies (case-insensitive; every word must appear)",
   mcp::min_length(1)),
  (int, limit, "Notes per page", mcp::default_value(5), mcp::minimum(1), mcp::maximum(50)),
  (std::optional<std::string>, cursor, "next_cursor from the previous page of the same query"));
MCP_STRUCT_DEF(note_hit, (std::string, title, "Note title"), (std::string, visibility, "private or team"),
  (std::string, excerpt, "The body, cut with a marker when long"),
  (std::string, last_modified, "ISO-8601 UTC time of the last change"));
MCP_STRUCT_DEF(search_result, (std::vector<note_hit>, notes, "This page of matching notes, best match first"),
  (int, total_matches, "Matching notes across all pages"),
  (std::optional<std::string>, next_cursor, "Pass as cursor to get the next page; absent on the last page"));
MCP_STRUCT_DEF(note_stats, (std::string, title, "Note title"), (int, word_count, "Words in the body", mcp::minimum(0)),
  (std::vector<std::string>, headings, "Markdown headings of the body, in order"),
  (std::string, last_modified, "ISO-8601 UTC time of the last change"));
MCP_STRUCT_DEF(full_note, (std::string, title, "Note title"), (std::string, body, "The whole body"),
  (std::string, visibility, "private or team"), (std::string, created, "ISO-8601 UTC creation time"),
  (std::string, last_modified, "ISO-8601 UTC time of the last change"));

MCP_STRUCT_DEF(review_args, (std::string, title, "Title of the note to review"));

MCP_STRUCT_DEF(export_args,
  (std::optional<std::string>, query, "Only notes containing every one of these words; every note when absent"));
MCP_STRUCT_DEF(export_result, (int, notes, "Notes in the document", mcp::minimum(0)),
  (std::string, markdown, "The notes as one Markdown document: each note under its title as a heading"));

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

inline std::vector<std::string> headings_of(const std::string& body) {
  std::vector<std::string> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    std::size_t level = line.find_first_not_of('#');
    if (level > 0 && level <= 6 && level < line.size() && line[level] == ' ') out.push_back(line.substr(level + 1));
  }
  return out;
}

inline void check_usable(const store& db) {
  if (!db.problem().empty()) throw mcp::tool_error(db.problem());
}

inline mcp::tool_error no_such_note(const std::string& title) {
  return mcp::tool_error("No note is titled '" + title +
                         "'. Titles must match exactly; use search_notes to find the right title, or create_note to "
                         "make a new note.");
}

// Called after a change is stored: the note's title and "created", "updated" or "deleted".
using change_listener = std::function<void(const std::string& title, const std::string& change)>;

// The tool's result; `changed` hears of it only once it succeeded (an error changed nothing).
inline mcp::result<std::string> tell(const change_listener& changed, const std::string& title, const char* change,
                                     mcp::result<std::string> r) {
  if (changed && r.ok()) changed(title, change);
  return r;
}

inline void register_tools(mcp::server& srv, store& db, change_listener changed = {}) {
  srv.tool("create_note",
           "Create a new note. Use only for a title that does not exist yet; to change an existing note use "
           "update_note.",
           [&db, changed](const create_note_args& in) -> mcp::result<std::string> {
             check_usable(db);
             return tell(changed, in.title, "created", db.write([&](auto& all) -> mcp::result<std::string> {
               if (all.count(in.title))
                 return mcp::tool_error("A note titled '" + in.title +
                                        "' already exists. Use update_note to change it, or pick another title.");
               std::string now = now_iso8601();
               std::string vis = mcp::encode(in.visibility).get<std::string>();
               all[in.title] = note{in.title, in.body, vis, now, now};
               return "Created note '" + in.title + "' (" + vis + ").";
             }));
           },
           mcp::annotations{.read_only = false, .destructive = false, .idempotent = false, .open_world = false});

  srv.tool("update_note",
           "Replace the body of an existing note. Use create_note for a new title; use read_note first if you need "
           "the current body.",
           [&db, changed](const update_note_args& in) -> mcp::result<std::string> {
             check_usable(db);
             return tell(changed, in.title, "updated", db.write([&](auto& all) -> mcp::result<std::string> {
               auto it = all.find(in.title);
               if (it == all.end()) return no_such_note(in.title);
               it->second.body = in.body;
               it->second.last_modified = now_iso8601();
               return "Updated note '" + in.title + "'.";
             }));
           },
           mcp::annotations{.read_only = false, .destructive = true, .idempotent = true, .open_world = false});

  srv.tool("search_notes",
           "Find notes by keywords in their titles and bodies. Returns one page of matches with short excerpts and "
           "a next_cursor for more. Use read_note for a whole note, note_stats for its word count and headings.",
           [&db](const search_args& in, mcp::context& ctx) -> mcp::result<search_result> {
             check_usable(db);
             std::vector<std::string> terms = words_of(fold_case(in.query));
             std::vector<const note*> matches;
             db.read([&](const auto& all) {
               for (const auto& [title, n] : all) {
                 bool all_found = true;
                 for (const auto& t : terms) all_found = all_found && n.folded.find(t) != std::string::npos;
                 if (all_found) matches.push_back(&n);
               }
               return 0;
             });
             // Sent only to a client that asked (a progressToken): its answer then comes as an SSE stream.
             ctx.progress(1, 1, "searched " + std::to_string(matches.size()) + " matching notes");
             mcp::page_window page;
             try {
               page = mcp::paginate(matches.size(), static_cast<std::size_t>(in.limit), in.cursor, fold_case(in.query));
             } catch (const mcp::error&) {  // mcp::error_code::invalid_cursor
               return mcp::tool_error("The cursor does not belong to this query. Call search_notes again with the "
                                      "same query and no cursor to start over.");
             }
             search_result out;
             out.total_matches = static_cast<int>(matches.size());
             for (std::size_t i = page.begin; i < page.end; ++i) {
               const note& n = *matches[i];
               out.notes.push_back({n.title, n.visibility,
                                    mcp::truncate_text(n.body, 300, "call read_note with this title for the full text"),
                                    n.last_modified});
             }
             out.next_cursor = page.next_cursor;
             return out;
           },
           mcp::annotations{.read_only = true, .open_world = false});

  srv.tool("read_note", "Return one note in full, by its exact title. Use search_notes when unsure of the title.",
           [&db](const title_arg& in) -> mcp::result<full_note> {
             check_usable(db);
             return db.read([&](const auto& all) -> mcp::result<full_note> {
               auto it = all.find(in.title);
               if (it == all.end()) return no_such_note(in.title);
               const note& n = it->second;
               return full_note{n.title, n.body, n.visibility, n.created, n.last_modified};
             });
           },
           mcp::annotations{.read_only = true, .open_world = false});

  // Hosts that show MCP Apps draw the result in the statistics view; every other client gets the
  // same result, whose text says it all.
  mcp::app_resource stats_view;
  stats_view.uri = stats_app_uri;
  stats_view.name = "Note statistics";
  stats_view.description = "Word count and headings of one note, as note_stats returns them";
  stats_view.prefers_border = true;
  mcp::serve_app(srv, stats_view, stats_app_html);
  mcp::tool_options stats_options(mcp::annotations{.read_only = true, .open_world = false});
  stats_options.app = mcp::app_link{stats_app_uri};
  srv.tool("note_stats", "Word count, Markdown headings and last change time of one note. Read-only.",
           [&db](const title_arg& in) -> mcp::result<note_stats> {
             check_usable(db);
             return db.read([&](const auto& all) -> mcp::result<note_stats> {
               auto it = all.find(in.title);
               if (it == all.end()) return no_such_note(in.title);
               const note& n = it->second;
               return note_stats{n.title, static_cast<int>(words_of(n.body).size()), headings_of(n.body),
                                 n.last_modified};
             });
           },
           stats_options);

  // Long for a big store: a client that declares the tasks extension gets a task at once and polls
  // it (ext/task_store.hpp); any other client waits for the answer, with progress when it asked.
  mcp::tool_options export_options(mcp::annotations{.read_only = true, .open_world = false});
  export_options.task = mcp::task_mode::optional;
  srv.tool("export_notes",
           "Export notes as one Markdown document, every note under its title as a heading. Read-only. May run as "
           "a task for a client that supports tasks.",
           [&db](const export_args& in, mcp::context& ctx) -> mcp::result<export_result> {
             check_usable(db);
             std::vector<std::string> terms = words_of(fold_case(in.query.value_or("")));
             std::vector<note> chosen;
             db.read([&](const auto& all) {
               for (const auto& [title, n] : all) {
                 bool all_found = true;
                 for (const auto& t : terms) all_found = all_found && n.folded.find(t) != std::string::npos;
                 if (all_found) chosen.push_back(n);
               }
               return 0;
             });
             export_result out;
             for (std::size_t i = 0; i < chosen.size(); ++i) {
               if (ctx.cancelled()) return mcp::tool_error("The export was cancelled; nothing was written.");
               const note& n = chosen[i];
               out.markdown += "# " + n.title + "\n\n" + n.body + "\n\n";
               ctx.progress(static_cast<double>(i + 1), static_cast<double>(chosen.size()), "exported " + n.title);
             }
             out.notes = static_cast<int>(chosen.size());
             return out;
           },
           export_options);

  srv.tool("delete_note", "Delete a note permanently. It cannot be recovered; to change a note use update_note.",
           [&db, changed](const title_arg& in) -> mcp::result<std::string> {
             check_usable(db);
             return tell(changed, in.title, "deleted", db.write([&](auto& all) -> mcp::result<std::string> {
               if (!all.erase(in.title)) return no_such_note(in.title);
               return "Deleted note '" + in.title + "'.";
             }));
           },
           mcp::annotations{.read_only = false, .destructive = true, .idempotent = true, .open_world = false});

  // Each note is also a resource, for hosts that let the user attach one: notes://TITLE, the title
  // percent-encoded where it needs it (a title holding '/' is only reachable through read_note).
  srv.resource_template({.uri_template = "notes://{title}",
                         .name = "note",
                         .description = "The body of one note, by its exact title",
                         .mime_type = "text/markdown"},
                        [&db](const std::map<std::string, std::string>& vars) -> std::string {
                          if (!db.problem().empty()) throw mcp::protocol_error(mcp::error_code::internal_error, db.problem());
                          return db.read([&](const auto& all) {
                            auto it = all.find(vars.at("title"));
                            if (it == all.end())
                              throw mcp::protocol_error(mcp::error_code::resource_not_found,
                                                        "No note is titled '" + vars.at("title") + "'");
                            return it->second.body;
                          });
                        });
  srv.prompt("review_note", "Ask for a review of one note.", [](const review_args& in) {
    return "Read the note '" + in.title + "' and suggest clearer wording.";
  });
}

}  // namespace notes
