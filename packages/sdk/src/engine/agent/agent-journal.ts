import type { Failure } from '../../core/failure.js';
import type { AssistantMessage, Message, ToolCall, Usage } from '../../core/messages.js';
import type { RunResult } from '../../core/run-result.js';
import type { HookOutcome } from '../../hooks/hook-types.js';
import type { FinishReason, ModelResponseMetadata } from '../../model/language-model.js';
import { journalReader } from '../run/journal-reader.js';
import type { RunRequestedRecord, StopRequestedRecord } from '../run/run-requests.js';
import type { ContextReport } from './context-features/index.js';
import type { ResolvedExecution } from './execution-options.js';

/** Which model of a fallback chain: its place (0 = the agent's `model`) is in the record beside it. */
export interface ModelIdentity {
  provider: string;
  modelId: string;
}

/**
 * Journal format written by this version. Format 2 (issue 18, ADR 0010) keeps the session history
 * of `run-started` by reference (`historyFrom`) instead of a copy (`history`, format 1).
 */
export const AGENT_JOURNAL_FORMAT = 2;

/** Formats this version reads; a run in any other is refused (B-6). */
export const READABLE_AGENT_JOURNAL_FORMATS: readonly number[] = [1, 2];

/**
 * The typed facts the agent engine writes to a run's journal. Each is appended before its effect
 * becomes visible, and the state of a run is the fold of these records (ARCHITECTURE §2).
 */
export type AgentJournalRecord =
  /** A host recorded the run before an executor took it (`createRun`); `run-started` follows. */
  | RunRequestedRecord
  /** A durable stop request from any process (S-5). */
  | StopRequestedRecord
  /** The run was created with this input and execution snapshot (C-15); written exactly once. */
  | {
      type: 'run-started';
      data: {
        formatVersion: number;
        agentName: string;
        mode: 'react' | 'plan-executor';
        /** The role of the entry task: the ReAct role or the planner. */
        entryRole: string;
        /**
         * Every role name of the agent, entry role first (issue 18): with `agentName` and `mode`,
         * the identity a resume must match. Absent in runs recorded before it was kept.
         */
        roles?: string[];
        input: string;
        execution: ResolvedExecution;
        deadlineAt: number;
        /** Format 1 only: a copy of the session history selected at creation (H-3). */
        history?: Message[];
        /**
         * Format 2: the session history selected at creation (H-3), fixed for the run's whole life,
         * as a reference to the earlier runs it is made of (finished runs never change).
         */
        historyFrom?: HistoryReference;
        /** Supplements of earlier runs that they never consumed, carried into this run once (S-4). */
        carried: CarriedSupplement[];
        /** The context-window settings of the run (C-2), kept for life like the execution snapshot. */
        window: WindowSettings;
        /** The prompt variables the run was started with (C-12, C-15). */
        variables: Record<string, string>;
        /** The session note of the run, appended at the end of the entry role's context (N-15). */
        sessionNote?: string;
        /** The user command the input was expanded from (N-15). */
        command?: string;
        /** Set when the run regenerates an earlier run's answer as a new variant (N-15). */
        variant?: RunVariant;
      };
    }
  /**
   * The file changes of the variant this run replaces were rolled back (N-6, N-15), before this
   * run's first model call; `failed` lists the paths that could not be restored.
   */
  | { type: 'variant-files-restored'; data: { replaces: string; restored: string[]; failed: string[] } }
  /** A business loop of one task began; the loop is charged to the run's budget in the same commit. */
  | { type: 'loop-started'; taskId: string; data: { loop: number } }
  /** One model attempt failed; its partial output is kept here, marked incomplete (S-9). */
  | {
      type: 'model-attempt-failed';
      taskId: string;
      data: { loop: number; attempt: number; failure: Failure; partialText: string; incomplete: true; retryWaitMs?: number };
    }
  /** A complete, validated model response: the decision of this loop. */
  | {
      type: 'model-responded';
      taskId: string;
      data: {
        loop: number;
        attempt: number;
        message: AssistantMessage;
        finishReason: FinishReason;
        usage: Usage;
        /** The provider's id and model of the response, when it gave them (telemetry, audit). */
        response?: ModelResponseMetadata;
        /** The model of the chain that answered; kept only by agents with fallback models (N-15). */
        model?: ModelIdentity;
        /** What the request was made of: section sizes and the system-prefix hash (N-15). */
        context?: ContextReport;
      };
    }
  /**
   * The run moves to the next model of its fallback chain (N-15) after `failure`, the final
   * failure of `from`; every later call of the run, a takeover's included, uses `to`.
   */
  | {
      type: 'model-fallback';
      taskId: string;
      data: { loop: number; fromIndex: number; toIndex: number; from: ModelIdentity; to: ModelIdentity; failure: Failure };
    }
  /** Intent: attempt `attempt` of an operation is about to run (written before the external call, X-7). */
  | { type: 'attempt-started'; taskId: string; data: { operationId: string; attempt: number } }
  /**
   * A note of a running call (its `callJournal`), written by the tool before an external effect so
   * that the attempt continuing the call after a crash reads it: e.g. an A2A message id
   * before the send, the remote task id before the wait.
   */
  | { type: 'operation-noted'; taskId: string; data: { operationId: string; key: string; value: unknown } }
  /**
   * A running script (code orchestration, N-15) called a tool: an operation of its own, with the
   * deterministic id `<script operation id>#<index>` (`index` counts the script's calls), run like
   * a direct call; its result goes back to the script, never into the context. A script run again
   * after a crash gets the saved result of each call it had made instead of making it again.
   */
  | {
      type: 'script-call-started';
      taskId: string;
      data: { operationId: string; scriptOperationId: string; index: number; call: ToolCall };
    }
  /** An attempt failed and another will follow at `retryAt` (epoch ms). */
  | { type: 'attempt-failed'; taskId: string; data: { operationId: string; attempt: number; failure: Failure; retryAt: number } }
  /** The final outcome of an operation, as the model will see it. */
  | {
      type: 'operation-finished';
      taskId: string;
      data: {
        operationId: string;
        status: 'succeeded' | 'failed';
        content: string;
        attempts: number;
        failure?: Failure;
        /** The tool's own result when a post-use hook changed or withheld it (K-9). */
        rawContent?: string;
        modifiedBy?: string[];
      };
    }
  /** A user supplement reached the run, from any machine (H-2, S-1); written through `appendExternal`. */
  | { type: 'supplement-accepted'; taskId: string; data: { supplementId: string; text: string } }
  /** Supplements entered the entry role's context before its next model call (S-3). */
  | { type: 'supplement-consumed'; taskId: string; data: { supplementIds: string[] } }
  /** The compression agent started on a task's context, to cover raw messages `[0, coveredUpTo)` (H-6). */
  | { type: 'compression-started'; taskId: string; data: { coveredUpTo: number } }
  /** A summary now stands for raw messages `[0, coveredUpTo)` of the task, protected ones excepted (H-8). */
  | { type: 'compression-committed'; taskId: string; data: { coveredUpTo: number; summary: string; usage: Usage } }
  /**
   * The compression agent started on the session history of this run (ADR 0012): a checkpoint
   * that covers the session's first `count` agent runs, through `through` (H-6, H-8).
   */
  | { type: 'checkpoint-started'; data: { through: { runId: string; createdAt: number }; count: number } }
  /**
   * The checkpoint's summary now stands for the session's first `count` runs in this run's history:
   * it replaces the first `replaces` history messages (the earlier checkpoint and the summary of
   * older runs), followed by `remainder`, the summary of the older runs it does not cover.
   */
  | {
      type: 'checkpoint-committed';
      data: {
        through: { runId: string; createdAt: number };
        count: number;
        summary: string;
        replaces: number;
        remainder?: string;
        usage: Usage;
      };
    }
  /** A delegation became an executor task with its own identity and private context (D-3, L-5). */
  | {
      type: 'task-created';
      taskId: string;
      data: {
        role: string;
        parentTaskId: string;
        operationId: string;
        input: string;
        /** A background task (N-7): the delegation returned at once; the result reaches the planner as a later input. */
        background?: boolean;
      };
    }
  /**
   * A finished background task is resumed by id (N-7) by the delegation `operationId`: `input` is
   * added to its own transcript and it loops again; its next result arrives as a later input too.
   */
  | { type: 'task-resumed'; taskId: string; data: { operationId: string; input: string } }
  /** An executor task ended; written with the delegation's result, so the planner sees it once. */
  | {
      type: 'task-finished';
      taskId: string;
      data: { status: 'succeeded' | 'failed'; output?: string; failure?: Failure };
    }
  /** A final answer did not match the role's output schema: the feedback is the next loop's input (O-1). */
  | { type: 'answer-rejected'; taskId: string; data: { loop: number; feedback: string } }
  /**
   * The gate of a call, decided once before its first attempt and reused on every retry and after
   * a crash: PreToolUse hooks, tool guardrails and the permission policy, on the effective
   * arguments. The raw arguments stay in `model-responded`; `modifiedBy` names the source (K-9).
   */
  | {
      type: 'tool-gated';
      taskId: string;
      data: {
        operationId: string;
        decision: 'allow' | 'ask' | 'deny';
        reason?: string;
        source?: string;
        effectiveArguments: unknown;
        modifiedBy: string[];
        outcomes: HookOutcome[];
      };
    }
  /** A call waits for a person's (or an approval service's) decision; durable across crashes. */
  | {
      type: 'approval-requested';
      taskId: string;
      data: {
        approvalId: string;
        operationId: string;
        toolName: string;
        arguments: unknown;
        reason: string;
        /** Epoch ms after which the call is denied for lack of a decision; fixed at the request. */
        expiresAt?: number;
      };
    }
  /** The decision on an approval; the first one wins, none is taken after the run ended. */
  | {
      type: 'approval-decided';
      taskId: string;
      data: { approvalId: string; approved: boolean; reason?: string; decidedBy: string };
    }
  /**
   * A running call's MCP server asked the user a question (`elicitation/create`, N-8), journaled
   * before the call waits (ADR 0038): the question and the schema its answer must match. Answered
   * only through `RunClient.answerElicitation` (a person), never by a model, a peer's message or a
   * supplement; `cancel` at `expiresAt`.
   */
  | { type: 'elicitation-requested'; taskId: string; data: ElicitationRequestedData }
  /** The answer to an elicitation; the first one wins, none is taken once its call has a result. */
  | { type: 'elicitation-answered'; taskId: string; data: ElicitationAnsweredData }
  /** The raw result of a successful attempt, saved before post-processing hooks run. */
  | { type: 'attempt-succeeded'; taskId: string; data: { operationId: string; attempt: number; raw: string } }
  /** A hook chain's saved verdict on a non-tool step (input, supplement, stop, delegation, compaction). */
  | {
      type: 'hook-applied';
      taskId: string;
      data: {
        trigger: string;
        subject: string;
        decision: string;
        reason?: string;
        source?: string;
        effective?: unknown;
        outcomes: HookOutcome[];
      };
    }
  /** Every member of the loop's batch has a result; the results enter the task's context. */
  | { type: 'batch-joined'; taskId: string; data: { loop: number } }
  /** The run ended with this result; nothing is written after it (S-6). */
  | { type: 'run-finished'; data: RunResult };

/** The `type` of every agent journal record. */
export type AgentJournalRecordType = AgentJournalRecord['type'];

/** The typed reads of an agent run's journal. */
export const agentJournal = journalReader<AgentJournalRecord>();

/**
 * Which earlier runs of its session a run's history is made of (H-3, ADR 0010). Its size depends
 * on the history window (C-1) and on the runs unfinished at selection, never on the session's length.
 */
export interface HistoryReference {
  /** The newest earlier run considered, and its creation time; absent when there was none. */
  through?: { runId: string; createdAt: number };
  /** How many earlier runs were considered (the summary numbers them 1…count). */
  count: number;
  /**
   * The session checkpoint the history starts from (ADR 0012): the run whose digest holds it.
   * `through`, `count` and `full` then count the checkpoint's runs too.
   */
  checkpoint?: { runId: string };
  /** The finished runs given in full (the N most recent, C-1), oldest first. */
  full: string[];
  /** Earlier runs unfinished at selection, as they stood then: summarised as unfinished. */
  unfinished: Array<{ runId: string; input: string; supplements: string[] }>;
  /** Runs left out because a later variant replaced them (N-15); a resume leaves out the same. */
  excluded?: string[];
}

/**
 * A run that regenerates an earlier answer (N-15): it belongs to that run's variant `group` (the
 * id of the group's first run) and `replaces` the run it regenerated, which stays in the session.
 */
export interface RunVariant {
  group: string;
  replaces: string;
}

/**
 * What a finished agent run leaves on its row for later runs of its session (`AppendRequest.digest`):
 * its inputs, which of its supplements it consumed, and the supplements it carried in (S-4), so a
 * new run reads neither its journal nor its `run-started`.
 */
export interface AgentRunDigest {
  input: string;
  /** The variant group the run belongs to, when it regenerated an earlier answer (N-15). */
  variant?: RunVariant;
  supplements: Array<{ supplementId: string; text: string; consumed: boolean }>;
  carried: CarriedSupplement[];
  /** The session checkpoint this run made (ADR 0012); the store keeps the run it covers through. */
  checkpoint?: SessionCheckpoint;
}

/**
 * A summary of a session's first `count` agent runs, through `through` (H-8), made by the
 * compression agent from the previous checkpoint and the runs after it (ADR 0012).
 */
export interface SessionCheckpoint {
  summary: string;
  through: { runId: string; createdAt: number };
  count: number;
}

/** A supplement that an earlier run of the session accepted but never consumed. */
export interface CarriedSupplement {
  runId: string;
  supplementId: string;
  text: string;
}

/** When a role's context must be compressed, and the window it must never exceed. */
export interface WindowSettings {
  windowTokens?: number;
  compressionThreshold: number;
}

/** What `elicitation-requested` records: the question of an MCP server to the run's user. */
export interface ElicitationRequestedData {
  /** Stable id: `<operationId>#<key>` (the same question asked again after a takeover keeps it). */
  elicitationId: string;
  operationId: string;
  /** The tool (as the model named it) whose call the server asked during. */
  toolName: string;
  /** The MCP server that asked. */
  server: string;
  message: string;
  /** `form`: answer with content matching `requestedSchema`; `url`: the user visits `url`. */
  mode: 'form' | 'url';
  /** The restricted JSON Schema (a flat object of strings, numbers, booleans, enums) of the content. */
  requestedSchema?: Record<string, unknown>;
  url?: string;
  /** Epoch ms after which the question is cancelled for lack of an answer; fixed at the request. */
  expiresAt: number;
}

/** What `elicitation-answered` records: the user's action, and the content of an accepted form. */
export interface ElicitationAnsweredData {
  elicitationId: string;
  action: 'accept' | 'decline' | 'cancel';
  /** The accepted content, with the requested schema's defaults applied (SEP-1034). */
  content?: Record<string, string | number | boolean | string[]>;
  /** Who answered: a person's actor id, or `timeout`. */
  answeredBy: string;
}
