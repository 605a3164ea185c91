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
