/**
 * Every requirement id the code and the tests cite (`R-4`, `K-9` …) is explained in
 * docs/rules.md, and every test that page names exists: a maintainer never needs a file outside
 * the repository to read a citation.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where code and tests live. */
const scanned = ['packages', 'examples', 'bench', 'test', '.dependency-cruiser.cjs'];
/** Tokens shaped like an id that are not rules. */
const notRules = new Set(['UTF-8', 'UTF-16', 'SHA-1', 'SHA-256', 'ISO-8601']);
const citation = /(?<![A-Za-z0-9_-])([A-Z]{1,3}-\d+(?:\.\d+)?)(?![\d])/g;

function sourceFiles(path: string): string[] {
  const absolute = join(root, path);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return [path];
  return readdirSync(absolute)
    .filter((name) => name !== 'node_modules' && name !== 'dist' && !name.startsWith('.'))
    .flatMap((name) => sourceFiles(join(path, name)))
    .filter((file) => /\.(ts|cjs|js)$/.test(file));
}

/** The ids a text cites. */
function citedIds(text: string): string[] {
  return [...new Set([...text.matchAll(citation)].map((match) => match[1] as string))].filter((id) => !notRules.has(id));
}

/** The ids docs/rules.md explains (first cell of a table row) and the test paths it names. */
function documented(): { ids: Set<string>; tests: string[] } {
  const rows = readFileSync(join(root, 'docs', 'rules.md'), 'utf8')
    .split('\n')
    .filter((line) => /^\| [A-Z]{1,3}-\d/.test(line));
  const ids = new Set(rows.map((row) => row.split('|')[1]?.trim() ?? ''));
  const tests = rows.flatMap((row) =>
    [...(row.split('|')[3] ?? '').matchAll(/`([^`]+\.ts)`/g)].map((match) => match[1] as string),
  );
  return { ids, tests };
}

describe('rule citations', () => {
  it('finds citations the way the check below reads them', () => {
    expect(citedIds('a run stops (S-5, X-10); see P-1.11 and R-4 but not UTF-8 or CSS-3 rules')).toEqual([
      'S-5',
      'X-10',
      'P-1.11',
      'R-4',
      'CSS-3',
    ]);
    expect(documented().ids.has('Z-99')).toBe(false);
  });

  it('explains in docs/rules.md every id cited in code and tests', () => {
    const { ids } = documented();
    const missing: string[] = [];
    // This file cites made-up ids on purpose (to test the reader); it is the only one left out.
    const files = scanned.flatMap(sourceFiles).filter((file) => file !== join('test', 'architecture', 'rule-citations.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      for (const id of citedIds(readFileSync(join(root, file), 'utf8'))) {
        if (!ids.has(id)) missing.push(`${id} (cited in ${relative(root, join(root, file))})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only tests that exist', () => {
    const absent = documented().tests.filter((path) => !existsSync(join(root, path)));
    expect(absent).toEqual([]);
  });
});
