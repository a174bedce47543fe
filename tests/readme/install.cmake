# Runs examples/README.md's install recipe (the snippet install_recipe, taken out at configure time
# as snippets/install_recipe.txt) word for word, except the prefix, in a copy of the repository's
# files that a configure without tests and examples reads; then checks that the library it
# installed is an optimised build, and builds and runs tests/consumer/find_package against that
# prefix, header-only and compiled.
# Run with: cmake -DSNIPPETS=<dir> -DREPO=<repo> -DWORK_DIR=<scratch dir> -DGENERATOR=<g> -DCXX_COMPILER=<c++>
#           -P install.cmake
cmake_minimum_required(VERSION 3.16)

file(READ "${SNIPPETS}/install_recipe.txt" script)
if(NOT script MATCHES "/your/prefix")
  message(FATAL_ERROR "examples/README.md's install_recipe block no longer installs into /your/prefix:\n${script}\n"
                      "Update tests/readme/install.cmake with it.")
endif()

# The recipe runs from the repository root and makes build/ there: a copy, so that it never touches
# a build folder of the checkout it runs from.
file(REMOVE_RECURSE "${WORK_DIR}")
set(src "${WORK_DIR}/mcp")
set(prefix "${WORK_DIR}/prefix")
file(MAKE_DIRECTORY "${src}")
file(COPY "${REPO}/CMakeLists.txt" "${REPO}/LICENSE" "${REPO}/cmake" "${REPO}/include" DESTINATION "${src}")
string(REPLACE "/your/prefix" "${prefix}" script "${script}")
file(WRITE "${WORK_DIR}/install.sh" "${script}")
message(STATUS "in ${src}:\n${script}")
execute_process(COMMAND sh -e "${WORK_DIR}/install.sh" WORKING_DIRECTORY "${src}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "examples/README.md's install lines failed (${rc}):\n${out}")
endif()

# What was installed: the headers, the compiled mode's library, and its targets for an optimised
# configuration (CMake writes mcpTargets-<config>.cmake for the build type: -noconfig without one,
# which means no -O flag at all).
file(GLOB_RECURSE libraries "${prefix}/*/libmcp.a")
if(NOT libraries)
  message(FATAL_ERROR "the install recipe put no libmcp.a under ${prefix}:\n${out}")
endif()
file(GLOB_RECURSE exports "${prefix}/*/mcpTargets-*.cmake")
set(optimised OFF)
foreach(export IN LISTS exports)
  if(export MATCHES "mcpTargets-(release|relwithdebinfo|minsizerel)\\.cmake$")
    set(optimised ON)
  endif()
endforeach()
if(NOT optimised)
  message(FATAL_ERROR "the install recipe installed a library of no optimised build type (${exports}): "
                      "it needs -DCMAKE_BUILD_TYPE=Release")
endif()

# A user's project against that prefix, with both targets.
foreach(target mcp compiled)
  if(target STREQUAL "compiled")
    set(expect "mcp [0-9.]+ speaks [0-9-]+ [(]compiled[)]")
  else()
    set(expect "mcp [0-9.]+ speaks [0-9-]+ [(]header-only[)]")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -DSTEP=project -DSOURCE_DIR=${REPO}/tests/consumer/find_package
                          -DBINARY_DIR=${WORK_DIR}/consumer-${target} -DGENERATOR=${GENERATOR}
                          -DCXX_COMPILER=${CXX_COMPILER} -DPROGRAM=consumer -DEXPECT=${expect}
                          "-DARGS=-DCMAKE_PREFIX_PATH=${prefix};-DMCP_EXPECTED_PREFIX=${prefix};-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF;-DMCP_TARGET=${target}"
                          -P ${REPO}/tests/consumer/run_consumer.cmake
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tests/consumer/find_package (mcp::${target}) did not build or run against ${prefix}")
  endif()
endforeach()
message(STATUS "examples/README.md's install lines installed an optimised SDK, and a project found and used it")
