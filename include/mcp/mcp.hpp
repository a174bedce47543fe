// Umbrella header: everything needed to write an MCP server over stdio, by layer. Opt-in by
// include: the Streamable HTTP transport (<mcp/transport/http.hpp>), and the extensions other than
// typed elicitation and tracing (<mcp/ext/apps.hpp>, <mcp/ext/skills.hpp>, <mcp/ext/task_store.hpp>).
#pragma once

#include <mcp/version.hpp>

#include <mcp/json/json.hpp>
#include <mcp/json/parse.hpp>

#include <mcp/schema/constraints.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/schema/schema.hpp>

#include <mcp/validation/coercion.hpp>
#include <mcp/validation/validation.hpp>

#include <mcp/core/connection.hpp>
#include <mcp/core/content.hpp>
#include <mcp/core/context.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/message.hpp>
#include <mcp/core/middleware.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/core/server.hpp>

#include <mcp/tools/features.hpp>
#include <mcp/tools/render.hpp>
#include <mcp/tools/result.hpp>
#include <mcp/tools/tool.hpp>

#include <mcp/ext/elicitation.hpp>
#include <mcp/ext/tracing.hpp>

#include <mcp/transport/stdio.hpp>
