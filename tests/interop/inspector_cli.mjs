// The official MCP Inspector's headless CLI against the notes example server, over stdio (the
// Inspector starts the server) or Streamable HTTP (we start it with --http): list the tools, call
// them, and see a tool error come back as isError (the CLI's exit code 5).
//
//   node inspector_cli.mjs --transport stdio|http --server PATH/notes --inspector PATH/inspector --work DIR
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { freshDir, options, run, startHttpServer } from './harness.mjs';

function inspector(launcher, target, args) {
  const r = spawnSync(process.execPath, [launcher, '--cli', ...target, ...args], { encoding: 'utf8', timeout: 60000 });
  const where = `inspector ${args.join(' ')}`;
  if (r.error) throw new Error(`${where}: ${r.error.message}`);
  // The result is the first JSON document on stdout; an error envelope may follow it.
  let result;
  try {
    const end = r.stdout.lastIndexOf('\n}');
    result = JSON.parse(end >= 0 ? r.stdout.slice(0, end + 2) : r.stdout);
  } catch {
    throw new Error(`${where}: exit ${r.status}, no JSON result.\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  return { status: r.status, result, where, stderr: r.stderr };
}

function exercise(launcher, target) {
  const call = (tool, ...toolArgs) =>
    inspector(launcher, target, ['--method', 'tools/call', '--tool-name', tool, '--tool-arg', ...toolArgs]);

  let r = inspector(launcher, target, ['--method', 'tools/list']);
  assert.equal(r.status, 0, `${r.where}: ${r.stderr}`);
  const names = r.result.tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['create_note', 'delete_note', 'export_notes', 'note_stats', 'read_note', 'search_notes', 'update_note']);

  r = call('create_note', 'title=Inspector note', 'body=# Title\nwritten by the inspector');
  assert.equal(r.status, 0, `${r.where}: ${JSON.stringify(r.result)} ${r.stderr}`);
  assert.match(r.result.content[0].text, /Created note 'Inspector note'/);

  r = call('read_note', 'title=Inspector note');
  assert.equal(r.status, 0, r.where);
  assert.equal(r.result.structuredContent.title, 'Inspector note');
  assert.equal(r.result.structuredContent.visibility, 'team');

  // A tool error is a result with isError, which the CLI reports with exit code 5.
  r = call('create_note', 'title=Inspector note', 'body=again');
  assert.equal(r.status, 5, `${r.where}: expected exit 5, got ${r.status}`);
  assert.equal(r.result.isError, true);
  assert.match(r.result.content[0].text, /already exists/);

  r = call('note_stats', 'title=Missing');
  assert.equal(r.status, 5, r.where);
  assert.match(r.result.content[0].text, /No note is titled 'Missing'/);
}

run(async () => {
  const opt = options(['transport', 'server', 'inspector', 'work']);
  const work = freshDir(opt.work);
  const store = path.join(work, 'notes.json');
  const launcher = path.join(opt.inspector, 'clients/launcher/build/index.js');

  if (opt.transport === 'stdio') {
    exercise(launcher, [opt.server, '--store', store]);
  } else if (opt.transport === 'http') {
    const server = await startHttpServer(opt.server, ['--store', store], path.join(work, 'server.log'));
    try {
      exercise(launcher, ['--transport', 'http', '--server-url', server.url]);
    } catch (e) {
      console.error(`server log:\n${server.log()}`);
      throw e;
    } finally {
      await server.stop();
    }
  } else {
    throw new Error(`--transport must be stdio or http, not '${opt.transport}'`);
  }
  console.log(`inspector_cli (${opt.transport}): all checks passed`);
});
