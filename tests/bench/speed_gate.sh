#!/bin/sh
# The speed gate (issue #57): the instructions a request costs the server, counted by callgrind,
# for a fixed set of requests, against the baseline checked in beside this script. Instruction
# counts do not move with the machine's load the way times do. Fails on a rise past the tolerance;
# reports falls without failing. Method, tolerance and when the baseline may be re-recorded:
# README.md, "Speed gate".
#
#   sh tests/bench/speed_gate.sh            build, measure each workload once, compare; exit 1 on a rise
#   sh tests/bench/speed_gate.sh --record   measure each workload three times, write the baseline
#
# Options: --build-dir DIR (default <repo>/build-speed)  --baseline FILE (default: beside this script)
#          --runs K (measurements of each workload: default 1, 3 with --record; the median counts)
#          --only NAME (one workload)  --tolerance PCT (for trials; CI uses the default)
#          --compare BASELINE NOW (no build, no measurement: compare two files of "name count" lines)
#          --self-check (the comparison's verdicts on made-up counts: the ctest speed_gate_self_check)
# Exit: 0 no rise past the tolerance; 1 a rise (or a failed run); 2 bad use, or a baseline recorded
# with another compiler (the counts are not comparable: README.md says how to re-record).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build-speed
baseline=$here/speed_gate_baseline.txt
record=0
runs=
only=
# 1%: twenty times the largest spread measured over repeated runs (stdio add, 11,954-11,959), and
# below what a little more work a request costs the cheapest workload: one more copy of a small
# json object a call raised stdio add 2.3% (README.md, "Speed gate").
tolerance=1.0
compare_base=
compare_now=
self_check=0
while [ $# -gt 0 ]; do
  case $1 in
    --record) record=1; shift ;;
    --build-dir) build=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --tolerance) tolerance=$2; shift 2 ;;
    --compare) compare_base=$2; compare_now=$3; shift 3 ;;
    --self-check) self_check=1; shift ;;
    *) echo "speed_gate.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
say() { echo "speed gate: $*" >&2; }

# Prints the table for a baseline and a measurement (files of "name count" lines; '#' lines and
# the baseline's header lines skipped) and exits 1 on a rise past the tolerance. A workload the
# measurement lacks fails; one the baseline lacks is shown, not compared.
compare() {
  awk -v tol="$tolerance" '
    FNR == 1 { file++ }
    /^#/ || NF < 2 || $2 !~ /^[0-9.]+$/ { next }
    file == 1 { base[$1] = $2; order[++n] = $1; next }
    { now[$1] = $2; if (!($1 in base)) extra[++m] = $1 }
    END {
      printf "| %-20s | %12s | %12s | %8s | %s\n", "workload", "baseline", "now", "change", "verdict"
      printf "|%s|%s|%s|%s|%s\n", "----------------------", "--------------", "--------------", "----------", "--------"
      rises = 0
      for (i = 1; i <= n; i++) {
        w = order[i]
        if (!(w in now)) { printf "| %-20s | %12.0f | %12s | %8s | NOT MEASURED\n", w, base[w], "-", "-"; rises++; continue }
        change = (now[w] - base[w]) * 100 / base[w]
        verdict = "ok"
        if (change > tol) { verdict = "RISE past " tol "%"; rises++ }
        else if (change < -5) verdict = "fall past 5%: faster, or was a check dropped? (not a failure)"
        else if (change < -tol) verdict = "fall (not a failure)"
        printf "| %-20s | %12.0f | %12.0f | %+7.2f%% | %s\n", w, base[w], now[w], change, verdict
      }
      for (i = 1; i <= m; i++) printf "| %-20s | %12s | %12.0f | %8s | not in the baseline\n", extra[i], "-", now[extra[i]], "-"
      printf "\ninstructions a request (callgrind); tolerance %s%%\n", tol
      exit rises > 0 ? 1 : 0
    }' "$1" "$2"
}

if [ -n "$compare_base" ]; then
  compare "$compare_base" "$compare_now"
  exit $?
fi

# The comparison's own check (ctest speed_gate_self_check): made-up counts the verdict is known for.
if [ $self_check = 1 ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  printf 'commit abc\ncompiler g++ 12\nrecorded 2026-12-05T10:00Z\na 10000 9999-10001 0.02%%\nb 200000\n' >"$dir/base"
  wrong=0
  expect() {  # exit status, text the table must hold, then the measurement's lines
    want=$1 text=$2
    shift 2
    printf '%s\n' "$@" >"$dir/now"
    got=0
    tolerance=1.0
    table=$(compare "$dir/base" "$dir/now") || got=$?
    if [ $got != "$want" ] || ! printf '%s' "$table" | grep -q -- "$text"; then
      echo "self-check: for '$*' wanted exit $want and '$text', got exit $got:" >&2
      printf '%s\n' "$table" >&2
      wrong=$((wrong + 1))
    fi
  }
  expect 0 "| ok" "a 10000" "b 200000"
  expect 0 "+0.99%" "a 10099" "b 200000"
  expect 1 "RISE past 1.0%" "a 10101" "b 200000"
  expect 1 "RISE past 1.0%" "a 10000" "b 202500"
  expect 0 "fall (not a failure)" "a 9800" "b 200000"
  expect 0 "was a check dropped" "a 9000" "b 200000"
  expect 1 "NOT MEASURED" "a 10000"
  expect 0 "not in the baseline" "a 10000" "b 200000" "c 5"
  [ $wrong = 0 ] && echo "self-check: 8 of 8 verdicts right"
  exit $((wrong > 0))
fi

# What a fresh machine lacks comes as for tests/run.sh (apt-get runs only when something is missing).
# shellcheck disable=SC1091  # cmake/prepare.sh, found from the repository root at run time
. "$repo/cmake/prepare.sh"
# shellcheck disable=SC2086
mcp_install $MCP_BUILD_PACKAGES valgrind
[ -n "$runs" ] || { [ $record = 1 ] && runs=3 || runs=1; }
start=$(date +%s)

# --- the build: its own folder, one fixed configuration ---------------------------------------------
# Release at -O2 with g++, whatever the environment says: counts depend on the compiler and its flags.
compiler=${MCP_SPEED_CXX:-g++}
say "configuring $build (Release, -O2, $compiler)"
mkdir -p "$build"
env -u CXXFLAGS -u CPPFLAGS -u LDFLAGS cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_CXX_FLAGS= "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DMCP_SANITIZE= -DMCP_TEST_CXX20=OFF -DMCP_INTEROP_TESTS=OFF </dev/null >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j2 --target mcp_bench_server mcp_bench </dev/null >&2
server=$build/tests/bench/mcp_bench_server
driver=$build/tests/bench/mcp_bench
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx_version=$("$cxx" --version | head -n 1)
vg_version=$(valgrind --version)
cpu="$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); $(grep -m 1 -o -w 'avx2\|avx512f\|erms\|fsrm' /proc/cpuinfo | sort -u | tr '\n' ' ')"
say "built in $(($(date +%s) - start))s"

if [ $record = 0 ]; then
  [ -f "$baseline" ] || { say "no baseline at $baseline: record one with --record (README.md, Speed gate)"; exit 2; }
  base_cxx=$(sed -n 's/^compiler //p' "$baseline")
  if [ "$base_cxx" != "$cxx_version" ]; then
    say "the baseline was recorded with '$base_cxx', this build uses '$cxx_version':"
    say "their counts are not comparable. Re-record on the baseline's commit (README.md, Speed gate)."
    exit 2
  fi
  base_vg=$(sed -n 's/^valgrind //p' "$baseline")
  base_cpu=$(sed -n 's/^cpu //p' "$baseline")
  [ "$base_vg" = "$vg_version" ] || say "note: baseline measured under $base_vg, this is $vg_version"
  # glibc picks memcpy, strlen and the like by what the CPU (as valgrind shows it) offers.
  [ "$base_cpu" = "$cpu" ] || say "note: baseline measured on '$base_cpu', this is '$cpu': glibc's string functions may differ"
fi

# --- the measurements ---------------------------------------------------------------------------------
# name, transport, tool, N, then the two request counts: the difference of the two runs' counts,
# divided by the difference of the counts, is what a request costs, without start-up and exit.
# The first calls (kept argument objects, caches) fall in both runs alike.
workloads="
stdio_add stdio add 0 100 300
http_add http add 0 100 300
stdio_order_100 stdio order 100 50 150
http_order_100 http order 100 50 150
stdio_list_100 stdio list 100 50 150
http_list_100 http list 100 50 150
stdio_order_rt_100 stdio order_rt 100 50 150
http_order_rt_100 http order_rt 100 50 150
"
work=$build/speed
mkdir -p "$work"
# A budget longer than any run: the watchdog, which otherwise ticks once a millisecond of (slowed)
# wall time, never acts, and every call runs inline on the thread that read it, as calls this size
# do outside valgrind. With the default 1 ms, HTTP add spread over 29.5k-32.7k (a runner added or not).
budget_ms=600000

# Instructions in the whole server process (every thread) for one run of `calls` requests.
count_run() {  # transport tool n calls
  out=$work/callgrind.out
  rm -f "$out"
  http_args=
  [ "$1" = http ] && http_args="--http 127.0.0.1:{port}"
  # shellcheck disable=SC2086  # http_args is two words or none
  if ! "$driver" speed --transport "$1" --tool "$2" --n "$3" --calls "$4" -- \
    valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$out" \
    "$server" $http_args --inline-budget-ms $budget_ms >"$work/driver.log" 2>"$work/server.log"; then
    say "the run of $2 ($1, $4 calls) failed:"
    tail -n 20 "$work/server.log" >&2
    return 1
  fi
  awk '/^totals:/ { print $2; found = 1 } END { exit !found }' "$out"
}

# Instructions a request of one workload: name transport tool n low high
per_request() {
  low=$(count_run "$2" "$3" "$4" "$5") || return 1
  high=$(count_run "$2" "$3" "$4" "$6") || return 1
  awk -v a="$low" -v b="$high" -v d="$(($6 - $5))" 'BEGIN { printf "%.0f\n", (b - a) / d }'
}

now_file=$work/now.txt
: >"$now_file"
failed=0
echo "$workloads" | while read -r name transport tool n low high; do
  [ -n "$name" ] || continue
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  values=
  i=0
  while [ $i -lt "$runs" ]; do
    v=$(per_request "$name" "$transport" "$tool" "$n" "$low" "$high") || exit 1
    values="$values $v"
    i=$((i + 1))
  done
  # The median of the runs, and their spread.
  # shellcheck disable=SC2086
  summary=$(printf '%s\n' $values | sort -n | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.0f %s-%s %.3f%%\n", m, v[1], v[NR], (v[NR] - v[1]) * 100 / m }')
  say "$name: $summary (median, min-max, spread over $runs run(s):$values)"
  echo "$name $summary" >>"$now_file"
done || failed=1
[ $failed = 0 ] || { say "a measurement failed"; exit 1; }

if [ $record = 1 ]; then
  if [ -n "$only" ]; then say "--record measures every workload: drop --only"; exit 2; fi
  commit=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
  dirty=$(git -C "$repo" status --porcelain -- include examples tests/bench ':!tests/bench/speed_gate_baseline.txt' 2>/dev/null || true)
  [ -z "$dirty" ] || commit="$commit (with uncommitted changes)"
  {
    echo "# The speed gate's baseline (tests/bench/speed_gate.sh; tests/bench/README.md, \"Speed gate\")."
    echo "# Instructions a request to mcp_bench_server, counted by callgrind: the median of $runs runs,"
    echo "# the lowest and highest, and their spread. Written by --record; never edited by hand."
    echo "commit $commit"
    echo "compiler $cxx_version"
    echo "valgrind $vg_version"
    echo "cpu $cpu"
    echo "recorded $(date -u +%Y-%m-%dT%H:%MZ)"
    cat "$now_file"
  } >"$baseline"
  say "baseline written to $baseline in $(($(date +%s) - start))s"
  cat "$baseline"
  exit 0
fi

status=0
compare "$baseline" "$now_file" || status=$?
say "done in $(($(date +%s) - start))s"
exit $status
