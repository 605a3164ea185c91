import { type Dirent, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type TestClient } from './harness.js';
import { httpClient, type PlatformProcess, postgresProcessEnvironment, runCommand, startProcess } from './process-harness.js';
import { type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { listen, readJson } from './scripted-servers.js';

interface ChatMessage {
  role: string;
  content?: string | null;
}

/**
 * A real OpenAI-compatible model that uses the workspace tools: `remember <word>` writes the word
 * to `/work/note.txt` and answers `saved`; `recall` reads that file and answers
 * `recalled: <what the tool said>`.
 */
class FileModelServer {
  readonly server: Server;
  url = '';
  private calls = 0;

  constructor() {
    this.server = createServer((request, response) => {
      void readJson(request).then((body) => {
        this.calls += 1;
        const messages = (body.messages ?? []) as ChatMessage[];
        // The session's earlier runs come first in the conversation: only this question's turn counts.
        const asked = messages.findLastIndex((message) => message.role === 'user');
        const question = messages[asked]?.content ?? '';
        const toolResult = messages.slice(asked + 1).find((message) => message.role === 'tool')?.content;
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'files', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        if (toolResult === undefined && question.startsWith('remember ')) {
          const call = { name: 'write_file', arguments: JSON.stringify({ path: '/work/note.txt', content: question.slice(9) }) };
          response.write(
            chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${this.calls}`, type: 'function', function: call }] }),
          );
          response.write(chunk({}, 'tool_calls'));
        } else if (toolResult === undefined && question.startsWith('recall')) {
          const call = { name: 'read_file', arguments: JSON.stringify({ path: '/work/note.txt' }) };
          response.write(
            chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${this.calls}`, type: 'function', function: call }] }),
          );
          response.write(chunk({}, 'tool_calls'));
        } else {
          const answer = question.startsWith('recall') ? `recalled: ${toolResult}` : 'saved';
          response.write(chunk({ role: 'assistant', content: answer }));
          response.write(chunk({}, 'stop'));
        }
        response.end('data: [DONE]\n\n');
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Every file under `directory`, relative to it. Walks by hand rather than with a recursive
 * `readdirSync`: a worker may remove a temporary run's directory while the walk is inside it, and
 * a directory that vanished mid-walk holds no file.
 */
function filesUnder(directory: string, root = directory): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries.flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return filesUnder(full, root);
    return entry.isFile() ? [path.relative(root, full)] : [];
  });
}

const password = 'correct horse battery staple';

/**
 * P-12: an agent's files live under its file root in the data directory that every worker
 * mounts. With the persistent sandbox on, a session's work directory outlives its runs and the
 * worker that wrote it: the next run of the session, executed by another worker process, reads
 * what the first wrote. With it off, each run's work directory is temporary and gone once the run
 * settled (P-12.8).
 */
describe.skipIf(!dialects.includes('postgres'))('session work directories shared by worker processes on PostgreSQL', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-session-files-'));
  const { environment, drop } = postgresProcessEnvironment('session_files', dataDirectory);
  let model: FileModelServer;
  const processes: PlatformProcess[] = [];

  beforeAll(async () => {
    model = await new FileModelServer().start();
  });
  afterAll(async () => {
    for (const item of processes) await item.kill('SIGTERM');
    await model.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    await drop();
  });

  /** Creates a published file-using agent; answers its id. */
  async function fileAgent(client: TestClient, spaceId: string, connectionId: string, persistent: boolean): Promise<string> {
    const created = await client.request('POST', `/spaces/${spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: persistent ? 'Keeps files' : 'Forgets files',
    });
    const appId = (created.body as { app: { id: string } }).app.id;
    const draft = (await client.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    const saved = await client.request(
      'PUT',
      `/apps/${appId}/draft`,
      {
        config: {
          model: { connectionId, modelId: 'files' },
          prompt: { text: 'You keep notes.' },
          capabilities: { builtIn: ['workspace-files'], tools: [], skills: [] },
          environment: { persistentSandbox: persistent },
        },
      },
      { 'if-match': `"${draft.draft.revision}"` },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const published = await client.request('POST', `/apps/${appId}/releases`, { notes: 'files' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    return appId;
  }

  /** Runs one question to its end over HTTP. */
  async function ask(client: TestClient, appId: string, input: string, sessionId?: string): Promise<RunBody> {
    const started = await client.request('POST', `/apps/${appId}/runs`, { input, ...(sessionId ? { sessionId } : {}) });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    return waitForTerminal(client, (started.body as { runId: string }).runId);
  }

  it('a persistent session keeps its work files for the next run on another worker; a temporary run directory is gone after its run', {
    timeout: 120_000,
  }, async () => {
    const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
    expect(created.status, created.output).toBe(0);
    const api = startProcess('serve', environment, ['--port', '0']);
    processes.push(api);
    const first = startProcess('worker', environment);
    processes.push(first);
    const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    await first.waitFor(/ready/);
    const client = await httpClient(baseUrl).login('ops@example.com', password);
    const space = (await client.request('POST', '/spaces', { name: 'Files' })).body as { space: { id: string } };
    const connection = (
      await client.request('POST', `/spaces/${space.space.id}/model-connections`, {
        name: 'Files model',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-files-key-0123456789' },
        models: [{ modelId: 'files' }],
      })
    ).body as { connection: { id: string } };
    const keeps = await fileAgent(client, space.space.id, connection.connection.id, true);
    const forgets = await fileAgent(client, space.space.id, connection.connection.id, false);

    const saved = await ask(client, keeps, 'remember aubergine');
    expect(saved).toMatchObject({ status: 'succeeded', output: 'saved' });
    const temporary = await ask(client, forgets, 'remember courgette');
    expect(temporary).toMatchObject({ status: 'succeeded', output: 'saved' });

    // The worker that wrote both files goes away; another process executes the next runs.
    await first.kill('SIGKILL');
    const second = startProcess('worker', environment);
    processes.push(second);
    await second.waitFor(/ready/);

    const recalled = await ask(client, keeps, 'recall', saved.sessionId);
    expect(recalled.status).toBe('succeeded');
    expect(recalled.output).toBe('recalled: aubergine');
    const lost = await ask(client, forgets, 'recall', temporary.sessionId);
    expect(lost.status).toBe('succeeded');
    expect(lost.output).toMatch(/^recalled: /);
    expect(lost.output).not.toContain('courgette');

    // On the shared volume: the persistent session's note is under its agent's file root, and the
    // temporary run's directory goes once its run settled — by the SDK when the run ends, or, when
    // the worker died right after the run's last entry (as the first one may have here), by the
    // sweeper of another worker process.
    const notes = () => filesUnder(dataDirectory).filter((file) => file.endsWith('note.txt'));
    await waitUntil(() => notes().length === 1, 100);
    expect(notes()).toHaveLength(1);
    const [note] = notes();
    expect(note).toContain(path.join('agents', keeps));
    expect(note).toContain(`${path.sep}sessions${path.sep}`);
    expect(readFileSync(path.join(dataDirectory, note as string), 'utf8')).toBe('aubergine');
  });
});
