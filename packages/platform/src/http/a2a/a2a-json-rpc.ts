import type { Context } from 'hono';
import { A2AProtocolError, a2aErrorCodes } from '../../domain/a2a-errors.js';
import type { A2AStreamResponse } from '../../domain/a2a-task.js';
import { a2aSequenceKey } from '../../domain/a2a-task.js';
import { answerOf } from '../error-table.js';
import { maximumJsonDepth, nestsDeeperThan } from '../json-depth.js';
import type { PlatformEnvironment } from '../services.js';
import { streamWithPings } from '../sse.js';

/**
 * The JSON-RPC 2.0 envelope of the A2A binding (A2A 1.0 §9): reading a request, answering a
 * result or an error object, and streaming results as Server-Sent Events. Errors are answered with
 * HTTP 200 and a JSON-RPC error object, as the binding asks; only authentication (before any
 * JSON-RPC is read) uses HTTP statuses.
 */

export type JsonRpcId = string | number | null;

/** A request the binding accepts: `jsonrpc` "2.0", a method name, an id, object params. */
export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
}

/** Reads the body as one JSON-RPC request, or throws the protocol's error (-32700 / -32600). */
export function readJsonRpcRequest(text: string): JsonRpcRequest {
  // The platform's depth limit (P-15.4) holds here too: no use case ever walks a deeper value.
  if (nestsDeeperThan(text, maximumJsonDepth))
    throw new A2AProtocolError(a2aErrorCodes.invalidRequest, `The body nests deeper than ${maximumJsonDepth} levels.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new A2AProtocolError(a2aErrorCodes.parseError, 'The body is not valid JSON.');
  }
  const request = body as Record<string, unknown> | null;
  const id = request?.id;
  const validId = typeof id === 'string' || typeof id === 'number' || id === null;
  if (
    !request ||
    typeof request !== 'object' ||
    Array.isArray(request) ||
    request.jsonrpc !== '2.0' ||
    typeof request.method !== 'string' ||
    !validId ||
    (request.params !== undefined &&
      (typeof request.params !== 'object' || request.params === null || Array.isArray(request.params)))
  )
    throw new A2AProtocolError(
      a2aErrorCodes.invalidRequest,
      'Send one JSON-RPC 2.0 request: { jsonrpc: "2.0", id, method, params: {...} } (batches are not accepted).',
    );
  return { id: id as JsonRpcId, method: request.method, params: (request.params ?? {}) as Record<string, unknown> };
}

/** The JSON-RPC error object of a thrown error: the A2A error it names, or the platform refusal mapped to the nearest code. */
export function jsonRpcErrorOf(error: unknown): { code: number; message: string; data?: Record<string, unknown> } | undefined {
  if (error instanceof A2AProtocolError)
    return { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) };
  const answer = answerOf(error);
  if (!answer) return undefined;
  const data = { code: answer.code, details: answer.details };
  if (answer.status === 404) return { code: a2aErrorCodes.taskNotFound, message: answer.message, data };
  if (answer.status === 409) return { code: a2aErrorCodes.unsupportedOperation, message: answer.message, data };
  if (answer.status === 400 || answer.status === 422) return { code: a2aErrorCodes.invalidParams, message: answer.message, data };
  return { code: a2aErrorCodes.internalError, message: answer.message, data };
}

/** A JSON-RPC result response. */
export function resultResponse(c: Context<PlatformEnvironment>, id: JsonRpcId, result: unknown): Response {
  return c.json({ jsonrpc: '2.0', id, result }, 200);
}

/** A JSON-RPC error response for an error (unknown errors are logged and answered -32603 without their text). */
export function errorResponse(c: Context<PlatformEnvironment>, id: JsonRpcId, error: unknown): Response {
  return c.json({ jsonrpc: '2.0', id, error: errorObjectOf(c, error) }, 200);
}

function errorObjectOf(c: Context<PlatformEnvironment>, error: unknown) {
  const known = jsonRpcErrorOf(error);
  if (known) return known;
  c.get('services').logger.error(
    {
      requestId: c.get('requestId'),
      err: { name: (error as Error).name, message: (error as Error).message, stack: (error as Error).stack },
    },
    'a2a: unhandled error',
  );
  return {
    code: a2aErrorCodes.internalError,
    message: 'Something went wrong on the server.',
    data: { requestId: c.get('requestId') },
  };
}

/**
 * Streams results as Server-Sent Events: each `data:` is a JSON-RPC response whose `result` is a
 * `StreamResponse`, each `id:` the journal sequence it came from (a client may resume with
 * `Last-Event-ID`); a `: ping` comment every 15 s keeps proxies from closing an idle stream. An
 * error inside the stream is sent as a JSON-RPC error event, then the stream closes. A client
 * that goes away ends only its stream: the task goes on.
 */
export function streamResponse(
  c: Context<PlatformEnvironment>,
  id: JsonRpcId,
  open: (signal: AbortSignal) => AsyncIterable<A2AStreamResponse>,
): Response {
  return streamWithPings(c, async (stream, signal) => {
    try {
      for await (const result of open(signal)) {
        await stream.writeSSE({ id: String(sequenceOf(result)), data: JSON.stringify({ jsonrpc: '2.0', id, result }) });
      }
    } catch (error) {
      if (!signal.aborted)
        await stream.writeSSE({ data: JSON.stringify({ jsonrpc: '2.0', id, error: errorObjectOf(c, error) }) });
    }
  });
}

function sequenceOf(result: A2AStreamResponse): number {
  const metadata =
    'task' in result
      ? result.task.metadata
      : 'statusUpdate' in result
        ? result.statusUpdate.metadata
        : result.artifactUpdate.metadata;
  return Number(metadata[a2aSequenceKey] ?? 0);
}
