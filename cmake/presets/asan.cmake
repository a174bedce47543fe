# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer:
#   cmake -S . -B build-asan -C cmake/presets/asan.cmake && cmake --build build-asan -j2 --target mcp_tests mcp_hostile_tests
#   (cd build-asan && ctest --output-on-failure -R "^(mcp_tests|mcp_hostile_tests)$")
# An initial-cache file rather than a CMakePresets.json, which CMake reads only from the top level.
set(MCP_SANITIZE "address,undefined" CACHE STRING "")
set(MCP_TEST_CXX20 OFF CACHE BOOL "")          # one language level is enough under a sanitizer
set(MCP_INTEROP_TESTS OFF CACHE BOOL "")       # node and npm runs are not what is being checked
set(CMAKE_BUILD_TYPE "Debug" CACHE STRING "")
set(CMAKE_CXX_FLAGS_DEBUG "-O1 -g" CACHE STRING "")  # -O1: several times faster than -O0 under ASan
