// Log levels of MCP's logging utility (RFC 5424 severities, least severe first).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace mcp {
inline namespace v0 {

enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };

inline constexpr std::array<std::string_view, 8> log_level_names = {"debug",    "info",  "notice",
                                                                    "warning",  "error", "critical",
                                                                    "alert",    "emergency"};

inline std::string_view to_string(log_level level) { return log_level_names[static_cast<std::size_t>(level)]; }

inline std::optional<log_level> parse_log_level(std::string_view name) {
  for (std::size_t i = 0; i < log_level_names.size(); ++i)
    if (log_level_names[i] == name) return static_cast<log_level>(i);
  return std::nullopt;
}

}  // namespace v0
}  // namespace mcp
