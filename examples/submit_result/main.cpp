// submit_result: tools whose arguments are defined by JSON Schemas read from a file at start-up.
// Every schema is checked before the server starts; every call is validated against it; each
// accepted call is appended as one line to a JSONL file.
#include <mcp/mcp.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace submit {

// One write() of a whole line to a file opened with O_APPEND, then fsync: a reader never sees
// half of another writer's line, and an acknowledged result is on disk.
class jsonl_appender {
 public:
  explicit jsonl_appender(std::string path) : path_(std::move(path)) {}
  void append(const mcp::json& record) {
    std::string line = record.dump() + "\n";
    std::lock_guard lock(mutex_);
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open '" + path_ + "': " + std::strerror(errno));
    ssize_t n = ::write(fd, line.data(), line.size());
    int err = errno;
    bool ok = n == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok) throw std::runtime_error("cannot append to '" + path_ + "': " + std::strerror(err));
  }

 private:
  std::string path_;
  std::mutex mutex_;
};

// {"tools": [{"inputSchema": ...}]} puts a schema four levels down; a schema may nest up to the
// validator's own limit below that.
constexpr std::size_t max_tools_file_depth = 4 + 128;

const char* usage =
    "Usage: submit_result --tools FILE [--out FILE]\n"
    "\n"
    "Serves the tools defined in FILE ({\"tools\": [{name, description, inputSchema}]}) over MCP on\n"
    "stdin/stdout and appends every accepted call, one JSON object per line, to the --out file\n"
    "(default: results.jsonl).\n";

}  // namespace submit

int main(int argc, char** argv) {
  std::string tools_path, out_path = "results.jsonl";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << submit::usage;
      return 0;
    } else if (arg == "--tools" && i + 1 < argc) {
      tools_path = argv[++i];
    } else if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else {
      std::cerr << "submit_result: unknown argument '" << arg << "'\n\n" << submit::usage;
      return 2;
    }
  }
  if (tools_path.empty()) {
    std::cerr << "submit_result: --tools FILE is required\n\n" << submit::usage;
    return 2;
  }
  std::ifstream in(tools_path, std::ios::binary);
  if (!in) {
    std::cerr << "submit_result: cannot read '" << tools_path << "': " << std::strerror(errno) << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  // Read as the SDK reads messages, with a depth limit: a file is trusted more than a client, but
  // a broken one must still get a message rather than a crash.
  std::string why;
  std::optional<mcp::json> read = mcp::parse_json(text.str(), submit::max_tools_file_depth, &why);
  if (!read) {
    std::cerr << "submit_result: '" << tools_path << "' is " << why << "\n";
    return 2;
  }
  mcp::json& doc = *read;
  if (!doc.is_object() || !doc.contains("tools") || !doc["tools"].is_array()) {
    std::cerr << "submit_result: '" << tools_path << "' must be a JSON object with a \"tools\" array\n";
    return 2;
  }

  submit::jsonl_appender out(out_path);
  mcp::server srv({.name = "submit_result", .version = "1.0.0"});
  for (std::size_t i = 0; i < doc["tools"].size(); ++i) {
    const mcp::json& t = doc["tools"][i];
    std::string where = "'" + tools_path + "' /tools/" + std::to_string(i);
    if (!t.is_object() || !t.value("name", mcp::json()).is_string() || !t.value("description", mcp::json()).is_string()) {
      std::cerr << "submit_result: " << where << " needs string fields \"name\" and \"description\"\n";
      return 2;
    }
    std::string name = t["name"];
    try {
      srv.tool(name, t["description"], mcp::runtime_schema{t.value("inputSchema", mcp::json())},
               [&out, name](const mcp::json& args) {
                 out.append({{"tool", name}, {"arguments", args}});
                 return std::string("Accepted. The result was recorded.");
               });
    } catch (const std::exception& e) {
      std::cerr << "submit_result: " << where << " (tool '" << name << "'): " << e.what() << "\n";
      return 2;
    }
  }
  return mcp::serve_stdio(srv);
}
