import { describe, expect, it, vi } from 'vitest';
import { createRunId, identifierProblem, MAX_IDENTIFIER_LENGTH } from './ids.js';

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

describe('createRunId (issue 31)', () => {
  const uuidV7 = /^run_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('makes version 7 UUIDs that sort in the order they were made, thousands within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => createRunId());
    for (const id of ids) expect(id).toMatch(uuidV7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the time it was made and keeps growing when the clock goes back', () => {
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(Date.UTC(2030, 0, 1));
      const first = createRunId();
      expect(Number.parseInt(first.slice(4, 12) + first.slice(13, 17), 16)).toBe(Date.UTC(2030, 0, 1));
      now.mockReturnValue(Date.UTC(2029, 0, 1));
      const later = Array.from({ length: 5_000 }, () => createRunId());
      expect([first, ...later].sort()).toEqual([first, ...later]);
    } finally {
      now.mockRestore();
    }
  });
});

describe('identifierProblem of an id it has just accepted (issue 31)', () => {
  it('answers without checking the characters again, and still refuses what is not an id', () => {
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      const id = createRunId();
      for (let call = 0; call < 100; call += 1) expect(identifierProblem(id)).toBeUndefined();
      expect(test).toHaveBeenCalledTimes(1);
      expect(identifierProblem(undefined)).toMatch(/string/);
      expect(identifierProblem('')).toMatch(/empty/);
      expect(identifierProblem('a\ud800')).toMatch(/surrogate/);
    } finally {
      test.mockRestore();
    }
  });
});
