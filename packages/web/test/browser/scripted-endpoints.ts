import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

interface ChatMessage {
  role: string;
  content?: string | null;
}

/**
 * The messages of the question being answered: those after the session's last final answer (an
 * assistant message without tool calls), so earlier questions of the session do not count.
 */
function currentTurn(messages: ChatMessage[]): ChatMessage[] {
  let start = 0;
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && !(message as { tool_calls?: unknown[] }).tool_calls?.length) start = index + 1;
  });
  return messages.slice(start);
}

/**
 * A real OpenAI-compatible chat-completions server (streaming) for the browser tests, scripted by
 * the conversation: a question with `slow` first gets a call of the `lookup` tool; once the tool's
 * result is in, it answers `answer: <result>`, followed by `— noted: <text>` for each user message
 * after the question (the supplements the run consumed). A question with `delegate` (a
 * Plan–Executor planner) first gets a call of its first executor (a tool named `executor-…`) with
 * the task `Find the tide times.`, then `answer: <result>` likewise. Anything else gets `hello`.
 */
export class ScriptedModelServer {
  readonly server = createServer((request, response) => void this.answer(request, response));
  url = '';

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    return close(this.server);
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    const messages = currentTurn((body.messages ?? []) as ChatMessage[]);
    const executor = ((body.tools ?? []) as { function?: { name?: string } }[])
      .map((tool) => tool.function?.name ?? '')
      .find((name) => name.startsWith('executor'));
    const users = messages.filter((message) => message.role === 'user').map((message) => message.content ?? '');
    const toolResult = [...messages].reverse().find((message) => message.role === 'tool')?.content;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
      );
    let finish = 'stop';
    if ((users[0] ?? '').includes('slow') && toolResult === undefined) {
      send({
        role: 'assistant',
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '' } }],
      });
      send({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ query: users[0] }) } }] });
      finish = 'tool_calls';
    } else if ((users[0] ?? '').includes('delegate') && executor && toolResult === undefined) {
      send({
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            id: 'call_plan',
            type: 'function',
            function: { name: executor, arguments: JSON.stringify({ task: 'Find the tide times.' }) },
          },
        ],
      });
      finish = 'tool_calls';
    } else if (toolResult !== undefined) {
      const notes = users.slice(1).map((text) => ` — noted: ${text}`);
      send({ role: 'assistant', content: `answer: ${toolResult}${notes.join('')}` });
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

/**
 * A real HTTP tool endpoint that holds every call until the test releases it, so a run stays in
 * its tool batch for as long as the test needs (to supplement it, reload the page, or end it),
 * with no timing assumption.
 */
export class HeldToolServer {
  readonly server = createServer((request, response) => void this.hold(request, response));
  url = '';
  private readonly waiting: (() => void)[] = [];
  private readonly arrivals: (() => void)[] = [];
  /** How many calls arrived in all (a call a permission rule kept back never arrives). */
  calls = 0;

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  /** Resolves once a call is being held (at once when one already is). */
  called(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  /** Answers every held call. */
  release(): void {
    for (const answer of this.waiting.splice(0)) answer();
  }

  close(): Promise<void> {
    this.release();
    return close(this.server);
  }

  private async hold(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    this.calls += 1;
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      for (const arrived of this.arrivals.splice(0)) arrived();
    });
    if (response.destroyed) return;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ value: `tide tables for ${String(body.query ?? '').length} characters` }));
  }
}
