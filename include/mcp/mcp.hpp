// Umbrella header: everything needed to write an MCP server over stdio.
// The Streamable HTTP transport is opt-in: include <mcp/http.hpp>.
#pragma once

#include <mcp/json.hpp>
