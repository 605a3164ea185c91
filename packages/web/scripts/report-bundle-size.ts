/**
 * Measures the JavaScript each console page needs: the entry chunk and its static imports, plus the
 * page's lazy chunk and its static imports, each counted once — as gzip (level 9, the budget's
 * measure) and as the bytes actually sent to a browser that accepts Brotli (the build's `.br` copy,
 * or the file itself when it is too small to be compressed). A page also needs the message
 * catalogue of its language, loaded on demand: the larger one (its chunk and static imports not
 * already counted) is added to every page. Prints a table, writes
 * `dist/bundle-size.json`, and fails when a page exceeds the budget (250 KiB gzip, issue 15).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The largest gzip JavaScript a page may need. */
export const pageBudgetBytes = 250 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const distDirectory = fileURLToPath(new URL('../dist', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(distDirectory, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

function closure(key: string, into: Set<string>): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, into);
  return into;
}

const gzipCache = new Map<string, number>();
function gzipBytes(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(distDirectory, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

/** What `agentloom serve` sends for the file to a browser accepting Brotli. */
function sentBytes(file: string): number {
  const full = path.join(distDirectory, file);
  return existsSync(`${full}.br`) ? statSync(`${full}.br`).size : statSync(full).size;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk: was the console built with build.manifest?');
const pages = Object.keys(manifest).filter((key) => manifest[key]?.isDynamicEntry && /src\/pages\/[^/]+\/index\.tsx$/.test(key));
/** The catalogues, one chunk per locale (`src/i18n/messages/index.ts` imports each on demand). */
const catalogueKeys = Object.keys(manifest).filter(
  (key) => /src\/i18n\/messages\/[^/]+\.ts$/.test(key) && manifest[key]?.isDynamicEntry,
);
if (catalogueKeys.length === 0) throw new Error('No message catalogue chunk found in the manifest.');
/** What the page's language adds to `files`: the catalogue whose extra gzip bytes are the most. */
function withLargestCatalogue(files: Set<string>): Set<string> {
  const options = catalogueKeys.map((key) => closure(key, new Set(files)));
  const extra = (option: Set<string>) =>
    [...option].filter((file) => !files.has(file) && file.endsWith('.js')).reduce((sum, file) => sum + gzipBytes(file), 0);
  return options.reduce((largest, option) => (extra(option) > extra(largest) ? option : largest));
}
const rows = pages
  .map((key) => {
    const files = withLargestCatalogue(closure(key, closure(entryKey, new Set())));
    const scripts = [...files].filter((file) => file.endsWith('.js'));
    const bytes = scripts.reduce((sum, file) => sum + gzipBytes(file), 0);
    const sent = scripts.reduce((sum, file) => sum + sentBytes(file), 0);
    return { page: /src\/pages\/([^/]+)\//.exec(key)?.[1] ?? key, gzipBytes: bytes, sentBytes: sent, files: files.size };
  })
  .sort((left, right) => right.gzipBytes - left.gzipBytes);

console.log(
  `JavaScript per page, with its language's catalogue (the larger one): gzip (budget ${(pageBudgetBytes / 1024).toFixed(0)} KiB) and sent with Brotli:`,
);
for (const row of rows)
  console.log(
    `  ${row.page.padEnd(14)} ${(row.gzipBytes / 1024).toFixed(1).padStart(7)} KiB gzip ${(row.sentBytes / 1024).toFixed(1).padStart(7)} KiB sent  (${row.files} chunks)`,
  );
writeFileSync(
  path.join(distDirectory, 'bundle-size.json'),
  `${JSON.stringify({ budgetBytes: pageBudgetBytes, pages: rows }, null, 2)}\n`,
);
const over = rows.filter((row) => row.gzipBytes > pageBudgetBytes);
if (over.length > 0) {
  console.error(`Over budget: ${over.map((row) => row.page).join(', ')}`);
  process.exit(1);
}
