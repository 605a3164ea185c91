/**
 * A stdio MCP server started through the sandbox (F-2, K-2, ADR 0035): the same server, started
 * once on the host and once inside bubblewrap bound to one run's view, is asked to read a host file
 * outside that view and to reach a host TCP port. On the host it can; in the sandbox it cannot
 * (the file is not mounted, there is no network), while its tools still work and what it writes
 * lands in the run's work directory.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeHostReaderServer } from '../../../../test/support/host-reader-mcp-server.js';
import { connectMcpServer, type McpServerConnection, McpToolError } from '../../src/capabilities/mcp/index.js';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap/index.js';
import { createWorkspace, type Workspace } from '../../src/sandbox/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { describeWithBubblewrap } from './bubblewrap-availability.js';
import { callTool, toolContext } from './capability-harness.js';

const scope = { sessionId: 'session-1', runId: 'run-1' };

describeWithBubblewrap('a stdio MCP server started inside the sandbox', () => {
  let base: string;
  let secretFile: string;
  let workspace: Workspace;
  let host: McpServerConnection;
  let sandboxed: McpServerConnection;
  let listener: Server;
  let port = 0;

  beforeAll(async () => {
    base = sandboxReachableDirectory('agentloom-mcp-sandbox-');
    const serverDirectory = join(base, 'server');
    mkdirSync(serverDirectory);
    chmodSync(serverDirectory, 0o755);
    const script = writeHostReaderServer(serverDirectory);
    // World-readable and outside every mount: only the sandbox's view can keep it from the server.
    const secrets = join(base, 'host-secrets');
    mkdirSync(secrets, { mode: 0o755 });
    chmodSync(secrets, 0o755);
    secretFile = join(secrets, 'secret.txt');
    writeFileSync(secretFile, 'host secret 5e1f', { mode: 0o644 });
    const sandbox = new BubblewrapSandbox();
    workspace = createWorkspace({ root: join(base, 'root'), sandbox });
    const nodeDirectory = dirname(process.execPath);
    const common = { name: 'reader', transport: 'stdio' as const, command: process.execPath, args: [script] };
    host = await connectMcpServer(common);
    sandboxed = await connectMcpServer({
      ...common,
      sandbox: {
        sandbox,
        workspace,
        scope,
        readOnlyPaths: [serverDirectory, ...(nodeDirectory.startsWith('/usr/') ? [] : [nodeDirectory])],
      },
    });
    listener = createServer((socket) => socket.end('host service'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await sandboxed?.close();
    listener?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('on the host the server reads a file outside any view and reaches a host port', async () => {
    expect(await callTool(host.tools, 'reader__read_host_file', { path: secretFile }, toolContext(scope))).toBe(
      'host secret 5e1f',
    );
    expect(await callTool(host.tools, 'reader__connect', { port }, toolContext(scope))).toBe('host service');
  });

  it('in the sandbox the same server cannot read that file nor reach the port, and its tools still work', async () => {
    const context = toolContext(scope);
    const refusal = await callTool(sandboxed.tools, 'reader__read_host_file', { path: secretFile }, context).then(
      (value) => ({ escaped: String(value) }),
      (error: unknown) => error,
    );
    expect(McpToolError.isInstance(refusal), JSON.stringify(refusal)).toBe(true);
    expect(String((refusal as Error).message)).toMatch(/ENOENT/);
    expect(String((refusal as Error).message)).not.toContain('5e1f');
    const network = await callTool(sandboxed.tools, 'reader__connect', { port }, context).then(
      (value) => ({ escaped: String(value) }),
      (error: unknown) => error,
    );
    expect(McpToolError.isInstance(network), JSON.stringify(network)).toBe(true);
    expect(String((network as Error).message)).toMatch(/ECONNREFUSED|ENETUNREACH/);

    expect(await callTool(sandboxed.tools, 'reader__add', { a: 19, b: 23 }, context)).toBe('42');
    expect(await callTool(sandboxed.tools, 'reader__write_file', { path: '/work/note.txt', content: 'from mcp' }, context)).toBe(
      'written',
    );
    expect(readFileSync(join(workspace.workDirectory(scope), 'note.txt'), 'utf8')).toBe('from mcp');
    expect(await callTool(sandboxed.tools, 'reader__read_host_file', { path: '/work/note.txt' }, context)).toBe('from mcp');
  });

  it('refuses a call from another run: the server is bound to its run', async () => {
    await expect(
      callTool(sandboxed.tools, 'reader__add', { a: 1, b: 2 }, toolContext({ ...scope, runId: 'run-2' })),
    ).rejects.toThrow(/bound to another run/);
  });
});
