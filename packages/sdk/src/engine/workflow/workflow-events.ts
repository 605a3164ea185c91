import type { Usage } from '../../core/messages.js';
import type { RunEvent } from '../agent/run-events.js';
import type { WorkflowTaskFailure } from './nodes/workflow-node.js';
import type { WorkflowInterrupt } from './pregel/interrupt.js';
import type { LoopLimitHit, RunLineage, WorkflowTerminalReason } from './pregel/workflow-journal.js';
import type { TeamEventPayload } from './team-events.js';

/**
 * The outcome of a workflow run, as `result()` gives it. `interrupted` is not an end: the run
 * waits for a resume (`workflow.run({ runId, resume })`) and keeps its place in the store.
 */
export interface WorkflowResult<State = Record<string, unknown>> {
  runId: string;
  sessionId: string;
  status: 'succeeded' | 'failed' | 'stopped' | 'interrupted';
  /** The output fields of the final state; only when `status` is `succeeded`. */
  output?: Partial<State>;
  /** The pending interrupts, when `status` is `interrupted`. */
  interrupts?: WorkflowInterrupt[];
  /** Present whenever the run failed or stopped. */
  reason?: WorkflowTerminalReason;
  /** The failed task, when `reason` is `node-failed`. */
  failure?: WorkflowTaskFailure;
  /** Supersteps completed. */
  steps: number;
  /** Business loops charged by agent nodes (W-6). */
  loops: number;
  usage: Usage;
  /** Loops that ended by their `maxIterations` rather than their condition (absent when none did). */
  loopLimits?: LoopLimitHit[];
  /** The earlier run this one continues (`continueFrom` / `rerunFrom`). */
  continues?: RunLineage;
}

/**
 * Lifecycle events of a workflow run (W-5: node and run status), named `<noun>-<verb>`. In
 * `sync` durability, a finish event reports a fact that is already saved.
 */
export type WorkflowEvent =
  | {
      type: 'workflow-start';
      runId: string;
      sessionId: string;
      resumed: boolean;
      epoch: number;
      /** The earlier run this one continues (`continueFrom` / `rerunFrom`). */
      continues?: RunLineage;
    }
  | { type: 'step-start'; runId: string; step: number; tasks: { taskId: string; node: string }[] }
  | { type: 'task-start'; runId: string; step: number; taskId: string; node: string }
  | {
      type: 'task-finish';
      runId: string;
      step: number;
      taskId: string;
      node: string;
      status: 'succeeded' | 'failed' | 'interrupted';
      failure?: WorkflowTaskFailure;
    }
  /** An attempt of the task failed; another starts after `waitMs` (the task's retry policy). */
  | {
      type: 'task-retry';
      runId: string;
      step: number;
      taskId: string;
      node: string;
      attempt: number;
      failure: WorkflowTaskFailure;
      waitMs: number;
    }
  /** The loop leaving node `loop` ended by its `maxIterations`, its condition still true. */
  | { type: 'loop-limit'; runId: string; step: number; taskId: string; loop: string; iterations: number }
  /** An event of the agent run an agent node invoked (its inner run, R-6). */
  | { type: 'agent-event'; runId: string; taskId: string; node: string; event: RunEvent }
  /** An agent node's task is bound to its inner agent run: follow that run for its own events. */
  | {
      type: 'agent-invoke';
      runId: string;
      step: number;
      taskId: string;
      node: string;
      agentRunId: string;
      agentSessionId: string;
    }
  /** Someone asked the run to stop (from any process); the owner ends it `user-stop` (S-5). */
  | { type: 'stop-request'; runId: string; reason?: string; requestedBy: string }
  /** The run waits for outside input: `interrupt()` calls (live only), or an input node's question (saved, issue 36). */
  | { type: 'workflow-interrupt'; runId: string; interrupts: WorkflowInterrupt[] }
  | { type: 'workflow-finish'; runId: string; result: WorkflowResult }
  /** An event of a team (N-12), saved with the writes of the task that made it (`team-events.ts`). */
  | WorkflowTeamEvent;

/** A team event with the identity of the workflow task whose saved writes carry it. */
export type WorkflowTeamEvent = TeamEventPayload & { runId: string; step: number; taskId: string; node: string };

/**
 * A workflow event with the journal sequence of the entry it reports, as `RunClient.readEvents`
 * and `follow` give them. Only events that report a saved fact have one: `workflow-start`,
 * `agent-invoke`, `task-retry`, `task-finish`, `stop-request`, `workflow-finish`.
 */
export type WorkflowRunEvent = WorkflowEvent & { sequence: number };
