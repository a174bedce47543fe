// The official TypeScript clients against the booking example: typed elicitation (the form the
// server derives from an MCP_STRUCT, as the client's own request validation accepts it, and the
// answer the server decodes) and URL mode (the -32042 error, the URL request, its completion
// notification), over stdio and Streamable HTTP with the SDK v1 client (2025-11-25); then the same
// form and URL request as input_required rounds answered by the 2.x client (2026-07-28, pinned).
//
//   node elicitation.mjs --server PATH/booking --work DIR
import assert from 'node:assert/strict';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema, ElicitationCompleteNotificationSchema, UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as HttpTransport2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransport2 } from '@modelcontextprotocol/client/stdio';

import { expectOk, freshDir, options, run, sleep, text, withHttpServer } from './harness.mjs';

const answer = { name: 'Ada', date: '2026-12-24', guests: 4, seating: 'terrace', diets: ['vegan'] };

// What the user does with each question: `next` answers the form, URL requests are accepted.
function user() {
  const u = { forms: [], urls: [], completed: [], next: { action: 'accept', content: answer } };
  u.handle = async (request) => {
    const p = request.params;
    if (p.mode === 'url') {
      u.urls.push(p);
      return { action: 'accept' };
    }
    u.forms.push(p);
    return u.next;
  };
  return u;
}

function checkForm(p) {
  const s = p.requestedSchema;
  assert.equal(s.type, 'object');
  assert.deepEqual(s.required.sort(), ['date', 'diets', 'name']);
  const props = s.properties;
  assert.deepEqual(props.name, { type: 'string', description: 'Name for the booking', minLength: 1, maxLength: 60 });
  assert.equal(props.date.format, 'date');
  assert.deepEqual([props.guests.type, props.guests.minimum, props.guests.maximum, props.guests.default],
                   ['integer', 1, 12, 2]);
  // A described MCP_ENUM is a titled single select, an undescribed one in a set an untitled multi select.
  assert.deepEqual(props.seating.oneOf, [{ const: 'indoor', title: 'Indoors' }, { const: 'terrace', title: 'On the terrace' }]);
  assert.equal(props.seating.default, 'indoor');
  assert.equal(props.diets.type, 'array');
  assert.deepEqual(props.diets.items, { type: 'string', enum: ['vegetarian', 'vegan', 'gluten-free'] });
  assert.equal(props.note.type, 'string');
}

async function legacySession(client, u) {
  // Typed form: asked with the derived schema, answered, decoded by the server.
  let r = expectOk(await client.callTool({ name: 'book_table', arguments: {} }));
  assert.equal(u.forms.length, 1);
  checkForm(u.forms[0]);
  assert.equal(text(r), 'Booked a table for 4 on 2026-12-24 for Ada (terrace), diets: ["vegan"].');
  u.next = { action: 'decline' };
  r = expectOk(await client.callTool({ name: 'book_table', arguments: {} }));
  assert.equal(text(r), 'No booking made: the user chose to decline.');
  // An answer that breaks the form (guests out of range, unknown seating): the tool says so, all at once.
  u.next = { action: 'accept', content: { ...answer, guests: 40, seating: 'roof' } };
  r = await client.callTool({ name: 'book_table', arguments: {} });
  assert.equal(r.isError, true);
  assert.match(text(r), /does not fit the form/);
  assert.match(text(r), /\/guests/);
  assert.match(text(r), /\/seating/);

  // URL mode: -32042 first, then the URL request, then its completion.
  await assert.rejects(client.callTool({ name: 'sync_calendar', arguments: {} }), (e) => {
    assert.ok(e instanceof UrlElicitationRequiredError, `expected UrlElicitationRequiredError, got ${e}`);
    assert.equal(e.elicitations.length, 1);
    assert.equal(e.elicitations[0].mode, 'url');
    assert.match(e.elicitations[0].url, /^https:\/\/calendar\.example\.com\//);
    assert.ok(e.elicitations[0].elicitationId);
    return true;
  });
  r = expectOk(await client.callTool({ name: 'connect_calendar', arguments: {} }));
  assert.equal(u.urls.length, 1);
  const id = u.urls[0].elicitationId;
  assert.ok(id, 'a 2025-11-25 URL request carries an elicitationId');
  assert.match(u.urls[0].url, /^https:\/\/calendar\.example\.com\//);
  assert.match(text(r), new RegExp(`sign-in ${id}`));
  expectOk(await client.callTool({ name: 'finish_calendar_sign_in', arguments: { elicitation_id: id } }));
  for (const deadline = Date.now() + 5000; !u.completed.includes(id) && Date.now() < deadline;) await sleep(20);
  assert.deepEqual(u.completed, [id], 'notifications/elicitation/complete names the sign-in');
  assert.equal(text(expectOk(await client.callTool({ name: 'sync_calendar', arguments: {} }))), 'Bookings added to the calendar.');
}

function legacyClient(u) {
  const client = new Client({ name: 'mcp-cpp-elicitation', version: '1.0.0' },
                            { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, u.handle);
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    u.completed.push(n.params.elicitationId);
  });
  return client;
}

function modernClient(u) {
  const client = new Client2({ name: 'mcp-cpp-elicitation-2026', version: '1.0.0' },
                             { capabilities: { elicitation: { form: {}, url: {} } },
                               versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', u.handle);
  return client;
}

async function modernSession(client, u) {
  // The same form, as an input_required round the client answers and retries.
  const r = expectOk(await client.callTool({ name: 'book_table', arguments: {} }));
  assert.equal(u.forms.length, 1);
  checkForm(u.forms[0]);
  assert.equal(text(r), 'Booked a table for 4 on 2026-12-24 for Ada (terrace), diets: ["vegan"].');
  const c = expectOk(await client.callTool({ name: 'connect_calendar', arguments: {} }));
  assert.equal(u.urls.length, 1);
  assert.equal(u.urls[0].mode, 'url');
  assert.equal(u.urls[0].elicitationId, undefined, '2026-07-28 has no elicitationId');
  assert.match(text(c), /is signing in/);
}

async function over(transport, opt, work, makeClient, session, label) {
  const u = user();
  const client = makeClient(u);
  if (transport === 'stdio') {
    const T = makeClient === legacyClient ? StdioClientTransport : StdioTransport2;
    await client.connect(new T({ command: opt.server, args: [], stderr: 'inherit' }));
    try {
      await session(client, u);
    } finally {
      await client.close();
    }
    return;
  }
  await withHttpServer(opt.server, [], path.join(work, `server-${label}.log`), async (server) => {
    const T = makeClient === legacyClient ? StreamableHTTPClientTransport : HttpTransport2;
    await client.connect(new T(new URL(server.url)));
    await session(client, u);
    await client.close();
  });
}

run(async () => {
  const opt = options(['server', 'work']);
  const work = freshDir(opt.work);
  for (const transport of ['stdio', 'http']) {
    await over(transport, opt, work, legacyClient, legacySession, `2025-${transport}`);
    console.log(`ok: 2025-11-25 over ${transport}: typed form, decline, bad answer, -32042, URL mode and its completion`);
    await over(transport, opt, work, modernClient, modernSession, `2026-${transport}`);
    console.log(`ok: 2026-07-28 over ${transport}: typed form and URL mode as input_required rounds`);
  }
});
