#!/bin/sh
# A real Prometheus (Debian's) scrapes the notes server: `notes --http 127.0.0.1:PORT --metrics`
# gets a create_note call, `promtool check metrics` must pass on its /metrics page, and Prometheus's
# query API must return the mcp_server_operation_duration_seconds series of that call.
# Usage: prometheus_scrape.sh NOTES_BINARY. Exit 77 (skipped) without prometheus, promtool or curl.
# Every process listens on 127.0.0.1 only and is stopped here, also when a step fails.
set -u
notes=$1
for tool in prometheus promtool curl python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "prometheus_scrape: no $tool (Debian: apt-get install prometheus curl); skipped"
    exit 77
  fi
done
dir=$(mktemp -d)
notes_pid=""
prom_pid=""
cleanup() {
  [ -n "$notes_pid" ] && kill "$notes_pid" 2>/dev/null && wait "$notes_pid" 2>/dev/null
  [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "prometheus_scrape: FAILED: $*"
  [ -f "$dir/prometheus.log" ] && tail -20 "$dir/prometheus.log"
  exit 1
}
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
# Waits up to 20 s for a URL to answer 200.
wait_up() {
  i=0
  while [ $i -lt 200 ]; do
    curl -fs -o /dev/null --max-time 2 "$1" && return 0
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

port=$(free_port)
"$notes" --http "127.0.0.1:$port" --metrics --store "$dir/notes.json" 2>"$dir/notes.log" &
notes_pid=$!
wait_up "http://127.0.0.1:$port/metrics" || fail "notes did not serve /metrics on 127.0.0.1:$port"

post() {  # session id (may be empty), body -> the response body on stdout, headers in $dir/h
  curl -fs --max-time 10 -D "$dir/h" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-11-25' \
    ${1:+-H "Mcp-Session-Id: $1"} --data "$2" "http://127.0.0.1:$port/mcp"
}
post "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scrape","version":"1"}}}' >/dev/null ||
  fail "initialize"
sid=$(tr -d '\r' <"$dir/h" | awk -F': ' 'tolower($1) == "mcp-session-id" { print $2 }')
[ -n "$sid" ] || fail "no Mcp-Session-Id"
post "$sid" '{"jsonrpc":"2.0","method":"notifications/initialized"}' >/dev/null || fail "initialized"
answer=$(post "$sid" '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"scraped","body":"by prometheus"}}}') ||
  fail "tools/call"
case $answer in *"Created note"*) ;; *) fail "unexpected answer: $answer" ;; esac

curl -fs --max-time 10 "http://127.0.0.1:$port/metrics" >"$dir/page.txt" || fail "GET /metrics"
grep -q '^mcp_server_operation_duration_seconds_count{.*gen_ai_tool_name="create_note"' "$dir/page.txt" ||
  fail "no create_note series on the page"
if ! promtool check metrics <"$dir/page.txt" >"$dir/promtool.txt" 2>&1; then
  cat "$dir/promtool.txt"
  fail "promtool check metrics"
fi
echo "prometheus_scrape: promtool check metrics passes ($(grep -c . "$dir/page.txt") lines)"

prom_port=$(free_port)
cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: notes
    static_configs:
      - targets: ["127.0.0.1:$port"]
YML
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
  --web.listen-address="127.0.0.1:$prom_port" >"$dir/prometheus.log" 2>&1 &
prom_pid=$!
wait_up "http://127.0.0.1:$prom_port/-/ready" || fail "prometheus did not become ready"

query='mcp_server_operation_duration_seconds_count{gen_ai_tool_name="create_note",mcp_method_name="tools/call"}'
i=0
while [ $i -lt 60 ]; do
  result=$(curl -fs --max-time 5 -G "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$query") || result=""
  case $result in
    *'"result":[{'*)
      echo "prometheus_scrape: the query API returns $result"
      value=$(printf '%s' "$result" | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1]) if len(r)==1 else print("many")')
      [ "$value" = "1" ] || fail "expected one series with count 1, got $value"
      # The buckets came through as a histogram Prometheus can take a quantile of.
      q=$(curl -fs --max-time 5 -G "http://127.0.0.1:$prom_port/api/v1/query" \
        --data-urlencode 'query=histogram_quantile(0.5, sum by (le) (mcp_server_operation_duration_seconds_bucket{gen_ai_tool_name="create_note"}))')
      case $q in *'"result":[{'*) echo "prometheus_scrape: histogram_quantile: $q" ;; *) fail "histogram_quantile: $q" ;; esac
      exit 0
      ;;
  esac
  sleep 0.5
  i=$((i + 1))
done
fail "prometheus never returned the series: $result"
