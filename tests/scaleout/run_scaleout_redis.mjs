// Scale-out of tasks: three conformance_server processes behind nginx round robin, all with their
// tasks in ONE redis-server (--task-store redis://...), which this script starts on 127.0.0.1 and
// stops. Raw 2026-07-28 requests (POSTs with the Mcp-Method, Mcp-Name and MCP-Protocol-Version
// headers and the _meta every such request carries), so each request is free to land on any
// process: a task started through one process is read (tasks/get), answered (tasks/update of
// confirm_delete) and cancelled (tasks/cancel of slow_compute) through the others, and finishes;
// nginx's access log shows which process served what. The same processes keep the requestState
// tokens already used in that Redis (--replay-guard): a multi-round call's retry is accepted once,
// and the same retry replayed to the other processes is refused. Negative control: the same
// cluster with tasks and used tokens in each process's memory loses the task on the next process,
// and accepts the replayed token there. 2025-11-25 sessions' streams (--event-store): a call's
// stream cut on one process is resumed (GET, Last-Event-ID) through another, which follows it
// from Redis to the response, and through the third after it ended; without Redis the other
// processes do not know the session (404).
//
// Exits 77 (ctest SKIP_RETURN_CODE) without nginx, redis-server, or a conformance_server built
// with hiredis.
//
//   node run_scaleout_redis.mjs --server PATH/conformance_server --work DIR [--nginx PATH] [--redis-server PATH]
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { findNginx, findProgram, skip, startListening, withCluster } from './cluster.mjs';
import { freshDir, options, run, sleep } from './harness.mjs';

const modern = '2026-07-28';
const tasksExtension = 'io.modelcontextprotocol/tasks';
const caps = { extensions: { [tasksExtension]: {} }, elicitation: {} };
const terminal = ['completed', 'failed', 'cancelled'];
const mrtrTool = 'test_input_required_result_elicitation';

let nextId = 1;

// One 2026-07-28 request as its own POST; the result, or a thrown error carrying the JSON-RPC code.
async function request(url, method, params, name) {
  const id = nextId++;
  const body = {
    jsonrpc: '2.0', id, method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': modern,
        'io.modelcontextprotocol/clientInfo': { name: 'mcp-cpp-scaleout-redis', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': caps,
      },
    },
  };
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': modern,
    'Mcp-Method': method,
  };
  if (name !== undefined) headers['Mcp-Name'] = name;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10000) });
  const text = await res.text();
  let message;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const m = JSON.parse(line.slice(5));
      if (m.id === id) message = m;
    }
  } else if (text) {
    message = JSON.parse(text);
  }
  assert.ok(message, `${method}: HTTP ${res.status} without an answer: ${text.slice(0, 500)}`);
  if (message.error) throw Object.assign(new Error(`${method}: ${message.error.message}`), { code: message.error.code });
  return message.result;
}

const sent = new Map();  // name (tool or task id) → requests sent about it
const count = (name) => sent.set(name, (sent.get(name) ?? 0) + 1);
const callTool = (url, name, args) => (count(name), request(url, 'tools/call', { name, arguments: args }, name));
const taskRequest = (url, method, taskId, extra = {}) => (count(taskId), request(url, method, { taskId, ...extra }, taskId));

async function startTask(url, tool, args) {
  const r = await callTool(url, tool, args);
  assert.equal(r.resultType, 'task', `${tool} became a task: ${JSON.stringify(r)}`);
  assert.ok(r.taskId);
  return r.taskId;
}

// Polls tasks/get (each poll free to land anywhere) until the status is `want` or terminal; 10 s at most.
async function waitFor(url, taskId, want) {
  let task;
  for (const deadline = Date.now() + 10000; Date.now() < deadline; await sleep(100)) {
    task = await taskRequest(url, 'tasks/get', taskId);
    if (task.status === want || terminal.includes(task.status)) return task;
  }
  return task;
}

// From nginx's access log: which upstream served each request about `name` (a tool or a task id).
function servedBy(cluster, name) {
  return cluster.access()
    .map((l) => l.split(' '))
    .filter((f) => f[2] === `"${name}"`)
    .map((f) => ({ upstream: f[0], method: f[1].replaceAll('"', '') }));
}

// nginx logs a request once it has finished it, which can be just after the client has its answer:
// waits until every request sent about `name` is in the log.
async function settledLog(cluster, name) {
  for (const deadline = Date.now() + 5000; servedBy(cluster, name).length < sent.get(name) && Date.now() < deadline; await sleep(50));
  const served = servedBy(cluster, name);
  assert.equal(served.length, sent.get(name), `nginx logged every request about ${name}`);
  return served;
}

// The elicitation tool's first round, its retry with the answer (accepted), then the same retry sent
// twice more: with round robin, each lands on another process. Returns how the two replays went.
async function replayRetry(cluster) {
  const first = await callTool(cluster.url, mrtrTool, {});
  assert.equal(first.resultType, 'input_required', JSON.stringify(first));
  assert.ok(first.inputRequests.user_name);
  const retry = {
    name: mrtrTool, arguments: {},
    inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
    requestState: first.requestState,
  };
  count(mrtrTool);
  const done = await request(cluster.url, 'tools/call', retry, mrtrTool);
  assert.equal(done.content[0].text, 'Hello, Ada!');
  const replays = [];
  for (let i = 0; i < 2; ++i) {
    count(mrtrTool);
    replays.push(await request(cluster.url, 'tools/call', retry, mrtrTool).then(
      (r) => ({ accepted: true, text: r.content?.[0]?.text }), (e) => ({ accepted: false, code: e.code, message: e.message })));
  }
  const served = (await settledLog(cluster, mrtrTool)).slice(-3).map((r) => r.upstream);
  assert.equal(new Set(served).size, 3, `the retry and its two replays reached three processes (${served})`);
  return replays;
}

// A 2025-11-25 session opened on process 0, whose test_reconnection call lets go of its stream
// after the priming event; then the stream resumed (GET with Last-Event-ID) on process `on`, at
// once (the call still runs there) and again after it ended. Each resume's status and text.
async function resumeElsewhere(cluster, on) {
  const legacy = '2025-11-25';
  const url = (i) => `http://127.0.0.1:${cluster.servers[i].port}/mcp`;
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': legacy };
  const post = (body) => fetch(url(0), { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10000) });
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize',
                            params: { protocolVersion: legacy, capabilities: {}, clientInfo: { name: 'scaleout-resume', version: '1' } } });
  await init.text();
  headers['Mcp-Session-Id'] = init.headers.get('mcp-session-id');
  assert.ok(headers['Mcp-Session-Id'], 'a 2025-11-25 session');
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  const primed = await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } })).text();
  const ids = [...primed.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
  assert.ok(ids.length > 0 && !primed.includes('"result"'), `the call's stream ended after its priming event: ${primed}`);
  const resume = async (i) => {
    const res = await fetch(url(i), {
      headers: { Accept: 'text/event-stream', 'MCP-Protocol-Version': legacy, 'Mcp-Session-Id': headers['Mcp-Session-Id'], 'Last-Event-ID': ids.at(-1) },
      signal: AbortSignal.timeout(10000),
    });
    return { status: res.status, text: await res.text() };
  };
  const during = await resume(on);
  await sleep(300);  // the call (100 ms) has answered
  const after = await resume(3 - on);
  return { session: headers['Mcp-Session-Id'], during, after };
}

function redisKeys(redisCli, port, prefix) {
  if (!redisCli) return null;
  const r = spawnSync(redisCli, ['-h', '127.0.0.1', '-p', String(port), '--scan', '--pattern', `${prefix}*`], { encoding: 'utf8', timeout: 10000 });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : null;
}

run(async () => {
  const opt = options(['server', 'work']);
  opt.nginx = findNginx(opt.nginx);
  const redisServer = findProgram('redis-server', opt['redis-server']);
  if (!opt.nginx || !redisServer) {
    console.log(`scaleout redis: ${opt.nginx ? 'redis-server' : 'nginx'} is not installed (Debian: apt-get install nginx redis-server); skipping`);
    process.exit(skip);
  }
  const help = spawnSync(opt.server, ['--help'], { encoding: 'utf8' }).stdout ?? '';
  if (!help.includes('--task-store')) {
    console.log('scaleout redis: this conformance_server has no --task-store (built without hiredis); skipping');
    process.exit(skip);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(1));  // runs the kills
  const work = freshDir(opt.work);
  const redisDir = freshDir(path.join(work, 'redis'));
  const redis = await startListening('redis-server', path.join(redisDir, 'redis.out'), (port) => ({
    command: redisServer,
    args: ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', redisDir,
           '--logfile', path.join(redisDir, 'redis.log'), '--daemonize', 'no', '--protected-mode', 'yes'],
  }));
  try {
    const prefix = `scaleout:${crypto.randomBytes(4).toString('hex')}:`;
    const key = 'scaleout-redis-test-key-0123456789';
    const store = ['--task-store', `redis://127.0.0.1:${redis.port}/${prefix}`,
                   '--replay-guard', `redis://127.0.0.1:${redis.port}/${prefix}`,
                   '--event-store', `redis://127.0.0.1:${redis.port}/${prefix}`];

    await withCluster(opt, work, 'tasks-in-redis', { keys: [key, key, key], args: store }, async (cluster) => {
      sent.clear();  // each cluster has an access log of its own
      // confirm_delete: created on one process, parked for input, answered through another.
      const confirmId = await startTask(cluster.url, 'confirm_delete', { filename: 'report.txt' });
      const parked = await waitFor(cluster.url, confirmId, 'input_required');
      assert.equal(parked.status, 'input_required', JSON.stringify(parked));
      assert.equal(parked.inputRequests.confirm.method, 'elicitation/create');
      const ack = await taskRequest(cluster.url, 'tasks/update', confirmId,
                                    { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
      assert.equal(ack.resultType, 'complete');
      const confirmed = await waitFor(cluster.url, confirmId, 'completed');
      assert.equal(confirmed.status, 'completed', JSON.stringify(confirmed));
      assert.equal(confirmed.result.content[0].text, 'Deleted report.txt');
      const creator = (await settledLog(cluster, 'confirm_delete'))[0].upstream;
      const confirmLog = await settledLog(cluster, confirmId);
      const updates = confirmLog.filter((r) => r.method === 'tasks/update');
      assert.equal(updates.length, 1);
      assert.notEqual(updates[0].upstream, creator, 'tasks/update reached another process than the one running the task');
      const readers = new Set(confirmLog.filter((r) => r.method === 'tasks/get').map((r) => r.upstream));
      assert.ok([...readers].some((u) => u !== creator), 'tasks/get was answered by other processes');
      console.log(`  confirm_delete: created on ${creator}, answered on ${updates[0].upstream}, read on ${readers.size} processes; completed`);

      // slow_compute: cancelled through another process; every process then says cancelled.
      const slowId = await startTask(cluster.url, 'slow_compute', { seconds: 30, label: 'cancel-me' });
      const cancelAck = await taskRequest(cluster.url, 'tasks/cancel', slowId);
      assert.equal(cancelAck.resultType, 'complete');
      for (let i = 0; i < 3; ++i) assert.equal((await taskRequest(cluster.url, 'tasks/get', slowId)).status, 'cancelled');
      const slowCreator = (await settledLog(cluster, 'slow_compute')).at(-1).upstream;
      const slowLog = await settledLog(cluster, slowId);
      const cancels = slowLog.filter((r) => r.method === 'tasks/cancel');
      assert.notEqual(cancels[0].upstream, slowCreator, 'tasks/cancel reached another process than the one running the task');
      assert.equal(new Set(slowLog.map((r) => r.upstream)).size, 3, 'the three processes read the cancelled task');
      // Cancelling again anywhere is the same empty ack; the task stays cancelled.
      assert.equal((await taskRequest(cluster.url, 'tasks/cancel', slowId)).resultType, 'complete');
      assert.equal((await taskRequest(cluster.url, 'tasks/get', slowId)).status, 'cancelled');
      console.log(`  slow_compute: created on ${slowCreator}, cancelled on ${cancels[0].upstream}, cancelled on all 3`);

      // Tasks that run to their end on one process while the others are polled.
      const quickId = await startTask(cluster.url, 'slow_compute', { seconds: 1, label: 'quick' });
      const failingId = await startTask(cluster.url, 'failing_job', {});
      const quick = await waitFor(cluster.url, quickId, 'completed');
      assert.equal(quick.status, 'completed', JSON.stringify(quick));
      assert.match(quick.result.content[0].text, /^Computed quick in 1(\.0)? s$/);
      const failing = await waitFor(cluster.url, failingId, 'completed');
      assert.equal(failing.status, 'completed', JSON.stringify(failing));
      assert.equal(failing.result.isError, true);
      console.log('  slow_compute (1 s) and failing_job: completed, polled through every process');

      // An id no process made is unknown everywhere.
      await assert.rejects(taskRequest(cluster.url, 'tasks/get', '0123456789abcdef0123456789abcdef'), (e) => e.code === -32602);

      // A multi-round call's retry, then the same retry replayed to the two other processes.
      const replays = await replayRetry(cluster);
      for (const r of replays) assert.equal(r.code, -32602, `a replayed requestState is refused: ${JSON.stringify(r)}`);
      for (const r of replays) assert.match(r.message, /requestState was already used/);
      console.log(`  ${mrtrTool}: the retry accepted, the same retry replayed to the 2 other processes refused`);

      const keys = redisKeys(findProgram('redis-cli'), redis.port, prefix);
      if (keys) {
        for (const id of [confirmId, slowId, quickId, failingId]) assert.ok(keys.includes(prefix + id), `Redis holds ${prefix}${id}`);
        assert.equal(keys.filter((k) => k.startsWith(`${prefix}used:`)).length, 1, 'Redis holds the one token used');
        console.log(`  Redis holds the ${keys.length - 1} tasks and the used token under ${prefix}`);
      }

      // A 2025-11-25 call's stream, cut on process 0, resumed on process 1 while it runs and on 2 after.
      const resumed = await resumeElsewhere(cluster, 1);
      for (const [when, r] of [['while the call runs', resumed.during], ['after it answered', resumed.after]]) {
        assert.equal(r.status, 200, `resumed ${when} on another process: ${r.text}`);
        assert.match(r.text, /Reconnection test completed successfully/, `the answer reached the other process ${when}`);
        assert.match(r.text, /"id":2/);
      }
      const sse = redisKeys(findProgram('redis-cli'), redis.port, `${prefix}sse:${resumed.session}/`);
      if (sse) assert.ok(sse.length >= 1, `Redis holds the session's stream: ${sse}`);
      console.log('  a 2025-11-25 stream cut on process 0: resumed on process 1 while the call ran, and on 2 after it answered');
    });

    // Negative control: tasks in each process's memory are lost to the next process.
    await withCluster(opt, work, 'tasks-in-memory', { keys: [key, key, key] }, async (cluster) => {
      sent.clear();
      const id = await startTask(cluster.url, 'slow_compute', { seconds: 5, label: 'local' });
      let unknown = 0;
      for (let i = 0; i < 3; ++i)
        await taskRequest(cluster.url, 'tasks/get', id).catch((e) => {
          assert.equal(e.code, -32602, e.message);
          ++unknown;
        });
      assert.equal(unknown, 2, 'two of three processes do not know a task kept in another one\'s memory');
      console.log('  without Redis: 2 of 3 processes do not know the task, as expected');
      const replays = await replayRetry(cluster);
      assert.ok(replays.some((r) => r.accepted), `a replay reaches a process that never saw the token used: ${JSON.stringify(replays)}`);
      console.log(`  without Redis: ${replays.filter((r) => r.accepted).length} of 2 replays accepted by another process, as expected`);
      const resumed = await resumeElsewhere(cluster, 1);
      assert.equal(resumed.during.status, 404, `without Redis another process does not know the session: ${resumed.during.text}`);
      assert.equal(resumed.after.status, 404);
      console.log('  without Redis: a stream cut on process 0 is unknown to the others (404), as expected');
    });
  } catch (e) {
    const log = path.join(redisDir, 'redis.log');
    console.error(`redis-server log:\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '(none)'}`);
    throw e;
  } finally {
    await redis.stop();
  }
  console.log('scaleout redis: all checks passed');
});
