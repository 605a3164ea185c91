import { AgentLoomError, hasErrorCode } from '../core/errors/agentloom-error.js';

/** One problem of a definition: where it is (a dotted path into the JSON) and what is wrong. */
export interface DefinitionProblem {
  /** Dotted path into the definition, array indexes included: `executors.0.tools.1`; empty for the root. */
  path: string;
  message: string;
}

/**
 * Thrown by `createAgent` and `createWorkflow` when a definition cannot be built: it does not
 * match the format, names something the registry does not have, or describes an agent or graph
 * that would not validate. `problems` lists every problem at once, each with its path, so that an
 * editor can point at them; nothing was created or stored.
 */
export class InvalidDefinitionError extends AgentLoomError {
  /** `agent "name"` or `workflow "name"`. */
  readonly subject: string;
  readonly problems: readonly DefinitionProblem[];

  constructor(subject: string, problems: readonly DefinitionProblem[]) {
    const list = problems.map((problem) => `  - ${problem.path || '(root)'}: ${problem.message}`).join('\n');
    super('invalid-definition', `Invalid ${subject} definition:\n${list}`);
    this.subject = subject;
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is InvalidDefinitionError {
    return hasErrorCode(error, 'invalid-definition');
  }
}

/** Joins zod-style path segments into the dotted form of `DefinitionProblem.path`. */
export function pathOf(segments: readonly PropertyKey[]): string {
  return segments.map((segment) => String(segment)).join('.');
}
