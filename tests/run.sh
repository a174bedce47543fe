#!/bin/sh
# Runs the whole test suite: installs what is missing (Debian), configures build/, builds, runs ctest.
# Usage, from anywhere: sh tests/run.sh [extra ctest arguments]
# Environment: MCP_BUILD_DIR (default build), MCP_JOBS (default: all cores), MCP_CMAKE_ARGS (extra
# cmake options, e.g. "-DMCP_TEST_CXX20=ON", which CI adds: a C++20 copy of some unit tests too).
set -eu
cd "$(dirname "$0")/.."
. ./cmake/prepare.sh

start=$(mcp_now)
# nodejs/npm are for the interop tests (a nodejs that bundles npm is fine too); nginx for the
# scale-out test, as a load balancer in front of three servers; wrk for the benchmark's smoke run,
# so its HTTP half is exercised too; python3-jsonschema checks the golden schemas against both
# metaschemas (without it that test reports itself skipped); libcpp-httplib-dev builds
# examples/httplib, the notes tools mounted in another web server; pkg-config builds the consumer
# that finds the installed SDK through mcp.pc; libjwt-dev (with libssl-dev) builds examples/jwt and
# its test with real tokens, and examples/https; openssl makes the throwaway certificate of the https
# tests, and curl is one of their clients; chromium runs the MCP App of the notes example headless;
# libhiredis-dev builds mcp::redis_task_store, and redis-server (its service not started: the tests
# start their own on 127.0.0.1) runs its tests and the scale-out of tasks across processes;
# python3-clang-14 lets public_api_check.py read the public headers with libclang; prometheus (and its
# promtool) scrapes and checks the notes server's /metrics in telemetry_prometheus.
# shellcheck disable=SC2086
mcp_install $MCP_BUILD_PACKAGES nodejs:node npm:npm nginx:nginx wrk:wrk python3-jsonschema libcpp-httplib-dev \
  pkg-config:pkg-config libjwt-dev libssl-dev openssl:openssl curl:curl chromium:chromium \
  libhiredis-dev redis-server:redis-server python3-clang-14 prometheus:promtool
mcp_configure -DMCP_BUILD_TESTS=ON -DMCP_BUILD_EXAMPLES=ON
mcp_build

t0=$(mcp_now)
mcp_say "running tests"
status=0
(cd "$MCP_BUILD_DIR" && ctest --output-on-failure -j "$MCP_JOBS" "$@") </dev/null || status=$?
# ctest hides the output of passing tests; the conformance totals are worth seeing in every log.
log="$MCP_BUILD_DIR/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
  awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
       /^run_suite: [0-9]+ scenarios/ { sub(/^run_suite: /, ""); print "==> " name ": " $0 }' "$log" >&2
fi
mcp_say "tests ran in $(($(mcp_now) - t0))s; total $(($(mcp_now) - start))s; ctest exit code $status"
exit "$status"
