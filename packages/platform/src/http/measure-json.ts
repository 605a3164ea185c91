import type { MiddlewareHandler } from 'hono';

/** Whether an `Accept-Encoding` lets the compression middleware use gzip or deflate (a `*` counts; `q=0` refuses). */
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
 * Gives a JSON answer its `Content-Length` (Hono's `c.json` sets none), so that the compression
 * middleware, which runs after it, leaves answers under its 1 KiB threshold alone: without a
 * length every answer was gzipped, a zlib stream set up per request (issue 34: 7–8 % of the CPU
 * of a burst of runs went to compressing 200-byte answers). Streams (event streams, files) keep
 * no length and are not read here. A client that accepts no compression gets no compression
 * whatever the length, so its answer is not read back here at all: reading it turns the
 * adapter's light response into a web `Response` and its stream (issue 34), and the server sets
 * the length of a text body itself when it writes it.
 */
export const measureJson: MiddlewareHandler = async (c, next) => {
  await next();
  if (!acceptsCompression(c.req.header('accept-encoding'))) return;
  const response = c.res;
  if (response.headers.has('Content-Length') || !response.body) return;
  if (!response.headers.get('Content-Type')?.startsWith('application/json')) return;
  const text = await response.text();
  const measured = new Response(text, response);
  measured.headers.set('Content-Length', String(Buffer.byteLength(text)));
  c.res = undefined;
  c.res = measured;
};
