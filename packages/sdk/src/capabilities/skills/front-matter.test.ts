import { describe, expect, it } from 'vitest';
import { FrontMatterSyntaxError, parseFrontMatter } from './front-matter.js';

const parse = (yaml: string) => parseFrontMatter(`---\n${yaml}\n---\nbody`).data;

describe('SKILL.md front matter reader', () => {
  it('reads plain, quoted, multi-line and block values', () => {
    expect(
      parse(
        [
          'name: my-skill  # trailing comment',
          "single: 'it''s here'",
          'double: "tab\\there \\u00e9"',
          'wrapped: first part',
          '  second part',
          'literal: |',
          '  line one',
          '  line two',
          'folded: >-',
          '  joined',
          '  together',
          'empty:',
          'hash: C# stays',
        ].join('\n'),
      ),
    ).toEqual({
      name: 'my-skill',
      single: "it's here",
      double: 'tab\there é',
      wrapped: 'first part second part',
      literal: 'line one\nline two\n',
      folded: 'joined together',
      empty: null,
      hash: 'C# stays',
    });
  });

  it('reads one nested mapping and both list forms', () => {
    expect(parse('metadata:\n  author: me\n  version: "2"\ntools: [a, "b c"]\nlist:\n  - x\n  - y')).toEqual({
      metadata: { author: 'me', version: '2' },
      tools: ['a', 'b c'],
      list: ['x', 'y'],
    });
  });

  it('keeps the body after the block', () => {
    expect(parseFrontMatter('---\nname: a\n---\n# Title\ntext').body).toBe('# Title\ntext');
  });

  it.each([
    ['no opening fence', 'name: a\n---\n', 1],
    ['no closing fence', '---\nname: a\n', 3],
    ['duplicate key', '---\nname: a\nname: b\n---\n', 3],
    ['anchor', '---\nname: &x a\n---\n', 2],
    ['colon in a plain value', '---\ndescription: Use when: now\n---\n', 2],
    ['deeper nesting', '---\nmetadata:\n  a: 1\n    b: 2\n---\n', 4],
    ['unterminated quote', '---\nname: "abc\n---\n', 2],
    ['unknown escape', '---\nname: "a\\qb"\n---\n', 2],
    ['tab indentation', '---\nmetadata:\n\tauthor: me\n---\n', 3],
  ])('refuses %s with its line', (_label, text, line) => {
    const error = (() => {
      try {
        parseFrontMatter(text);
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(FrontMatterSyntaxError);
    expect((error as FrontMatterSyntaxError).line).toBe(line);
  });
});
