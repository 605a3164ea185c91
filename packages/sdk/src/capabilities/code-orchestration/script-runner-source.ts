/**
 * The program that runs a model's script inside the sandbox (N-15), given to `node -e`: it reads
 * a `start` message on stdin, runs the script's body as an async function in a fresh `vm` context
 * whose only globals are `tools`, `callTool` and `console`, and speaks one JSON message per line:
 *
 * - to the host (stdout): `{ type: 'call', index, name, arguments }` for each tool call, in call
 *   order (`index` 0, 1, 2 …), `{ type: 'log', text }` for `console.*`, and once
 *   `{ type: 'done', ok: true, value }` (the return value as JSON text) or `{ type: 'done', ok: false, error }`;
 * - from the host (stdin): `{ type: 'result', index, ok, content | error }` for each call.
 *
 * The `vm` context is hygiene, not the boundary (a script could reach Node's globals through it):
 * the boundary is the sandbox the process runs in and Node's permission model (ADR 0032). The
 * host treats every line as untrusted input. Kept as plain JavaScript text so that it runs
 * unchanged from the sources and from the build.
 */
export const scriptRunnerSource = String.raw`'use strict';
const vm = require('node:vm');
const readline = require('node:readline');
const write = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const pending = new Map();
let next = 0;
let started = false;
const text = (value) => {
  if (typeof value === 'string') return value;
  try { return JSON.stringify(value); } catch { return String(value); }
};
const finish = (message) => { write(message); process.stdout.write('', () => process.exit(0)); };
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  if (message.type === 'start' && !started) { started = true; start(message); return; }
  if (message.type !== 'result') return;
  const waiting = pending.get(message.index);
  if (!waiting) return;
  pending.delete(message.index);
  if (message.ok) { waiting.resolve(message.content); return; }
  const error = new Error(message.error.message);
  error.name = 'ToolCallError';
  error.kind = message.error.kind;
  waiting.reject(error);
});
function start({ source, tools }) {
  const callTool = (name, args) => {
    const index = next++;
    write({ type: 'call', index, name: String(name), arguments: args === undefined ? {} : JSON.parse(JSON.stringify(args)) });
    return new Promise((resolve, reject) => pending.set(index, { resolve, reject }));
  };
  const toolObject = Object.create(null);
  for (const name of tools) toolObject[name] = (args) => callTool(name, args);
  const log = (...values) => write({ type: 'log', text: values.map(text).join(' ') });
  const context = vm.createContext({
    tools: Object.freeze(toolObject),
    callTool,
    console: Object.freeze({ log, info: log, warn: log, error: log, debug: log }),
  });
  let body;
  try {
    body = vm.runInContext('(async () => {\n' + source + '\n})', context, { filename: 'script.js' });
  } catch (error) {
    finish({ type: 'done', ok: false, error: { name: 'SyntaxError', message: String(error && error.message) } });
    return;
  }
  Promise.resolve()
    .then(() => body())
    .then(
      (value) => {
        let json;
        try { json = value === undefined ? undefined : JSON.stringify(value); } catch (error) {
          finish({ type: 'done', ok: false, error: { name: 'TypeError', message: 'the return value is not JSON: ' + error.message } });
          return;
        }
        finish({ type: 'done', ok: true, value: json });
      },
      (error) => finish({
        type: 'done',
        ok: false,
        error: { name: String((error && error.name) || 'Error'), message: String(error && error.message !== undefined ? error.message : error) },
      }),
    );
}
`;
