// The JSON type the SDK speaks: nlohmann::json, under a short name.
#pragma once

#include <nlohmann/json.hpp>

namespace mcp {
inline namespace v0 {

using json = nlohmann::json;

}  // namespace v0
}  // namespace mcp
