#!/bin/sh
# The notes example, built for Windows, serving Streamable HTTP under Wine on 127.0.0.1 (a port the
# system picks), driven with curl: initialize opens a session, a tool call in it stores a note,
# DELETE ends it and the session is gone afterwards (404).
# Usage: notes_http.sh WINE NOTES_EXE WORK_DIR
set -eu
wine=$1 notes=$2 work=$3
command -v curl >/dev/null 2>&1 || { echo "SKIPPED: curl is not installed (apt-get install curl)"; exit 0; }
rm -rf "$work" && mkdir -p "$work"
"$wine" "$notes" --store "$work/notes.json" --http 127.0.0.1:0 2>"$work/server.log" </dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
url=
for _ in $(seq 1 600); do  # Wine's first start can take a while
  # (Windows ends the line with "\r\n")
  url=$(tr -d '\r' <"$work/server.log" | sed -n 's|.*serving MCP over HTTP at \(http://[^ ]*\).*|\1|p' | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; echo "the server exited"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/server.log"; echo "the server did not say where it listens"; exit 1; }
echo "server at $url"

post() {  # post SESSION BODY: prints the headers and the body
  curl -sS -i -X POST "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
       ${1:+-H "Mcp-Session-Id: $1"} ${1:+-H 'MCP-Protocol-Version: 2025-11-25'} --data "$2"
}
init=$(post "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"windows-test","version":"1"}}}')
echo "$init"
session=$(printf '%s\n' "$init" | tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
[ -n "$session" ] || { echo "no session id in the initialize answer"; exit 1; }
post "$session" '{"jsonrpc":"2.0","method":"notifications/initialized"}' >/dev/null
made=$(post "$session" '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"Groceries","body":"milk"}}}')
echo "$made"
case $made in *"Created note 'Groceries'"*) ;; *) echo "create_note did not answer as expected"; exit 1 ;; esac
grep -q Groceries "$work/notes.json" || { echo "the note was not stored"; exit 1; }
status=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$url" -H "Mcp-Session-Id: $session" -H 'MCP-Protocol-Version: 2025-11-25')
[ "$status" = 204 ] || [ "$status" = 200 ] || { echo "DELETE answered $status"; exit 1; }
after=$(post "$session" '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' | head -n 1 | tr -d '\r')
case $after in *" 404"*) ;; *) echo "after DELETE the session still answers: $after"; exit 1 ;; esac
echo "HTTP round trip on Windows: ok"
