const marker = 'agentloom.error';
const brand = Symbol.for(marker);

/**
 * Every error code AgentLoom throws. Callers branch on `code`, never on message text.
 */
export type AgentLoomErrorCode =
  | 'invalid-configuration'
  | 'invalid-definition'
  | 'invalid-run-request'
  | 'owned-elsewhere'
  | 'ownership-lost'
  | 'run-detached'
  | 'stale-epoch'
  | 'journal-moved'
  | 'run-not-found'
  | 'run-already-exists'
  | 'run-not-finished'
  | 'approval-not-found'
  | 'input-not-found'
  | 'input-already-answered'
  | 'invalid-input-answer'
  | 'elicitation-not-found'
  | 'elicitation-not-pending'
  | 'invalid-elicitation-answer'
  | 'run-not-active'
  | 'unsupported-journal-format'
  | 'store-failure'
  | 'store-file-changed'
  | 'agent-mismatch'
  | 'run-input-mismatch'
  | 'invalid-identifier'
  | 'invalid-tool-result'
  | 'invalid-workflow'
  | 'undeclared-route'
  | 'invalid-state-update'
  | 'interrupt-outside-workflow'
  | 'loop-limit-reached'
  | 'run-not-continuable'
  | 'model-call-failed'
  | 'compression-failed'
  | 'over-window'
  | 'missing-prompt-variable'
  | 'run-blocked'
  | 'tool-execution-failed'
  | 'invalid-skill'
  | 'workspace-access-denied'
  | 'file-not-found'
  | 'file-edit-conflict'
  | 'file-not-read'
  | 'memory-scope-missing'
  | 'file-too-large'
  | 'invalid-search-pattern'
  | 'sandbox-unavailable'
  | 'run-not-settled'
  | 'mcp-connection-failed'
  | 'mcp-request-failed'
  | 'mcp-tool-failed'
  | 'mcp-authorization-required'
  | 'mcp-authorization-refused'
  | 'mcp-authorization-discovery-failed'
  | 'a2a-card-failed'
  | 'a2a-connection-failed'
  | 'a2a-request-failed'
  | 'a2a-task-failed'
  | 'a2a-auth-required'
  | 'a2a-input-required'
  | 'a2a-outcome-unknown'
  | 'deferred-tool-not-found'
  | 'invalid-tool-arguments';

/**
 * Base class of every AgentLoom error: a string `code` for branching and a `Symbol.for` brand so
 * that `isInstance` works across duplicated copies of the package (where `instanceof` fails).
 */
export class AgentLoomError extends Error {
  /** Machine-readable reason; stable across versions. */
  readonly code: AgentLoomErrorCode;

  constructor(code: AgentLoomErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Whether `error` is any AgentLoom error, even one from another copy of the package. */
  static isInstance(error: unknown): error is AgentLoomError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true;
  }
}

/** Creates the `isInstance` guard of one error subclass, checked by code so it survives bundling. */
export function hasErrorCode<T extends AgentLoomError>(error: unknown, code: AgentLoomErrorCode): error is T {
  return AgentLoomError.isInstance(error) && error.code === code;
}
