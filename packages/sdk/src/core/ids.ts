import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { InvalidIdentifierError } from './errors/index.js';

/** A new run id. Callers that want to resume later should keep it (or choose their own). */
export function createRunId(): string {
  return `run_${randomUUID()}`;
}

/**
 * A new owner id for one executor of one run in this process. It names the machine and process
 * so that an `owned-elsewhere` answer says who holds the run.
 */
export function createOwnerId(): string {
  // The machine's name is asked once per process (a system call per run otherwise).
  machine ??= hostname();
  return `${machine}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

let machine: string | undefined;

/** With the `u` flag a surrogate pair is one code point, so this matches only a lone surrogate. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Longest run, session or owner id any store accepts, in characters (code points). */
export const MAX_IDENTIFIER_LENGTH = 255;

/**
 * Why `value` cannot be an id, or `undefined` when it can. The one rule every store and every
 * `run()` applies (issue 18), so that an id works the same on every store: a string, not empty,
 * at most 255 characters, well-formed Unicode (no lone surrogate, which PostgreSQL would turn into
 * U+FFFD and make two ids collide) and no NUL character (which PostgreSQL cannot store).
 */
export function identifierProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, not ${value === null ? 'null' : typeof value}`;
  if (value === '') return 'must not be empty';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (it contains a lone surrogate)';
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  // A string of at most 255 UTF-16 units has at most 255 code points: only longer ones are counted.
  if (value.length <= MAX_IDENTIFIER_LENGTH) return undefined;
  let length = 0;
  for (const _character of value) {
    length += 1;
    if (length > MAX_IDENTIFIER_LENGTH) return `must be at most ${MAX_IDENTIFIER_LENGTH} characters`;
  }
  return undefined;
}

/** Throws `InvalidIdentifierError` naming `field` unless `value` is a valid id. */
export function assertIdentifier(field: string, value: unknown): asserts value is string {
  const problem = identifierProblem(value);
  if (problem !== undefined) throw new InvalidIdentifierError(field, problem);
}
