import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './api-error.js';

/**
 * Refuses a request body over `maxBytes` with 413 `body-too-large`, before anything reads it.
 *
 * Hono's `bodyLimit` asks `c.req.raw.body` of every request first. Under `@hono/node-server` that
 * question alone builds the whole web `Request` (a `ReadableStream` over the socket, an
 * `AbortController`, undici's `Headers`) and takes away the adapter's direct read of the body, so
 * the JSON was then read through the stream (issue 34: 6 % of the API's CPU in a burst of runs).
 * Here a request that cannot carry a body (GET, HEAD) passes untouched, and one that declares its
 * length is judged by its `Content-Length`, as Hono's middleware does; only a body of unknown
 * length (chunked) is counted as it streams, by Hono's middleware.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const refuse = () => {
    throw new ApiError(413, 'body-too-large', `The body is larger than ${maxBytes} bytes.`, { limitBytes: maxBytes });
  };
  const counting = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > maxBytes) refuse();
      return next();
    }
    return counting(c, next);
  };
}
