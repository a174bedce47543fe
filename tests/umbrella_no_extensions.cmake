# Extensions are opt-in by include (issue 57): a file that includes only <mcp/mcp.hpp> (the ten-line
# server) opens no header of tasks, apps, skills, events, telemetry or stores. Typed elicitation and
# tracing are in the umbrella on purpose (ctx.elicit<T> and mcp::tracing need no other include).
# A file that includes <mcp/ext/tasks.hpp> and <mcp/ext/events.hpp> must open theirs, so that the
# check is seen to find them.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<file.cpp> -DWITH=<file.cpp> -P this-file
cmake_minimum_required(VERSION 3.16)

function(headers_of source out)
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -H -DASIO_STANDALONE -I${INCLUDE_DIR} ${source}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${source} does not compile:\n${err}")
  endif()
  set(${out} "${err}" PARENT_SCOPE)
endfunction()

set(extension "mcp/(ext/(tasks|task_store|apps|skills|events|events_store|outgoing_http|telemetry)\\.hpp|ext/detail/(task|skill|event)[^\n]*|stores/[^\n]*)")
headers_of(${WITH} with)
foreach(needed tasks events)
  if(NOT with MATCHES "mcp/ext/${needed}\\.hpp")
    message(FATAL_ERROR "${WITH} opens no mcp/ext/${needed}.hpp: the check would see nothing")
  endif()
endforeach()
headers_of(${SOURCE} plain)
if(plain MATCHES "${extension}")
  message(FATAL_ERROR "${SOURCE} includes only <mcp/mcp.hpp> but opens ${CMAKE_MATCH_0}: an extension must cost nothing until included")
endif()
message(STATUS "${SOURCE}: no extension header opened")
