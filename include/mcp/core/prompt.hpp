// Prompts: the messages prompts/get returns.
#pragma once

#include <mcp/core/content.hpp>
#include <mcp/json/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {

struct prompt_message {
  std::string role;  // "user" or "assistant"
  json content;      // one content block: text, image, audio, resource_link or embedded resource
};

inline prompt_message user(json content) { return {"user", std::move(content)}; }
inline prompt_message user(const std::string& text) { return {"user", mcp::text(text)}; }
inline prompt_message user(const char* text) { return {"user", mcp::text(text)}; }
inline prompt_message assistant(json content) { return {"assistant", std::move(content)}; }
inline prompt_message assistant(const std::string& text) { return {"assistant", mcp::text(text)}; }
inline prompt_message assistant(const char* text) { return {"assistant", mcp::text(text)}; }

struct prompt_result {
  std::string description;
  std::vector<prompt_message> messages;
};

struct prompt_options {
  std::string title;
  json icons = nullptr;
  json meta = nullptr;
  // Scopes a caller must have to see it in prompts/list and to get it (as tool_options::scopes).
  std::vector<std::string> scopes;
};

// Suggests values for one argument of a prompt or one variable of a resource template.
// Receives the partial value typed so far and the other arguments already chosen.
using completer = std::function<std::vector<std::string>(const std::string& value,
                                                          const std::map<std::string, std::string>& context)>;

}  // namespace v0
}  // namespace mcp
