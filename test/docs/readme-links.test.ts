import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README is read on the repository, not on the documentation site, so VitePress's dead-link
 * check (which covers `docs/`) does not see it. Its relative links must name files or folders of
 * the repository, and a `#fragment` into a Markdown file must name one of that file's headings.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** GitHub's and VitePress's heading anchors agree on these rules for the headings we write. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replaceAll(/`/g, '')
    .replaceAll(/[^\p{L}\p{N}\s_-]/gu, '')
    .replaceAll(/\s/g, '-');
}

/** The relative link targets of a Markdown text (outside fenced code), e.g. `docs/a.md#part`. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replaceAll(/^```[\s\S]*?^```/gm, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('/'));
}

function headingsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replaceAll(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingSlug(match[1] as string)));
}

describe("the README's links", () => {
  it('slugs headings as the sites do, and finds links but not code', () => {
    expect(headingSlug('Quick start: the SDK')).toBe('quick-start-the-sdk');
    expect(headingSlug('The `agentloom` command')).toBe('the-agentloom-command');
    expect(relativeLinks('[a](docs/a.md#b) [c](https://x.y)\n```\n[d](e.md)\n```')).toEqual(['docs/a.md#b']);
  });

  it('every relative link of README.md resolves', () => {
    const links = relativeLinks(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(links.length).toBeGreaterThan(10);
    const broken: string[] = [];
    for (const link of links) {
      const [path = '', fragment] = link.split('#');
      const target = join(root, path);
      if (path && !existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (fragment && path.endsWith('.md') && statSync(target).isFile() && !headingsOf(target).has(fragment)) {
        broken.push(`${link}: no heading #${fragment}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
