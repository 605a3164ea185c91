import type { RoleDefinition, RunContext } from '../run-context.js';

/** What a task's loop ended with, for its caller to turn into a run or delegation result. */
export type TaskOutcome = { kind: 'answered'; answer: string } | { kind: 'loop-budget-exhausted' };

/**
 * Thrown through a planner's batch when an executor found the shared loop budget exhausted:
 * the whole run ends `loop-budget-exhausted`. Control flow, not an error.
 */
export class LoopBudgetExhausted {
  readonly reason = 'loop-budget-exhausted';

  /** Whether `value` is this marker. */
  static isInstance(value: unknown): value is LoopBudgetExhausted {
    return value instanceof LoopBudgetExhausted;
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

  /** Drives the task `taskId` of this role until it answers or the budget ends it. */
  abstract drive(context: RunContext, taskId: string): Promise<TaskOutcome>;
}
