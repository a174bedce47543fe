// Versions: the SDK's own, and the MCP protocol revisions it speaks.
#pragma once

#include <array>
#include <string_view>

// The one place the version is written: CMake's project() reads these three lines.
#define MCP_VERSION_MAJOR 0
#define MCP_VERSION_MINOR 1
#define MCP_VERSION_PATCH 0

#define MCP_DETAIL_STRINGIZE(x) #x
#define MCP_DETAIL_VERSION_STRING(a, b, c) MCP_DETAIL_STRINGIZE(a) "." MCP_DETAIL_STRINGIZE(b) "." MCP_DETAIL_STRINGIZE(c)

namespace mcp {
inline namespace v0 {

inline constexpr std::string_view sdk_version =
    MCP_DETAIL_VERSION_STRING(MCP_VERSION_MAJOR, MCP_VERSION_MINOR, MCP_VERSION_PATCH);

// Newest first: negotiation answers the client's version when listed here, else the first.
inline constexpr std::array<std::string_view, 4> protocol_versions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                                      "2024-11-05"};
inline constexpr std::string_view latest_protocol_version = protocol_versions[0];

inline bool is_supported_protocol_version(std::string_view v) {
  for (auto known : protocol_versions)
    if (known == v) return true;
  return false;
}

// The stateless revisions (2026-07-28 and later): no initialize, every request carries its own
// version and client facts in params._meta. Kept apart from protocol_versions because initialize
// must never offer or accept one of these.
inline constexpr std::array<std::string_view, 1> modern_protocol_versions = {"2026-07-28"};

inline bool is_modern_protocol_version(std::string_view v) {
  for (auto known : modern_protocol_versions)
    if (known == v) return true;
  return false;
}

// Returns one of protocol_versions (static storage), never a view of the argument.
inline std::string_view negotiate_protocol_version(std::string_view requested) {
  for (auto known : protocol_versions)
    if (known == requested) return known;
  return latest_protocol_version;
}

}  // namespace v0
}  // namespace mcp
