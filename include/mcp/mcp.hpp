// Umbrella header: everything needed to write an MCP server over stdio, by layer. The Streamable
// HTTP transport is opt-in: include <mcp/transport/http.hpp>.
#pragma once

#include <mcp/version.hpp>

#include <mcp/json/json.hpp>
#include <mcp/json/parse.hpp>

#include <mcp/schema/coercion.hpp>
#include <mcp/schema/constraints.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/schema/validation.hpp>

#include <mcp/core/connection.hpp>
#include <mcp/core/content.hpp>
#include <mcp/core/context.hpp>
#include <mcp/core/features.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/message.hpp>
#include <mcp/core/middleware.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/core/server.hpp>
#include <mcp/core/tracing.hpp>

#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>
#include <mcp/tools/tool.hpp>

#include <mcp/transport/stdio.hpp>
