#!/bin/sh
# The benchmark: this SDK and the official TypeScript SDK doing the same work on the same machine
# in the same run. Writes OUT/results.md (figures and ratios, ours / theirs), OUT/throughput.png,
# OUT/payload.png and OUT/results.jsonl (every raw measurement).
#
#   sh tests/bench/run.sh                 full run (builds Release into build-bench, ~30 min on 2 cores)
#   sh tests/bench/run.sh --smoke ...     tiny counts; what the bench_smoke ctest runs
#
# Options: --build-dir DIR (default: <repo>/build-bench)  --out DIR (default: BUILD/bench)
#          --server EXE --driver EXE (prebuilt; skips the build)  --node-dir DIR (npm scratch folder)
#          --no-ts (ours only)  --profile (also run callgrind on the stdio server)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build-bench
out=
server=
driver=
node_dir=
smoke=0
use_ts=1
profile=0
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --server) server=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --node-dir) node_dir=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    --no-ts) use_ts=0; shift ;;
    --profile) profile=1; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
out=${out:-$build/bench}
node_dir=${node_dir:-$out/ts-peer}
say() { echo "bench: $*" >&2; }
has() { command -v "$1" >/dev/null 2>&1; }

# Sizes of the run. Smoke: just enough to prove every stage still works.
if [ $smoke = 1 ]; then
  secs=0.3 warm=0.1 notes=300 startup_runs=2 sessions=50 wrk_secs=1 wrk_rounds=1 rate_rounds=1 compile_runs=0
  payload_ns="1 10" payload_secs=0.3 payload_warm=0.1 payload_wrk_secs=1 payload_wrk_warm=0 payload_rounds=1
else
  secs=4 warm=1 notes=3000 startup_runs=20 sessions=10000 wrk_secs=5 wrk_rounds=3 rate_rounds=3 compile_runs=2
  payload_ns="1 10 100 1000 10000" payload_secs=2 payload_warm=0.5 payload_wrk_secs=2 payload_wrk_warm=1
  payload_rounds=3
fi

# --- tools: the full run installs what is missing; the smoke run never installs anything -----------
if [ $smoke = 0 ]; then
  # The build packages come the same way as for tests/run.sh, so a fresh machine needs nothing first.
  if [ -z "$server" ] || [ -z "$driver" ]; then
    # shellcheck disable=SC1091  # cmake/prepare.sh, found from the repository root at run time
    . "$repo/cmake/prepare.sh"
    # shellcheck disable=SC2086
    mcp_install $MCP_BUILD_PACKAGES
  fi
  missing=
  for pkg in wrk hyperfine gnuplot-nox time; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing="$missing $pkg"
  done
  # The TypeScript peer's node: any node with npm will do (one from elsewhere is left alone).
  { has node && has npm; } || missing="$missing nodejs npm"
  if [ -n "$missing" ]; then
    say "installing$missing with apt-get"
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    # shellcheck disable=SC2086
    $sudo apt-get install -y --no-install-recommends $missing >&2 ||
      { $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends $missing >&2; } ||
      say "could not install$missing; the stages that need them are skipped"
  fi
fi

# --- our binaries ------------------------------------------------------------------------------------
if [ -z "$server" ] || [ -z "$driver" ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    say "configuring a Release build in $build"
    cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DMCP_TEST_CXX20=OFF -DMCP_INTEROP_TESTS=OFF >&2
  fi
  cmake --build "$build" -j2 --target mcp_bench mcp_bench_server >&2
  server=$build/tests/bench/mcp_bench_server
  driver=$build/tests/bench/mcp_bench
fi
mkdir -p "$out/logs"
results=$out/results.jsonl
: >"$results"
notes_file=$out/notes.json
"$driver" gen-notes --count $notes --out "$notes_file"

# Every server this script starts is recorded here and killed on the way out, whatever happens.
pids=
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the TypeScript peer: npm packages in a scratch folder of the build tree, never global ---------
node_note=
if [ $use_ts = 1 ] && ! has node; then
  use_ts=0 node_note="TypeScript column empty: node is not installed."
fi
if [ $use_ts = 1 ]; then
  mkdir -p "$node_dir"
  cp "$here/ts/server.mjs" "$node_dir/server.mjs"
  if ! cmp -s "$here/ts/package.json" "$node_dir/package.json" || [ ! -f "$node_dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
    cp "$here/ts/package.json" "$node_dir/package.json"
    say "installing the TypeScript SDK into $node_dir"
    if ! (cd "$node_dir" && timeout 300 npm install --no-audit --no-fund --loglevel=error >&2); then
      use_ts=0 node_note="TypeScript column empty: npm install failed (no registry?)."
      rm -f "$node_dir/package.json"  # so the next run tries again
    fi
  fi
fi
ts_version=
if [ $use_ts = 1 ]; then
  ts_version=$(cd "$node_dir" && node -p 'JSON.parse(require("fs").readFileSync("node_modules/@modelcontextprotocol/sdk/package.json")).version' 2>/dev/null || echo "?")
  say "TypeScript peer: @modelcontextprotocol/sdk $ts_version on node $(node --version)"
fi
impls=ours
[ $use_ts = 1 ] && impls="ours ts"

# The server command of one implementation, with extra arguments. "floor" is the HTTP server that
# does no work (mcp_bench http-floor): wrk's own ceiling.
server_cmd() {
  impl=$1
  shift
  case $impl in
    ours) echo "$server $*" ;;
    ts) echo "node $node_dir/server.mjs $*" ;;
    floor) echo "$driver http-floor $*" ;;
  esac
}
field() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"; }

# --- stdio -------------------------------------------------------------------------------------------
for impl in $impls; do
  say "stdio: $impl"
  # add needs no notes, so its idle RSS is the SDK's own; search_notes runs over the generated notes.
  bare=$(server_cmd $impl)
  with_notes=$(server_cmd $impl --store "$notes_file")
  line=$("$driver" stdio --label stdio_add_pipelined --impl $impl --tool add --mode pipelined --inflight 64 \
    --seconds $secs --warmup $warm -- $bare 2>>"$out/logs/stdio-$impl.log")
  echo "$line" >>"$results"
  peak=$(echo "$line" | field rps)
  "$driver" stdio --label stdio_add_sequential --impl $impl --tool add --mode sequential \
    --seconds $secs --warmup $warm -- $bare >>"$results" 2>>"$out/logs/stdio-$impl.log"
  half=$(awk -v p="$peak" 'BEGIN { printf "%d", p / 2 }')
  # A tail percentile moves most with the machine's hiccups: three runs, the report takes the median.
  for round in $(seq $rate_rounds); do
    "$driver" stdio --label stdio_add_half_load --impl $impl --tool add --mode rate --rate "$half" \
      --seconds $secs --warmup $warm -- $bare >>"$results" 2>>"$out/logs/stdio-$impl.log"
  done
  "$driver" stdio --label stdio_search_pipelined --impl $impl --tool search --mode pipelined --inflight 64 \
    --seconds $secs --warmup $warm -- $with_notes >>"$results" 2>>"$out/logs/stdio-$impl.log"
  "$driver" stdio --label stdio_search_sequential --impl $impl --tool search --mode sequential \
    --seconds $secs --warmup $warm -- $with_notes >>"$results" 2>>"$out/logs/stdio-$impl.log"
done

# --- start-up ----------------------------------------------------------------------------------------
for impl in $impls; do
  say "start-up: $impl"
  "$driver" startup --label startup --impl $impl --runs $startup_runs -- $(server_cmd $impl) \
    >>"$results" 2>>"$out/logs/startup-$impl.log"
done

# --- Streamable HTTP ---------------------------------------------------------------------------------
http_note=
start_http() {  # impl, extra argument or ""; sets $pid and $port
  port=$("$driver" free-port)
  # shellcheck disable=SC2046
  $(server_cmd "$1" --http 127.0.0.1:$port $2) >>"$out/logs/http-$1.log" 2>&1 &
  pid=$!
  pids="$pids $pid"
}
stop_http() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
if "$server" --http x 2>&1 | grep -q "no HTTP transport"; then
  http_note="HTTP rows empty: this build of the SDK has no HTTP transport."
elif ! has wrk; then
  http_note="HTTP rows empty: wrk is not installed."
fi
# Rounds alternate the servers (ours, theirs, then a server that does no work), so that a machine
# whose speed drifts during the run treats them alike; the report takes each one's median round.
# The do-nothing server (mcp_bench http-floor) measures wrk's own ceiling here: no server can show
# more requests/s than that in this setup.
wrk_run() {  # label impl sid: one measured wrk run at $port, its JSON line appended to the results
  wrk -t1 -c16 -d1s -s "$here/wrk_call.lua" "http://127.0.0.1:$port/mcp" -- "$3" >/dev/null 2>&1 || true  # warm-up
  BENCH_LABEL=$1 BENCH_IMPL=$2 wrk -t1 -c16 -d${wrk_secs}s --latency -s "$here/wrk_call.lua" \
    "http://127.0.0.1:$port/mcp" -- "$3" >"$out/logs/wrk-$1-$2-$round.txt" 2>&1 || true
  grep '^{' "$out/logs/wrk-$1-$2-$round.txt" >>"$results" || say "wrk printed no summary ($1, $2)"
}
if [ -z "$http_note" ]; then
  for round in $(seq $wrk_rounds); do
    for impl in $impls floor; do
      if [ $impl = floor ]; then
        say "HTTP round $round: the do-nothing server (wrk's ceiling)"
        start_http floor ""
        sleep 0.3  # it listens at once; it speaks no MCP for http-init to wait on
        wrk_run http_floor floor -
        stop_http
        continue
      fi
      for mode in session stateless; do
        say "HTTP round $round, $mode mode: $impl"
        extra=
        [ $mode = stateless ] && extra=--stateless
        start_http $impl "$extra"
        sid=$("$driver" http-init --port $port --wait 20 2>>"$out/logs/http-$impl.log") || {
          say "HTTP server ($impl, $mode) did not answer; see $out/logs/http-$impl.log"
          stop_http
          continue
        }
        [ -n "$sid" ] || sid=-
        watcher=
        if [ $mode = session ] && [ $round = 1 ]; then  # memory under load: one round is enough
          "$driver" rss --label http_session_rss --impl $impl --pid $pid --seconds $wrk_secs >>"$results" &
          watcher=$!
        fi
        wrk_run http_$mode $impl "$sid"
        [ -z "$watcher" ] || wait $watcher
        stop_http
      done
    done
  done
  for impl in $impls; do
    say "10,000 sessions: $impl"
    start_http $impl ""
    "$driver" sessions --label sessions --impl $impl --port $port --pid $pid --count $sessions --connections 4 \
      >>"$results" 2>>"$out/logs/http-$impl.log" || say "the sessions run failed ($impl)"
    stop_http
  done
fi

# --- payload size (issue #24) -----------------------------------------------------------------------
# order(customer, items[N]) and order_rt (the same tool with a run-time JSON Schema in ours) carry N
# order lines in their arguments; list(n = N) returns N records. Each point is short (a few seconds;
# large N makes fewer, longer calls) and alternates the servers. Fewer requests in flight at large N
# keep the megabytes queued in pipes and sockets bounded; both servers get the same. Each point is
# measured in payload_rounds rounds, a whole pass over the points each, and the report takes each
# server's median: one round's ratio moved by up to 2x between runs with the TypeScript figure.
payload_tools="order order_rt list"
payload_inflight() { case $1 in 1 | 10 | 100) echo 64 ;; 1000) echo 16 ;; *) echo 4 ;; esac; }
payload_connections() { case $1 in 1 | 10 | 100) echo 16 ;; *) echo 4 ;; esac; }
# Most calls a point may make: a bound on the count, beside the bound on the time.
payload_max() { case $1 in 1 | 10 | 100) echo 2000000 ;; 1000) echo 20000 ;; *) echo 2000 ;; esac; }
mkdir -p "$out/payload"
for tool in $payload_tools; do
  for n in $payload_ns; do
    "$driver" gen-payload --tool $tool --n $n --out "$out/payload/$tool-$n.json"
  done
done
for round in $(seq $payload_rounds); do
  for tool in $payload_tools; do
    for n in $payload_ns; do
      for impl in $impls; do
        say "payload round $round, stdio: $tool N=$n, $impl"
        # The peak RSS rows are these runs' rss_peak_kb at the largest N.
        "$driver" stdio --label payload_stdio_${tool}_$n --impl $impl --tool $tool --n $n --mode pipelined \
          --inflight "$(payload_inflight $n)" --max-requests "$(payload_max $n)" --seconds $payload_secs \
          --warmup $payload_warm -- $(server_cmd $impl) >>"$results" 2>>"$out/logs/payload-stdio-$impl.log" ||
          say "payload stdio run failed ($tool, N=$n, $impl); see $out/logs/payload-stdio-$impl.log"
      done
    done
  done
done
if [ -z "$http_note" ]; then
  # Both servers listen for the whole stage (one session each), and each point drives them in turn.
  payload_ports= payload_sids=
  for impl in $impls; do
    start_http $impl ""
    sid=$("$driver" http-init --port $port --wait 20 2>>"$out/logs/http-$impl.log") || sid=
    [ -n "$sid" ] || say "payload, HTTP: $impl did not answer (or gave no session); its rows stay empty"
    payload_ports="$payload_ports $impl=$port" payload_sids="$payload_sids $impl=${sid:-none}"
  done
  lookup() { for kv in $2; do [ "${kv%%=*}" != "$1" ] || echo "${kv#*=}"; done; }
  for round in $(seq $payload_rounds); do
    for tool in $payload_tools; do
      for n in $payload_ns; do
        for impl in $impls; do
          port=$(lookup $impl "$payload_ports") sid=$(lookup $impl "$payload_sids")
          [ "$sid" != none ] || continue
          say "payload round $round, HTTP: $tool N=$n, $impl"
          # One checked call first: wrk counts statuses, not answers.
          "$driver" http-call --label payload_http_check --impl $impl --port $port --sid "$sid" --tool $tool --n $n \
            >>"$out/logs/payload-http-$impl.log" 2>&1 || { say "payload HTTP answer wrong ($tool, N=$n, $impl)"; continue; }
          file=$out/payload/$tool-$n.json
          c=$(payload_connections $n)
          [ "$payload_wrk_warm" = 0 ] || wrk -t1 -c$c -d${payload_wrk_warm}s --timeout 10s -s "$here/wrk_call.lua" \
            "http://127.0.0.1:$port/mcp" -- "$sid" $tool "$file" >/dev/null 2>&1 || true
          BENCH_LABEL=payload_http_${tool}_$n BENCH_IMPL=$impl wrk -t1 -c$c -d${payload_wrk_secs}s --timeout 10s \
            --latency -s "$here/wrk_call.lua" "http://127.0.0.1:$port/mcp" -- "$sid" $tool "$file" \
            >"$out/logs/wrk-payload-$tool-$n-$impl.txt" 2>&1 || true
          grep '^{' "$out/logs/wrk-payload-$tool-$n-$impl.txt" >>"$results" || say "wrk printed no summary ($tool, N=$n, $impl)"
        done
      done
    done
  done
  cleanup
  pids=
fi

# --- compile time ------------------------------------------------------------------------------------
# compile_time.sh: header-only, compiled mode and the floor, with the compiler's peak memory
# (out/compile.md, appended to results.md below). Nothing else runs meanwhile.
rm -f "$out/compile.md"
if [ $compile_runs -gt 0 ]; then
  say "compile time ($compile_runs runs each)"
  sh "$here/compile_time.sh" --out "$out" --runs $compile_runs >/dev/null || say "the compile-time stage failed"
fi

# --- callgrind profile of the stdio server (optional) ------------------------------------------------
if [ $profile = 1 ] && has valgrind; then
  say "callgrind on the stdio server: 5000 add calls, 100 search_notes calls"
  "$driver" stdio --label profile --impl ours --tool add --mode pipelined --seconds 60 --max-requests 5000 --warmup 0 \
    -- valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.add.out" "$server" >/dev/null 2>>"$out/logs/profile.log" || true
  "$driver" stdio --label profile --impl ours --tool search --mode pipelined --inflight 8 --seconds 120 --max-requests 100 \
    --warmup 0 -- valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.search.out" "$server" --store "$notes_file" \
    >/dev/null 2>>"$out/logs/profile.log" || true
  say "profiles: callgrind_annotate $out/callgrind.add.out (and callgrind.search.out)"
fi

# --- the report --------------------------------------------------------------------------------------
about="Measured $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores ($(uname -m)), $notes notes"
[ -n "$ts_version" ] && about="$about; TypeScript peer: @modelcontextprotocol/sdk $ts_version on node $(node --version)"
[ $smoke = 1 ] && about="$about. SMOKE RUN: tiny counts, figures are meaningless"
for n in "$node_note" "$http_note"; do [ -z "$n" ] || about="$about
$n"; done
"$driver" report --in "$results" --out "$out/results.md" --plot "$out/throughput.dat" \
  --payload-plot "$out/payload.dat" --notes "$about" >/dev/null
[ -f "$out/compile.md" ] && { printf '\n'; cat "$out/compile.md"; } >>"$out/results.md"
if has gnuplot; then
  gnuplot -e "datafile='$out/throughput.dat'; outfile='$out/throughput.png'" "$here/throughput.gp" ||
    say "gnuplot failed; no chart"
  gnuplot -e "datafile='$out/payload.dat'; outfile='$out/payload.png'" "$here/payload.gp" ||
    say "gnuplot failed; no payload chart"
fi
cat "$out/results.md"
if ! grep -q '^| add: pipelined calls/s (64 in flight) | [0-9]' "$out/results.md"; then
  say "the table has no stdio figures for our server"
  exit 1
fi
if [ -z "$http_note" ] && ! grep -q "^| load generator's ceiling: requests/s to a server that does no work | [0-9]" "$out/results.md"; then
  say "the table has no HTTP figure for the no-work server"
  exit 1
fi
if [ -z "$http_note" ] && ! grep -q '^| session mode: requests/s | [0-9]' "$out/results.md"; then
  say "the table has no HTTP figures for our server"
  exit 1
fi
# Every payload tool at every N must have our stdio figure, and our HTTP figure where HTTP ran.
for tool in $payload_tools; do
  for n in $payload_ns; do
    row=$(grep "^| $tool | $n |" "$out/results.md" || true)
    if ! echo "$row" | grep -q "^| $tool | $n | [0-9]"; then
      say "the payload table has no stdio figure for our $tool at N=$n"
      exit 1
    fi
    if [ -z "$http_note" ] && ! echo "$row" | awk -F'|' '{ exit !($7 ~ /[0-9]/) }'; then
      say "the payload table has no HTTP figure for our $tool at N=$n"
      exit 1
    fi
  done
done
say "table written to $out/results.md"
# The smoke run is a test: stages it could not run are reported, never passed over (ctest SKIP_RETURN_CODE).
if [ $smoke = 1 ] && [ -n "$http_note" ]; then
  echo "SKIPPED: the HTTP stages did not run ($http_note); the stdio stages passed"
  exit 77
fi
