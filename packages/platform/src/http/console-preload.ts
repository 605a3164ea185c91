import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** The files a page (or a catalogue) needs beyond what `index.html` loads, as the build lists them. */
interface Preload {
  scripts: string[];
  styles: string[];
}

/** `page-preloads.json`, written by the console's build (`packages/web/scripts/write-page-preloads.ts`). */
interface PagePreloads {
  pages: (Preload & { path: string })[];
  catalogues: Partial<Record<'en' | 'zh-CN', Preload>>;
}

interface Compiled {
  modified: number;
  routes: { pattern: RegExp; preload: Preload }[];
  catalogues: PagePreloads['catalogues'];
}

const cache = new Map<string, Compiled | undefined>();

/** A route path (`/spaces/:spaceId/agents/:appId/chat`) as a pattern matching the whole request path. */
function routePattern(routePath: string): RegExp {
  const escaped = routePath
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** The build's preload list, read again only when the file changed (a rebuild while serving). */
async function preloadsIn(directory: string): Promise<Compiled | undefined> {
  const file = path.join(directory, 'page-preloads.json');
  const info = await stat(file).catch(() => undefined);
  if (!info) return undefined;
  const cached = cache.get(file);
  if (cached && cached.modified === info.mtimeMs) return cached;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as PagePreloads;
    const compiled: Compiled = {
      modified: info.mtimeMs,
      routes: parsed.pages.map(({ path: routePath, scripts, styles }) => ({
        pattern: routePattern(routePath),
        preload: { scripts, styles },
      })),
      catalogues: parsed.catalogues ?? {},
    };
    cache.set(file, compiled);
    return compiled;
  } catch {
    // A half-written or foreign file: serve the page without hints rather than fail it.
    return undefined;
  }
}

/**
 * The language the console will most likely show: the first Chinese or English tag of
 * Accept-Language, as the console itself picks from the browser's languages (a choice saved in
 * the browser may differ: then one catalogue is fetched for nothing, and the right one as before).
 */
function likelyLocale(acceptLanguage: string | undefined): 'en' | 'zh-CN' {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const primary = part.trim().split(';')[0]?.split('-')[0]?.toLowerCase();
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

const isAssetPath = (file: string) => /^\/assets\/[\w.-]+$/.test(file);

/**
 * `<link>` hints for the page a request opens (issue 35, no load waterfall): modulepreload for its
 * lazy chunk and that chunk's imports, preload for their style sheets and for the likely
 * language's catalogue — so the browser fetches them alongside the main bundle instead of after
 * it has run. Empty when the build wrote no list or no route matches.
 */
export async function preloadHints(directory: string, requestPath: string, acceptLanguage: string | undefined): Promise<string> {
  const preloads = await preloadsIn(directory);
  if (!preloads) return '';
  const page = preloads.routes.find((route) => route.pattern.test(requestPath))?.preload;
  const catalogue = preloads.catalogues[likelyLocale(acceptLanguage)];
  const scripts = [...new Set([...(page?.scripts ?? []), ...(catalogue?.scripts ?? [])])].filter(isAssetPath);
  const styles = [...new Set([...(page?.styles ?? []), ...(catalogue?.styles ?? [])])].filter(isAssetPath);
  return [
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
    ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="${file}">`),
  ].join('');
}
