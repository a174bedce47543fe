#!/bin/sh
# Builds one example and runs it as an MCP server on stdio (JSON-RPC on stdin/stdout).
# Usage, from anywhere: sh examples/run.sh [notes|<example>] [server arguments...]
# Everything before the server starts writes to stderr: stdout carries only the server's replies.
set -eu
cd "$(dirname "$0")/.."
. ./cmake/prepare.sh

# The first argument names the example unless it is an option for the server.
name=notes
case ${1:-} in
  "" | -*) ;;
  *) name=$1; shift ;;
esac

# shellcheck disable=SC2086
mcp_install $MCP_BUILD_PACKAGES
mcp_configure -DMCP_BUILD_EXAMPLES=ON
mcp_build "$name"

for exe in "$MCP_BUILD_DIR/examples/$name" "$MCP_BUILD_DIR/examples/$name/$name"; do
  if [ -f "$exe" ] && [ -x "$exe" ]; then
    mcp_say "starting $exe on stdio (end with Ctrl-D)"
    exec "$exe" "$@"
  fi
done
mcp_die "built target '$name' but found no executable under $MCP_BUILD_DIR/examples/"
