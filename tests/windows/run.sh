#!/bin/sh
# Builds the SDK's Windows tests with MinGW-w64 and runs them under Wine (CI's "windows" step):
# the unit tests without a POSIX harness, and the notes example over stdio and over HTTP.
# Usage, from anywhere: sh tests/windows/run.sh   (MCP_WINDOWS_BUILD_DIR, default build-windows)
set -eu
cd "$(dirname "$0")/../.."
. ./cmake/prepare.sh
# shellcheck disable=SC2086
mcp_install $MCP_BUILD_PACKAGES g++-mingw-w64-x86-64-posix:x86_64-w64-mingw32-g++-posix wine64 curl:curl
dir=${MCP_WINDOWS_BUILD_DIR:-build-windows}
t0=$(mcp_now)
cmake -S tests/windows -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/tests/windows/mingw-w64.cmake" \
      -DCMAKE_BUILD_TYPE=Release </dev/null >&2  # (unoptimised objects overflow the COFF string table)
cmake --build "$dir" -j "$MCP_JOBS" </dev/null >&2
mcp_say "Windows build took $(($(mcp_now) - t0))s"
(cd "$dir" && ctest --output-on-failure -j "$MCP_JOBS") </dev/null
mcp_say "Windows build and tests took $(($(mcp_now) - t0))s"
