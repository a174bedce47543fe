// The Vercel AI SDK's MCP client (@ai-sdk/mcp 2.0.99) and its tool loop (ai 7.0.185) against the
// notes example, over stdio or Streamable HTTP, in both protocol eras. How the client picks its era
// (read in its source, src/tool/mcp-client.ts, init() and tryProtocolDiscovery()):
//   - by default (createMCPClient's `protocolVersionDiscovery`, true) it first asks `server/discover`
//     at 2026-07-28 and, when that is answered, speaks the stateless revision: no initialize, every
//     request's params._meta carries the version, client capabilities and client info, and over
//     HTTP every POST the MCP-Protocol-Version header;
//   - with `protocolVersionDiscovery: false`, or when the probe fails with an error outside the
//     2026 codes -32020..-32022 (a 2025-only server), it sends `initialize` at 2025-11-25.
// So both eras are driven through its public options, and the default once more against
// `notes --legacy` (the fallback). Every request the client sends is recorded (a wrapped send on
// stdio, a wrapped fetch over HTTP) to check which era was really spoken on the wire.
//
// The tool loop: `client.tools()` hands the notes tools to `generateText`, with a scripted model
// (ai/test's MockLanguageModelV4: there is no API key here) that calls them and reads the results
// the way a provider's model would. What the model is given as each tool's input schema is checked
// to carry the server's constraints.
//
//   node ai_sdk.mjs --transport stdio|http --server PATH/notes --work DIR
import assert from 'node:assert/strict';
import path from 'node:path';

import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

import { expectOk, expectToolError, freshDir, options, run, text, withHttpServer } from './harness.mjs';

const modern = '2026-07-28';
const legacy = '2025-11-25';
const toolNames = ['create_note', 'delete_note', 'export_notes', 'note_stats', 'read_note', 'search_notes', 'update_note'];

// The raw tools/list: names, and the constraints a model needs to call them right.
async function checkListing(client) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), toolNames);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const title = byName.create_note.inputSchema.properties.title;
  assert.equal(title.minLength, 3, 'create_note.title minLength');
  assert.equal(title.maxLength, 80, 'create_note.title maxLength');
  assert.deepEqual(byName.create_note.inputSchema.required.sort(), ['body', 'title']);
  assert.deepEqual(byName.create_note.inputSchema.properties.visibility.enum, ['private', 'team']);
  const limit = byName.search_notes.inputSchema.properties.limit;
  assert.deepEqual([limit.type, limit.minimum, limit.maximum, limit.default], ['integer', 1, 50, 5]);
  assert.equal(byName.read_note.outputSchema?.type, 'object', 'read_note has an output schema');
  assert.equal(byName.read_note.annotations?.readOnlyHint, true);
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 1, text: 1, reasoning: 0 } };
const toolCall = (id, toolName, input) => ({ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) });

// One generateText run over the AI SDK tools: the scripted model calls three tools in one step (a
// note created, a note that does not exist, a title the schema refuses), then answers in text.
async function toolLoop(client) {
  const tools = await client.tools();
  assert.deepEqual(Object.keys(tools).sort(), toolNames);
  const model = new MockLanguageModelV4({
    doGenerate: [
      { content: [toolCall('c1', 'create_note', { title: 'Shopping list', body: '# Groceries\nmilk eggs bread' }),
                  toolCall('c2', 'read_note', { title: 'Nope' }),
                  toolCall('c3', 'create_note', { title: 'ab', body: 'x' })],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
      { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    ],
  });
  const result = await generateText({ model, tools, prompt: 'Make a shopping list note.', stopWhen: isStepCount(3) });
  assert.equal(result.text, 'Done.');
  assert.equal(model.doGenerateCalls.length, 2, 'the model was asked again after the tool results');

  // What a provider would send its model: the server's schema, constraints included.
  const offered = Object.fromEntries(model.doGenerateCalls[0].tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(offered).sort(), toolNames);
  const title = offered.create_note.inputSchema.properties.title;
  assert.deepEqual([title.type, title.minLength, title.maxLength], ['string', 3, 80], 'the model sees minLength/maxLength');
  assert.equal(offered.search_notes.inputSchema.properties.limit.maximum, 50);

  const results = Object.fromEntries(result.steps[0].toolResults.map((r) => [r.toolCallId, r.output]));
  assert.equal(Object.keys(results).length, 3, `three tool results: ${JSON.stringify(result.steps[0].content)}`);
  assert.match(text(expectOk(results.c1)), /Created note 'Shopping list'/);
  expectToolError(results.c2, /No note is titled 'Nope'/, /search_notes/);
  expectToolError(results.c3, /\/title/);
  // The second model call carries the error text, so the model can act on it.
  const fed = JSON.stringify(model.doGenerateCalls[1].prompt.filter((m) => m.role === 'tool'));
  assert.match(fed, /No note is titled 'Nope'/);
  assert.match(fed, /Created note 'Shopping list'/);
}

// A tool given its own schemas (`tools({ schemas })`): the SDK's execute then answers the
// structuredContent, checked against the zod output schema, instead of the whole result.
async function typedTool(client) {
  const tools = await client.tools({
    schemas: {
      read_note: {
        inputSchema: z.object({ title: z.string() }),
        outputSchema: z.object({ title: z.string(), body: z.string(), visibility: z.enum(['private', 'team']),
                                 last_modified: z.string() }),
      },
    },
  });
  assert.deepEqual(Object.keys(tools), ['read_note']);
  const note = await tools.read_note.execute({ title: 'Shopping list' }, { toolCallId: 't1', messages: [] });
  assert.equal(note.body, '# Groceries\nmilk eggs bread');
  assert.equal(note.visibility, 'team');
  assert.match(note.last_modified, /^\d{4}-\d{2}-\d{2}T/);
}

// Direct calls: structured results, pagination, isError results and a protocol error.
async function directCalls(client) {
  const call = (name, args) => client.callTool({ name, arguments: args });
  expectOk(await call('create_note', { title: 'Meeting', body: 'Discuss the milk budget', visibility: 'private' }));

  let r = expectOk(await call('read_note', { title: 'Shopping list' }));
  assert.equal(r.structuredContent.body, '# Groceries\nmilk eggs bread');
  assert.equal(r.structuredContent.visibility, 'team');
  assert.deepEqual(JSON.parse(text(r)), r.structuredContent);

  r = expectOk(await call('search_notes', { query: 'MILK', limit: 1 }));
  assert.equal(r.structuredContent.total_matches, 2);
  assert.equal(r.structuredContent.notes.length, 1);
  const first = r.structuredContent.notes[0].title;
  r = expectOk(await call('search_notes', { query: 'MILK', limit: 1, cursor: r.structuredContent.next_cursor }));
  assert.notEqual(r.structuredContent.notes[0].title, first);
  assert.equal(r.structuredContent.next_cursor, undefined);

  r = expectOk(await call('note_stats', { title: 'Shopping list' }));
  assert.deepEqual(r.structuredContent.headings, ['Groceries']);
  assert.equal(r.structuredContent.word_count, 5);  // the '#' counts, as in ts_client.mjs

  expectToolError(await call('search_notes', { query: 'milk', limit: 500 }), /\/limit/);
  expectToolError(await call('create_note', { title: 'Valid title', body: 'x', visibility: 'public' }), /\/visibility/);
  expectToolError(await call('create_note', { title: 'Meeting', body: 'again' }), /already exists/, /update_note/);
  await assert.rejects(call('no_such_tool', {}), (e) => e.code === -32602, 'an unknown tool is a protocol error');

  expectOk(await call('delete_note', { title: 'Meeting' }));
  expectToolError(await call('read_note', { title: 'Meeting' }), /No note is titled/);
}

// A client whose every outgoing message (stdio) or HTTP request (fetch) is recorded in `wire`.
async function connect(opt, url, store, discovery, wire) {
  const base = { clientName: 'mcp-cpp-interop-ai-sdk', ...(discovery === undefined ? {} : { protocolVersionDiscovery: discovery }) };
  if (!url) {
    const transport = new StdioMCPTransport({ command: opt.server, args: store.args, stderr: 'inherit' });
    const send = transport.send.bind(transport);
    transport.send = (message, o) => {
      wire.push({ body: message });
      return send(message, o);
    };
    return createMCPClient({ ...base, transport });
  }
  const fetchAndRecord = async (input, init = {}) => {
    const entry = { method: init.method ?? 'GET', headers: new Headers(init.headers), body: init.body ? JSON.parse(init.body) : undefined };
    wire.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    entry.session = response.headers.get('mcp-session-id');
    return response;
  };
  return createMCPClient({ ...base, transport: { type: 'http', url, fetch: fetchAndRecord } });
}

const methods = (wire) => wire.filter((w) => w.body?.method).map((w) => w.body.method);

// era: 'modern' (default options), 'legacy' (discovery off), 'fallback' (default options, notes --legacy).
async function eraRun(opt, work, era) {
  const storeFile = path.join(work, `${era}.json`);
  const args = ['--store', storeFile, ...(era === 'fallback' ? ['--legacy'] : [])];
  const wire = [];
  const body = async (url) => {
    const client = await connect(opt, url, { args }, era === 'legacy' ? false : undefined, wire);
    try {
      assert.equal(client.serverInfo.name, 'notes', 'server name');
      const want = era === 'modern' ? modern : legacy;
      // Over stdio the client waits 1 s for the probe's answer (DEFAULT_PROTOCOL_DISCOVERY_TIMEOUT),
      // then falls back to 2025-11-25 without a word: a server that slow fails here.
      assert.equal(client.initializeResult.protocolVersion, want,
                   `${era}: the negotiated version (requests sent: ${methods(wire).join(', ')})`);
      await checkListing(client);
      await toolLoop(client);
      await typedTool(client);
      await directCalls(client);
    } finally {
      await client.close();
    }
    const sent = methods(wire);
    const calls = wire.filter((w) => w.body?.method === 'tools/call');
    if (era === 'modern') {
      assert.equal(sent[0], 'server/discover', 'the client probes first');
      assert.ok(!sent.includes('initialize'), 'no initialize in 2026-07-28');
      for (const c of calls) assert.equal(c.body.params._meta?.['io.modelcontextprotocol/protocolVersion'], modern);
    } else {
      assert.equal(sent[era === 'fallback' ? 1 : 0], 'initialize', `${era}: ${sent.slice(0, 3)}`);
      assert.equal(wire.find((w) => w.body?.method === 'initialize').body.params.protocolVersion, legacy);
      if (era === 'fallback') assert.equal(sent[0], 'server/discover', 'the default probes first, then falls back');
      else assert.ok(!sent.includes('server/discover'), 'discovery off: no probe');
      for (const c of calls) assert.equal(c.body.params._meta?.['io.modelcontextprotocol/protocolVersion'], undefined);
    }
    assert.ok(calls.length >= 10, `tools/call went over the wire (${calls.length})`);
    if (url) {
      const posts = wire.filter((w) => w.method === 'POST' && w.body?.method === 'tools/call');
      const sessions = wire.filter((w) => w.session);
      if (era === 'modern') {
        for (const p of posts) assert.equal(p.headers.get('mcp-protocol-version'), modern);
        assert.equal(sessions.length, 0, 'a 2026-07-28 server assigns no Mcp-Session-Id');
      } else {
        for (const p of posts) assert.equal(p.headers.get('mcp-protocol-version'), legacy);
        assert.ok(posts.every((p) => p.headers.get('mcp-session-id')), 'every 2025 call carries the session');
      }
    }
  };
  if (opt.transport === 'stdio') await body(null);
  else await withHttpServer(opt.server, args, path.join(work, `${era}.log`), (server) => body(server.url));
  console.log(`ai_sdk (${opt.transport}, ${era}): ${era === 'modern' ? modern : legacy}, ${methods(wire).length} requests, all checks passed`);
}

run(async () => {
  const opt = options(['transport', 'server', 'work']);
  if (opt.transport !== 'stdio' && opt.transport !== 'http') throw new Error(`--transport must be stdio or http, not '${opt.transport}'`);
  const work = freshDir(opt.work);
  for (const era of ['modern', 'legacy', 'fallback']) await eraRun(opt, work, era);
  console.log(`ai_sdk (${opt.transport}): all checks passed in both eras`);
});
