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

// The payload-size rows (issue #24): an order of N items in the arguments, a list of n records in
// the result. The same tools, schemas and answers as ts/server.mjs; `order_rt` is `order` with its
// schemas given as JSON at run time rather than derived from these types.
enum class item_priority { low, normal, high };
MCP_ENUM(item_priority, (low, "low"), (normal, "normal"), (high, "high"));
MCP_STRUCT_DEF(order_item, (std::string, sku, "Stock keeping unit, e.g. ABC-1234", mcp::pattern("^[A-Z]{3}-[0-9]{4}$")),
  (int, qty, "How many", mcp::minimum(1), mcp::maximum(1000)), (item_priority, priority, "Handling priority"),
  (std::vector<std::string>, tags, "Free-form labels", mcp::max_items(8)));
MCP_STRUCT_DEF(order_args, (std::string, customer, "Who orders"), (std::vector<order_item>, items, "The order lines"));
MCP_STRUCT_DEF(order_summary, (std::string, customer, "Who ordered"), (int, item_count, "Order lines"),
  (long long, total_quantity, "Sum of the lines' quantities"), (int, high_priority, "Lines of high priority"));
MCP_STRUCT_DEF(list_args, (int, n, "How many records", mcp::minimum(0), mcp::maximum(100000)));
MCP_STRUCT_DEF(record, (int, id, "Record id"), (std::string, name, "Full name"), (std::string, email, "Email address"),
  (double, score, "Score"), (bool, active, "Whether the account is active"));
MCP_STRUCT_DEF(record_list, (std::vector<record>, records, "The records, by id"));

order_summary summarize(const order_args& in) {
  order_summary out{in.customer, static_cast<int>(in.items.size()), 0, 0};
  for (const order_item& item : in.items) {
    out.total_quantity += item.qty;
    out.high_priority += item.priority == item_priority::high;
  }
  return out;
}

record_list make_records(int n) {
  record_list out;
  out.records.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::string number = std::to_string(i);
    out.records.push_back({i, "User " + number, "user" + number + "@example.com", (i % 1000) / 4.0, i % 2 == 0});
  }
  return out;
}

// order's schemas as a JSON document, as a server that loads its tools from files would have them.
const char* order_rt_schema = R"({
  "input": {
    "type": "object",
    "properties": {
      "customer": {"type": "string", "description": "Who orders"},
      "items": {"type": "array", "description": "The order lines", "items": {
        "type": "object",
        "properties": {
          "sku": {"type": "string", "description": "Stock keeping unit, e.g. ABC-1234", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
          "qty": {"type": "integer", "description": "How many", "minimum": 1, "maximum": 1000},
          "priority": {"type": "string", "description": "Handling priority", "enum": ["low", "normal", "high"]},
          "tags": {"type": "array", "description": "Free-form labels", "items": {"type": "string"}, "maxItems": 8}
        },
        "required": ["sku", "qty", "priority", "tags"],
        "additionalProperties": false}}
    },
    "required": ["customer", "items"],
    "additionalProperties": false
  },
  "output": {
    "type": "object",
    "properties": {
      "customer": {"type": "string"}, "item_count": {"type": "integer"},
      "total_quantity": {"type": "integer"}, "high_priority": {"type": "integer"}
    },
    "required": ["customer", "item_count", "total_quantity", "high_priority"]
  }
})";

mcp::json summarize_json(const mcp::json& args) {
  const mcp::json& items = args.at("items");
  long long total = 0;
  int high = 0;
  for (const mcp::json& item : items) {
    total += item.at("qty").get<long long>();
    high += item.at("priority").get_ref<const std::string&>() == "high";
  }
  return {{"customer", args.at("customer")}, {"item_count", items.size()}, {"total_quantity", total}, {"high_priority", high}};
}

const char* usage =
    "Usage: mcp_bench_server [--store PATH] [--http HOST:PORT [--stateless]]\n"
    "\n"
    "The benchmark server: the notes example's tools, add(a, b) -> {sum}, and the payload tools\n"
    "order(customer, items) -> summary, order_rt (the same with a run-time JSON Schema) and\n"
    "list(n) -> {records}.\n"
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
  mcp::enable_tasks(srv);  // export_notes is a task tool, as in the notes server
  notes::register_tools(srv, db);
  srv.tool("add", "Adds two numbers.",
           [](const bench::add_args& in) -> bench::add_result { return {in.a + in.b}; },
           mcp::annotations{.read_only = true, .open_world = false});
  srv.tool("order", "Places an order; returns its summary.", [](const bench::order_args& in) { return bench::summarize(in); },
           mcp::annotations{.read_only = true, .open_world = false});
  {
    const mcp::json schema = mcp::json::parse(bench::order_rt_schema);
    srv.tool("order_rt", "Places an order; returns its summary (schemas given at run time).",
             mcp::runtime_schema{schema.at("input"), schema.at("output")}, bench::summarize_json,
             mcp::annotations{.read_only = true, .open_world = false});
  }
  srv.tool("list", "Lists n generated records.", [](const bench::list_args& in) { return bench::make_records(in.n); },
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
