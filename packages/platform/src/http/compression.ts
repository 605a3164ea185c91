import type { Context, MiddlewareHandler, Next } from 'hono';
import { compress } from 'hono/compress';

/** Whether an `Accept-Encoding` lets the compressor use gzip or deflate (a `*` counts; `q=0` refuses). */
function acceptsCompression(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'deflate' && coding !== '*') return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/**
 * Gives a JSON answer its `Content-Length` (Hono's `c.json` sets none), so that the compressor,
 * which runs after it, leaves answers under its 1 KiB threshold alone: without a length every
 * answer was gzipped, a zlib stream set up per request (issue 34: 7–8 % of the CPU of a burst of
 * runs went to compressing 200-byte answers). Streams (event streams, files) keep no length and
 * are not read here.
 */
async function measureJson(c: Context, next: Next): Promise<void> {
  await next();
  const response = c.res;
  if (!response.headers.get('Content-Type')?.startsWith('application/json')) return;
  if (response.headers.has('Content-Length') || !response.body) return;
  const text = await response.text();
  const measured = new Response(text, response);
  measured.headers.set('Content-Length', String(Buffer.byteLength(text)));
  c.res = undefined;
  c.res = measured;
}

/**
 * The API's compression: gzip (or deflate) for answers of 1 KiB and more when the client accepts
 * it; event streams are never compressed (the compressor's type filter leaves
 * `text/event-stream` alone: no buffering).
 *
 * `Vary: Accept-Encoding` is set before the answer exists, as a prepared header. Set afterwards
 * (as Hono's compressor does), it makes Hono copy the finished answer into a new web `Response`
 * and its stream; and a client that accepts no compression (most API clients) skips the
 * compressor and the measuring altogether, its answer never read back (issue 34: together 5–7 %
 * of the API's CPU in a burst of runs).
 */
export function compressAnswers(): MiddlewareHandler {
  const compressing = compress();
  return async (c, next) => {
    c.header('Vary', 'Accept-Encoding');
    if (!acceptsCompression(c.req.header('accept-encoding'))) return next();
    return compressing(c, () => measureJson(c, next));
  };
}
