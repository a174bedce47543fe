# The libFuzzer harnesses (clang, ASan + UBSan), each with a short ctest over its seed corpus:
#   cmake -S . -B build-fuzz -C cmake/presets/fuzz.cmake && cmake --build build-fuzz --target mcp_fuzzers
#   (cd build-fuzz && ctest --output-on-failure -L fuzz)
#   build-fuzz/tests/fuzz/fuzz_core -max_total_time=600 tests/fuzz/corpus/core      # a long run
set(CMAKE_CXX_COMPILER "clang++" CACHE STRING "")
set(MCP_BUILD_FUZZERS ON CACHE BOOL "")
set(MCP_TEST_CXX20 OFF CACHE BOOL "")
set(MCP_INTEROP_TESTS OFF CACHE BOOL "")
