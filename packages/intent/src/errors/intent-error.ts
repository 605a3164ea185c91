const brand = Symbol.for('agentloom.intent.error');

/**
 * Every error code `@agentloom/intent` throws. Callers branch on `code`, never on message text.
 * The package stands alone (it imports nothing from `@agentloom/sdk`), so it has its own base
 * class, shaped like the SDK's: a `code` and a `Symbol.for` brand that survives duplicated copies.
 */
export type IntentErrorCode =
  | 'invalid-catalog'
  | 'invalid-understand-input'
  | 'invalid-corpus'
  | 'embedder-failed'
  | 'command-generator-failed';

/** One problem of a catalog, corpus or input: where it is (a dotted path) and what is wrong. */
export interface IntentProblem {
  /** Dotted path into the JSON, array indexes included (`actions.2.rules.patterns.0`); empty for the root. */
  path: string;
  message: string;
}

/** Base class of every error of the intent layer. */
export class IntentError extends Error {
  readonly code: IntentErrorCode;

  constructor(code: IntentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
    Object.defineProperty(this, brand, { value: true });
  }

  /** `instanceof` that also holds across two copies of the package. */
  static isInstance(error: unknown): error is IntentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true;
  }
}

/** Lists problems one a line under a heading. */
function describe(heading: string, problems: readonly IntentProblem[]): string {
  return `${heading}:\n${problems.map((problem) => `  - ${problem.path || '(root)'}: ${problem.message}`).join('\n')}`;
}

/**
 * A catalog that does not match the format, or that matches it but cannot work: two actions with
 * the same reference, a regular expression RE2 cannot compile, a one-character Chinese keyword.
 * `problems` lists every problem at once.
 */
export class InvalidCatalogError extends IntentError {
  readonly problems: readonly IntentProblem[];

  constructor(problems: readonly IntentProblem[]) {
    super('invalid-catalog', describe('Invalid intent catalog', problems));
    this.problems = problems;
  }
}

/** `understand` was given something it cannot read: an utterance that is not text, a state that names no action of the catalog. */
export class InvalidUnderstandInputError extends IntentError {
  readonly problems: readonly IntentProblem[];

  constructor(problems: readonly IntentProblem[]) {
    super('invalid-understand-input', describe('Invalid input to understand()', problems));
    this.problems = problems;
  }
}

/** An evaluation corpus that does not match `{ catalog, dialogues: [{ id, turns: [{ user, expect }] }] }`. */
export class InvalidCorpusError extends IntentError {
  readonly problems: readonly IntentProblem[];

  constructor(problems: readonly IntentProblem[]) {
    super('invalid-corpus', describe('Invalid intent corpus', problems));
    this.problems = problems;
  }
}

/** The injected `Embedder` failed or answered something unusable (a wrong count or length of vectors). */
export class EmbedderError extends IntentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('embedder-failed', message, options);
  }
}

/** The injected `CommandGenerator` threw. Output it returned, however wrong, is never an error: it is validated. */
export class CommandGeneratorError extends IntentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('command-generator-failed', message, options);
  }
}

/** Joins zod-style path segments into the dotted form of `IntentProblem.path`. */
export function pathOf(segments: readonly PropertyKey[]): string {
  return segments.map((segment) => String(segment)).join('.');
}
