# A file that only starts a listener parses no asio header in compiled mode (MCP_SEPARATE_COMPILATION,
# mcp::compiled): transport/http.hpp and what it includes name no asio type, the listener's body
# being in the library. The same file in header-only mode must list asio headers, so that the check
# is seen to find them where they are.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<file.cpp> -DFLAGS="..." -P this-file
cmake_minimum_required(VERSION 3.16)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")

include(${CMAKE_CURRENT_LIST_DIR}/headers_of.cmake)

set(asio_header "[^\n]*/asio(/[^\n]*|\\.hpp)")
mcp_headers_of(${SOURCE} whole ${flags})
if(NOT whole MATCHES "${asio_header}")
  message(FATAL_ERROR "${SOURCE} in header-only mode lists no asio header: the check would see nothing")
endif()
mcp_headers_of(${SOURCE} compiled ${flags} -DMCP_SEPARATE_COMPILATION)
if(compiled MATCHES "${asio_header}")
  # The include chain to the first asio header, from the depth dots of -H.
  string(REPLACE "\n" ";" lines "${compiled}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^(\\.+) (.*)$")
      string(LENGTH "${CMAKE_MATCH_1}" depth)
      set(at_${depth} "${CMAKE_MATCH_2}")
      if(CMAKE_MATCH_2 MATCHES "/asio(/|\\.hpp)")
        set(chain "${SOURCE}")
        foreach(d RANGE 1 ${depth})
          string(APPEND chain "\n  -> ${at_${d}}")
        endforeach()
        break()
      endif()
    endif()
  endforeach()
  message(FATAL_ERROR "${SOURCE} parses asio in compiled mode:\n${chain}")
endif()
string(REGEX MATCHALL "\n\\.+ " all_headers "\n${compiled}")
list(LENGTH all_headers count)
message(STATUS "compiled mode: ${count} headers opened, no asio among them; header-only mode opens asio")
