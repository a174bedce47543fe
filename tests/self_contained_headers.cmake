# Compiles one header on its own (-fsyntax-only, warnings are errors), so each includes what it uses.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DHEADER=mcp/x.hpp -DFLAGS="..." -DWORK_DIR=<dir> -P this-file
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
string(MAKE_C_IDENTIFIER "${HEADER}" stem)
set(source ${WORK_DIR}/header_${stem}.cpp)
file(WRITE ${source} "#include <${HEADER}>\n")
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -I${INCLUDE_DIR} ${flags} ${source}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "${HEADER} does not compile cleanly on its own:\n${err}")
endif()
