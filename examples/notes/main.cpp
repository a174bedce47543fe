// notes: a small MCP server that keeps notes in one JSON file. The flagship example of the SDK:
// typed arguments with constraints, structured results, guidance in every error, pagination and
// atomic storage; export_notes as a task; note_changed events for agents that react to changes.
#include <mcp/ext/events.hpp>
#include <mcp/ext/tasks.hpp>
#include <mcp/ext/telemetry.hpp>
#include <mcp/stores/file_task_store.hpp>
#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

#include "tools.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>

namespace notes {

// The note_changed event: a subscription may name one title; each occurrence says which note and what
// happened to it. Clients read it with events/poll or events/stream (2026-07-28 requests).
MCP_STRUCT_DEF(note_filter, (std::optional<std::string>, title, "Only changes to the note with this exact title"));
MCP_STRUCT_DEF(note_change, (std::string, title, "Title of the note that changed"),
  (std::string, change, "What happened to it: created, updated or deleted",
   mcp::pattern("^(created|updated|deleted)$")));

std::string default_store_path() {
  if (const char* p = std::getenv("MCP_NOTES_STORE"); p && *p) return p;
  std::string dir;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
    dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = std::string(h) + "/.local/share";
  else if (const char* w = std::getenv("LOCALAPPDATA"); w && *w)  // Windows
    dir = w;
  else
    dir = ".";
  dir += "/mcp-notes";
  std::error_code ignored;  // a folder that cannot be made surfaces as the store's first write error
  std::filesystem::create_directories(dir, ignored);
  return dir + "/notes.json";
}

const char* usage =
    "Usage: notes [--store PATH] [--http HOST:PORT | --http unix:PATH] [--metrics] [--legacy]\n"
    "             [--shutdown-grace SECONDS] [--write-timeout SECONDS]\n"
    "\n"
    "An MCP server that keeps notes in one JSON file, speaking MCP on stdin/stdout.\n"
    "\n"
    "  --store PATH      the notes file (default: $MCP_NOTES_STORE, else\n"
    "                    $XDG_DATA_HOME/mcp-notes/notes.json or ~/.local/share/mcp-notes/notes.json;\n"
    "                    on Windows %LOCALAPPDATA%\\mcp-notes\\notes.json)\n"
    "                    export_notes tasks are kept in the folder PATH.tasks\n"
    "  --http HOST:PORT  serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio,\n"
    "                    e.g. 127.0.0.1:8080 or [::1]:8080; stops on SIGINT or SIGTERM\n"
    "  --http unix:PATH  the same on a Unix domain socket at PATH\n"
    "  --metrics         with --http: serve GET /metrics (Prometheus text) with the\n"
    "                    OpenTelemetry MCP histograms (mcp_server_operation_duration_seconds)\n"
    "  --legacy          serve MCP 2025-11-25 only (every client must initialize),\n"
    "                    not the stateless 2026-07-28 revision beside it (nor its note_changed events)\n"
    "  --shutdown-grace SECONDS  HTTP: on SIGINT or SIGTERM, how long running calls get to\n"
    "                    answer (default 10; a second signal stops at once)\n"
    "  --write-timeout SECONDS   HTTP: a client that takes none of its answer's bytes for\n"
    "                    this long is disconnected (default 30)\n"
    "  --help            this text\n";

}  // namespace notes

int main(int argc, char** argv) {
  mcp::http::options options;
  // "1.5" -> 1500 ms; false for anything but a number of seconds from 0 to a day.
  auto seconds = [](const char* text, std::chrono::milliseconds& out) {
    char* end = nullptr;
    const double s = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(s >= 0 && s <= 86400)) return false;
    out = std::chrono::milliseconds(static_cast<long long>(s * 1000));
    return true;
  };
  std::string store_path;
  std::optional<std::pair<std::string, unsigned short>> http_address;
  std::string unix_socket;
  bool legacy_only = false;
  bool metrics = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << notes::usage;
      return 0;
    } else if (arg == "--metrics") {
      metrics = true;
    } else if (arg == "--legacy") {
      legacy_only = true;
    } else if ((arg == "--shutdown-grace" || arg == "--write-timeout") && i + 1 < argc) {
      if (!seconds(argv[++i], arg == "--shutdown-grace" ? options.shutdown_grace : options.write_timeout)) {
        std::cerr << "notes: " << arg << " wants a number of seconds, not '" << argv[i] << "'\n";
        return 2;
      }
    } else if (arg == "--store" && i + 1 < argc) {
      store_path = argv[++i];
    } else if (arg == "--http" && i + 1 < argc && std::string_view(argv[i + 1]).substr(0, 5) == "unix:") {
      unix_socket = argv[++i] + 5;
    } else if (arg == "--http" && i + 1 < argc) {
      http_address = mcp::http::parse_host_port(argv[++i]);
      if (!http_address) {
        std::cerr << "notes: --http wants HOST:PORT, e.g. 127.0.0.1:8080, not '" << argv[i] << "'\n";
        return 2;
      }
    } else {
      std::cerr << "notes: unknown argument '" << arg << "'\n\n" << notes::usage;
      return 2;
    }
  }
  if (metrics && !http_address && unix_socket.empty()) {
    std::cerr << "notes: --metrics serves GET /metrics beside /mcp, so it needs --http\n\n" << notes::usage;
    return 2;
  }
  if (store_path.empty()) store_path = notes::default_store_path();

  notes::store db(store_path);
  // Tasks (export_notes) are kept beside the notes, so a finished export survives a restart.
  std::shared_ptr<mcp::task_store> tasks_store;
  try {
    tasks_store = std::make_shared<mcp::file_task_store>(store_path + ".tasks");
  } catch (const mcp::error& e) {
    std::cerr << "notes: " << e.what() << "; tasks are kept in memory only\n";
  }
  if (!db.problem().empty()) std::cerr << "notes: " << db.problem() << "\n";

  mcp::server srv({.name = "notes",
                   .version = "1.0.0",
                   .title = "Notes",
                   .description = "Create, search and read plain-text notes kept in one JSON file"},
                  {.instructions = "Notes are identified by their exact title. Search before creating to avoid "
                                   "duplicates; read_note returns a whole note.",
                   .serve_stateless = !legacy_only});
  // Telemetry first, so its spans and durations cover every other middleware.
  std::optional<mcp::telemetry> telemetry;
  if (metrics) telemetry.emplace(srv);
  mcp::enable_tasks(srv, {.store = tasks_store});
  // After srv, so that it goes first. The last 1000 changes are kept for clients resuming from a cursor.
  mcp::events events(srv);
  auto note_changed = events.declare<notes::note_filter, notes::note_change>(
      "note_changed", "A note was created, updated or deleted. Read it with read_note; it may be gone by then.",
      [](const notes::note_filter& f, const notes::note_change& c) { return !f.title || *f.title == c.title; });
  notes::register_tools(srv, db, [note_changed](const std::string& title, const std::string& change) {
    note_changed.emit({title, change});
  });
  if (http_address || !unix_socket.empty()) {
    if (http_address) {
      options.host = http_address->first;
      options.port = http_address->second;
    }
    options.unix_socket = unix_socket;
    options.metrics = metrics;
    return mcp::http::serve(srv, options);
  }
  return mcp::serve_stdio(srv);
}
