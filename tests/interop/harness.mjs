// Shared by the interop scripts: command-line options, a server started over HTTP on a free
// 127.0.0.1 port (and always stopped), a fresh work folder, and checks of tool results.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

// The text blocks of a CallToolResult, joined.
export const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

export function expectToolError(result, ...fragments) {
  assert.equal(result.isError, true, `expected isError, got ${JSON.stringify(result)}`);
  for (const f of fragments) assert.match(text(result), f);
}

export function expectOk(result) {
  assert.notEqual(result.isError, true, `unexpected isError: ${text(result)}`);
  return result;
}

// --name value pairs into an object; every name in `required` must be given.
export function options(required) {
  const argv = process.argv.slice(2);
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`bad argument '${argv[i]}'`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const name of required) if (!out[name]) throw new Error(`--${name} is required`);
  return out;
}

export function freshDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function canConnect(port) {
  return new Promise((resolve) => {
    const c = net.connect({ host: '127.0.0.1', port });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

// Starts `command --http 127.0.0.1:PORT ...args` and waits until it accepts connections.
// Returns { url, stop() , log() } (url with `scheme`, https for a server given a certificate); the
// server is killed when this process exits in any way.
export async function startHttpServer(command, args, logPath, scheme = 'http') {
  for (let attempt = 0; attempt < 3; ++attempt) {
    const port = await freePort();  // it can be taken before the server binds it: retry
    const log = fs.openSync(logPath, 'w');
    const child = spawn(command, ['--http', `127.0.0.1:${port}`, ...args], { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let dead = false;
    exited.then(() => (dead = true));
    child.once('error', () => {});
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    let up = false;
    for (const deadline = Date.now() + 15000; !up && !dead && Date.now() < deadline; await sleep(100))
      up = await canConnect(port);
    const stop = async () => {
      process.removeListener('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    };
    if (up) return { url: `${scheme}://127.0.0.1:${port}/mcp`, stop, log: () => fs.readFileSync(logPath, 'utf8') };
    await stop();
  }
  throw new Error(`${path.basename(command)} did not start with --http; its log:\n${fs.readFileSync(logPath, 'utf8')}`);
}

// Starts the server as startHttpServer does, runs `body(server)`, and stops the server however body
// ends; when it throws, the server's log is printed first (unless `quiet`: a failure that is expected).
export async function withHttpServer(command, args, logPath, body, { quiet = false, scheme = 'http' } = {}) {
  const server = await startHttpServer(command, args, logPath, scheme);
  try {
    return await body(server);
  } catch (e) {
    if (!quiet) console.error(`server log:\n${server.log()}`);
    throw e;
  } finally {
    await server.stop();
  }
}

// Runs main(), prints what went wrong, and exits with 0 only on success.
export function run(main) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(`FAILED: ${e.stack ?? e}`);
      process.exit(1);
    });
}
