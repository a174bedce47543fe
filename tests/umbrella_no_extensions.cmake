# Extensions are opt-in by include (issue 57): a file that includes only <mcp/mcp.hpp> (the ten-line
# server) opens no header of tasks, apps, skills, events, telemetry or stores. Typed elicitation and
# tracing are in the umbrella on purpose (ctx.elicit<T> and mcp::tracing need no other include).
# A file that includes <mcp/ext/tasks.hpp> and <mcp/ext/events.hpp> must open theirs, so that the
# check is seen to find them.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<file.cpp> -DWITH=<file.cpp> -P this-file
cmake_minimum_required(VERSION 3.16)

include(${CMAKE_CURRENT_LIST_DIR}/headers_of.cmake)

set(extension "mcp/(ext/(tasks|task_store|apps|skills|events|events_store|outgoing_http|telemetry)\\.hpp|ext/detail/(task|skill|event)[^\n]*|stores/[^\n]*)")
mcp_headers_of(${WITH} with -DASIO_STANDALONE)
foreach(needed tasks events)
  if(NOT with MATCHES "mcp/ext/${needed}\\.hpp")
    message(FATAL_ERROR "${WITH} opens no mcp/ext/${needed}.hpp: the check would see nothing")
  endif()
endforeach()
mcp_headers_of(${SOURCE} plain -DASIO_STANDALONE)
if(plain MATCHES "${extension}")
  message(FATAL_ERROR "${SOURCE} includes only <mcp/mcp.hpp> but opens ${CMAKE_MATCH_0}: an extension must cost nothing until included")
endif()
message(STATUS "${SOURCE}: no extension header opened")
