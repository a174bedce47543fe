// Streams through a Streamable HTTP server, with the official TypeScript SDK client: a progress
// notification streamed over SSE before a tool's result, and a GET stream that is dropped and
// resumed with Last-Event-ID. Run against notes --http and against the notes tools mounted in
// another web server (examples/httplib), which must behave the same.
//
//   node ts_streams.mjs --server PATH/notes-or-httplib_notes --work DIR
import assert from 'node:assert/strict';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { expectOk, freshDir, options, run, sleep, withHttpServer } from './harness.mjs';

// The first event of a GET stream (2025-11-25 sessions are primed with an id), then the stream is dropped.
async function firstEventId(url, headers) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { ...headers, Accept: 'text/event-stream' }, signal: controller.signal });
  assert.equal(res.status, 200, 'GET opens the session stream');
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  const reader = res.body.getReader();
  let text = '';
  while (!/\n\n/.test(text)) {
    const { value, done } = await reader.read();
    assert.ok(!done, 'the stream stays open');
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  const id = /^id: ?(.*)$/m.exec(text);
  assert.ok(id, `the priming event carries an id: ${text}`);
  return id[1];
}

run(async () => {
  const opt = options(['server', 'work']);
  const work = freshDir(opt.work);
  await withHttpServer(opt.server, ['--store', path.join(work, 'notes.json')], path.join(work, 'server.log'), async (server) => {
    const client = new Client({ name: 'mcp-cpp-streams', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expectOk(await client.callTool({ name: 'create_note', arguments: { title: 'Streams', body: 'a progress test' } }));

    // A progress token makes search_notes report progress: the answer comes as an SSE stream.
    const progress = [];
    const r = await client.callTool({ name: 'search_notes', arguments: { query: 'progress' } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    assert.equal(r.structuredContent.total_matches, 1);
    assert.equal(progress.length, 1, 'one progress notification arrived before the result');
    assert.match(progress[0].message, /searched 1 matching notes/);

    // The session's GET stream: dropped after its first event, then resumed with Last-Event-ID.
    // (A session of its own: the TypeScript client holds its session's GET stream.)
    const post = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
    const init = await fetch(server.url, { method: 'POST', headers: post, body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
    assert.equal(init.status, 200);
    await init.text();
    const headers = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    const initialized = await fetch(server.url, { method: 'POST', headers: { ...post, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    assert.equal(initialized.status, 202);
    const id = await firstEventId(server.url, headers);
    let resumed;
    for (let i = 0; i < 40; ++i) {  // the server lets go of the dropped stream when it notices
      const controller = new AbortController();
      resumed = await fetch(server.url, {
        headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': id }, signal: controller.signal });
      if (resumed.status !== 409) {
        controller.abort();
        break;
      }
      await resumed.text();
      await sleep(100);
    }
    assert.equal(resumed.status, 200, 'the resumed GET stream is served');
    assert.match(resumed.headers.get('content-type'), /text\/event-stream/);

    const del = await fetch(server.url, { method: 'DELETE', headers });
    assert.equal(del.status, 204);
    const after = await fetch(server.url, {
      method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      headers: { ...headers, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' } });
    assert.equal(after.status, 404, 'the session is gone after DELETE');
    await transport.terminateSession();
    await client.close();
  });
  console.log(`ts_streams (${path.basename(opt.server)}): all checks passed`);
});
