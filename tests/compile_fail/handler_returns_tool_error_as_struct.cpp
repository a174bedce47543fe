// expect: mcp: a tool_error is not the handler's value: a tool handler that may return one declares its return type mcp::result<T>
// errors: 1
// The same for a handler declared to return an MCP_STRUCT.
#include <mcp/mcp.hpp>

struct note_args {
  std::string title;
};
MCP_STRUCT(note_args, (title, "Note title"));
struct note_stats {
  int words = 0;
};
MCP_STRUCT(note_stats, (words, "Words in the note"));

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("note_stats", "Counts words.", [](const note_args& in) -> note_stats {
    if (in.title.empty()) return mcp::tool_error("Give a title.");
    return {1};
  });
}
