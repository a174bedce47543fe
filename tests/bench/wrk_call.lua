-- wrk script of the benchmark: POSTs tools/call add(a, b) over keep-alive connections, each
-- request with its own JSON-RPC id (ids must not repeat within a session while in flight).
--   wrk -s wrk_call.lua URL -- SESSION_ID|-      (BENCH_LABEL / BENCH_IMPL tag the JSON summary)
local counter = 0
local next_thread = 1

function setup(thread)
  thread:set("thread_id", next_thread)
  next_thread = next_thread + 1
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
  local session = args[1]
  if session ~= nil and session ~= "" and session ~= "-" then
    wrk.headers["Mcp-Session-Id"] = session
  end
end

function request()
  counter = counter + 1
  local id = thread_id * 1000000000 + counter
  return wrk.format(nil, nil, nil, string.format(
    '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":%d,"b":0.5}}}',
    id, counter))
end

-- One JSON line, the same shape the C++ driver prints.
function done(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"label":"%s","impl":"%s","requests":%d,"seconds":%.3f,"rps":%.1f,"p50_us":%.1f,"p90_us":%.1f,' ..
    '"p99_us":%.1f,"max_us":%.1f,"errors":%d}\n',
    os.getenv("BENCH_LABEL") or "", os.getenv("BENCH_IMPL") or "", summary.requests, seconds,
    summary.requests / seconds, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, e.connect + e.read + e.write + e.timeout + e.status))
end
