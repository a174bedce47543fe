# A program that serves stdio links no HTTP code in compiled mode: mcp::compiled builds one object
# file per part (include/mcp/impl/src.hpp), and the linker takes only the parts a program uses.
# STDIO_ONLY is such a program; HTTP_USER one that serves HTTP too, whose symbols must show HTTP
# code, so that the check is seen to find it where it is.
# Run with: cmake -DNM=<nm> -DSTDIO_ONLY=<binary> -DHTTP_USER=<binary> -P links_no_http.cmake
cmake_minimum_required(VERSION 3.16)

function(symbols_of binary out)
  execute_process(COMMAND ${NM} -C ${binary} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${binary} failed: ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(http_code "mcp::v0::detail::http::|asio::")
symbols_of(${STDIO_ONLY} stdio)
if(NOT stdio MATCHES "mcp::v0::server::")
  message(FATAL_ERROR "${STDIO_ONLY} shows no mcp::server symbol: the check would see nothing")
endif()
if(stdio MATCHES "${http_code}")
  string(REGEX MATCH "[^\n]*(${http_code})[^\n]*" first "${stdio}")
  message(FATAL_ERROR "${STDIO_ONLY}, a stdio server, links HTTP code, e.g.:\n  ${first}")
endif()
symbols_of(${HTTP_USER} http)
if(NOT http MATCHES "${http_code}")
  message(FATAL_ERROR "${HTTP_USER} serves HTTP, yet the check finds no HTTP code in it")
endif()
message(STATUS "a stdio server links no HTTP code; an HTTP server's does show it")
