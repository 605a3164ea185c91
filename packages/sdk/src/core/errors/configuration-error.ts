import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/** One problem found in a configuration, with the path of the offending field. */
export interface ConfigurationIssue {
  path: string;
  message: string;
}

/**
 * Thrown at construction when a configuration is invalid, before any side effect (B-4).
 * `issues` lists every problem at once so a caller can fix them in one go.
 */
export class InvalidConfigurationError extends AgentLoomError {
  readonly issues: readonly ConfigurationIssue[];

  constructor(subject: string, issues: readonly ConfigurationIssue[]) {
    const list = issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`).join('\n');
    super('invalid-configuration', `Invalid ${subject} configuration:\n${list}`);
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidConfigurationError {
    return hasErrorCode(error, 'invalid-configuration');
  }
}

/** Thrown when a run request contradicts the stored run (other session, other input). */
export class InvalidRunRequestError extends AgentLoomError {
  readonly runId: string;

  constructor(runId: string, message: string) {
    super('invalid-run-request', message);
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is InvalidRunRequestError {
    return hasErrorCode(error, 'invalid-run-request');
  }
}

/**
 * A run was asked for by an agent other than the one that created it (different name, mode or
 * roles). A run belongs to its agent for life: another agent neither resumes it nor reads its
 * answer. Use a new run id.
 */
export class AgentMismatchError extends AgentLoomError {
  readonly runId: string;
  /** The identity stored with the run. */
  readonly recorded: AgentIdentity;
  /** The identity of the agent that asked. */
  readonly requested: AgentIdentity;

  constructor(runId: string, recorded: AgentIdentity, requested: AgentIdentity) {
    super(
      'agent-mismatch',
      `Run ${runId} belongs to agent ${describeIdentity(recorded)}, not ${describeIdentity(requested)}; use a new run id.`,
    );
    this.runId = runId;
    this.recorded = recorded;
    this.requested = requested;
  }

  static override isInstance(error: unknown): error is AgentMismatchError {
    return hasErrorCode(error, 'agent-mismatch');
  }
}

/** What identifies the agent of a run: its name, mode and role names (no platform data, P-1.2). */
export interface AgentIdentity {
  name: string;
  mode: string;
  /** The entry role first, then the executors in configuration order. */
  roles: readonly string[];
}

function describeIdentity(identity: AgentIdentity): string {
  return `"${identity.name}" (${identity.mode}; roles ${identity.roles.join(', ')})`;
}

/**
 * A call resumed or looked up a run with an input other than the one the run was created with.
 * A run's input is fixed at creation: a different question is a new run.
 */
export class RunInputMismatchError extends AgentLoomError {
  readonly runId: string;

  constructor(runId: string) {
    super('run-input-mismatch', `Run ${runId} was started with another input; it is never replaced (R-3). Start a new run.`);
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is RunInputMismatchError {
    return hasErrorCode(error, 'run-input-mismatch');
  }
}

/** A run or session id (or another identifier) is not usable by every store. */
export class InvalidIdentifierError extends AgentLoomError {
  /** Which identifier: `runId`, `sessionId`, … */
  readonly field: string;

  constructor(field: string, problem: string) {
    super('invalid-identifier', `Invalid ${field}: ${problem}.`);
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidIdentifierError {
    return hasErrorCode(error, 'invalid-identifier');
  }
}
