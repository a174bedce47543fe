// The official TypeScript SDK client (v1, the 2025-11-25 experimental tasks) drives the notes
// server's export_notes as a task over stdio: it sees the tasks capability and the tool's
// execution.taskSupport, callToolStream makes the task-augmented call, polls it and gets the
// result; getTask, listTasks and cancelTask answer as that era says; another session sees none of
// it.
//
//   node tasks.mjs --server PATH/notes --work DIR
import assert from 'node:assert/strict';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { expectOk, freshDir, options, run } from './harness.mjs';

async function connect(opt, store) {
  const client = new Client({ name: 'mcp-cpp-tasks', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: opt.server, args: ['--store', store], stderr: 'inherit' }));
  return client;
}

run(async () => {
  const opt = options(['server', 'work']);
  freshDir(opt.work);
  const store = path.join(opt.work, 'notes.json');

  let client = await connect(opt, store);
  let taskId;
  let exported;
  try {
    assert.deepEqual(client.getServerCapabilities().tasks,
                     { list: {}, cancel: {}, requests: { tools: { call: {} } } }, 'the tasks capability');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.export_notes.execution, { taskSupport: 'optional' });
    assert.equal(byName.read_note.execution, undefined);
    for (const title of ['Alpha note', 'Beta note'])
      expectOk(await client.callTool({ name: 'create_note', arguments: { title, body: `about ${title}` } }));

    // callToolStream adds params.task for a tool that supports tasks, then polls to the end.
    const seen = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'export_notes', arguments: {} },
                                                                           CallToolResultSchema)) {
      seen.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') exported = message.result;
      if (message.type === 'error') throw message.error;
    }
    assert.equal(seen[0], 'taskCreated', `the call made a task: ${seen.join(', ')}`);
    assert.equal(seen.at(-1), 'result');
    assert.equal(exported.structuredContent.notes, 2);
    assert.match(exported.structuredContent.markdown, /^# Alpha note\n\nabout Alpha note\n\n# Beta note/);
    assert.deepEqual(exported._meta['io.modelcontextprotocol/related-task'], { taskId });

    const task = await client.experimental.tasks.getTask(taskId);
    assert.equal(task.status, 'completed');
    assert.equal(typeof task.ttl, 'number');
    const { tasks } = await client.experimental.tasks.listTasks();
    assert.deepEqual(tasks.map((t) => t.taskId), [taskId]);
    await assert.rejects(client.experimental.tasks.cancelTask(taskId), (e) => e.code === -32602,
                         'a finished task cannot be cancelled in 2025-11-25');
    // Without a task the same tool answers at once.
    const plain = expectOk(await client.callTool({ name: 'export_notes', arguments: { query: 'beta' } }));
    assert.equal(plain.structuredContent.notes, 1);
  } finally {
    await client.close();
  }

  // 2025-11-25 binds a task to the session that made it: a second session (a new process on the
  // same store) neither lists nor reads it.
  client = await connect(opt, store);
  try {
    await assert.rejects(client.experimental.tasks.getTask(taskId), (e) => e.code === -32602,
                         "another session's task is not shown");
    const { tasks } = await client.experimental.tasks.listTasks();
    assert.deepEqual(tasks, []);
  } finally {
    await client.close();
  }
  console.log(`export_notes ran as task ${taskId} through the TypeScript SDK's experimental tasks client`);
});
