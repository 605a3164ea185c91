import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { Env, Hono } from 'hono';
import { preloadHints } from './console-preload.js';
import { consoleContentSecurityPolicy } from './security-headers.js';

/**
 * The console build served by default: this checkout's (`npm run build --workspace=@agentloom/web`
 * writes `packages/web/dist`), else the one a packed `@agentloom/platform` carries in `console/`.
 * Relative to this module, which sits at the same depth in `src/`, in the built `dist/` and in the
 * command's bundle (`dist/cli/agentloom.js`).
 */
const checkoutConsole = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const packedConsole = fileURLToPath(new URL('../../console', import.meta.url));
export const defaultConsoleDirectory =
  existsSync(checkoutConsole) || !existsSync(packedConsole) ? checkoutConsole : packedConsole;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Paths the console never answers: the API and the operational endpoints keep their own 404s. */
const reservedPrefixes = ['/api/', '/healthz', '/readyz', '/metrics'];

/** Types worth compressing; images other than SVG and fonts are compressed already. */
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.ico']);

/** The encodings a request accepts that we can send, best first (no q-values below 1 matter here). */
function acceptedEncodings(header: string | undefined): ('br' | 'gzip')[] {
  const accepted = (header ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, quality]) => quality === undefined || !/^\s*q=0(\.0*)?\s*$/.test(quality))
    .map(([name]) => name?.trim().toLowerCase());
  return (['br', 'gzip'] as const).filter((encoding) => accepted.includes(encoding));
}

/**
 * A path that names a file (a root-level `name.ext`, or anything under `/assets/`): when no such
 * file exists it is a 404, not the console's page, so `/favicon.ico` or a stale chunk never gets
 * HTML with status 200 (which browsers and crawlers would take for the file).
 */
const namesAFile = (requestPath: string) => requestPath.startsWith('/assets/') || /^\/[^/]+\.[A-Za-z0-9]+$/.test(requestPath);

async function fileIn(root: string, requestPath: string): Promise<string | undefined> {
  const target = path.resolve(root, `.${decodeURIComponent(requestPath)}`);
  if (target !== root && !target.startsWith(`${root}${path.sep}`)) return undefined;
  const info = await stat(target).catch(() => undefined);
  return info?.isFile() ? target : undefined;
}

/**
 * Serves the built web console: its files as they are (hashed `assets/` cached for a year; Brotli
 * or gzip when the browser accepts it, from the copies made at build time), and
 * `index.html` for every other GET that is not reserved, so that client-side routes such as
 * `/spaces/x/agents` survive a reload (SPA fallback). `/api/*` never falls back: an unknown API
 * route stays a JSON 404. Without a build, `/` says how to make one.
 */
export function mountConsole<Environment extends Env>(app: Hono<Environment>, directory: string): void {
  const root = path.resolve(directory);
  app.get('*', async (c, next) => {
    const requestPath = c.req.path;
    if (reservedPrefixes.some((prefix) => requestPath === prefix.replace(/\/$/, '') || requestPath.startsWith(prefix)))
      return next();
    let file: string | undefined;
    try {
      file = await fileIn(root, requestPath);
    } catch {
      return next();
    }
    const isAsset = file !== undefined;
    if (!file && namesAFile(requestPath)) return c.text('Not found.', 404);
    file ??= await fileIn(root, '/index.html');
    if (!file) {
      if (requestPath !== '/') return next();
      return c.text('The web console is not built: run `npm run build --workspace=@agentloom/web` (npm ci does it too).', 404);
    }
    const extension = path.extname(file);
    const encodings = compressible.has(extension) ? acceptedEncodings(c.req.header('accept-encoding')) : [];
    let body = await readFile(file);
    let encoding: 'br' | 'gzip' | undefined;
    if (extension === '.html') {
      // A fresh nonce per page: the CSP names it, and the page reads it from this meta element.
      const nonce = randomBytes(18).toString('base64');
      // The requested page's chunks and catalogue, hinted so they download with the main bundle.
      const hints = await preloadHints(root, requestPath, c.req.header('accept-language'));
      body = Buffer.from(
        body
          .toString()
          .replace(/<head>/i, `<head><meta property="csp-nonce" nonce="${nonce}">`)
          .replace(/<\/head>/i, `${hints}</head>`),
      );
      c.header('Content-Security-Policy', consoleContentSecurityPolicy(nonce));
      // The page differs per request, so it is compressed here (a few KiB: well under a millisecond).
      encoding = encodings[0];
      if (encoding === 'br') body = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
      else if (encoding === 'gzip') body = gzipSync(body);
    } else {
      // Everything else was compressed once at build time (vite-plugin-compression2 writes .br and .gz).
      for (const candidate of encodings) {
        const precompressed = await readFile(`${file}.${candidate === 'br' ? 'br' : 'gz'}`).catch(() => undefined);
        if (precompressed) {
          body = precompressed;
          encoding = candidate;
          break;
        }
      }
    }
    if (extension === '.html') c.header('Vary', 'Accept-Encoding, Accept-Language');
    else if (compressible.has(extension)) c.header('Vary', 'Accept-Encoding');
    if (encoding) c.header('Content-Encoding', encoding);
    c.header('Content-Type', contentTypes[extension] ?? 'application/octet-stream');
    c.header('Cache-Control', isAsset && requestPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(body);
  });
}
