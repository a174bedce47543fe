// The compiled mode's source: compile this once, with MCP_SEPARATE_COMPILATION defined (as for
// every other translation unit of the program), and link the result. The CMake target
// mcp::compiled does this for you; without CMake, a .cpp file holding just this include will do.
//
// It holds five parts, each compiled alone when MCP_COMPILE_PART names it (1 validation; 2 the
// core, with the JSON reader and writer and the typed tools' shared steps; 3 the extensions;
// 4 stdio; 5 HTTP), all of them when it is not defined. mcp::compiled builds one object file per
// part, so that a program links only the parts it uses: a stdio server links no HTTP code (ctest
// compiled_stdio_links_no_http), and the parts build side by side.
#pragma once

#if !defined(MCP_SEPARATE_COMPILATION)
#error "mcp/impl/src.hpp is the compiled mode's source: define MCP_SEPARATE_COMPILATION for every translation unit"
#endif

#if !defined(MCP_COMPILE_PART) || MCP_COMPILE_PART == 1
#include <mcp/validation/coercion.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/validation/impl/coercion.ipp>
#include <mcp/validation/impl/validation.ipp>
#endif

#if !defined(MCP_COMPILE_PART) || MCP_COMPILE_PART == 2
#include <mcp/core/server.hpp>
#include <mcp/tools/tool.hpp>
#include <mcp/json/impl/reader.ipp>
#include <mcp/json/impl/writer.ipp>
#include <mcp/core/impl/reply.ipp>
#include <mcp/schema/impl/reflect.ipp>
#include <mcp/tools/impl/render.ipp>
#include <mcp/tools/impl/call_result.ipp>
#include <mcp/tools/impl/tool.ipp>
#include <mcp/core/impl/tool_definition.ipp>
#include <mcp/core/impl/server.ipp>
#include <mcp/core/impl/stateless.ipp>
#include <mcp/core/impl/features.ipp>
#include <mcp/core/impl/replay_guard.ipp>
#endif

#if !defined(MCP_COMPILE_PART) || MCP_COMPILE_PART == 3
#include <mcp/ext/tasks.hpp>
#include <mcp/ext/impl/task_store.ipp>
#include <mcp/ext/impl/task_engine.ipp>
#include <mcp/ext/impl/task_service.ipp>
#endif

#if !defined(MCP_COMPILE_PART) || MCP_COMPILE_PART == 4
#include <mcp/transport/stdio.hpp>
#include <mcp/transport/impl/stdio.ipp>
#endif

#if !defined(MCP_COMPILE_PART) || MCP_COMPILE_PART == 5
#include <mcp/transport/http.hpp>
#include <mcp/transport/http_handler.hpp>
#include <mcp/transport/impl/http_handler.ipp>
#include <mcp/transport/impl/http.ipp>
#endif
