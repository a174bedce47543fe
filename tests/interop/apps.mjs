// The notes server's MCP App (the note_stats statistics view) as hosts see it.
//
//   --part wire     a 2025-11-25 client (TypeScript SDK v1) and a 2026-07-28 one (client 2.x), both
//                   declaring the extension, see it declared by the server, note_stats linked to
//                   ui://notes/stats.html, and the page listed and read with the app MIME type; every
//                   _meta.ui and the tool result are checked against the schemas the ext-apps package
//                   publishes (@modelcontextprotocol/ext-apps, schema.json).
//   --part browser  the page read from the server runs in headless Chromium (Debian's, driven by
//                   puppeteer-core) inside apps_host.html, which speaks the host side of the protocol:
//                   the app must render a real note_stats result and show an isError one's text;
//                   every message either way is checked against the same schemas; a screenshot is
//                   saved in --work. Without Chromium the part reports itself skipped (exit 77).
//
//   node apps.mjs --part wire|browser --server PATH/notes --work DIR [--chromium PATH]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

import { expectOk, freshDir, options, run, text } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const APP = 'ui://notes/stats.html';
const uiCapabilities = { extensions: { [UI]: { mimeTypes: [MIME] } } };

// One validator per definition of ext-apps' published schema.json.
function extAppsSchemas() {
  const file = require.resolve('@modelcontextprotocol/ext-apps/schema.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const cache = new Map();
  return (name, value, what) => {
    assert.ok(doc.$defs[name], `ext-apps' schema.json has no ${name}`);
    if (!cache.has(name)) cache.set(name, ajv.compile(doc.$defs[name]));
    const validate = cache.get(name);
    assert.ok(validate(value), `${what} does not match ext-apps' ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
  };
}

async function connect(era, opt, store) {
  const args = ['--store', store];
  if (era === '2025-11-25') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'mcp-cpp-apps', version: '1.0.0' }, { capabilities: uiCapabilities });
    await client.connect(new StdioClientTransport({ command: opt.server, args, stderr: 'inherit' }));
    return client;
  }
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const client = new Client({ name: 'mcp-cpp-apps', version: '1.0.0' },
                            { capabilities: uiCapabilities, versionNegotiation: { mode: 'pin' } });
  await client.connect(new StdioClientTransport({ command: opt.server, args, stderr: 'inherit' }));
  return client;
}

const noteBody = '# Groceries\nmilk eggs bread\n## Later\ncoffee';

// What a host does before it shows the app: the tool, its linked page, and one call's result.
async function hostView(client, check) {
  const caps = client.getServerCapabilities();
  assert.deepEqual(caps.extensions?.[UI], { mimeTypes: [MIME] }, `the extension is declared: ${JSON.stringify(caps)}`);
  const { tools } = await client.listTools();
  const stats = tools.find((t) => t.name === 'note_stats');
  assert.deepEqual(stats._meta, { ui: { resourceUri: APP } });
  check('McpUiToolMeta', stats._meta.ui, 'note_stats _meta.ui');
  for (const t of tools.filter((t) => t.name !== 'note_stats')) assert.equal(t._meta?.ui, undefined, `${t.name} has no app`);

  const { resources } = await client.listResources();
  const listed = resources.find((r) => r.uri === APP);
  assert.ok(listed, `resources/list shows ${APP}: ${JSON.stringify(resources)}`);
  assert.equal(listed.mimeType, MIME);
  check('McpUiResourceMeta', listed._meta.ui, 'the listed app _meta.ui');
  const { contents } = await client.readResource({ uri: APP });
  assert.equal(contents.length, 1);
  assert.equal(contents[0].mimeType, MIME);
  assert.match(contents[0].text, /^<!doctype html>/);
  check('McpUiResourceMeta', contents[0]._meta.ui, 'the read app _meta.ui');
  assert.equal(contents[0]._meta.ui.prefersBorder, true);

  const call = (title) => client.callTool({ name: 'note_stats', arguments: { title } });
  expectOk(await client.callTool({ name: 'create_note', arguments: { title: 'Groceries', body: noteBody } }));
  const result = expectOk(await call('Groceries'));
  assert.equal(result.structuredContent.word_count, 8);
  assert.deepEqual(result.structuredContent.headings, ['Groceries', 'Later']);
  assert.deepEqual(JSON.parse(text(result)), result.structuredContent, 'the text says it all for a host without apps');
  check('McpUiToolResultNotification', { method: 'ui/notifications/tool-result', params: result }, 'the note_stats result');
  const missing = await call('Nope');
  assert.equal(missing.isError, true);
  return { html: contents[0].text, result, missing };
}

async function wire(opt, check) {
  for (const era of ['2025-11-25', '2026-07-28']) {
    const client = await connect(era, opt, path.join(opt.work, `notes-${era}.json`));
    try {
      await hostView(client, check);
    } finally {
      await client.close();
    }
    console.log(`${era}: extension declared, note_stats linked, ${APP} listed and read, schemas match`);
  }
}

async function browser(opt, check) {
  const chromium = opt.chromium || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    console.log(`SKIPPED: no Chromium at ${chromium} (apt-get install chromium)`);
    process.exit(77);
  }
  const client = await connect('2026-07-28', opt, path.join(opt.work, 'notes-browser.json'));
  let view;
  try {
    view = await hostView(client, check);
  } finally {
    await client.close();
  }
  const puppeteer = (await import('puppeteer-core')).default;
  const chrome = await puppeteer.launch({ executablePath: chromium, headless: true,
                                         args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const show = async (result, shot) => {
      const page = await chrome.newPage();
      await page.setViewport({ width: 520, height: 300 });
      await page.setContent(fs.readFileSync(path.join(here, 'apps_host.html'), 'utf8'));
      await Promise.race([
        page.evaluate((html, args, r) => window.startApp(html, args, r), view.html, { title: 'Groceries' }, result),
        new Promise((_, reject) => setTimeout(() => reject(new Error('the app never reported its size')), 15000)),
      ]);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      await page.screenshot({ path: path.join(opt.work, shot) });
      const log = await page.evaluate(() => window.hostLog);
      return { page, frame, log };
    };

    const { frame, log } = await show(view.result, 'apps_stats.png');
    await frame.waitForSelector('body[data-rendered="true"]', { timeout: 5000 });
    const words = await frame.$eval('#word-count', (e) => e.textContent);
    const headings = await frame.$$eval('#headings li', (items) => items.map((e) => e.textContent));
    const title = await frame.$eval('h1', (e) => e.textContent);
    assert.equal(words, String(view.result.structuredContent.word_count));
    assert.deepEqual(headings, view.result.structuredContent.headings);
    assert.equal(title, 'Groceries');

    // Every message either way, against ext-apps' schemas, in the order the protocol wants.
    const schemaOf = {
      'ui/initialize': 'McpUiInitializeRequest', 'ui/notifications/initialized': 'McpUiInitializedNotification',
      'ui/notifications/size-changed': 'McpUiSizeChangedNotification',
      'ui/notifications/tool-input': 'McpUiToolInputNotification', 'ui/notifications/tool-result': 'McpUiToolResultNotification',
    };
    const methods = [];
    for (const { from, message } of log) {
      assert.equal(message.jsonrpc, '2.0');
      if (message.method) {
        assert.ok(schemaOf[message.method], `${from} sent ${message.method}, which this host does not expect`);
        check(schemaOf[message.method], { method: message.method, params: message.params }, `${from}'s ${message.method}`);
        methods.push(`${from}:${message.method}`);
      } else {
        check('McpUiInitializeResult', message.result, 'the host\'s answer to ui/initialize');
      }
    }
    assert.deepEqual(methods.slice(0, 4), ['app:ui/initialize', 'app:ui/notifications/initialized',
                                           'host:ui/notifications/tool-input', 'host:ui/notifications/tool-result']);
    assert.ok(methods.includes('app:ui/notifications/size-changed'));

    // An isError result: the app shows the server's own guidance rather than empty figures.
    const failed = await show(view.missing, 'apps_stats_error.png');
    const error = await failed.frame.$eval('#view', (e) => e.textContent);
    assert.match(error, /No note is titled 'Nope'/);
    assert.equal(await failed.frame.$('#word-count'), null);
  } finally {
    await chrome.close();
  }
  console.log(`the app rendered the note_stats result in Chromium; screenshots in ${opt.work}`);
}

run(async () => {
  const opt = options(['part', 'server', 'work']);
  freshDir(opt.work);
  const check = extAppsSchemas();
  if (opt.part === 'wire') await wire(opt, check);
  else if (opt.part === 'browser') await browser(opt, check);
  else throw new Error(`--part wire|browser, not '${opt.part}'`);
});
