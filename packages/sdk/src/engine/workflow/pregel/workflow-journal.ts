import type { Usage } from '../../../core/messages.js';
import { journalReader } from '../../run/journal-reader.js';
import type { RunRequestedRecord, StopRequestedRecord } from '../../run/run-requests.js';
import type { InputAnswer } from '../input/input-answer.js';
import type { WorkflowTaskFailure } from '../nodes/workflow-node.js';

/** The format of a workflow run's journal; a run in another format is refused (B-6). */
export const WORKFLOW_JOURNAL_FORMAT = 1;

/** One write of a task to a channel: a state field update, a trigger, a join arrival, a send. */
export type ChannelWrite = [channel: string, value: unknown];

/** How often a workflow saves its progress (N-10). */
export type Durability = 'sync' | 'async' | 'exit';

/** Why a workflow run ended without success: typed values, never message text (S-11). */
export type WorkflowTerminalReason =
  | 'user-stop'
  | 'run-timeout'
  | 'loop-budget-exhausted'
  | 'step-limit-exceeded'
  | 'node-failed'
  /** Two tasks of one superstep wrote a single-value field whose `onConflict` is `error`. */
  | 'write-conflict'
  /** A loop with `onLimit: 'fail'` reached its `maxIterations` while its condition still held. */
  | 'loop-limit-reached';

/** A loop that ended because it reached its `maxIterations`, not because its condition failed. */
export interface LoopLimitHit {
  /** The loop's `from` node (a workflow has at most one loop leaving a node). */
  loop: string;
  /** The superstep whose task decided it. */
  step: number;
  iterations: number;
}

/**
 * Where a new run takes its start from an earlier run (NOT-6: the earlier run is never
 * restarted; a new run reuses its saved writes): after its failure, or before a node.
 */
export type RunLineage = { runId: string; from: 'failure' } | { runId: string; from: 'node'; node: string; step: number };

/** How a workflow run ended, as saved in its last journal entry (the output is derived state). */
export interface WorkflowEnding {
  status: 'succeeded' | 'failed' | 'stopped';
  reason?: WorkflowTerminalReason;
  failure?: WorkflowTaskFailure;
  /** Supersteps run. */
  steps: number;
  /** Business loops charged by the run's agent nodes (W-6). */
  loops: number;
  usage: Usage;
  /** The declared output fields of the final state, when it succeeded: readers need no graph to show them. */
  output?: Record<string, unknown>;
  /** Loops that ended by their `maxIterations` rather than by their condition. */
  loopLimits?: LoopLimitHit[];
}

/**
 * The typed records of a workflow run's journal: its own scope in the run store, apart from the
 * journals of the agent runs its agent nodes invoke. The journal stores deltas only — the
 * input once, then each task's channel writes as it finishes — never the whole state per step;
 * recovery folds the writes superstep by superstep (ADR 0003). Every write and every read of the
 * journal goes through this union (`DurableRun<…, WorkflowJournalRecord>`, `Recorder`,
 * `workflowJournal`), so a misspelt record type or a wrong field does not compile.
 */
export type WorkflowJournalRecord =
  /** A host recorded the run before an executor took it (`createRun`); `workflow-started` follows. */
  | RunRequestedRecord
  /** A durable stop request from any process (S-5). */
  | StopRequestedRecord
  | {
      type: 'workflow-started';
      data: {
        formatVersion: number;
        workflow: string;
        fingerprint: string;
        /** The input as given, to refuse a different one on re-entry. */
        input: unknown;
        /** The input's writes and START's transitions: superstep -1. */
        writes: ChannelWrite[];
        durability: Durability;
        maxSteps: number;
        maxLoops: number | null;
        deadlineAt: number;
        /** The run this one continues, when it was created by `continueFrom` or `rerunFrom`. */
        continues?: RunLineage;
      };
    }
  /** A task finished: its writes (state updates and transitions), saved the moment it finished. */
  | {
      type: 'task-finished';
      taskId: string;
      /** `reused`: copied from the run this one continues; its loops and usage were charged there. */
      data: { step: number; writes: ChannelWrite[]; loops?: number; usage?: Usage; reused?: true };
    }
  /** One attempt of a task failed and another follows at `retryAt` (epoch ms); saved before the wait. */
  | {
      type: 'task-attempt-failed';
      taskId: string;
      data: { step: number; attempt: number; failure: WorkflowTaskFailure; retryAt: number };
    }
  /**
   * A note of a capability task's tool call (its `callJournal`), durable before the tool goes on:
   * e.g. an A2A message id before the send, so that the task run again after a crash continues the
   * call instead of repeating it.
   */
  | { type: 'task-noted'; taskId: string; data: { step: number; key: string; value: unknown } }
  /** A task paused on `interrupt()`; it runs again once the interrupt is answered. */
  | { type: 'task-interrupted'; taskId: string; data: { step: number; interrupt: { id: string; value: unknown } } }
  /** A task failed; written with the run's end. */
  | { type: 'task-failed'; taskId: string; data: { step: number; failure: WorkflowTaskFailure; loops?: number } }
  /** An agent node's task is about to run (or reattach to) this inner run: the stable reference. */
  | {
      type: 'agent-invoked';
      taskId: string;
      data: { step: number; runId: string; sessionId: string; loopBudget?: number; reused?: true };
    }
  /** Answers to pending interrupts, by interrupt id. */
  | { type: 'resume-accepted'; data: { values: Record<string, unknown> } }
  /**
   * An answer to an input node (issue 36): appended by anyone through the store's external append
   * (a person's answer), or by the owner (the input's timeout outcome, `timedOut`). Of several
   * answers to one input, the first in the journal is the answer; the others are never used.
   */
  | { type: 'input-answered'; taskId: string; data: InputAnswer }
  | { type: 'workflow-finished'; data: WorkflowEnding };

/** The `workflow-started` record: the run's input, graph and policy, written once. */
export type WorkflowStartedRecord = Extract<WorkflowJournalRecord, { type: 'workflow-started' }>;

/** The typed reads of a workflow run's journal. */
export const workflowJournal = journalReader<WorkflowJournalRecord>();
