// Scale-out: three conformance_server processes behind nginx as a round-robin load balancer, driven
// by the official 2.x client. Without sticky sessions, a 2026-07-28 client works when every process
// seals requestState with one key (MCP_REQUEST_STATE_KEY), including multi-round calls whose retry
// lands on another process; with three different keys such a retry fails, which shows the shared key
// is what makes it work. A 2025-11-25 client works through the balancer once the processes run
// --stateless (no sessions), and does not without it.
//
// With --tls-cert and --tls-key (a throwaway certificate for 127.0.0.1, which the ctest makes and
// node trusts through NODE_EXTRA_CA_CERTS), nginx also terminates TLS in front of the same servers,
// the README's reverse-proxy way, and both eras are driven over https.
//
// nginx and the servers run as cluster.mjs starts them. Exits 77 (ctest SKIP_RETURN_CODE) when nginx
// is not installed. Tasks shared through Redis: run_scaleout_redis.mjs.
//
//   node run_scaleout.mjs --server PATH/conformance_server --work DIR [--nginx PATH] [--tls-cert F --tls-key F]
import assert from 'node:assert/strict';
import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { findNginx, skip, withCluster } from './cluster.mjs';
import { freshDir, options, run, sleep } from './harness.mjs';

const modern = '2026-07-28';
const mrtrTool = 'test_input_required_result_elicitation';
const rounds = 6;

async function connect(url, mode, elicited = []) {
  const client = new Client({ name: 'mcp-cpp-scaleout', version: '1.0.0' },
                            { capabilities: { elicitation: {} }, versionNegotiation: { mode } });
  client.setRequestHandler('elicitation/create', async (request) => {
    const name = `Worker${elicited.length}`;
    elicited.push(request.params.message);
    return { action: 'accept', content: { name } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Calls test_whoami `n` times; returns the distinct pids that answered, all of them cluster members.
async function whoami(client, cluster, n) {
  const pids = new Set();
  for (let i = 0; i < n; ++i) {
    const r = await client.callTool({ name: 'test_whoami', arguments: {} });
    assert.notEqual(r.isError, true, text(r));
    pids.add(Number(text(r)));
  }
  const members = cluster.servers.map((s) => s.pid);
  for (const pid of pids) assert.ok(members.includes(pid), `pid ${pid} is one of ${members}`);
  assert.ok(pids.size > 1, `${n} calls through the balancer reached more than one process (${[...pids]})`);
  return pids;
}

// The multi-round elicitation tool `n` times; returns how many calls succeeded, and the errors.
async function mrtrRounds(url, n) {
  const elicited = [];
  const { client } = await connect(url, { pin: modern }, elicited);
  const errors = [];
  let ok = 0;
  try {
    for (let i = 0; i < n; ++i) {
      const asked = elicited.length;
      try {
        const r = await client.callTool({ name: mrtrTool, arguments: {} });
        assert.equal(elicited.length, asked + 1, 'the client answered exactly one elicitation');
        assert.notEqual(r.isError, true, text(r));
        assert.equal(text(r), `Hello, Worker${asked}!`);
        ++ok;
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        errors.push(e);
      }
    }
  } finally {
    await client.close();
  }
  return { ok, errors };
}

// In the access log: tools/call pairs (first round, retry) of the MRTR tool that two processes served.
function crossProcessRetries(lines) {
  const calls = lines.filter((l) => l.includes(`"tools/call" "${mrtrTool}"`)).map((l) => l.split(' ')[0]);
  let crossed = 0;
  for (let i = 0; i + 1 < calls.length; i += 2) if (calls[i] !== calls[i + 1]) ++crossed;
  return { pairs: Math.floor(calls.length / 2), crossed };
}

run(async () => {
  const opt = options(['server', 'work']);
  opt.nginx = findNginx(opt.nginx);
  if (!opt.nginx) {
    console.log('scaleout: nginx is not installed (Debian: apt-get install nginx); skipping');
    process.exit(skip);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(1));  // runs the kills
  const work = freshDir(opt.work);
  const sharedKey = 'scaleout-test-key-0123456789abcdef';

  await withCluster(opt, work, 'shared-key', { keys: [sharedKey, sharedKey, sharedKey] }, async (cluster) => {
    const { client, transport } = await connect(cluster.url, { pin: modern });
    assert.equal(client.getProtocolEra(), 'modern');
    assert.equal(transport.sessionId, undefined);
    const pids = await whoami(client, cluster, rounds);
    await client.close();
    console.log(`  2026 test_whoami x${rounds}: ${pids.size} processes`);

    const { ok, errors } = await mrtrRounds(cluster.url, rounds);
    assert.equal(ok, rounds, `every multi-round call succeeds with one key; errors: ${errors.map((e) => e.message)}`);
    // nginx logs a request once it has finished it, which can be just after the client has its
    // answer: give the last lines a moment to arrive.
    let retries = crossProcessRetries(cluster.access());
    for (const deadline = Date.now() + 5000; retries.pairs < rounds && Date.now() < deadline; await sleep(50))
      retries = crossProcessRetries(cluster.access());
    const { pairs, crossed } = retries;
    assert.equal(pairs, rounds, 'the access log shows a first round and a retry per call');
    assert.ok(crossed >= 1, 'at least one retry was served by another process than its first round');
    console.log(`  2026 ${mrtrTool} x${rounds}: all succeeded, ${crossed}/${pairs} retries on another process`);

    // A resources/read that asks: the retry's result must still be a valid ReadResourceResult for
    // the official client (ttlMs and cacheScope are required there).
    {
      const elicited = [];
      const { client } = await connect(cluster.url, { pin: modern }, elicited);
      try {
        const read = await client.readResource({ uri: 'test://input-required-resource' });
        assert.equal(elicited.length, 1, 'the read asked once');
        assert.equal(read.contents[0].text, 'Read by Worker0');
      } finally {
        await client.close();
      }
      console.log('  2026 resources/read with input_required: the retry\'s result is accepted');
    }

    // A 2025-11-25 session lives in one process: round robin loses it without sticky routing.
    await assert.rejects(async () => {
      const legacy = await connect(cluster.url, 'legacy');
      try {
        for (let i = 0; i < 3; ++i) await legacy.client.listTools();
      } finally {
        await legacy.client.close();
      }
    }, 'a 2025 session client fails through round robin when the servers keep sessions');
    console.log('  2025 session client without --stateless: fails as expected');
  });

  await withCluster(opt, work, 'shared-key-stateless', { keys: [sharedKey, sharedKey, sharedKey], stateless: true },
                    async (cluster) => {
    const { client, transport } = await connect(cluster.url, 'legacy');
    assert.equal(client.getProtocolEra(), 'legacy');
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    assert.equal(transport.sessionId, undefined, '--stateless mints no Mcp-Session-Id');
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ['test_whoami', 'test_simple_text', mrtrTool]) assert.ok(names.includes(n), `tools/list has ${n}`);
    const r = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.equal(r.isError, undefined);
    assert.match(text(r), /simple text/i);
    const pids = await whoami(client, cluster, rounds);
    // Without a session the server cannot ask a 2025 client anything: a tool result saying so, not a hang.
    const asked = await client.callTool({ name: mrtrTool, arguments: {} }, { timeout: 10000 });
    assert.equal(asked.isError, true, `a 2025 stateless client cannot be asked: ${JSON.stringify(asked)}`);
    await client.close();
    console.log(`  2025 (legacy mode) tools/list + test_simple_text + test_whoami x${rounds}: ${pids.size} processes`);

    const { ok, errors } = await mrtrRounds(cluster.url, rounds);
    assert.equal(ok, rounds, `2026 multi-round calls work beside --stateless; errors: ${errors.map((e) => e.message)}`);
    console.log(`  2026 ${mrtrTool} x${rounds} beside --stateless: all succeeded`);
  });

  // Negative control: three keys, so a retry on another process cannot open the sealed state.
  await withCluster(opt, work, 'different-keys', { keys: ['key-one-1111', 'key-two-2222', 'key-three-3333'] },
                    async (cluster) => {
    const { ok, errors } = await mrtrRounds(cluster.url, rounds);
    assert.ok(errors.length >= 1, `with different keys some retry must fail; ${ok}/${rounds} succeeded`);
    for (const e of errors) assert.equal(e.code, -32602, `a foreign requestState is invalid params: ${e.message}`);
    console.log(`  2026 ${mrtrTool} x${rounds} with different keys: ${errors.length} failed (${errors[0].message})`);
  });

  // TLS terminated by nginx: the same servers, unchanged, behind https.
  if (opt['tls-cert']) {
    const tls = { cert: path.resolve(opt['tls-cert']), key: path.resolve(opt['tls-key']) };
    await withCluster(opt, work, 'tls', { keys: [sharedKey, sharedKey, sharedKey], stateless: true, tls }, async (cluster) => {
      assert.ok(cluster.url.startsWith('https://'));
      const legacy = await connect(cluster.url, 'legacy');
      const pids = await whoami(legacy.client, cluster, rounds);
      await legacy.client.close();
      const { ok, errors } = await mrtrRounds(cluster.url, rounds);
      assert.equal(ok, rounds, `2026 multi-round calls over https; errors: ${errors.map((e) => e.message)}`);
      console.log(`  https: 2025 test_whoami x${rounds} on ${pids.size} processes, 2026 ${mrtrTool} x${rounds}`);
    });
  }
  console.log('scaleout: all checks passed');
});
