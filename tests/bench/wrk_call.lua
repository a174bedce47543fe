-- wrk script of the benchmark: POSTs tools/call over keep-alive connections, each request with its
-- own JSON-RPC id (ids must not repeat within a session while in flight). Without TOOL and FILE it
-- calls add(a, b); with them, TOOL with the arguments in FILE (written by `mcp_bench gen-payload`
-- for the payload-size rows), read once.
--   wrk -s wrk_call.lua URL -- SESSION_ID|- [TOOL FILE]   (BENCH_LABEL / BENCH_IMPL tag the JSON summary)
local counter = 0
local next_thread = 1

function setup(thread)
  thread:set("thread_id", next_thread)
  next_thread = next_thread + 1
end

-- The request head is built once; each request only adds its body and length. (wrk.format
-- rebuilds every header per request, which costs wrk more than some servers spend answering.)
local head, suffix

function init(args)
  local lines = {
    "POST " .. wrk.path .. " HTTP/1.1",
    "Host: " .. wrk.host .. ":" .. wrk.port,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    "MCP-Protocol-Version: 2025-06-18",
  }
  local session = args[1]
  if session ~= nil and session ~= "" and session ~= "-" then
    lines[#lines + 1] = "Mcp-Session-Id: " .. session
  end
  head = table.concat(lines, "\r\n") .. "\r\nContent-Length: "
  if args[2] ~= nil then
    local file = assert(io.open(args[3], "rb"))
    local arguments = file:read("*a")
    file:close()
    suffix = ',"method":"tools/call","params":{"name":"' .. args[2] .. '","arguments":' .. arguments .. '}}'
  end
end

function request()
  counter = counter + 1
  local id = '{"jsonrpc":"2.0","id":' .. string.format("%d", thread_id * 1000000000 + counter)
  local body = suffix and id .. suffix or
    id .. ',"method":"tools/call","params":{"name":"add","arguments":{"a":' .. counter .. ',"b":0.5}}}'
  return head .. #body .. "\r\n\r\n" .. body
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
