# Compiles every public header on its own (-fsyntax-only), so each one includes what it uses.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DFLAGS="<-I... -D...>" -P this-file
file(GLOB headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/mcp/*.hpp)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
set(failed "")
foreach(h IN LISTS headers)
  file(WRITE ${WORK_DIR}/one_header.cpp "#include <${h}>\n")
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -I${INCLUDE_DIR} ${flags} ${WORK_DIR}/one_header.cpp
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message("${h} does not compile cleanly on its own:\n${err}")
    list(APPEND failed ${h})
  endif()
endforeach()
list(LENGTH headers n)
if(failed)
  message(FATAL_ERROR "headers that do not stand alone: ${failed}")
endif()
message("all ${n} public headers compile on their own")
