import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { InvalidIdentifierError } from './errors/index.js';

/**
 * A new run id. Callers that want to resume later should keep it (or choose their own).
 *
 * `run_` and a time-ordered UUID (version 7, RFC 9562: 48 bits of Unix milliseconds, a 12-bit
 * counter, 62 random bits): ids made later sort later, in this process even within one
 * millisecond. A store's journal is keyed by run id first, so each new run's entries go to the
 * right-hand end of its index instead of into the middle of a full page: on SQLite a commit then
 * writes about a third fewer pages (ADR 0043). The random bits keep ids of
 * different processes apart; the id tells when the run was made, which its row says anyway.
 */
export function createRunId(): string {
  return `run_${timeOrderedUuid()}`;
}

/** Unix milliseconds of the last id made, and its counter (a random start each millisecond). */
let lastIdMs = 0;
let idCounter = 0;

/** A version 7 UUID whose value grows with each call in this process (the clock going back included). */
export function timeOrderedUuid(): string {
  const now = Date.now();
  if (now > lastIdMs) {
    lastIdMs = now;
    // A random start leaves room to count up and adds 11 random bits between processes.
    idCounter = Math.floor(Math.random() * 0x800);
  } else {
    idCounter += 1;
    if (idCounter > 0xfff) {
      // 4,096 ids in one millisecond (or the clock went back): borrow the next millisecond.
      lastIdMs += 1;
      idCounter = 0;
    }
  }
  const time = lastIdMs.toString(16).padStart(12, '0');
  // The random part of a version 4 UUID keeps its variant bits (10xx), which version 7 uses too.
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${idCounter.toString(16).padStart(3, '0')}${random.slice(18)}`;
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

/** The id `identifierProblem` last found valid (ids are strings, compared by value). */
let lastValidIdentifier: string | undefined;

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
  // A run's owner names the same run in every store call: that id was checked already (issue 31).
  if (typeof value === 'string' && value === lastValidIdentifier) return undefined;
  if (typeof value !== 'string') return `must be a string, not ${value === null ? 'null' : typeof value}`;
  if (value === '') return 'must not be empty';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (it contains a lone surrogate)';
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  // A string of at most 255 UTF-16 units has at most 255 code points: only longer ones are counted.
  if (value.length <= MAX_IDENTIFIER_LENGTH) {
    lastValidIdentifier = value;
    return undefined;
  }
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
