// expect: mcp: srv.prompt\(...\) is defined in <mcp/tools/features.hpp>: #include <mcp/mcp.hpp> \(or <mcp/tools/features.hpp>\)
// errors: 1
// The same as tool_without_tool_header for prompts (and resources, resource templates): their
// bodies are in tools/features.hpp.
#include <mcp/core/server.hpp>

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.prompt("review", "Review a note.", [] { return std::string("Review the note."); });
}
