// Umbrella header: everything needed to write an MCP server over stdio.
// The Streamable HTTP transport is opt-in: include <mcp/transport/http.hpp>.
#pragma once

#include <mcp/core/content.hpp>
#include <mcp/core/context.hpp>
#include <mcp/json/json.hpp>
#include <mcp/json/parse.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/core/server.hpp>
#include <mcp/transport/stdio.hpp>
#include <mcp/tools/tool.hpp>
#include <mcp/schema/validation.hpp>
#include <mcp/version.hpp>
