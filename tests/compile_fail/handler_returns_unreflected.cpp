// expect: mcp: the return type of a tool handler must be a struct declared with MCP_STRUCT
// errors: 1
// both compilers
// Reported once, as the return type: before, three errors (schema_of, encode, the output checks),
// none of which said "return type".
#include <mcp/mcp.hpp>

struct note_args {
  std::string title;
};
MCP_STRUCT(note_args, (title, "Note title"));
struct note_stats {
  int words = 0;
};

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.tool("note_stats", "Counts words.", [](const note_args& in) -> note_stats {
    return {static_cast<int>(in.title.size())};
  });
}
