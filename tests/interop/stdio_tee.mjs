// Runs a stdio MCP server and keeps a copy of every byte its client writes to it, so a test can
// read the exact JSON-RPC requests a host sent (gemini_cli.mjs: the arguments Gemini CLI forwards).
// The server's stdout and stderr are the tee's own; a signal to the tee is passed on to the server.
//
//   node stdio_tee.mjs LOG COMMAND [ARGS...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  console.error('usage: stdio_tee.mjs LOG COMMAND [ARGS...]');
  process.exit(2);
}
const copy = fs.openSync(log, 'a');
const server = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
server.once('error', (e) => {
  console.error(`stdio_tee: cannot run ${command}: ${e.message}`);
  process.exit(127);
});
server.stdin.on('error', () => {});  // the server may exit first; its exit code says what happened
process.stdin.on('data', (chunk) => {
  fs.writeSync(copy, chunk);
  server.stdin.write(chunk);
});
process.stdin.on('end', () => server.stdin.end());
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.once('exit', (code, signal) => {
  fs.closeSync(copy);
  process.exit(code ?? (signal ? 128 : 1));
});
