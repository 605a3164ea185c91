import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env, Hono } from 'hono';
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

async function fileIn(root: string, requestPath: string): Promise<string | undefined> {
  const target = path.resolve(root, `.${decodeURIComponent(requestPath)}`);
  if (target !== root && !target.startsWith(`${root}${path.sep}`)) return undefined;
  const info = await stat(target).catch(() => undefined);
  return info?.isFile() ? target : undefined;
}

/**
 * Serves the built web console: its files as they are (hashed `assets/` cached for a year), and
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
    file ??= await fileIn(root, '/index.html');
    if (!file) {
      if (requestPath !== '/') return next();
      return c.text('The web console is not built: run `npm run build --workspace=@agentloom/web` (npm ci does it too).', 404);
    }
    let body = await readFile(file);
    if (path.extname(file) === '.html') {
      // A fresh nonce per page: the CSP names it, and the page reads it from this meta element.
      const nonce = randomBytes(18).toString('base64');
      body = Buffer.from(body.toString().replace(/<head>/i, `<head><meta property="csp-nonce" nonce="${nonce}">`));
      c.header('Content-Security-Policy', consoleContentSecurityPolicy(nonce));
    }
    c.header('Content-Type', contentTypes[path.extname(file)] ?? 'application/octet-stream');
    c.header('Cache-Control', isAsset && requestPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(body);
  });
}
