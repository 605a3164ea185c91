import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';

/** `call_tool` named a tool that is not among the registry's deferred tools. */
export class DeferredToolNotFoundError extends AgentLoomError {
  readonly toolName: string;
  readonly retryable = false;

  constructor(toolName: string) {
    super('deferred-tool-not-found', `there is no deferred tool named "${toolName}"; find tools with tool_search first`);
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is DeferredToolNotFoundError {
    return hasErrorCode(error, 'deferred-tool-not-found');
  }
}

/** `call_tool` gave arguments the deferred tool's schema rejects; the tool did not run. */
export class InvalidToolArgumentsError extends AgentLoomError {
  readonly toolName: string;
  readonly retryable = false;

  constructor(toolName: string, detail: string) {
    super('invalid-tool-arguments', `invalid arguments for "${toolName}": ${detail}`);
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is InvalidToolArgumentsError {
    return hasErrorCode(error, 'invalid-tool-arguments');
  }
}
