# shellcheck shell=sh
# Shared by tests/run.sh and examples/run.sh (sourced, POSIX sh): install what is missing, configure.
# Progress goes to stderr, so a script that ends by exec'ing a stdio server keeps stdout clean.

MCP_BUILD_DIR=${MCP_BUILD_DIR:-build}
MCP_JOBS=${MCP_JOBS:-$(nproc 2>/dev/null || echo 2)}

mcp_say() { printf '==> %s\n' "$*" >&2; }

mcp_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Seconds since the epoch, for the phase timings printed at the end of each step.
mcp_now() { date +%s; }

# A package counts as present when dpkg has it installed, or, given a command name, when that
# command exists (e.g. a nodejs build from another source that bundles npm).
mcp_has() {
  if [ -n "${2:-}" ] && command -v "$2" >/dev/null 2>&1; then return 0; fi
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# Arguments are "package" or "package:command". apt-get runs only when something is missing.
mcp_install() {
  missing=
  for spec in "$@"; do
    pkg=${spec%%:*}
    cmd=
    case $spec in *:*) cmd=${spec#*:} ;; esac
    mcp_has "$pkg" "$cmd" || missing="$missing $pkg"
  done
  if [ -z "$missing" ]; then
    mcp_say "packages: all present"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 || mcp_die "missing packages:$missing (and no apt-get to install them)"
  sudo=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || mcp_die "missing packages:$missing; run as root to install them"
    sudo=sudo
  fi
  t0=$(mcp_now)
  mcp_say "installing:$missing"
  # stdin from /dev/null: nothing here may eat input meant for a server started afterwards.
  $sudo apt-get update </dev/null >&2 || mcp_die "apt-get update failed"
  # Packages with a service (nginx, for the scale-out test) must not start it on installation: the
  # tests run their own instance on 127.0.0.1. A policy-rc.d saying "no" does that, for this install only.
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    $sudo sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod +x $policy"
  fi
  status=0
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing </dev/null >&2 || status=$?
  if [ -n "$policy" ]; then $sudo rm -f "$policy"; fi
  [ "$status" -eq 0 ] || mcp_die "apt-get install failed"
  mcp_say "packages installed in $(($(mcp_now) - t0))s"
}

# The build packages both scripts need; the tests add their own on top.
# shellcheck disable=SC2034  # used by the scripts that source this file
MCP_BUILD_PACKAGES="g++ cmake make nlohmann-json3-dev libasio-dev libvalijson-dev catch2"

# Configures $MCP_BUILD_DIR; arguments, then $MCP_CMAKE_ARGS (split on spaces), go to cmake.
mcp_configure() {
  t0=$(mcp_now)
  mcp_say "configuring $MCP_BUILD_DIR/"
  # shellcheck disable=SC2086
  cmake -S . -B "$MCP_BUILD_DIR" "$@" ${MCP_CMAKE_ARGS:-} </dev/null >&2 || mcp_die "cmake configure failed"
  mcp_say "configured in $(($(mcp_now) - t0))s"
}

# Builds the given targets (all when none) with $MCP_JOBS jobs.
mcp_build() {
  t0=$(mcp_now)
  mcp_say "building ${*:-everything} with $MCP_JOBS jobs"
  if [ $# -gt 0 ]; then set -- --target "$@"; fi
  cmake --build "$MCP_BUILD_DIR" -j "$MCP_JOBS" "$@" </dev/null >&2 || mcp_die "build failed"
  mcp_say "built in $(($(mcp_now) - t0))s"
}
