# mcp_headers_of(SOURCE OUT [FLAGS...]): the headers ${CXX} opens for SOURCE (gcc -H: one line per
# header, dots for the depth), with -I${INCLUDE_DIR}. Shared by the scripts that check what a file
# parses (parses_no_asio.cmake, umbrella_no_extensions.cmake); a file that does not compile fails.
function(mcp_headers_of source out)
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -H -I${INCLUDE_DIR} ${ARGN} ${source}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${source} does not compile (${ARGN}):\n${err}")
  endif()
  set(${out} "${err}" PARENT_SCOPE)
endfunction()
