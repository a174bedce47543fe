#!/bin/sh
# Installs the official MCP tools the interop and conformance tests drive, into a scratch folder
# (never the repository, never globally): Node 22 as an npm package (the conformance suite needs
# Node >= 22), the conformance suite in two versions side by side, the TypeScript SDK (v1, 2025
# only), its 2.x client (speaks 2026-07-28 too), the Inspector, and for the MCP Apps tests the
# ext-apps package (its published schemas), ajv to apply them and puppeteer-core (drives Debian's
# Chromium; it downloads no browser); and two hosts nobody here wrote: the Vercel AI SDK's MCP
# client with `ai` (its tool loop) and zod (their peer), and Gemini CLI (a 20 MB download, 96 MB
# unpacked; 16 s to install alone with an empty npm cache, 10 s with a warm one; the whole list took
# 91 s here). Runs again in well under a second once everything is there.
#
#   sh tests/interop/setup.sh SCRATCH_DIR
set -eu

dir=${1:?usage: setup.sh SCRATCH_DIR}

# What we install; change a version here and the next run reinstalls.
packages="node@22 \
conf-stable@npm:@modelcontextprotocol/conformance@0.1.16 \
conf-alpha@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12 \
@modelcontextprotocol/sdk@1 \
@modelcontextprotocol/inspector@2.12.0 \
@modelcontextprotocol/client@2.4.0 \
@modelcontextprotocol/ext-apps@2.0.4 \
ajv@8.20.0 \
ajv-formats@3.0.1 \
puppeteer-core@24.43.1 \
@ai-sdk/mcp@2.0.99 \
ai@7.0.185 \
zod@4.6.7 \
@google/gemini-cli@0.61.0"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "setup.sh: '$tool' is not installed; the interop tests need it." >&2
    echo "  On Debian: apt-get install nodejs npm" >&2
    exit 1
  fi
done

mkdir -p "$dir"
cd "$dir"
dir=$(pwd)
stamp=.mcp-interop-packages
installed() {
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$packages" ] && [ -x node_modules/.bin/node ] || return 1
  for p in conf-stable conf-alpha @modelcontextprotocol/sdk @modelcontextprotocol/inspector @modelcontextprotocol/client \
           @modelcontextprotocol/ext-apps ajv ajv-formats puppeteer-core @ai-sdk/mcp ai zod @google/gemini-cli; do
    [ -f "node_modules/$p/package.json" ] || return 1
  done
}
if installed; then
  exit 0
fi

# A package.json of our own keeps npm from walking up into some other project.
[ -f package.json ] || printf '{ "name": "mcp-interop-scratch", "private": true }\n' >package.json

start=$(date +%s)
# shellcheck disable=SC2086 # the list is meant to split into words
if ! npm install --no-audit --no-fund --save-exact --loglevel=error $packages; then
  echo "setup.sh: npm install failed (is the npm registry reachable?)" >&2
  exit 1
fi
if ! node_modules/.bin/node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)'; then
  echo "setup.sh: node_modules/.bin/node is not Node 22 or newer" >&2
  exit 1
fi
printf '%s' "$packages" >"$stamp"
echo "setup.sh: installed into $dir in $(( $(date +%s) - start )) s (Node $(node_modules/.bin/node --version))"
