// Gemini CLI (@google/gemini-cli 0.61.0) against the notes example, over stdio or Streamable HTTP.
// Everything Gemini reads is in the test's work folder: HOME (user settings, trustedFolders.json),
// a workspace with its own .gemini/settings.json naming the servers, TMPDIR, and system settings
// paths that do not exist. Telemetry and usage statistics are off; nothing leaves 127.0.0.1.
//
// Gemini speaks only the 2025 era: its bundled TypeScript SDK's LATEST_PROTOCOL_VERSION is
// 2025-06-18 (it initializes with that; the notes server negotiates it).
//
// --part connect (ctests interop_gemini_cli_stdio, interop_gemini_cli_http)
//   1. `gemini mcp list`, with no API key: it connects to each configured server (the SDK's
//      initialize, then a ping) and prints to stderr `✓ NAME: TARGET (stdio|http) - Connected` or
//      `✗ ... - Disconnected`, exit code 0 either way (packages/cli/src/commands/mcp/list.ts). Stdio
//      servers are only tried in a trusted folder, hence trustedFolders.json. A second server that
//      cannot answer (a command that does not exist, a port nobody listens on) must be reported
//      Disconnected, so the check can tell the two apart.
//   2. A real tools/call without a model: Gemini's hidden `--fake-responses FILE` option
//      (packages/core/src/core/fakeContentGenerator.ts; one JSON line per model call, its
//      integration tests' way) plays the model, with an auth type and a dummy GEMINI_API_KEY that
//      never leaves the process. The fake model calls create_note without wait_for_previous (a model
//      may omit it) and then has nothing more to say: Gemini's next model request is refused with
//      "No more mock responses ..., got request: {the request}", which the stream-json result
//      carries, so the test reads exactly what Gemini would send its model: the tool declarations
//      and the tool's result.
//
// --part wait_for_previous (ctest interop_gemini_cli_wait_for_previous; over stdio, then HTTP)
//   The fake model asks for two calls in one turn, create_note with wait_for_previous false and
//   read_note (which needs the note) with wait_for_previous true, then answers in text. Both must
//   succeed and the read must see the note. This needs a server that drops the unknown argument
//   (issue 56's unknown-argument policy); the SDK before it refuses with "unknown field
//   'wait_for_previous'", and the test says so.
//
// The shape (read in the bundle, packages/core/src/tools/tools.ts and the MCP tool's invocation):
//   - Schema. Every tool Gemini shows its model, MCP tools included, goes through
//     BaseDeclarativeTool.getSchema() -> addWaitForPreviousParameter(): when the input schema has
//     type "object" (and properties, if any, is an object), it is copied with one more property,
//       "wait_for_previous": {"type": "boolean", "description": "Set to true to wait for all
//         previously requested tools in this turn to complete before starting. Set to false (or
//         omit) to run in parallel. Use true when this tool depends on the output of previous tools."}
//     (WAIT_FOR_PREVIOUS_PROPERTY below, word for word); `required` and every other keyword,
//     additionalProperties: false included, are kept as the server sent them. It is never required.
//   - Arguments. The model's args go to the server unchanged: DiscoveredMCPToolInvocation.execute()
//     calls the SDK's client.callTool({name: <the server's tool name>, arguments: <the model's
//     args>, _meta: {progressToken: <a random UUID>}}). So a call the model sequenced arrives as
//       {"name":"read_note","arguments":{"title":"...","wait_for_previous":true},"_meta":{"progressToken":"<uuid>"}}
//     with a JSON boolean, true or false, or without the key when the model omitted it. Gemini reads
//     it itself only to schedule (Scheduler._isParallelizable: a boolean true waits for the calls
//     before it in the turn).
//   The tool the model sees is named mcp_<server>_<tool> (mcp_notes_create_note).
//
//   node gemini_cli.mjs --part connect --transport stdio|http --server PATH/notes --work DIR
//   node gemini_cli.mjs --part wait_for_previous --server PATH/notes --work DIR
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, freshDir, options, run, withHttpServer } from './harness.mjs';

const WAIT_FOR_PREVIOUS_PROPERTY = {
  type: 'boolean',
  description: 'Set to true to wait for all previously requested tools in this turn to complete before starting. ' +
               'Set to false (or omit) to run in parallel. Use true when this tool depends on the output of previous tools.',
};

const here = path.dirname(fileURLToPath(import.meta.url));
const geminiPackage = path.dirname(createRequire(import.meta.url).resolve('@google/gemini-cli/package.json'));
const geminiMain = path.join(geminiPackage, JSON.parse(fs.readFileSync(path.join(geminiPackage, 'package.json'), 'utf8')).bin.gemini);
const toolNames = ['create_note', 'delete_note', 'export_notes', 'note_stats', 'read_note', 'search_notes', 'update_note'];
const timeoutMs = 60000;

// A HOME, a trusted workspace naming `servers`, and a TMPDIR, all under `dir`.
function geminiFolders(dir, servers) {
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'workspace');
  const tmp = path.join(dir, 'tmp');
  for (const d of [path.join(home, '.gemini'), path.join(workspace, '.gemini'), tmp]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  }, null, 2));
  fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [workspace]: 'TRUST_FOLDER' }));
  fs.writeFileSync(path.join(workspace, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  return { home, workspace, tmp, dir };
}

// Runs gemini in `folders.workspace` with only the environment it needs; killed (its whole
// process group: it relaunches itself as a child) after timeoutMs.
function gemini(folders, args, { apiKey = false } = {}) {
  const env = {
    PATH: process.env.PATH,
    HOME: folders.home,
    TMPDIR: folders.tmp,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(folders.dir, 'no-system-settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: path.join(folders.dir, 'no-system-defaults.json'),
    NO_COLOR: '1',
    ...(apiKey ? { GEMINI_API_KEY: 'not-a-real-key-the-fake-model-never-sends-it' } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [geminiMain, ...args], { cwd: folders.workspace, env, detached: true,
                                                                stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const started = Date.now();
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`gemini ${args.join(' ')} ended by ${signal} (after ${Date.now() - started} ms)\n${stderr}`));
      else resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

// `gemini mcp list`: the status line of each server, by name.
async function mcpList(folders, names) {
  const r = await gemini(folders, ['mcp', 'list']);
  assert.equal(r.code, 0, `gemini mcp list exit code\n${r.stderr}`);
  const out = r.stdout + r.stderr;
  assert.match(out, /Configured MCP servers:/, out);
  const status = {};
  for (const name of names) {
    const line = out.split('\n').find((l) => l.includes(` ${name}: `));
    assert.ok(line, `gemini mcp list names ${name}:\n${out}`);
    status[name] = line.match(/ - (\w+)\s*$/)?.[1];
  }
  return { status, out, ms: r.ms };
}

// One non-interactive run with the fake model; its stream-json events.
async function fakeRun(folders, turns, prompt) {
  const file = path.join(folders.dir, 'fake-model.jsonl');
  fs.writeFileSync(file, turns.map((parts) => JSON.stringify({
    method: 'generateContentStream',
    response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] }],
  })).join('\n') + '\n');
  // An explicit model skips the model router, whose classifier would ask the fake model first.
  const r = await gemini(folders, ['-m', 'gemini-2.5-flash', '--fake-responses', file, '-p', prompt, '-o', 'stream-json'],
                         { apiKey: true });
  const events = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { ...r, events };
}

const call = (name, args) => ({ functionCall: { name: `mcp_notes_${name}`, args } });

// The tool_use / tool_result pairs of a run, in order.
function toolRuns(events) {
  const results = Object.fromEntries(events.filter((e) => e.type === 'tool_result').map((e) => [e.tool_id, e]));
  return events.filter((e) => e.type === 'tool_use').map((u) => ({ use: u, result: results[u.tool_id] }));
}

// The JSON-RPC requests the tee recorded.
function recorded(log) {
  return fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

// The notes server for Gemini: its settings entry, run `body(entry, teeLog)`, the server stopped after.
async function withNotes(opt, work, name, transport, body) {
  const store = path.join(work, `${name}.json`);
  if (transport === 'stdio') {
    const log = path.join(work, `${name}-stdin.jsonl`);
    const entry = { command: process.execPath, args: [path.join(here, 'stdio_tee.mjs'), log, opt.server, '--store', store], trust: true };
    return body(entry, log, store);
  }
  return withHttpServer(opt.server, ['--store', store], path.join(work, `${name}.log`),
                        (server) => body({ httpUrl: server.url, trust: true }, null, store));
}

function readStore(store) {
  return fs.existsSync(store) ? JSON.parse(fs.readFileSync(store, 'utf8')).notes : [];
}

async function connect(opt, work) {
  const transport = opt.transport;
  // 1. mcp list: the notes server connected, one that cannot answer not.
  const store = path.join(work, 'list.json');
  const absent = transport === 'stdio' ? { command: path.join(work, 'no-such-server') }
                                       : { httpUrl: `http://127.0.0.1:${await freePort()}/mcp` };
  const list = async (notes) => {
    const folders = geminiFolders(path.join(work, 'list'), { notes, absent });
    const { status, out, ms } = await mcpList(folders, ['notes', 'absent']);
    assert.equal(status.absent, 'Disconnected', `a server that cannot answer:\n${out}`);
    assert.equal(status.notes, 'Connected', `gemini mcp list must report the notes server connected:\n${out}`);
    console.log(`gemini mcp list (${transport}, ${ms} ms, no API key): notes Connected, absent Disconnected`);
  };
  if (transport === 'stdio') await list({ command: opt.server, args: ['--store', store] });
  else await withHttpServer(opt.server, ['--store', store], path.join(work, 'list.log'), (s) => list({ httpUrl: s.url }));

  // 2. A real tools/call from the fake model, and what Gemini then sends its model.
  await withNotes(opt, work, 'call', transport, async (notes, tee, notesStore) => {
    const folders = geminiFolders(path.join(work, 'call'), { notes });
    const r = await fakeRun(folders, [[call('create_note', { title: 'Gemini note', body: 'made by gemini' })]], 'Make a note.');
    const runs = toolRuns(r.events);
    assert.equal(runs.length, 1, `one tool call:\n${r.stdout}\n${r.stderr}`);
    assert.equal(runs[0].use.tool_name, 'mcp_notes_create_note');
    assert.equal(runs[0].result?.status, 'success', `create_note: ${JSON.stringify(runs[0].result)}`);
    assert.match(runs[0].result.output, /Created note 'Gemini note'/);
    assert.deepEqual(readStore(notesStore).map((n) => [n.title, n.body]), [['Gemini note', 'made by gemini']]);

    // The fake model's refusal of the second request holds that request.
    const end = r.events.find((e) => e.type === 'result');
    const m = end?.error?.message?.match(/No more mock responses for generateContentStream, got request:\n([\s\S]*)\]$/);
    assert.ok(m, `the run ends at the fake model's second request: ${JSON.stringify(end)}`);
    const request = JSON.parse(m[1]);
    const declared = Object.fromEntries(request.config.tools.flatMap((t) => t.functionDeclarations ?? [])
      .filter((d) => d.name.startsWith('mcp_notes_')).map((d) => [d.name.slice('mcp_notes_'.length), d.parametersJsonSchema]));
    assert.deepEqual(Object.keys(declared).sort(), toolNames);
    for (const [name, schema] of Object.entries(declared)) {
      assert.deepEqual(schema.properties.wait_for_previous, WAIT_FOR_PREVIOUS_PROPERTY, `${name}: the injected property`);
      assert.equal(schema.additionalProperties, false, `${name}: additionalProperties kept`);
      assert.ok(!(schema.required ?? []).includes('wait_for_previous'), `${name}: never required`);
    }
    const title = declared.create_note.properties.title;
    assert.deepEqual([title.minLength, title.maxLength], [3, 80], 'the server\'s constraints reach the model');
    assert.deepEqual(declared.create_note.required.sort(), ['body', 'title']);
    assert.deepEqual(Object.keys(declared.create_note.properties), ['title', 'body', 'visibility', 'wait_for_previous']);
    const answer = JSON.stringify(request.contents.at(-1));
    assert.match(answer, /functionResponse/);
    assert.match(answer, /Created note 'Gemini note'/);

    if (tee) {
      const calls = recorded(tee).filter((q) => q.method === 'tools/call');
      assert.equal(calls.length, 1);
      assert.deepEqual(calls[0].params.arguments, { title: 'Gemini note', body: 'made by gemini' });
      assert.equal(recorded(tee).find((q) => q.method === 'initialize')?.params.protocolVersion, '2025-06-18',
                   'the era Gemini speaks');
    }
    console.log(`gemini tools/call (${transport}, ${r.ms} ms): create_note succeeded; ` +
                'every notes tool declared to the model with wait_for_previous as expected');
  });
}

async function waitForPrevious(opt, work) {
  for (const transport of ['stdio', 'http']) {
    await withNotes(opt, work, `wait-${transport}`, transport, async (notes, tee, store) => {
      const folders = geminiFolders(path.join(work, `wait-${transport}`), { notes });
      const r = await fakeRun(folders, [
        [call('create_note', { title: 'Sequenced', body: 'written first', wait_for_previous: false }),
         call('read_note', { title: 'Sequenced', wait_for_previous: true })],
        [{ text: 'The note is there.' }],
      ], 'Write a note, then read it back.');
      const runs = toolRuns(r.events);
      assert.deepEqual(runs.map((x) => x.use.tool_name), ['mcp_notes_create_note', 'mcp_notes_read_note'], r.stdout);
      assert.deepEqual(runs.map((x) => x.use.parameters.wait_for_previous), [false, true], 'what the model asked for');
      for (const { use, result } of runs) {
        const refused = JSON.stringify(result ?? {}).match(/unknown field 'wait_for_previous'[^"\\]*/);
        if (refused)
          throw new Error(`${use.tool_name}: the server refuses Gemini's wait_for_previous (${refused[0]}). ` +
                          'It passes once the SDK drops unknown arguments under lossless coercion (issue 56).');
        assert.equal(result?.status, 'success', `${use.tool_name}: ${JSON.stringify(result)}`);
      }
      assert.match(runs[1].result.output, /written first/, 'read_note ran after create_note');
      assert.equal(r.events.find((e) => e.type === 'result')?.status, 'success');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(readStore(store).map((n) => n.title), ['Sequenced']);
      if (tee) {
        // The exact requests on the wire, as a server receives them from Gemini.
        const calls = recorded(tee).filter((q) => q.method === 'tools/call').map((q) => q.params);
        assert.equal(calls.length, 2);
        for (const p of calls) {
          assert.deepEqual(Object.keys(p).sort(), ['_meta', 'arguments', 'name']);
          assert.deepEqual(Object.keys(p._meta), ['progressToken']);
          assert.match(p._meta.progressToken, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        }
        assert.deepEqual(calls.map((p) => [p.name, p.arguments]),
                         [['create_note', { title: 'Sequenced', body: 'written first', wait_for_previous: false }],
                          ['read_note', { title: 'Sequenced', wait_for_previous: true }]]);
      }
      console.log(`gemini wait_for_previous (${transport}, ${r.ms} ms): both calls succeeded, read after create`);
    });
  }
}

run(async () => {
  const opt = options(['part', 'server', 'work']);
  const work = freshDir(opt.work);
  if (opt.part === 'connect') {
    if (opt.transport !== 'stdio' && opt.transport !== 'http') throw new Error('--part connect needs --transport stdio|http');
    await connect(opt, work);
  } else if (opt.part === 'wait_for_previous') {
    await waitForPrevious(opt, work);
  } else {
    throw new Error(`--part must be connect or wait_for_previous, not '${opt.part}'`);
  }
  console.log(`gemini_cli (${opt.part}${opt.transport ? ' ' + opt.transport : ''}): all checks passed`);
});
