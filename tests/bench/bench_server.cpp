// The benchmark's server: the notes example's tools (search_notes is the "realistic" tool) plus a
// small validated `add`. Same flags as the examples: stdio by default, `--http HOST:PORT` for
// Streamable HTTP (`--stateless` for its stateless mode), `--store PATH` for the notes file.
//
// The notes example is compiled into this file, rather than copied, so the benchmark measures its
// handlers exactly as shipped; its main() is renamed out of the way.
#define main notes_example_main
#include "../../examples/notes/main.cpp"
#undef main

#if __has_include(<mcp/transport/http.hpp>)
#include <mcp/transport/http.hpp>
#define MCP_BENCH_HAVE_HTTP 1
#else
#define MCP_BENCH_HAVE_HTTP 0
#endif

#include <iostream>
#include <optional>
#include <string>

namespace bench {

struct add_args {
  double a = 0;
  double b = 0;
};
MCP_STRUCT(add_args, (a, "First addend"), (b, "Second addend"));

struct add_result {
  double sum = 0;
};
MCP_STRUCT(add_result, (sum, "a + b"));

const char* usage =
    "Usage: mcp_bench_server [--store PATH] [--http HOST:PORT [--stateless]]\n"
    "\n"
    "The benchmark server: the notes example's tools plus add(a, b) -> {sum}.\n"
    "  --store PATH       notes file (default: none, an empty store that is never written)\n"
    "  --http HOST:PORT   serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio\n"
    "  --stateless        with --http: no sessions, every POST stands alone\n"
    "  --io-threads N     with --http: threads serving the sockets (default 1)\n"
    "  --inline-budget-ms N  how long a call may hold the reading thread (for profiling\n"
    "                     under valgrind, where every call is slow enough to leave it)\n";

}  // namespace bench

int main(int argc, char** argv) {
  std::string store_path = "/nonexistent/mcp-bench-empty-store.json";  // read fails with ENOENT: empty
  std::optional<std::string> http_address;
  bool stateless = false;
  mcp::stdio_options stdio_opts;
  std::size_t io_threads = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << bench::usage;
      return 0;
    } else if (arg == "--store" && i + 1 < argc) {
      store_path = argv[++i];
    } else if (arg == "--http" && i + 1 < argc) {
      http_address = argv[++i];
    } else if (arg == "--stateless") {
      stateless = true;
    } else if (arg == "--io-threads" && i + 1 < argc) {
      io_threads = static_cast<std::size_t>(std::stoul(argv[++i]));
    } else if (arg == "--inline-budget-ms" && i + 1 < argc) {
      stdio_opts.inline_budget = std::chrono::milliseconds(std::stoi(argv[++i]));
    } else {
      std::cerr << "mcp_bench_server: unknown argument '" << arg << "'\n\n" << bench::usage;
      return 2;
    }
  }

  notes::store db(store_path);
  if (!db.problem().empty()) {
    std::cerr << "mcp_bench_server: " << db.problem() << "\n";
    return 1;
  }
  mcp::server srv({.name = "mcp-bench", .version = "1.0.0"});
  notes::register_tools(srv, db);
  srv.tool("add", "Adds two numbers.",
           [](const bench::add_args& in) -> bench::add_result { return {in.a + in.b}; },
           mcp::annotations{.read_only = true, .open_world = false});

  if (!http_address) return mcp::serve_stdio(srv, stdio_opts);
#if MCP_BENCH_HAVE_HTTP
  auto where = mcp::http::parse_host_port(*http_address);
  if (!where) {
    std::cerr << "mcp_bench_server: --http wants HOST:PORT, got '" << *http_address << "'\n";
    return 2;
  }
  mcp::http::options opts;
  opts.host = where->first;
  opts.port = where->second;
  opts.stateless = stateless;
  opts.io_threads = io_threads;
  opts.inline_budget = stdio_opts.inline_budget;
  opts.max_sessions = 100000;  // the memory benchmark opens 10,000 sessions
  return mcp::http::serve(srv, opts);
#else
  (void)stateless;
  (void)io_threads;
  std::cerr << "mcp_bench_server: this build has no HTTP transport\n";
  return 2;
#endif
}
