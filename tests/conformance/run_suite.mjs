// Runs the official MCP conformance suite against the conformance server over Streamable HTTP:
// starts the server on a free 127.0.0.1 port, runs the suite, counts every check it recorded and
// stops the server whatever happens. Exits 0 only when no check failed or warned.
//
//   node run_suite.mjs --server BIN --suite-js PATH/dist/index.js --work DIR
//                      [--timeout SECONDS] [--expect-scenarios N] [--unscored-prefix P]
//                      [--redis-server PATH|auto] -- SUITE_ARGS... [--and SUITE_ARGS...]
//
// Each --and starts another run of the suite against the same server process (e.g. one
// protocol revision after another); the checks of all runs are judged together.
//
// With --redis-server, a redis-server started here on 127.0.0.1 (and stopped) holds the server's
// tasks and used requestState tokens (--task-store, --replay-guard); exits 77 (ctest's
// SKIP_RETURN_CODE) when there is no redis-server, or the server was built without hiredis.
//
// Run it with Node 22 or newer (the suite needs it); the suite runs under the same node binary.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// The interop harness's port helpers; it imports only Node's own modules, so it loads from the source tree.
import { canConnect, freePort } from '../interop/harness.mjs';

function parseArgs(argv) {
  const opts = { timeout: 300, expectScenarios: 1, suiteRuns: [[]], unscored: [], serverArgs: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--') {
      opts.suiteRuns = [[]];
      for (const arg of argv.slice(i + 1)) {
        if (arg === '--and') opts.suiteRuns.push([]);
        else opts.suiteRuns.at(-1).push(arg);
      }
      break;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`missing value for ${a}`);
    if (a === '--server') opts.server = value;
    else if (a === '--suite-js') opts.suiteJs = value;
    else if (a === '--work') opts.work = value;
    else if (a === '--timeout') opts.timeout = Number(value);
    else if (a === '--expect-scenarios') opts.expectScenarios = Number(value);
    else if (a === '--unscored-prefix') opts.unscored.push(value);
    else if (a === '--redis-server') opts.redisServer = value;
    else throw new Error(`unknown option ${a}`);
  }
  for (const k of ['server', 'suiteJs', 'work'])
    if (!opts[k]) throw new Error(`--${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} is required`);
  return opts;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startServer(opts, port, logPath) {
  const log = fs.openSync(logPath, 'w');
  const child = spawn(opts.server, ['--http', `127.0.0.1:${port}`, ...opts.serverArgs], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('error', (e) => console.error(`run_suite: cannot start ${opts.server}: ${e.message}`));
  return child;
}

// Up when it accepts connections; null when it died first or never came up.
async function serverUp(child, port) {
  let dead = false;
  child.exited.then(() => (dead = true));
  for (const deadline = Date.now() + 15000; Date.now() < deadline && !dead; await sleep(100))
    if (await canConnect(port)) return true;
  return false;
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([child.exited.then(() => true), sleep(3000).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await child.exited;
  }
}

function runSuite(opts, suiteArgs, url, outDir, deadline) {
  const args = [opts.suiteJs, 'server', '--url', url, '-o', outDir, ...suiteArgs];
  console.log(`run_suite: ${path.basename(process.execPath)} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\nrun_suite: the suite did not finish within ${opts.timeout} s; killed it\n`;
      child.kill('SIGKILL');
    }, Math.max(1000, deadline - Date.now()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, signal, output });
    });
  });
}

// Every check of every scenario the suite saved; the suite's own exit code ignores warnings and
// (alpha --requirements) unscored scenarios, so we judge from the checks themselves.
function collectChecks(outDir) {
  const scenarios = [];
  for (const entry of fs.existsSync(outDir) ? fs.readdirSync(outDir) : []) {
    const file = path.join(outDir, entry, 'checks.json');
    if (!fs.existsSync(file)) continue;
    const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    scenarios.push({ name, checks: JSON.parse(fs.readFileSync(file, 'utf8')) });
  }
  return scenarios.sort((a, b) => a.name.localeCompare(b.name));
}

// The redis-server program: `given`, or found on PATH and in the sbin folders for "auto".
function findRedisServer(given) {
  if (given !== 'auto') return fs.existsSync(given) ? given : null;
  for (const d of [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/sbin', '/usr/local/bin']) {
    const p = path.join(d || '.', 'redis-server');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

// A throwaway redis-server on a free 127.0.0.1 port, or null when none came up.
async function startRedis(program, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (let attempt = 0; attempt < 3; ++attempt) {
    const port = await freePort();
    const child = spawn(program, ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no',
                                  '--dir', dir, '--logfile', path.join(dir, 'redis.log'), '--daemonize', 'no'],
                        { stdio: 'ignore' });
    child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.once('error', () => {});
    if (await serverUp(child, port)) return { child, port };
    await stopServer(child);
  }
  return null;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let redis = null;
  if (opts.redisServer) {
    const program = findRedisServer(opts.redisServer);
    const help = spawnSync(opts.server, ['--help'], { encoding: 'utf8' }).stdout ?? '';
    if (!program || !help.includes('--task-store')) {
      console.log(`run_suite: SKIPPED: ${program ? 'the server was built without hiredis' : 'no redis-server (Debian: redis-server)'}`);
      return 77;
    }
    redis = await startRedis(program, path.join(opts.work + '-redis'));
    if (!redis) throw new Error('redis-server did not start');
    process.once('exit', () => redis.child.kill('SIGKILL'));
    const url = `redis://127.0.0.1:${redis.port}/conformance:`;
    opts.serverArgs.push('--task-store', url, '--replay-guard', url);
  }
  try {
    return await suiteAgainstServer(opts);
  } finally {
    if (redis) await stopServer(redis.child);
  }
}

async function suiteAgainstServer(opts) {
  const deadline = Date.now() + opts.timeout * 1000;
  fs.rmSync(opts.work, { recursive: true, force: true });
  fs.mkdirSync(opts.work, { recursive: true });
  const outDir = path.join(opts.work, 'results');
  const serverLog = path.join(opts.work, 'server.log');

  let server = null;
  let port = 0;
  const stop = () => server && server.kill('SIGKILL');
  process.once('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.once(sig, () => {
      stop();
      process.exit(1);
    });

  try {
    // The port can be taken between our probe and the server's bind; try a few.
    for (let attempt = 0; attempt < 3 && !server; ++attempt) {
      port = await freePort();
      const child = startServer(opts, port, serverLog);
      if (await serverUp(child, port)) server = child;
      else await stopServer(child);
    }
    if (!server) {
      console.error(`run_suite: the server did not come up; its log (${serverLog}):`);
      console.error(fs.readFileSync(serverLog, 'utf8'));
      return 1;
    }

    const suite = { code: 0, signal: null, output: '', summaries: [] };
    const scenarios = [];
    for (const [n, suiteArgs] of opts.suiteRuns.entries()) {
      const runDir = path.join(outDir, `run-${n + 1}`);
      const one = await runSuite(opts, suiteArgs, `http://127.0.0.1:${port}/mcp`, runDir, deadline);
      if (one.code !== 0 && suite.code === 0) suite.code = one.code;
      suite.signal ??= one.signal;
      suite.output += (suite.output ? '\n' : '') + one.output;
      const at = one.output.indexOf('=== SUMMARY ===');
      suite.summaries.push(at >= 0 ? one.output.slice(at).trimEnd() : one.output.trimEnd());
      scenarios.push(...collectChecks(runDir));
    }
    let passed = 0, failed = 0, warnings = 0, other = 0;
    const problems = [];
    // Scenarios the suite itself does not score (extensions we do not implement) are listed apart.
    const isUnscored = (s) => opts.unscored.some((p) => s.name.startsWith(p));
    const unscored = scenarios.filter(isUnscored);
    if (unscored.length)
      console.log(`run_suite: not judged (unscored by the suite): ${unscored.map((s) => s.name).join(', ')}`);
    for (const s of scenarios.filter((s) => !isUnscored(s))) {
      for (const c of s.checks) {
        if (c.status === 'SUCCESS') ++passed;
        if (c.status === 'FAILURE') ++failed;
        if (c.status === 'WARNING') ++warnings;
        if (c.status === 'INFO' || c.status === 'SKIPPED') ++other;
        if (c.status === 'FAILURE' || c.status === 'WARNING')
          problems.push(`  ${c.status} ${s.name} [${c.id}] ${c.errorMessage ?? c.description ?? ''}`);
      }
    }

    const ok = suite.code === 0 && failed === 0 && warnings === 0 && scenarios.length >= opts.expectScenarios;
    // The whole transcript when something is wrong; the suite's own summary otherwise.
    console.log(ok ? suite.summaries.join('\n\n') : suite.output.trimEnd());
    if (problems.length) console.log(`\nrun_suite: checks that did not pass:\n${problems.join('\n')}`);
    // The extensions' scenarios (on no spec timeline, so not in the suite's scored totals), each
    // counted as passed when none of its checks failed or warned.
    const extensions = ['tasks-', 'sep-2640-skills-'].map((prefix) => {
      const of = scenarios.filter((s) => s.name.startsWith(prefix) && !isUnscored(s));
      const good = of.filter((s) => s.checks.every((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'));
      return of.length ? `${prefix}* ${good.length}/${of.length} scenarios passed` : null;
    }).filter(Boolean);
    console.log(
      `\nrun_suite: ${scenarios.length} scenarios, ${passed} passed, ${failed} failed, ${warnings} warnings, ` +
        `${other} info/skipped (suite exit code ${suite.code}${suite.signal ? ', signal ' + suite.signal : ''})` +
        (extensions.length ? `; extensions: ${extensions.join(', ')}` : ''));
    if (scenarios.length < opts.expectScenarios)
      console.log(`run_suite: expected at least ${opts.expectScenarios} scenarios`);
    if (!ok) {
      const log = fs.readFileSync(serverLog, 'utf8');
      if (log.trim()) console.log(`\nrun_suite: server log (last 4 KB):\n${log.slice(-4096)}`);
    }
    return ok ? 0 : 1;
  } finally {
    if (server) await stopServer(server);
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`run_suite: ${e.stack ?? e}`);
    process.exit(1);
  });
