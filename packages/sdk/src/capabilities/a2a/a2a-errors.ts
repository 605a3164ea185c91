import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';
import type { A2ATaskState } from './a2a-types.js';

/**
 * The agent card could not be read or offers nothing this client speaks (no JSON-RPC interface
 * with protocol version 1.0: the client refuses rather than fall back silently, A2A §3.6.3).
 * Not retryable by default: a wrong card does not heal by itself.
 */
export class A2ACardError extends AgentLoomError {
  readonly cardUrl: string | undefined;
  readonly retryable: boolean;

  constructor(cardUrl: string | undefined, message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super('a2a-card-failed', `A2A agent card${cardUrl ? ` at ${cardUrl}` : ''}: ${message}`, options);
    this.cardUrl = cardUrl;
    this.retryable = options?.retryable ?? false;
  }

  static override isInstance(error: unknown): error is A2ACardError {
    return hasErrorCode(error, 'a2a-card-failed');
  }
}

/**
 * A request could not be completed over the network (refused, reset, timed out, HTTP 5xx, a
 * stream cut). Retryable: a call whose remote task is known continues it; a send whose outcome
 * this leaves unknown is reconciled first, never repeated blindly.
 */
export class A2AConnectionError extends AgentLoomError {
  readonly agent: string;
  readonly status: number | undefined;
  readonly retryable = true;
  /** Read by the failure classification (`failureFromToolError`). */
  readonly failureKind = 'connection';

  constructor(agent: string, message: string, options?: { cause?: unknown; status?: number }) {
    super('a2a-connection-failed', `A2A agent "${agent}": ${message}`, options);
    this.agent = agent;
    this.status = options?.status;
  }

  static override isInstance(error: unknown): error is A2AConnectionError {
    return hasErrorCode(error, 'a2a-connection-failed');
  }
}

/**
 * The agent answered a request with an error: a JSON-RPC error (`a2aCode`: -32001 task not
 * found, -32004 unsupported operation, -32009 version not supported …) or HTTP 401/403. The
 * request was refused, so it had no effect. Internal errors (-32603) are retryable; the rest not.
 */
export class A2ARequestError extends AgentLoomError {
  readonly agent: string;
  readonly method: string;
  readonly a2aCode: number | undefined;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(agent: string, method: string, message: string, options: { a2aCode?: number; status?: number }) {
    super(
      'a2a-request-failed',
      `A2A agent "${agent}" refused ${method}${options.a2aCode !== undefined ? ` (${options.a2aCode})` : ''}: ${message}`,
    );
    this.agent = agent;
    this.method = method;
    this.a2aCode = options.a2aCode;
    this.status = options.status;
    this.retryable = options.a2aCode === -32603;
  }

  static override isInstance(error: unknown): error is A2ARequestError {
    return hasErrorCode(error, 'a2a-request-failed');
  }
}

/**
 * The remote task ended without completing: `TASK_STATE_FAILED`, `TASK_STATE_REJECTED` or
 * `TASK_STATE_CANCELED`. A business outcome the model or the workflow reads; never retried by the
 * runtime (another attempt would continue the same ended task).
 */
export class A2ATaskFailedError extends AgentLoomError {
  readonly agent: string;
  readonly taskId: string;
  readonly state: A2ATaskState;
  readonly retryable = false;

  constructor(agent: string, taskId: string, state: A2ATaskState, detail: string) {
    super('a2a-task-failed', `A2A agent "${agent}" ended task ${taskId} as ${state}${detail ? `: ${detail}` : ''}`);
    this.agent = agent;
    this.taskId = taskId;
    this.state = state;
  }

  static override isInstance(error: unknown): error is A2ATaskFailedError {
    return hasErrorCode(error, 'a2a-task-failed');
  }
}

/**
 * The remote task is in `TASK_STATE_AUTH_REQUIRED`: it needs credentials this client cannot give
 * in band (A2A §7.6.4). A typed failure; the remote task id is kept so that a person can act.
 */
export class A2AAuthRequiredError extends AgentLoomError {
  readonly agent: string;
  readonly taskId: string;
  readonly retryable = false;

  constructor(agent: string, taskId: string, detail: string) {
    super('a2a-auth-required', `A2A agent "${agent}" needs authorization for task ${taskId}${detail ? `: ${detail}` : ''}`);
    this.agent = agent;
    this.taskId = taskId;
  }

  static override isInstance(error: unknown): error is A2AAuthRequiredError {
    return hasErrorCode(error, 'a2a-auth-required');
  }
}

/**
 * The remote task asks for input (`TASK_STATE_INPUT_REQUIRED`) and nothing can answer it here:
 * no `onInputRequired` port, and the call does not run where the run can pause (a workflow node).
 * The question is in the message, for the model.
 */
export class A2AInputRequiredError extends AgentLoomError {
  readonly agent: string;
  readonly taskId: string;
  readonly question: string;
  readonly retryable = false;

  constructor(agent: string, taskId: string, question: string) {
    super('a2a-input-required', `A2A agent "${agent}" asks for input on task ${taskId}: ${question || '(no question given)'}`);
    this.agent = agent;
    this.taskId = taskId;
    this.question = question;
  }

  static override isInstance(error: unknown): error is A2AInputRequiredError {
    return hasErrorCode(error, 'a2a-input-required');
  }
}

/**
 * A message was (perhaps) sent, its answer was lost, and reconciliation (`ListTasks` by the call's
 * context, `GetTask` by the journaled id) could not find what it did. Recorded `unknown` (X-7) and
 * never retried: sending again could make the remote agent do the work twice.
 */
export class A2AOutcomeUnknownError extends AgentLoomError {
  readonly agent: string;
  readonly messageId: string;
  readonly retryable = false;
  /** Read by the failure classification: the call's outcome is `unknown-outcome`. */
  readonly failureKind = 'unknown-outcome';

  constructor(agent: string, messageId: string, detail: string) {
    super(
      'a2a-outcome-unknown',
      `A2A agent "${agent}": whether message ${messageId} was received is unknown (${detail}); it is not sent again`,
    );
    this.agent = agent;
    this.messageId = messageId;
  }

  static override isInstance(error: unknown): error is A2AOutcomeUnknownError {
    return hasErrorCode(error, 'a2a-outcome-unknown');
  }
}
