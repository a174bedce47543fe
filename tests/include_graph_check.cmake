# Shows that the configure-time include-graph check (cmake/include_graph.cmake) can fail: the real
# tree passes it, and a copy of the tree with one include that runs up a layer (core -> stores,
# which makes no cycle) fails it, naming the file and the rule. So does a copy with a cycle.
# Run with: cmake -DREPO=<repository root> -DWORK_DIR=<scratch dir> -P include_graph_check.cmake
cmake_minimum_required(VERSION 3.16)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(WRITE "${WORK_DIR}/check.cmake" "include(\"${REPO}/cmake/include_graph.cmake\")\nmcp_check_include_graph(\"\${ROOT}\")\n")

# check(ROOT EXPECT): runs the check on ROOT; EXPECT is "" (must pass) or a regex its error must match.
function(check root expect)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${root} -P "${WORK_DIR}/check.cmake"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX REPLACE "[ \n]+" " " out "${out}")  # CMake wraps its messages
  if(expect STREQUAL "")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the include graph of ${root} should pass the check, and did not:\n${out}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "the include graph of ${root} should fail the check (${expect}), and passed")
  elseif(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "the check of ${root} failed, but not as it should (${expect}):\n${out}")
  endif()
endfunction()

check("${REPO}/include" "")

file(COPY "${REPO}/include/mcp" DESTINATION "${WORK_DIR}/upward")
file(APPEND "${WORK_DIR}/upward/mcp/core/log_level.hpp" "#include <mcp/stores/redis.hpp>\n")
check("${WORK_DIR}/upward" "mcp/core/log_level.hpp includes <mcp/stores/redis.hpp>, a layer above its own")

file(COPY "${REPO}/include/mcp" DESTINATION "${WORK_DIR}/cycle")
file(APPEND "${WORK_DIR}/cycle/mcp/json/detail/utf8.hpp" "#include <mcp/json/detail/reader.hpp>\n")
check("${WORK_DIR}/cycle" "include cycle")
message(STATUS "include graph: the tree passes; an upward include and a cycle each fail the check")
