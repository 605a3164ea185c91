import type { MiddlewareHandler } from 'hono';

/**
 * Gives a JSON answer its `Content-Length` (Hono's `c.json` sets none), so that the compression
 * middleware, which runs after it, leaves answers under its 1 KiB threshold alone: without a
 * length every answer was gzipped, a zlib stream set up per request (issue 34: 7–8 % of the CPU
 * of a burst of runs went to compressing 200-byte answers). Streams (event streams, files) keep
 * no length and are not read here.
 */
export const measureJson: MiddlewareHandler = async (c, next) => {
  await next();
  const response = c.res;
  if (response.headers.has('Content-Length') || !response.body) return;
  if (!response.headers.get('Content-Type')?.startsWith('application/json')) return;
  const text = await response.text();
  const measured = new Response(text, response);
  measured.headers.set('Content-Length', String(Buffer.byteLength(text)));
  c.res = undefined;
  c.res = measured;
};
