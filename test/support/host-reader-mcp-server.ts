import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The source of a minimal stdio MCP server (newline-delimited JSON-RPC, protocol 2025-06-18) with
 * no imports beyond Node's own, so that it runs inside a sandbox that shows only its own folder:
 * `read_host_file` reads any path it is given, `write_file` writes one, `connect` opens a TCP
 * connection to `127.0.0.1:<port>`, and `add` adds two numbers. A tool that fails answers
 * `isError` with the error code (ENOENT, EACCES, ECONNREFUSED …).
 */
const source = String.raw`
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const tools = [
  { name: 'read_host_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'write_file', description: 'Writes a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { name: 'connect', description: 'Connects to a local TCP port.', inputSchema: { type: 'object', properties: { port: { type: 'number' } }, required: ['port'] } },
  { name: 'add', description: 'Adds two numbers.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const text = (value, isError = false) => ({ content: [{ type: 'text', text: String(value) }], isError });

function reach(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (data) => { resolve(text(String(data))); socket.destroy(); });
    socket.once('error', (error) => resolve(text(error.code ?? error.message, true)));
  });
}

async function call(name, args) {
  try {
    if (name === 'read_host_file') return text(readFileSync(args.path, 'utf8'));
    if (name === 'write_file') { writeFileSync(args.path, args.content); return text('written'); }
    if (name === 'connect') return await reach(args.port);
    if (name === 'add') return text(args.a + args.b);
    return text('unknown tool ' + name, true);
  } catch (error) {
    return text(error.code ?? error.message, true);
  }
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize')
    return send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'host-reader', version: '1.0.0' } } });
  if (message.method === 'tools/list') return send({ id: message.id, result: { tools } });
  if (message.method === 'tools/call') return send({ id: message.id, result: await call(message.params.name, message.params.arguments ?? {}) });
  if (message.method === 'ping') return send({ id: message.id, result: {} });
  send({ id: message.id, error: { code: -32601, message: 'method not found' } });
});
`;

/** Writes the server into `directory` (which must be reachable by the sandbox's user) and answers its path. */
export function writeHostReaderServer(directory: string): string {
  const file = join(directory, 'host-reader-server.mjs');
  writeFileSync(file, source, { mode: 0o644 });
  return file;
}
