// The official TypeScript SDK client against the notes example server, over stdio or Streamable
// HTTP: every tool, their structured results (the client checks them against each outputSchema)
// and the isError paths a model relies on. Over https (examples/https, the SDK's own TLS) with the
// throwaway certificate the ctest made, which node trusts through NODE_EXTRA_CA_CERTS; curl then
// checks the same server, and that it refuses the server when it does not trust the certificate.
//
//   node ts_client.mjs --transport stdio|http --server PATH/notes --work DIR
//   node ts_client.mjs --transport https --server PATH/https_notes --work DIR --cert PEM --key PEM
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { expectOk, expectToolError, freshDir, options, run, text, withHttpServer } from './harness.mjs';


async function exercise(client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['create_note', 'delete_note', 'export_notes', 'note_stats', 'read_note', 'search_notes', 'update_note']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name} inputSchema`);
    assert.ok(t.description.length > 20, `${t.name} needs a description`);
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const name of ['search_notes', 'read_note', 'note_stats'])
    assert.equal(byName[name].outputSchema?.type, 'object', `${name} has an object outputSchema`);
  assert.deepEqual(byName.create_note.inputSchema.required.sort(), ['body', 'title']);
  assert.equal(byName.read_note.annotations?.readOnlyHint, true);

  const call = (name, args) => client.callTool({ name, arguments: args });
  const body = '# Groceries\nmilk eggs bread\n\n## Later\ncheese';

  let r = expectOk(await call('create_note', { title: 'Shopping list', body, visibility: 'private' }));
  assert.match(text(r), /Created note 'Shopping list'/);
  expectOk(await call('create_note', { title: 'Meeting', body: 'Discuss the milk budget' }));

  // Duplicate title, unknown note, arguments the schema refuses: results the model can act on.
  expectToolError(await call('create_note', { title: 'Shopping list', body: 'again' }), /already exists/, /update_note/);
  expectToolError(await call('read_note', { title: 'Nope' }), /No note is titled 'Nope'/, /search_notes/);
  expectToolError(await call('update_note', { title: 'Nope', body: 'x' }), /No note is titled/);
  expectToolError(await call('create_note', { title: 'ab', body: 'x' }), /\/title/, /minLength|at least 3/);
  expectToolError(await call('search_notes', { query: 'milk', limit: 500 }), /\/limit/);
  expectToolError(await call('create_note', { title: 'Valid title', body: 'x', visibility: 'public' }), /\/visibility/);
  expectToolError(await call('read_note', {}), /title/);

  // An unknown tool is a protocol error (-32602), not a result.
  await assert.rejects(call('no_such_tool', {}), (e) => e.code === -32602);

  r = expectOk(await call('update_note', { title: 'Shopping list', body: body + '\nbutter' }));
  assert.match(text(r), /Updated note/);

  r = expectOk(await call('search_notes', { query: 'MILK', limit: 1 }));
  assert.equal(r.structuredContent.total_matches, 2);
  assert.equal(r.structuredContent.notes.length, 1);
  assert.ok(r.structuredContent.next_cursor, 'a second page exists');
  const first = r.structuredContent.notes[0].title;
  r = expectOk(await call('search_notes', { query: 'MILK', limit: 1, cursor: r.structuredContent.next_cursor }));
  assert.equal(r.structuredContent.notes.length, 1);
  assert.notEqual(r.structuredContent.notes[0].title, first);
  assert.equal(r.structuredContent.next_cursor, undefined);
  // The text block carries the same data for clients that ignore structuredContent.
  assert.deepEqual(JSON.parse(text(r)), r.structuredContent);

  r = expectOk(await call('read_note', { title: 'Shopping list' }));
  assert.equal(r.structuredContent.body, body + '\nbutter');
  assert.equal(r.structuredContent.visibility, 'private');
  assert.match(r.structuredContent.last_modified, /^\d{4}-\d{2}-\d{2}T/);

  r = expectOk(await call('note_stats', { title: 'Shopping list' }));
  assert.deepEqual(r.structuredContent.headings, ['Groceries', 'Later']);
  assert.equal(r.structuredContent.word_count, 9);

  r = expectOk(await call('delete_note', { title: 'Shopping list' }));
  assert.match(text(r), /Deleted note/);
  expectToolError(await call('note_stats', { title: 'Shopping list' }), /No note is titled/);
  expectToolError(await call('delete_note', { title: 'Shopping list' }), /No note is titled/);

  await client.ping();
}

// curl over https: initialize answered when it trusts the certificate, refused (exit 60) when not;
// plain HTTP to the same port gets no answer at all (exit 52), and the server goes on serving.
function curlChecks(url, cert) {
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
                                params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } });
  const args = ['-sS', '--max-time', '10', '-H', 'Content-Type: application/json', '-H', 'Accept: application/json, text/event-stream',
                '-d', init, url];
  const plain = spawnSync('curl', [...args.slice(0, -1), url.replace(/^https:/, 'http:')], { encoding: 'utf8' });
  assert.equal(plain.status, 52, `plain HTTP to the https port: ${plain.stderr}`);
  const trusted = spawnSync('curl', ['--cacert', cert, ...args], { encoding: 'utf8' });
  assert.equal(trusted.status, 0, `curl --cacert: ${trusted.stderr}`);
  assert.equal(JSON.parse(trusted.stdout).result.serverInfo.name, 'notes');
  const untrusted = spawnSync('curl', args, { encoding: 'utf8' });
  assert.equal(untrusted.status, 60, `curl without the certificate must refuse the server: ${untrusted.stderr}`);
}

run(async () => {
  const opt = options(['transport', 'server', 'work']);
  const work = freshDir(opt.work);
  const store = path.join(work, 'notes.json');
  const client = new Client({ name: 'mcp-cpp-interop', version: '1.0.0' });

  if (opt.transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: opt.server, args: ['--store', store], stderr: 'inherit' }));
    try {
      assert.equal(client.getServerVersion().name, 'notes');
      await exercise(client);
    } finally {
      await client.close();
    }
  } else if (opt.transport === 'http' || opt.transport === 'https') {
    const https = opt.transport === 'https';
    const args = ['--store', store, ...(https ? ['--cert', opt.cert, '--key', opt.key] : [])];
    await withHttpServer(opt.server, args, path.join(work, 'server.log'), async (server) => {
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      await client.connect(transport);
      assert.equal(client.getServerVersion().name, 'notes');
      assert.ok(transport.sessionId, 'the server assigns an Mcp-Session-Id');
      await exercise(client);
      await transport.terminateSession();  // DELETE
      await client.close();
      if (https) curlChecks(server.url, opt.cert);
    }, { scheme: opt.transport });
  } else {
    throw new Error(`--transport must be stdio, http or https, not '${opt.transport}'`);
  }
  console.log(`ts_client (${opt.transport}): all checks passed`);
});
