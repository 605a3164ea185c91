import type { RoleDefinition, RunContext } from '../run-context.js';

/**
 * A limit that ends the whole run when any of its tasks reaches it: the shared loop budget,
 * or the model sending invalid tool calls in more consecutive loops than it may correct
 * (`execution.maxInvalidToolCallLoops`).
 */
export type RunLimit = 'loop-budget-exhausted' | 'invalid-tool-calls';

/** What a task's loop ended with, for its caller to turn into a run or delegation result. */
export type TaskOutcome = { kind: 'answered'; answer: string } | { kind: 'limit-reached'; limit: RunLimit };

/**
 * Thrown through a planner's batch when an executor reached a run limit (an exhausted loop
 * budget, X-8, or too many invalid tool calls): the whole run ends with that reason. Control
 * flow, not an error.
 */
export class RunLimitReached {
  readonly limit: RunLimit;

  constructor(limit: RunLimit) {
    this.limit = limit;
  }

  /** Whether `value` is this marker. */
  static isInstance(value: unknown): value is RunLimitReached {
    return value instanceof RunLimitReached;
  }
}

/**
 * A node of the agent graph (D-1): it knows how to advance one task of its role. The engine owns
 * scheduling, budgets, deadlines, stop and saving; a node only reads the task's journal-backed
 * state and commits the next fact.
 */
export abstract class Node {
  readonly role: RoleDefinition;

  constructor(role: RoleDefinition) {
    this.role = role;
  }

  /** Drives the task `taskId` of this role until it answers or a run limit ends it. */
  abstract drive(context: RunContext, taskId: string): Promise<TaskOutcome>;
}
