# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer:
#   cmake -S . -B build-asan -C cmake/presets/asan.cmake && cmake --build build-asan -j2 --target mcp_tests mcp_hostile_tests
#   (cd build-asan && ctest --output-on-failure -R "^(mcp_tests|mcp_tests\.heavy|mcp_hostile_tests)$")
# An initial-cache file rather than a CMakePresets.json, which CMake reads only from the top level.
set(CMAKE_CXX_COMPILER "clang++" CACHE STRING "")  # half of g++'s compile time here; runtime: libclang-rt-14-dev
set(MCP_SANITIZE "address,undefined" CACHE STRING "")
set(MCP_TEST_CXX20 OFF CACHE BOOL "")          # one language level is enough under a sanitizer
set(MCP_INTEROP_TESTS OFF CACHE BOOL "")       # node and npm runs are not what is being checked
set(CMAKE_BUILD_TYPE "Debug" CACHE STRING "")
set(CMAKE_CXX_FLAGS_DEBUG "-O0 -g1" CACHE STRING "")  # -O0: a third of -O1's compile time with UBSan; -g1: line tables are what traces need
