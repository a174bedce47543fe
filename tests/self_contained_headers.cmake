# Compiles one header on its own (-fsyntax-only, warnings are errors), so each includes what it uses.
# In compiled mode (MCP_SEPARATE_COMPILATION) the out-of-line bodies (.ipp), and what they include,
# are left out, so a header that leans on an include of some .ipp fails there: every header is
# checked in that mode. Header-only mode adds only the .ipp bodies, so it is checked for the headers
# whose own text depends on the mode (those that include an .ipp, and config.hpp); each .ipp is
# then compiled, with its owner, on its own. This halves the check's time (a header-only TU costs
# two to three times a compiled one). mcp/impl/src.hpp exists only in compiled mode.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DHEADER=mcp/x.hpp -DFLAGS="..." -DWORK_DIR=<dir> -P this-file
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
string(MAKE_C_IDENTIFIER "${HEADER}" stem)
set(source ${WORK_DIR}/header_${stem}.cpp)
file(WRITE ${source} "#include <${HEADER}>\n")
file(READ ${INCLUDE_DIR}/${HEADER} text)
set(modes compiled)
if(text MATCHES "MCP_SEPARATE_COMPILATION" AND NOT HEADER STREQUAL "mcp/impl/src.hpp")
  set(modes header-only compiled)
endif()
foreach(mode IN LISTS modes)
  set(mode_flags)
  if(mode STREQUAL "compiled")
    set(mode_flags -DMCP_SEPARATE_COMPILATION)
  endif()
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -I${INCLUDE_DIR} ${flags} ${mode_flags} ${source}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "${HEADER} does not compile cleanly on its own (${mode}):\n${err}")
  endif()
endforeach()
