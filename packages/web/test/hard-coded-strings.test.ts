import { fileURLToPath } from 'node:url';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { findHardCodedStrings, findInSource } from '../scripts/find-hard-coded-strings.js';
import { catalogues } from '../src/i18n/messages/all.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Component files whose text has not been moved into the catalogues yet. Empty since issue 35
 * part 2 (the workflow editor and run pages were the last): it may only stay empty or shrink — a
 * file listed here that has become clean fails the test, and any file not listed must be clean.
 */
const notYetLocalised = new Set<string>([]);

describe('hard-coded user-facing strings in the console', () => {
  const found = findHardCodedStrings(packageRoot);

  it('finds none outside the catalogues (except in the files not localised yet)', () => {
    const offending = found.filter((item) => !notYetLocalised.has(item.file));
    expect(offending.map((item) => `${item.file}:${item.line} ${item.text}`)).toEqual([]);
  });

  it('keeps the list of files not localised yet exact (a localised file leaves it)', () => {
    const stillHardCoded = new Set(found.map((item) => item.file));
    expect([...notYetLocalised].filter((file) => !stillHardCoded.has(file))).toEqual([]);
  });

  it('reports JSX text, literal children and readable props, not message ids or exempt lines', () => {
    const source = [
      "import { useT } from '../i18n/index.js';",
      'export function Sample({ busy }: { busy: boolean }) {',
      '  const t = useT();',
      '  return (',
      '    <form aria-label="Sample form">',
      '      <p>Loading…</p>',
      "      <button type=\"submit\">{busy ? 'Saving…' : t('common.name')}</button>",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample source holds a template literal on purpose
      "      <input placeholder={`Search ${busy}`} title={t('common.description')} />",
      "      <p>{t('common.yes')} · {' — '} {42}</p>",
      '      {/* i18n-exempt: the product name in a sample */}',
      '      <span>AgentLoom Cloud</span>',
      '      <span>AgentLoom</span>',
      '    </form>',
      '  );',
      '}',
    ].join('\n');
    expect(findInSource('sample.tsx', source).map((item) => [item.line, item.text])).toEqual([
      [5, 'Sample form'],
      [6, 'Loading…'],
      [7, 'Saving…'],
      [8, 'Search'],
    ]);
    const columns = "const columns = [{ header: 'Email', cell: () => 1 }, { header: t('common.name'), cell: () => 2 }];";
    expect(findInSource('columns.tsx', columns).map((item) => item.text)).toEqual(['Email']);
  });
});

/** The argument names and rich-text tags a parsed ICU message uses (its interface with the code). */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.value);
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
  }
  return into;
}

describe('the message catalogues', () => {
  it('parse as ICU messages, and each translation takes the same arguments as the English one', () => {
    for (const [id, english] of Object.entries(catalogues.en)) {
      const expected = [...argumentsOf(parse(english))].sort();
      for (const [locale, catalogue] of Object.entries(catalogues))
        expect([...argumentsOf(parse(catalogue[id as keyof typeof catalogue]))].sort(), `${locale} ${id}`).toEqual(expected);
    }
  });

  it('have the same ids in every locale and no empty message', () => {
    const englishIds = Object.keys(catalogues.en).sort();
    for (const [locale, catalogue] of Object.entries(catalogues)) {
      expect(Object.keys(catalogue).sort(), locale).toEqual(englishIds);
      expect(
        Object.entries(catalogue).filter(([, message]) => message.trim() === ''),
        locale,
      ).toEqual([]);
    }
  });
});
