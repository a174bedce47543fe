// The compiled mode's one source: compile this once, with MCP_SEPARATE_COMPILATION defined (as for
// every other translation unit of the program), and link the result. The CMake target
// mcp::compiled does this for you; without CMake, a .cpp file holding just this include will do.
#pragma once

#if !defined(MCP_SEPARATE_COMPILATION)
#error "mcp/impl/src.hpp is the compiled mode's source: define MCP_SEPARATE_COMPILATION for every translation unit"
#endif

#include <mcp/core/server.hpp>
#include <mcp/ext/tasks.hpp>
#include <mcp/validation/coercion.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/http_handler.hpp>
#include <mcp/transport/stdio.hpp>

#include <mcp/validation/impl/coercion.ipp>
#include <mcp/validation/impl/validation.ipp>
#include <mcp/core/impl/tool_definition.ipp>
#include <mcp/core/impl/server.ipp>
#include <mcp/core/impl/stateless.ipp>
#include <mcp/core/impl/features.ipp>
#include <mcp/core/impl/replay_guard.ipp>
#include <mcp/ext/impl/task_store.ipp>
#include <mcp/ext/impl/task_engine.ipp>
#include <mcp/ext/impl/task_service.ipp>
#include <mcp/transport/impl/http_handler.ipp>
#include <mcp/transport/impl/http.ipp>
#include <mcp/transport/impl/stdio.ipp>
