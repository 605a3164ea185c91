/**
 * Stdio MCP servers in the run's sandbox (issue 36 part 5, ADR 0035): an agent whose role uses a
 * stdio MCP server (a real process speaking MCP over stdin/stdout) is run once by a worker without
 * isolation and once by a worker with bubblewrap. The same tool call that reads a world-readable
 * host file outside the app's file root succeeds on the first (a host process) and is refused on
 * the second (the file is not in the run's view), while the server's other tools work there.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkBubblewrap } from '@agentloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHostReaderServer } from '../../../test/support/host-reader-mcp-server.js';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, seedUser, TestClient, type TestPlatform } from './harness.js';
import type { RunBody } from './run-helpers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

// Skipped only where bubblewrap does not work (never in CI, where `.ci/run` installs it: the suite fails there instead).
const bubblewrap = checkBubblewrap();
const describeSandboxed = bubblewrap.available || process.env.CI ? describe : describe.skip;
const skipped = bubblewrap.available ? '' : ` (skipped: ${bubblewrap.reason})`;

describeSandboxed(`stdio MCP servers started inside the run sandbox of an isolating worker${skipped}`, () => {
  let platform: TestPlatform;
  let admin: TestClient;
  let model: ToolCallingModelServer;
  let outside: string;
  let secretFile: string;
  let appId: string;

  const run = async (input: string): Promise<RunBody> => {
    const finished = await admin.request('POST', `/apps/${appId}/runs?wait=60`, { input, mode: 'blocking' });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    return (finished.body as { run: RunBody }).run;
  };
  const runOn = async (worker: RunWorker, input: string): Promise<RunBody> => {
    try {
      return await run(input);
    } finally {
      await worker.stop();
    }
  };

  beforeAll(async () => {
    // Outside the platform's data directory, world-readable: only the sandbox's view keeps it from the server.
    outside = path.join(tmpdir(), `agentloom-stdio-mcp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(path.join(outside, 'server'), { recursive: true });
    mkdirSync(path.join(outside, 'secrets'));
    for (const directory of [outside, path.join(outside, 'server'), path.join(outside, 'secrets')]) chmodSync(directory, 0o755);
    const script = writeHostReaderServer(path.join(outside, 'server'));
    secretFile = path.join(outside, 'secrets', 'secret.txt');
    writeFileSync(secretFile, 'host secret 9c2d', { mode: 0o644 });
    const nodeDirectory = path.dirname(process.execPath);
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform('sqlite', {
      mcpSandboxPaths: [path.join(outside, 'server'), ...(nodeDirectory.startsWith('/usr/') ? [] : [nodeDirectory])],
    });
    // The sandbox user (nobody, on a root host) must reach the app's file root below the data directory.
    chmodSync(platform.dataDirectory, 0o755);
    await seedUser(platform, 'admin@example.com', { admin: true });
    admin = await new TestClient(platform).login('admin@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(admin.request('POST', '/spaces', { name: 'Stdio MCP' }), 201);
    const base = `/spaces/${space.id}`;
    const connection = await ok<{ connection: { id: string } }>(
      admin.request('POST', `${base}/model-connections`, {
        name: 'Scripted',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-scripted-key-0123456789' },
        models: [{ modelId: 'scripted' }],
      }),
      201,
    );
    const server = await ok<{ resource: { id: string } }>(
      admin.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Host reader',
        content: { transport: 'stdio', command: process.execPath, args: [script] },
      }),
      201,
    );
    const { app } = await ok<{ app: { id: string } }>(
      admin.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Reader agent' }),
      201,
    );
    appId = app.id;
    const { draft } = await ok<{ draft: { revision: number } }>(admin.request('GET', `/apps/${appId}/draft`), 200);
    await ok(
      admin.request(
        'PUT',
        `/apps/${appId}/draft`,
        {
          config: {
            model: { connectionId: connection.connection.id, modelId: 'scripted' },
            prompt: { text: 'You read files with the host reader.' },
            capabilities: { mcpServers: [server.resource.id] },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    await ok(admin.request('POST', `/apps/${appId}/releases`, { notes: 'stdio MCP' }), 201);
  }, 60_000);

  afterAll(async () => {
    await platform?.destroy();
    await model?.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('without isolation the server is a host process: it reads the host file', async () => {
    const worker = platform.startWorker({ capabilities: { isolation: false } });
    const result = await runOn(worker, `call Host-reader__read_host_file {"path":"${secretFile}"}`);
    expect(result.status, JSON.stringify(result)).toBe('succeeded');
    expect(result.output).toBe('answer: host secret 9c2d');
  }, 90_000);

  it('on a worker with bubblewrap the server runs in the run sandbox: the host file is not there, its tools work', async () => {
    const worker = platform.startWorker({ capabilities: { isolation: true } });
    const refused = await run(`call Host-reader__read_host_file {"path":"${secretFile}"}`);
    expect(refused.status, JSON.stringify(refused)).toBe('succeeded');
    expect(refused.output).toMatch(/^answer: .*ENOENT/s);
    expect(refused.output).not.toContain('9c2d');
    const written = await run('call Host-reader__write_file {"path":"/work/note.txt","content":"from the sandbox"}');
    expect(written.output).toBe('answer: written');
    const added = await runOn(worker, 'call Host-reader__add {"a":19,"b":23}');
    expect(added.status, JSON.stringify(added)).toBe('succeeded');
    expect(added.output).toBe('answer: 42');
  }, 90_000);
});
