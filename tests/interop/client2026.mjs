// The official client that speaks MCP 2026-07-28 (@modelcontextprotocol/client 2.4.0) against the
// notes example server, which serves the stateless 2026 revision beside 2025-11-25.
//
//   --mode pin   pinned to 2026-07-28 over --transport stdio|http: the era, the tools, results and
//                isError paths; and a pin against `notes --legacy` fails loudly.
//   --mode auto  over stdio and HTTP: the client's server/discover probe picks the modern era
//                against `notes`, and falls back to an initialize session against `notes --legacy`.
//
//   node client2026.mjs --mode pin|auto [--transport stdio|http] --server PATH/notes --work DIR
import assert from 'node:assert/strict';
import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { expectOk, expectToolError, freshDir, options, run, text, withHttpServer } from './harness.mjs';

const modern = '2026-07-28';

function newClient(mode) {
  return new Client({ name: 'mcp-cpp-interop-2026', version: '1.0.0' },
                    { capabilities: {}, versionNegotiation: { mode } });
}

// One connection to the notes server, over stdio or HTTP, closed (and the server stopped) after `body`.
// `quiet`: the failure is expected, keep the server log to itself.
async function withNotes(opt, { transport, mode, legacy = false, store, quiet = false }, body) {
  const args = ['--store', store, ...(legacy ? ['--legacy'] : [])];
  const client = newClient(mode);
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: opt.server, args, stderr: 'inherit' }));
    try {
      return await body(client, null);
    } finally {
      await client.close();
    }
  }
  const log = path.join(path.dirname(store), `server-${path.basename(store, '.json')}.log`);
  return withHttpServer(opt.server, args, log, async (server) => {
    const t = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(t);
    const out = await body(client, t);
    await client.close();
    return out;
  }, { quiet });
}

// What a model would do with the notes: every answer checked on its content.
async function exercise(client) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(),
                   ['create_note', 'delete_note', 'export_notes', 'note_stats', 'read_note', 'search_notes', 'update_note']);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(byName.create_note.inputSchema.required.sort(), ['body', 'title']);
  assert.equal(byName.read_note.outputSchema?.type, 'object');
  assert.equal(byName.read_note.annotations?.readOnlyHint, true);

  const call = (name, args) => client.callTool({ name, arguments: args });
  let r = expectOk(await call('create_note', { title: 'Era notes', body: '# Stateless\nno session at all' }));
  assert.match(text(r), /Created note 'Era notes' \(team\)/);
  r = expectOk(await call('read_note', { title: 'Era notes' }));
  assert.equal(r.structuredContent.body, '# Stateless\nno session at all');
  assert.equal(r.structuredContent.visibility, 'team');
  assert.deepEqual(JSON.parse(text(r)), r.structuredContent);
  r = expectOk(await call('note_stats', { title: 'Era notes' }));
  assert.deepEqual(r.structuredContent.headings, ['Stateless']);
  assert.equal(r.structuredContent.word_count, 6);

  expectToolError(await call('read_note', { title: 'Missing' }), /No note is titled 'Missing'/, /search_notes/);
  expectToolError(await call('create_note', { title: 'Era notes', body: 'again' }), /already exists/);
  expectToolError(await call('create_note', { title: 'ab', body: 'x' }), /\/title/);
  expectToolError(await call('search_notes', { query: 'x', limit: 500 }), /\/limit/);
  await assert.rejects(call('no_such_tool', {}), (e) => e.code === -32602, 'an unknown tool is a protocol error');

  r = expectOk(await call('delete_note', { title: 'Era notes' }));
  assert.match(text(r), /Deleted note 'Era notes'/);
  expectToolError(await call('read_note', { title: 'Era notes' }), /No note is titled/);
}

function expectEra(client, era, version) {
  assert.equal(client.getProtocolEra(), era, 'protocol era');
  assert.equal(client.getNegotiatedProtocolVersion(), version, 'negotiated version');
  assert.equal(client.getServerVersion()?.name, 'notes', 'server name');
}

async function pinned(opt, work) {
  const transport = opt.transport;
  if (transport !== 'stdio' && transport !== 'http') throw new Error('--mode pin needs --transport stdio|http');
  await withNotes(opt, { transport, mode: { pin: modern }, store: path.join(work, 'pin.json') }, async (client, t) => {
    expectEra(client, 'modern', modern);
    assert.ok(client.getDiscoverResult()?.supportedVersions.includes(modern), 'server/discover offers 2026-07-28');
    if (t) assert.equal(t.sessionId, undefined, 'a 2026-07-28 connection has no Mcp-Session-Id');
    await exercise(client);
  });
  // A pin is modern or nothing: against a 2025-only server connect() must fail, not fall back.
  await assert.rejects(
    withNotes(opt, { transport, mode: { pin: modern }, legacy: true, store: path.join(work, 'pin-legacy.json'), quiet: true },
              async () => {}),
    (e) => e.code === 'ERA_NEGOTIATION_FAILED',
    'a pinned client refuses a 2025-only server');
}

async function auto(opt, work) {
  for (const transport of ['stdio', 'http']) {
    await withNotes(opt, { transport, mode: 'auto', store: path.join(work, `auto-${transport}.json`) },
                    async (client, t) => {
                      expectEra(client, 'modern', modern);
                      if (t) assert.equal(t.sessionId, undefined);
                      await exercise(client);
                    });
    await withNotes(opt, { transport, mode: 'auto', legacy: true, store: path.join(work, `auto-legacy-${transport}.json`) },
                    async (client, t) => {
                      expectEra(client, 'legacy', '2025-11-25');
                      assert.equal(client.getDiscoverResult(), undefined, 'no DiscoverResult on the legacy path');
                      if (t) assert.ok(t.sessionId, 'the 2025 fallback got an Mcp-Session-Id');
                      await exercise(client);
                      await client.ping();  // exists only in 2025-11-25
                    });
    console.log(`client2026 auto (${transport}): modern against notes, legacy against notes --legacy`);
  }
}

run(async () => {
  const opt = options(['mode', 'server', 'work']);
  const work = freshDir(opt.work);
  if (opt.mode === 'pin') await pinned(opt, work);
  else if (opt.mode === 'auto') await auto(opt, work);
  else throw new Error(`--mode must be pin or auto, not '${opt.mode}'`);
  console.log(`client2026 (${opt.mode}${opt.transport ? ' ' + opt.transport : ''}): all checks passed`);
});
