# A file that only starts a listener parses no asio header in compiled mode (MCP_SEPARATE_COMPILATION,
# mcp::compiled): transport/http.hpp and what it includes name no asio type, the listener's body
# being in the library. The same file in header-only mode must list asio headers, so that the check
# is seen to find them where they are.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<file.cpp> -DFLAGS="..." -P this-file
cmake_minimum_required(VERSION 3.16)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")

# The headers the compiler opens for SOURCE (gcc -H: one line per header, dots for the depth).
function(headers_of mode out)
  set(mode_flags)
  if(mode STREQUAL "compiled")
    set(mode_flags -DMCP_SEPARATE_COMPILATION)
  endif()
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -H -I${INCLUDE_DIR} ${flags} ${mode_flags} ${SOURCE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} does not compile (${mode}):\n${err}")
  endif()
  set(${out} "${err}" PARENT_SCOPE)
endfunction()

set(asio_header "[^\n]*/asio(/[^\n]*|\\.hpp)")
headers_of(header-only whole)
if(NOT whole MATCHES "${asio_header}")
  message(FATAL_ERROR "${SOURCE} in header-only mode lists no asio header: the check would see nothing")
endif()
headers_of(compiled compiled)
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
