#!/bin/sh
# The compile table: how long one translation unit takes to compile, and the compiler's peak
# memory, header-only and in compiled mode, against the floor (the dependencies' headers alone).
# Writes OUT/compile.md (the table, with the targets of issue #57) and appends to OUT/results.jsonl.
#
#   sh tests/bench/compile_time.sh [--out DIR] [--runs N] [--cxx COMPILER]
#
# Each row is the mean of N runs (default 2) of `COMPILER -std=c++17 -O2 -c` in CPU seconds (GNU
# time's %U + %S: the compiler runs on one core, and CPU time holds on a machine that other work
# shares, where wall time does not); memory is the largest peak resident size (%M) of those runs.
# Targets are ratios to the floor, measured first, in the same run.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/build-bench/bench
runs=2
cxx=${CXX:-g++}
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --cxx) cxx=$2; shift 2 ;;
    *) echo "compile_time.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
say() { echo "compile_time: $*" >&2; }
[ -x /usr/bin/time ] || { say "needs GNU time (/usr/bin/time; Debian: apt-get install time)"; exit 1; }

work=$out/compile
rm -rf "$work"
mkdir -p "$work/pch/mcp"
results=$out/results.jsonl
table=$out/compile.md
base="$cxx -std=c++17 -O2 -DASIO_STANDALONE -I$repo/include"
compiled="$base -DMCP_SEPARATE_COMPILATION"
echo '#include <mcp/impl/src.hpp>' >"$work/mcp_src.cpp"

# measure LABEL COMMAND...: runs it $runs times; sets secs (mean) and kib (largest peak).
measure() {
  label=$1
  shift
  total=0 kib=0 i=0
  while [ $i -lt "$runs" ]; do
    /usr/bin/time -f "%U %S %M" -o "$work/time.txt" "$@" >"$work/$label.log" 2>&1 ||
      { say "$label failed:"; cat "$work/$label.log" >&2; exit 1; }
    read -r u sys m <"$work/time.txt"
    total=$(awk "BEGIN { print $total + $u + $sys }")
    [ "$m" -gt "$kib" ] && kib=$m
    i=$((i + 1))
  done
  secs=$(awk "BEGIN { printf \"%.2f\", $total / $runs }")
  echo "{\"label\":\"compile_$label\",\"impl\":\"ours\",\"mean_s\":$secs,\"peak_kib\":$kib}" >>"$results"
  say "$label: $secs s, $((kib / 1024)) MiB"
}

# row TU MODE TIMES_FLOOR MIB: one line of the table from the last measure; TIMES_FLOOR "" = no
# time target, MIB "" = no memory target.
row() {
  mib=$((kib / 1024))
  ratio=$(awk "BEGIN { printf \"%.1f\", $secs / $floor_secs }")
  met= target=
  if [ -n "$3" ]; then
    target="<= ${3}x floor"
    if awk "BEGIN { exit !($ratio <= $3) }"; then met="yes"; else met="**no**"; fi
  fi
  if [ -n "$4" ]; then
    target="${target:+$target, }<= $4 MiB"
    if [ "$mib" -gt "$4" ]; then met="${met:+$met; }memory **no**"; else met="${met:+$met; }memory yes"; fi
  fi
  echo "| $1 | $2 | $secs s | ${ratio}x | $mib MiB | $target | $met |" >>"$table"
}

say "$runs runs of each, $cxx -O2"
{
  echo "| Translation unit (\`$cxx -std=c++17 -O2 -c\`) | Mode | CPU time | vs floor | Peak memory | Target | Met |"
  echo "|---|---|---|---|---|---|---|"
} >"$table"

measure floor $base -c "$here/floor.cpp" -o "$work/floor.o"
floor_secs=$secs
floor_kib=$kib

measure ten_header_only $base -c "$here/ten_line.cpp" -o "$work/ten.o"
row "ten-line typed server (tests/bench/ten_line.cpp)" "header-only" 4 600
measure ten_compiled $compiled -c "$here/ten_line.cpp" -o "$work/ten.o"
row "ten-line typed server" "compiled" 2 ""
# The precompiled header of the README's recipe: <mcp/mcp.hpp>, built once, found before the header.
# (GCC uses it only when it comes first in the search path, and only with the same flags.)
$compiled -x c++-header "$repo/include/mcp/mcp.hpp" -o "$work/pch/mcp/mcp.hpp.gch" 2>/dev/null
pch_first="$cxx -std=c++17 -O2 -DASIO_STANDALONE -DMCP_SEPARATE_COMPILATION -I$work/pch -I$repo/include"
measure ten_compiled_pch $pch_first -Winvalid-pch -c "$here/ten_line.cpp" -o "$work/ten.o"
row "ten-line typed server" "compiled, PCH of mcp.hpp" "" ""
measure notes_header_only $base -c "$repo/examples/notes/main.cpp" -o "$work/notes.o"
row "examples/notes/main.cpp (stdio and HTTP)" "header-only" "" 1024
measure notes_compiled $compiled -c "$repo/examples/notes/main.cpp" -o "$work/notes.o"
row "examples/notes/main.cpp" "compiled" "" ""
measure library $compiled -c "$work/mcp_src.cpp" -o "$work/mcp_src.o"
row "the compiled mode's library (mcp/impl/src.hpp), once per build" "compiled" "" ""
secs=$floor_secs kib=$floor_kib
row "floor: only the nlohmann/json, asio and valijson headers" "" "" ""
cat "$table"
