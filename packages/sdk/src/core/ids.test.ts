import { describe, expect, it } from 'vitest';
import { identifierProblem, MAX_IDENTIFIER_LENGTH } from './ids.js';

describe('identifierProblem (issue 18, item 6)', () => {
  it('accepts non-empty, well-formed ids of at most 255 characters, surrogate pairs counting as one', () => {
    expect(identifierProblem('run-1')).toBeUndefined();
    expect(identifierProblem('😀'.repeat(MAX_IDENTIFIER_LENGTH))).toBeUndefined();
    expect(identifierProblem('é ✓ 中文')).toBeUndefined();
  });

  it('refuses what some store would store differently or not at all', () => {
    expect(identifierProblem('')).toMatch(/empty/);
    expect(identifierProblem('a'.repeat(256))).toMatch(/255/);
    expect(identifierProblem('😀'.repeat(256))).toMatch(/255/);
    expect(identifierProblem('a\ud800')).toMatch(/surrogate/);
    expect(identifierProblem('\udc00b')).toMatch(/surrogate/);
    expect(identifierProblem('a\u0000b')).toMatch(/NUL/);
    expect(identifierProblem(7)).toMatch(/string/);
    expect(identifierProblem(null)).toMatch(/null/);
    expect(identifierProblem({})).toMatch(/object/);
  });
});
