import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen, readJson } from './scripted-servers.js';

/** Markers in the role prompts: the scripted model tells the roles apart by them. */
export const roleMarkers = { react: 'ROLE-REACT', planner: 'ROLE-PLANNER', researcher: 'ROLE-RESEARCHER' } as const;

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

interface ChatMessage {
  role: string;
  content?: string | null;
}

/** A tool call the script answers with: the tool (or executor) name and its arguments. */
interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * What the scripted model answers, as a pure function of the request (so a taker that asks again
 * after a crash gets the same answer). The run's tag `[t:…]` travels in the question and in every
 * delegated task, so each tool call's query is unique across all runs of a suite.
 * - ReAct: two `lookup` calls in one batch, then one more, then the answer `done <tag>`.
 * - Planner: two `researcher` delegations in one batch, then the answer `plan done <tag>`.
 * - Researcher: `lookup` part 1, then part 2, then its notes.
 */
export function scriptedReply(messages: ChatMessage[]): { text?: string; calls?: ScriptedCall[] } {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content ?? '')
    .join('\n');
  const firstUser = messages.find((message) => message.role === 'user')?.content ?? '';
  const results = messages.filter((message) => message.role === 'tool').length;
  const tag = /\[t:[\w-]+\]/.exec(firstUser)?.[0] ?? '[t:none]';
  if (system.includes(roleMarkers.researcher)) {
    const topic = /research (\w+)/.exec(firstUser)?.[1] ?? 'none';
    if (results < 2) return { calls: [{ name: 'lookup', arguments: { query: `${tag} ${topic} part ${results + 1}` } }] };
    return { text: `notes ${tag} ${topic}` };
  }
  if (system.includes(roleMarkers.planner)) {
    if (results === 0)
      return {
        calls: ['alpha', 'beta'].map((topic) => ({ name: 'researcher', arguments: { task: `${tag} research ${topic}` } })),
      };
    return { text: `plan done ${tag}` };
  }
  if (results === 0)
    return {
      calls: [
        { name: 'lookup', arguments: { query: `${tag} step 1a` } },
        { name: 'lookup', arguments: { query: `${tag} step 1b` } },
      ],
    };
  if (results === 2) return { calls: [{ name: 'lookup', arguments: { query: `${tag} step 2` } }] };
  return { text: `done ${tag}` };
}

/**
 * A real OpenAI-compatible chat-completions server (streaming) that answers by `scriptedReply`,
 * each answer after a random delay of `delayMs` (so a SIGKILL lands before, in or after a model
 * call at random). `requests` counts the calls.
 */
export class TrialModelServer {
  readonly server: Server;
  url = '';
  requests = 0;
  delayMs: [number, number] = [60, 300];

  constructor() {
    this.server = createServer((request, response) => {
      void this.answer(request, response);
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.requests += 1;
    const body = await readJson(request);
    const reply = scriptedReply((body.messages ?? []) as ChatMessage[]);
    await pause(randomBetween(...this.delayMs));
    if (response.destroyed) return;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finishReason: string | null = null, usage?: Record<string, number>) =>
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: usage ? [] : [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) })}\n\n`,
      );
    if (reply.calls) {
      reply.calls.forEach((call, index) => {
        send({
          ...(index === 0 ? { role: 'assistant' } : {}),
          tool_calls: [
            { index, id: `call_${this.requests}_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        send({ tool_calls: [{ index, function: { arguments: JSON.stringify(call.arguments) } }] });
      });
      send({}, 'tool_calls');
    } else {
      send({ role: 'assistant', content: reply.text ?? '' });
      send({}, 'stop');
    }
    send({}, null, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    response.end('data: [DONE]\n\n');
  }
}

/**
 * A real HTTP tool endpoint with a ledger outside the SDK store: every execution is appended to a
 * JSON-lines file the moment the request arrives, before the answer (sent after a random delay),
 * so a worker killed after the tool ran but before its result was saved leaves an execution in
 * the ledger that the run's journal does not know the outcome of.
 */
export class LedgerToolServer {
  readonly server: Server;
  url = '';
  delayMs: [number, number] = [0, 80];
  /** Awaited before answering a query (after it is in the ledger): a test holds a call in flight with it. */
  hold: (query: string) => Promise<void> = async () => {};

  constructor(readonly ledgerFile: string) {
    writeFileSync(ledgerFile, '');
    this.server = createServer((request, response) => {
      void readJson(request).then(async (body) => {
        const query = String(body.query ?? '');
        appendFileSync(ledgerFile, `${JSON.stringify({ query, at: Date.now() })}\n`);
        await this.hold(query);
        await pause(randomBetween(...this.delayMs));
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ value: `found ${query}` }));
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  /** How many times each query was executed, read from the ledger file. */
  executions(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const line of readFileSync(this.ledgerFile, 'utf8').split('\n')) {
      if (!line) continue;
      const { query } = JSON.parse(line) as { query: string };
      counts.set(query, (counts.get(query) ?? 0) + 1);
    }
    return counts;
  }

  /** When each execution of `query` arrived (epoch ms, in order), read from the ledger file. */
  executionTimes(query: string): number[] {
    const times: number[] = [];
    for (const line of readFileSync(this.ledgerFile, 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { query: string; at: number };
      if (entry.query === query) times.push(entry.at);
    }
    return times;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
