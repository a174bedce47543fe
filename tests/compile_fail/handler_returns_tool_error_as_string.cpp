// expect: mcp: a tool_error is not a std::string: a tool handler that may return one declares its return type mcp::result<std::string>
// errors: 1
// both compilers
// A handler declared -> std::string cannot return a tool_error: before this check, "could not convert
// 'mcp::tool_error' to 'std::string'", which never names mcp::result.
#include <mcp/mcp.hpp>

struct note_args {
  std::string title;
};
MCP_STRUCT(note_args, (title, "Note title"));

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("read_note", "Reads a note.", [](const note_args& in) -> std::string {
    if (in.title.empty()) return mcp::tool_error("Give a title.");
    return in.title;
  });
}
