import { A2AConnectionError, A2ARequestError } from './a2a-errors.js';

/** Headers sent with every request: credentials, from a value or a function called per request. */
export type A2AAuth =
  | { bearer: string }
  | { headers: Readonly<Record<string, string>> }
  | (() => Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>);

/** How to reach one JSON-RPC interface of an agent. */
export interface JsonRpcEndpoint {
  /** The agent's name, for error messages. */
  agent: string;
  url: string;
  auth: A2AAuth | undefined;
  fetch: typeof fetch;
}

/** The A2A protocol version this client speaks, sent as `A2A-Version` on every request. */
export const A2A_PROTOCOL_VERSION = '1.0';

let requestCounter = 0;

/** The headers of a request: JSON-RPC, the protocol version and the caller's credentials. */
export async function requestHeaders(auth: A2AAuth | undefined, accept: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept,
    'a2a-version': A2A_PROTOCOL_VERSION,
  };
  if (!auth) return headers;
  if (typeof auth === 'function') return { ...headers, ...(await auth()) };
  if ('bearer' in auth) return { ...headers, authorization: `Bearer ${auth.bearer}` };
  return { ...headers, ...auth.headers };
}

async function post(endpoint: JsonRpcEndpoint, method: string, params: unknown, accept: string, signal: AbortSignal) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: `agentloom-${++requestCounter}`, method, params });
  let response: Response;
  try {
    response = await endpoint.fetch(endpoint.url, {
      method: 'POST',
      headers: await requestHeaders(endpoint.auth, accept),
      body,
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw new A2AConnectionError(endpoint.agent, `${method} failed: ${(error as Error).message}`, { cause: error });
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => {});
    throw new A2ARequestError(endpoint.agent, method, `HTTP ${response.status}: credentials refused`, {
      status: response.status,
    });
  }
  if (response.status >= 500) {
    await response.body?.cancel().catch(() => {});
    throw new A2AConnectionError(endpoint.agent, `${method} answered HTTP ${response.status}`, { status: response.status });
  }
  return response;
}

interface JsonRpcReply {
  result?: unknown;
  error?: { code?: number; message?: string };
}

function resultOf(endpoint: JsonRpcEndpoint, method: string, reply: JsonRpcReply, status: number): unknown {
  if (reply.error) {
    throw new A2ARequestError(endpoint.agent, method, reply.error.message ?? 'no message', {
      ...(typeof reply.error.code === 'number' ? { a2aCode: reply.error.code } : {}),
      status,
    });
  }
  if (!('result' in reply)) {
    throw new A2ARequestError(endpoint.agent, method, `HTTP ${status} without a JSON-RPC result`, { status });
  }
  return reply.result;
}

/**
 * One JSON-RPC call of the A2A 1.0 binding (`SendMessage`, `GetTask`, `ListTasks` …). A
 * transport failure is an `A2AConnectionError` (the request may or may not have been processed);
 * an error answer is an `A2ARequestError` (it was refused).
 */
export async function callJsonRpc<Result>(
  endpoint: JsonRpcEndpoint,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<Result> {
  const response = await post(endpoint, method, params, 'application/json', signal);
  let reply: JsonRpcReply;
  try {
    reply = (await response.json()) as JsonRpcReply;
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw new A2AConnectionError(endpoint.agent, `${method}: the answer was cut or is not JSON`, { cause: error });
  }
  return resultOf(endpoint, method, reply, response.status) as Result;
}

/** Largest SSE event accepted: a peer cannot make the client buffer without bound. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024;

/**
 * A streaming JSON-RPC call (`SubscribeToTask`, `SendStreamingMessage`): yields each event's
 * `result`. A refused request throws `A2ARequestError` before the first event (the server may
 * answer plain JSON instead of a stream); a cut stream throws `A2AConnectionError`.
 */
export async function* streamJsonRpc<Event>(
  endpoint: JsonRpcEndpoint,
  method: string,
  params: unknown,
  signal: AbortSignal,
): AsyncGenerator<Event> {
  const response = await post(endpoint, method, params, 'text/event-stream', signal);
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    const reply = (await response.json().catch(() => ({}))) as JsonRpcReply;
    const result = resultOf(endpoint, method, reply, response.status);
    yield result as Event;
    return;
  }
  if (!response.body) throw new A2AConnectionError(endpoint.agent, `${method}: the stream has no body`);
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
      if (buffer.length > MAX_EVENT_BYTES)
        throw new A2AConnectionError(endpoint.agent, `${method}: an event is larger than ${MAX_EVENT_BYTES} bytes`);
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data === '') continue;
        let reply: JsonRpcReply;
        try {
          reply = JSON.parse(data) as JsonRpcReply;
        } catch (error) {
          throw new A2AConnectionError(endpoint.agent, `${method}: an event is not JSON`, { cause: error });
        }
        yield resultOf(endpoint, method, reply, response.status) as Event;
      }
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (error instanceof A2AConnectionError || error instanceof A2ARequestError) throw error;
    throw new A2AConnectionError(endpoint.agent, `${method}: the stream was cut`, { cause: error });
  }
}
