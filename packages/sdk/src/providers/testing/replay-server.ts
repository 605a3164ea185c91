import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpFixture } from './http-fixture.js';

/** How the server plays one recorded response, and how it misbehaves while doing so. */
export interface ReplayStep {
  fixture: HttpFixture;
  /** Wait before sending anything, status line included (a slow first byte). `Infinity`: never send. */
  firstByteDelayMs?: number;
  /** Pause between two SSE events. */
  eventDelayMs?: number;
  /** Send this many SSE events, then fall silent with the connection open (a stalled stream). */
  stallAfterEvents?: number;
  /** Called once the stall has begun: every event before it has reached the socket (a crash test kills the client here). */
  onStall?: (request: RecordedRequest) => void;
  /** Send this many SSE events, then destroy the socket (a connection cut mid-stream). */
  cutAfterEvents?: number;
}

/** How one exchange ended, as the server saw it. */
export type ReplayOutcome = 'pending' | 'complete' | 'cut-by-server' | 'closed-by-client';

/** One request the server received, and what became of it. */
export interface RecordedRequest {
  /** 0-based position among all requests this server received. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
  receivedAt: number;
  /** When the status line was sent; absent while the first byte is still being held back. */
  respondedAt?: number;
  outcome: ReplayOutcome;
  /** Settles when the connection of this exchange is gone or the response is complete. */
  settled: Promise<void>;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly baseURL: string;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Resolves with request number `index` (0-based) as soon as it has arrived. */
  waitForRequest(index: number): Promise<RecordedRequest>;
  /** Closes every connection, pending ones included, and stops listening. Safe to call twice. */
  close(): Promise<void>;
}

/** What the server answers: one step per request in order, or a function of the request. */
export type ReplayScript = readonly ReplayStep[] | ((request: RecordedRequest) => ReplayStep | undefined);

/**
 * Starts a local HTTP server on 127.0.0.1 and a random port that replays recorded provider
 * responses over real sockets, so that an adapter is tested through its real client, real
 * `fetch` and real SSE parsing, offline. SSE bodies are sent event by event; a step can hold back
 * the first byte, stall or cut the connection after some events. A request beyond the script gets
 * a 500 naming the problem, so that a test asking for too many attempts fails loudly.
 */
export async function startReplayServer(script: ReplayScript): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const waiters = new Map<number, ((request: RecordedRequest) => void)[]>();
  const pick = typeof script === 'function' ? script : (request: RecordedRequest) => script[request.index];

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const record = await recordRequest(incoming, response, requests.length);
    requests.push(record);
    for (const resolve of waiters.get(record.index) ?? []) resolve(record);
    waiters.delete(record.index);
    const step = pick(record);
    if (!step) {
      const message = `the replay server has no response for request number ${record.index + 1}`;
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'server_error', message } }));
      return;
    }
    await play(step, record, response);
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    waitForRequest(index) {
      const arrived = requests[index];
      if (arrived) return Promise.resolve(arrived);
      return new Promise((resolve) => waiters.set(index, [...(waiters.get(index) ?? []), resolve]));
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function recordRequest(incoming: IncomingMessage, response: ServerResponse, index: number): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  let settle = () => {};
  const record: RecordedRequest = {
    index,
    method: incoming.method ?? 'GET',
    path: incoming.url ?? '/',
    headers: incoming.headers,
    body,
    receivedAt: Date.now(),
    outcome: 'pending',
    settled: new Promise<void>((resolve) => {
      settle = resolve;
    }),
  };
  response.on('close', () => {
    if (record.outcome === 'pending') record.outcome = response.writableFinished ? 'complete' : 'closed-by-client';
    settle();
  });
  return record;
}

async function play(step: ReplayStep, record: RecordedRequest, response: ServerResponse): Promise<void> {
  await pause(step.firstByteDelayMs ?? 0, record);
  if (record.outcome !== 'pending') return;
  record.respondedAt = Date.now();
  response.writeHead(step.fixture.status, step.fixture.headers);
  if (!(step.fixture.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    response.end(step.fixture.body);
    return;
  }
  response.flushHeaders();
  const events = step.fixture.body.split(/(?<=\n\n)/).filter((event) => event.trim() !== '');
  for (const [index, event] of events.entries()) {
    if (index === step.stallAfterEvents) {
      step.onStall?.(record);
      await record.settled;
      return;
    }
    if (index === step.cutAfterEvents) {
      record.outcome = 'cut-by-server';
      response.socket?.destroy();
      return;
    }
    // Waiting for the write to reach the socket makes a later cut deliver every event sent before it.
    await new Promise<void>((resolve) => response.write(event, () => resolve()));
    if (step.eventDelayMs) await pause(step.eventDelayMs, record);
    if (record.outcome !== 'pending') return;
  }
  response.end();
}

/** Waits `ms`, or less if the exchange settles first; `Infinity` waits for the exchange only. */
function pause(ms: number, record: RecordedRequest): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  if (ms === Number.POSITIVE_INFINITY) return record.settled;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    record.settled.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
