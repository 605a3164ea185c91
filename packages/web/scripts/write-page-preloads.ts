/**
 * Writes `dist/page-preloads.json` after a build: for every console route (read from the real
 * route table, `src/app/routes.tsx`), the files its lazy page needs beyond what `index.html`
 * loads already (the page's chunk, its static imports and their style sheets), and the same for
 * each language's message catalogue. `agentloom serve` reads it to put `<link rel="modulepreload">`
 * hints for the requested page into the HTML, so the page's code downloads alongside the main
 * bundle instead of after it has run (issue 35: no load waterfall).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteObject } from 'react-router';
import { consoleRoutes } from '../src/app/routes.js';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The files of one page (or catalogue) not already requested by `index.html`. */
export interface Preload {
  scripts: string[];
  styles: string[];
}

const distDirectory = fileURLToPath(new URL('../dist', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(distDirectory, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** A chunk's key and the keys of everything it imports statically. */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, into);
  return into;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk: was the console built with build.manifest?');
const loadedByPage = closure(entryKey);

function preloadOf(key: string): Preload {
  const keys = [...closure(key)].filter((item) => !loadedByPage.has(item));
  return {
    scripts: keys.map((item) => `/${manifest[item]?.file}`),
    styles: [...new Set(keys.flatMap((item) => manifest[item]?.css ?? []))].map((file) => `/${file}`),
  };
}

/** Every route with a lazy page: its full path (`/spaces/:spaceId/agents/:appId/chat`) and page directory. */
function pageRoutes(routes: RouteObject[], parent: string): { path: string; page: string }[] {
  return routes.flatMap((route) => {
    const own =
      route.path === undefined ? parent : route.path.startsWith('/') ? route.path : `${parent.replace(/\/$/, '')}/${route.path}`;
    const page = typeof route.lazy === 'function' ? /pages\/([^/]+)\/index/.exec(route.lazy.toString())?.[1] : undefined;
    const here = page && !own.includes('*') ? [{ path: own, page }] : [];
    return [...here, ...pageRoutes(route.children ?? [], own)];
  });
}

const pages = pageRoutes(consoleRoutes, '').map(({ path: routePath, page }) => {
  const key = `src/pages/${page}/index.tsx`;
  if (!manifest[key]) throw new Error(`The route ${routePath} names page ${page}, which the build does not have.`);
  return { path: routePath, ...preloadOf(key) };
});
const catalogues = {
  en: preloadOf('src/i18n/messages/en.ts'),
  'zh-CN': preloadOf('src/i18n/messages/zh-cn.ts'),
};
writeFileSync(path.join(distDirectory, 'page-preloads.json'), `${JSON.stringify({ pages, catalogues }, null, 2)}\n`);
console.log(`Preload hints written for ${pages.length} routes.`);
