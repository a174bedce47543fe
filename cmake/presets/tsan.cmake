# The tests that run threads (core, stdio, stalls, HTTP, hostile, the Redis stores) under ThreadSanitizer:
#   cmake -S . -B build-tsan -C cmake/presets/tsan.cmake && cmake --build build-tsan -j2 --target mcp_tests mcp_hostile_tests
#   (cd build-tsan && ctest --output-on-failure -R "^(mcp_tests|mcp_tests\.redis|mcp_hostile_tests)$")
# An initial-cache file rather than a CMakePresets.json, which CMake reads only from the top level.
set(CMAKE_CXX_COMPILER "clang++" CACHE STRING "")  # faster to build than with g++; runtime: libclang-rt-14-dev
set(MCP_SANITIZE "thread" CACHE STRING "")
set(MCP_UNIT_ONLY "test_core;test_stdio;test_stdio_stop;test_stalls;test_http;test_stateless;test_http_embed;test_elicitation;test_https;test_redis_task_store;test_redis_event_store" CACHE STRING "")
set(MCP_UNIT_BATCH 6 CACHE STRING "")  # those eleven files as two batches of about equal size (8 + 1 took longer)
set(MCP_TEST_CXX20 OFF CACHE BOOL "")
set(MCP_INTEROP_TESTS OFF CACHE BOOL "")
set(CMAKE_BUILD_TYPE "Debug" CACHE STRING "")
set(CMAKE_CXX_FLAGS_DEBUG "-O0 -g1" CACHE STRING "")  # half of -O1 -g's compile time; line tables are what reports need
