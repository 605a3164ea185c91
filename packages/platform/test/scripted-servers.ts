import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestClient } from './harness.js';

/** Reads a request body as JSON. */
export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** Listens on a free local port; answers the base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface ChatMessage {
  role: string;
  content?: string | null;
}

/**
 * A real OpenAI-compatible chat-completions server (streaming), scripted by the question: a
 * question that contains `lookup` first gets a call of the `lookup` tool with the question as its
 * query, then — once the tool's result is in the conversation — the answer `answer: <result>`,
 * after `answerDelayMs` (the window in which the crash tests kill a worker). Any other question
 * gets `hello` at once. `answering` holds the questions whose answer is being held back now.
 */
export class ScriptedModelServer {
  readonly server: Server;
  url = '';
  private delayMs = 0;
  private readonly held = new Set<() => void>();
  readonly answering = new Set<string>();
  calls = 0;

  constructor() {
    this.server = createServer((request, response) => {
      void this.answer(request, response);
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  /** How long answers are held back; setting it lower releases the answers held now. */
  get answerDelayMs(): number {
    return this.delayMs;
  }

  set answerDelayMs(value: number) {
    this.delayMs = value;
    if (value === 0) for (const release of [...this.held]) release();
  }

  close(): Promise<void> {
    this.answerDelayMs = 0;
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
    this.calls += 1;
    const body = await readJson(request);
    const messages = (body.messages ?? []) as ChatMessage[];
    const question = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    const toolResult = [...messages].reverse().find((message) => message.role === 'tool')?.content;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
      );
    let finish = 'stop';
    if (question.includes('lookup') && toolResult === undefined) {
      send({
        role: 'assistant',
        tool_calls: [{ index: 0, id: `call_${this.calls}`, type: 'function', function: { name: 'lookup', arguments: '' } }],
      });
      send({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ query: question }) } }] });
      finish = 'tool_calls';
    } else if (toolResult !== undefined) {
      this.answering.add(question);
      await new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          this.held.delete(release);
          resolve();
        };
        const timer = setTimeout(release, this.delayMs);
        this.held.add(release);
      });
      this.answering.delete(question);
      if (response.destroyed) return;
      send({ role: 'assistant', content: `answer: ${toolResult}` });
    } else {
      send({ role: 'assistant', content: 'hello' });
    }
    send({}, finish);
    response.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } })}\n\n`,
    );
    response.end('data: [DONE]\n\n');
  }
}

/** A real HTTP tool endpoint that counts how often each query was looked up (a redone call shows as 2). */
export class CountingToolServer {
  readonly server: Server;
  url = '';
  readonly calls = new Map<string, number>();

  constructor() {
    this.server = createServer((request, response) => {
      void readJson(request).then((body) => {
        const query = String(body.query ?? '');
        this.calls.set(query, (this.calls.get(query) ?? 0) + 1);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ value: `found ${query.length}` }));
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

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** Builds a space with a published ReAct agent on the scripted model, with the counting `lookup` tool. */
export async function buildScriptedApp(
  owner: TestClient,
  modelUrl: string,
  toolUrl: string,
  name = 'Runs',
): Promise<{ spaceId: string; appId: string; connectionId: string; toolId: string }> {
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name }), 201);
  const base = `/spaces/${space.id}`;
  const connection = await ok<{ connection: { id: string } }>(
    owner.request('POST', `${base}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${modelUrl}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    }),
    201,
  );
  const tool = await ok<{ resource: { id: string } }>(
    owner.request('POST', `${base}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: {
        kind: 'http',
        description: 'Looks something up.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        request: { method: 'POST', url: `${toolUrl}/lookup`, headers: {} },
      },
    }),
    201,
  );
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: `${name} agent` }),
    201,
  );
  await saveDraftAndPublish(owner, app.id, connection.connection.id, tool.resource.id, 'You answer questions, version one.');
  return { spaceId: space.id, appId: app.id, connectionId: connection.connection.id, toolId: tool.resource.id };
}

/** Saves the scripted agent's draft with `prompt` (and `builtIn` capabilities) and publishes it; answers the publish body. */
export async function saveDraftAndPublish(
  owner: TestClient,
  appId: string,
  connectionId: string,
  toolId: string,
  prompt: string,
  builtIn: readonly ('workspace-files' | 'run_command')[] = [],
): Promise<{ release: { id: string; version: number }; stoppedRuns: string[] }> {
  const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${appId}/draft`), 200);
  await ok(
    owner.request(
      'PUT',
      `/apps/${appId}/draft`,
      {
        config: {
          model: { connectionId, modelId: 'scripted' },
          prompt: { text: prompt },
          capabilities: { builtIn, tools: [toolId], skills: [] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    ),
    200,
  );
  return ok(owner.request('POST', `/apps/${appId}/releases`, { notes: prompt }), 201);
}
