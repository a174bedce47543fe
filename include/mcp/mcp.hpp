// Umbrella header: everything needed to write an MCP server over stdio.
// The Streamable HTTP transport is opt-in: include <mcp/http.hpp>.
#pragma once

#include <mcp/content.hpp>
#include <mcp/context.hpp>
#include <mcp/json.hpp>
#include <mcp/json_text.hpp>
#include <mcp/jsonrpc.hpp>
#include <mcp/paging.hpp>
#include <mcp/reflect.hpp>
#include <mcp/render.hpp>
#include <mcp/result.hpp>
#include <mcp/schema.hpp>
#include <mcp/server.hpp>
#include <mcp/stdio.hpp>
#include <mcp/tool.hpp>
#include <mcp/validation.hpp>
#include <mcp/version.hpp>
