// One broken rule in a value checked against a schema: what mcp::validator reports.
#pragma once

#include <string>

namespace mcp {
inline namespace v0 {

struct violation {
  std::string pointer;  // JSON Pointer of the offending value in the instance, "" for the root
  std::string keyword;  // the schema rule that failed: "required", "type", "minLength", ...
  std::string message;  // one sentence: what was expected and what was received
};

}  // namespace v0
}  // namespace mcp
