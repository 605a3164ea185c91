import { InvalidRunRequestError, RunAlreadyExistsError, RunNotActiveError, RunNotFoundError } from '../core/errors/index.js';
import { createRunId } from '../core/ids.js';
import { emptyUsage } from '../core/messages.js';
import type { RunResult } from '../core/run-result.js';
import { hasAgentRunStarted } from '../engine/agent/agent-state.js';
import { type ElicitationAnswerRequest, recordElicitationAnswer } from '../engine/agent/governance/answer-elicitation.js';
import { type ApprovalDecision, recordApprovalDecision } from '../engine/agent/governance/decide-approval.js';
import { readSessionRecord, type SessionRun } from '../engine/agent/session/index.js';
import { type SupplementReceipt, submitSupplement } from '../engine/agent/supplements.js';
import { findRunRequest, type RunRequestedRecord, stopRequestEntry } from '../engine/run/run-requests.js';
import {
  type InputAnswerRequest,
  type PendingInput,
  pendingInputsOf,
  recordInputAnswer,
} from '../engine/workflow/input/input-requests.js';
import { isUnfinished } from '../store/acquire-decision.js';
import type { RunKind, RunMetadata, RunRecord, RunStore, StoredRunStatus } from '../store/run-store.js';
import { describeAgentRun } from './describe-agent-run.js';
import { describeTeamRun } from './describe-team-run.js';
import { endPendingRun } from './end-pending-run.js';
import { type FollowWaits, followJournal, watchBeforeRead } from './follow-journal.js';
import { decodeCursor, encodeCursor, pageSize } from './list-cursor.js';
import type { RunDescription } from './run-description.js';
import { type HostedRunEvent, projectorOf, startedInput } from './run-projection.js';

/** Options of `RunClient`. */
export interface RunClientOptions {
  store: RunStore;
  /** First wait of `follow` between polls when nothing new arrived; doubles up to `maxPollMs`. Default 50. */
  pollMs?: number;
  /** Longest wait of `follow` between polls. Default 1000. */
  maxPollMs?: number;
  /**
   * With a store that wakes followers (`RunStore.watchRun`, ADR 0025), how long `follow` waits
   * without a wake-up before it reads the journal again anyway: a safety net for writes the store
   * cannot hear. Default 5,000. Stores without `watchRun` are polled (`pollMs` … `maxPollMs`).
   */
  safetyNetMs?: number;
  /** Lease the client holds for the instant it takes to end a pending run it stops. Default 30,000. */
  leaseMs?: number;
}

/** Arguments of `createRun`. */
export interface CreateRunOptions {
  /** Omit for a new id. */
  runId?: string;
  sessionId: string;
  kind: RunKind;
  /** The agent or workflow that will execute it (stored, shown in listings). */
  name: string;
  /** Text for an agent run (JSON text for structured input); any JSON value for a workflow run. */
  input: unknown;
  /** Prompt variables of an agent run (C-12). */
  variables?: Record<string, string>;
  /** Host labels (a release id, a space) stored on the run and returned everywhere. */
  metadata?: RunMetadata;
  /** The session's note for an agent run, appended at the end of its context (N-15). */
  sessionNote?: string;
}

/** A run as listings show it: its row, without the journal. */
export interface RunSummary {
  runId: string;
  sessionId: string;
  kind: RunKind;
  name: string;
  status: Exclude<StoredRunStatus, 'deleted'>;
  metadata: RunMetadata;
  loops: number;
  createdAt: number;
  updatedAt: number;
  result?: RunResult;
}

/** One page of a listing, and the cursor of the next one (absent on the last page). */
export interface Page<Item> {
  items: Item[];
  nextCursor?: string;
}

/**
 * Works on runs that this process does not own, through the store only (B-8): describe them,
 * read and follow their events, stop them, add supplements, decide approvals, read a session's
 * history, create runs for a worker to execute later, list and delete them. Separate from `Agent` and `Workflow` (which
 * execute runs), like a Temporal client is separate from its workers.
 *
 * @example
 * const client = new RunClient({ store });
 * for await (const event of client.follow(runId)) console.log(event.sequence, event.type);
 */
export class RunClient {
  private readonly store: RunStore;
  /** How `follow` waits between reads. */
  private readonly waits: FollowWaits;
  private readonly leaseMs: number;

  constructor(options: RunClientOptions) {
    this.store = options.store;
    this.waits = { pollMs: options.pollMs ?? 50, maxPollMs: options.maxPollMs ?? 1000, safetyNetMs: options.safetyNetMs ?? 5000 };
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /**
   * Records a run and its input once, unowned (`pending`), so that a host can accept a request,
   * take supplements and stops for it, and let a worker execute it later with
   * `agent.run({ runId, sessionId })`. Calling it again with the same id and the same session,
   * kind and input answers the same run (`created: false`); anything else is a
   * `RunAlreadyExistsError`.
   */
  async createRun(options: CreateRunOptions): Promise<{ runId: string; created: boolean; run: RunSummary }> {
    const runId = options.runId ?? createRunId();
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new InvalidRunRequestError(runId, 'createRun needs a non-empty sessionId.');
    }
    if (options.kind !== 'agent' && options.kind !== 'workflow') {
      throw new InvalidRunRequestError(runId, `kind must be "agent" or "workflow", not ${String(options.kind)}.`);
    }
    if (
      options.input === undefined ||
      (options.kind === 'agent' && (typeof options.input !== 'string' || options.input === ''))
    ) {
      throw new InvalidRunRequestError(runId, 'An agent run needs non-empty text input; a workflow run needs an input value.');
    }
    const metadata = options.metadata ?? {};
    if (Object.values(metadata).some((value) => typeof value !== 'string')) {
      throw new InvalidRunRequestError(runId, 'Run metadata values must be strings.');
    }
    const request: RunRequestedRecord = {
      type: 'run-requested',
      data: {
        input: options.input,
        ...(options.variables ? { variables: { ...options.variables } } : {}),
        ...(options.sessionNote ? { sessionNote: options.sessionNote } : {}),
      },
    };
    const { created, run } = await this.store.createRun({
      runId,
      sessionId: options.sessionId,
      labels: { kind: options.kind, name: options.name, metadata },
      entries: [request],
    });
    if (!created) {
      if (run.status === 'deleted') throw new RunNotFoundError(runId, { deleted: true });
      const journal = await this.store.readJournal(runId);
      const recorded = findRunRequest(journal)?.input ?? startedInput(journal);
      if (
        run.sessionId !== options.sessionId ||
        run.kind !== options.kind ||
        JSON.stringify(recorded) !== JSON.stringify(options.input)
      ) {
        throw new RunAlreadyExistsError(runId, 'with another session, kind or input');
      }
    }
    return { runId, created, run: summaryOf(run) };
  }

  /**
   * Who holds the run now, from its row alone (no journal read): the owner's id, the epoch it
   * acquired, when its lease ends and whether that is still ahead; null when no executor holds
   * it. For a host that reports its workers' runs (`describeRun` reads the whole journal).
   */
  async ownerOf(runId: string): Promise<RunDescription['owner']> {
    const run = await this.existingRun(runId);
    if (run.ownerId === null) return null;
    return { ownerId: run.ownerId, epoch: run.epoch, leaseExpiresAt: run.leaseExpiresAt, live: run.leaseExpiresAt > Date.now() };
  }

  /** The run as the store holds it, with its inner structure (P-10). */
  async describeRun(runId: string): Promise<RunDescription> {
    const run = await this.existingRun(runId);
    const journal = await this.store.readJournal(runId);
    const now = Date.now();
    const live = run.ownerId !== null && run.leaseExpiresAt > now;
    const finished = !isUnfinished(run.status);
    const stop = journal.find((entry) => entry.type === 'stop-requested')?.data as RunDescription['stopRequest'];
    const description: RunDescription = {
      runId: run.runId,
      sessionId: run.sessionId,
      kind: run.kind,
      name: run.name,
      status: run.status as RunDescription['status'],
      loops: run.loopsUsed,
      usage: run.result?.usage ?? emptyUsage(),
      metadata: run.metadata,
      owner: run.ownerId === null ? null : { ownerId: run.ownerId, epoch: run.epoch, leaseExpiresAt: run.leaseExpiresAt, live },
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
      lastSequence: run.lastSequence,
      ...(stop ? { stopRequest: stop } : {}),
      ...(run.result ? { result: run.result } : {}),
      ...(run.result?.reason ? { reason: run.result.reason } : {}),
    };
    const requested = findRunRequest(journal);
    if (requested) description.input = requested.input;
    if (run.kind === 'agent' && hasAgentRunStarted(journal)) {
      const { state, description: agent } = describeAgentRun(runId, journal, { ownerLive: live, finished });
      description.agent = agent;
      description.input ??= state.input;
      if (!run.result) description.usage = { ...state.usage };
    } else if (run.kind === 'workflow') {
      const started = journal.find((entry) => entry.type === 'workflow-started')?.data as { input?: unknown } | undefined;
      if (started && description.input === undefined) description.input = started.input;
      const team = describeTeamRun(journal);
      if (team) description.team = team;
      if (!finished) {
        const inputs = pendingInputsOf(journal);
        if (inputs.length > 0) description.pendingInputs = inputs;
      }
    }
    return description;
  }

  /**
   * The run's saved events after `afterSequence` (default 0: all), each with its journal sequence,
   * for agent and workflow runs: for an agent run exactly what the owner's `run.events()` yielded
   * except the live-only `model-call-start` and resumed `run-start`; for a workflow run its
   * `workflow-start`, `agent-invoke`, `task-retry`, `task-finish`, `stop-request` and `workflow-finish`.
   */
  async readEvents(runId: string, options: { afterSequence?: number } = {}): Promise<HostedRunEvent[]> {
    const run = await this.existingRun(runId);
    const projector = projectorOf(run);
    const after = options.afterSequence ?? 0;
    const events: HostedRunEvent[] = [];
    for (const entry of await this.store.readJournal(runId)) {
      for (const event of projector.projectAll(entry)) if (event.sequence > after) events.push(event);
    }
    return events;
  }

  /**
   * Tails a run that any process owns: yields its saved events after `afterSequence`, in order,
   * reading the journal when the store wakes it after a write (`watchRun`; then at least every
   * `safetyNetMs`), or polling with back-off on a store that cannot, and ends after the terminal event (`run-finish` or
   * `workflow-finish`), or when `signal` aborts. The journal is the only source, so an owner's
   * crash and a takeover neither drop nor repeat an event: the new owner continues the same
   * journal.
   */
  async *follow(
    runId: string,
    options: { afterSequence?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<HostedRunEvent, void, undefined> {
    for await (const batch of this.followBatches(runId, options)) yield* batch;
  }

  /**
   * `follow`, one array per journal read: the events that one read found, never empty. A server
   * that relays a run writes each batch in one piece (one write to the socket, not one per
   * event; issue 34). Same order, same end, same guarantees as `follow`.
   */
  async *followBatches(
    runId: string,
    options: { afterSequence?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<HostedRunEvent[], void, undefined> {
    yield* followJournal(this.store, await this.existingRun(runId), { ...this.waits, ...options });
  }

  /**
   * `followBatches` with the run checked first: an unknown or deleted run is refused
   * (`RunNotFoundError`) when this settles, before the first event, so that a server answers 404
   * instead of opening a stream, with one read of the run for the check and the tail (issue 34).
   * A live run is watched from before that read: iterate the answer, or end it with `return()`.
   */
  async openFollow(
    runId: string,
    options: { afterSequence?: number; signal?: AbortSignal } = {},
  ): Promise<AsyncGenerator<HostedRunEvent[], void, undefined>> {
    if (!this.store.readRunAndJournal)
      return followJournal(this.store, await this.existingRun(runId), { ...this.waits, ...options });
    assertRunId(runId);
    // One read for the check and the first entries: all of them when the run has already ended,
    // and a live run's first read, since the watch started before it (the follower ends it).
    const watch = watchBeforeRead(this.store, runId);
    const { run, entries } = await this.store.readRunAndJournal(runId).catch((error: unknown) => {
      watch?.unwatch();
      throw error;
    });
    // Only a live run is watched further: an ended run's journal is final, a missing one has none.
    const live = run !== undefined && isUnfinished(run.status);
    if (!live) watch?.unwatch();
    if (!run || run.status === 'deleted') throw new RunNotFoundError(runId, { deleted: run?.status === 'deleted' });
    return followJournal(this.store, run, { ...this.waits, ...options, first: entries, ...(live && watch ? { watch } : {}) });
  }

  /**
   * Asks a run to stop, from any process (S-5). The owner honours it within a third of its lease
   * (calls in flight settle and their results are kept); a taker honours it right after acquiring;
   * a pending run that no executor has taken ends here, `stopped`/`user-stop`, with its input
   * recorded. Refused with `RunNotActiveError` once the run has ended.
   */
  async requestStop(
    runId: string,
    options: { reason?: string; requestedBy?: string } = {},
  ): Promise<{ runId: string; sequence: number }> {
    const run = await this.existingRun(runId);
    if (!isUnfinished(run.status)) throw new RunNotActiveError(runId, run.status);
    const entry = stopRequestEntry({
      requestedBy: options.requestedBy ?? 'user',
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    });
    if (run.status === 'pending') {
      const ended = await endPendingRun(this.store, this.leaseMs, run, entry);
      if (ended) return ended;
    }
    const { lastSequence } = await this.store.appendExternal({ runId, entries: [entry] });
    return { runId, sequence: lastSequence };
  }

  /** Adds a user message to an active run (S-1…S-4), without building an agent. */
  async supplement(runId: string, text: string): Promise<SupplementReceipt> {
    const run = await this.existingRun(runId);
    return submitSupplement(this.store, { sessionId: run.sessionId, runId, text });
  }

  /**
   * Decides a pending approval of an agent run (K-5). The first decision wins; an approval id the
   * run never requested is an `ApprovalNotFoundError`; none is taken once the run has ended.
   */
  async decideApproval(runId: string, decision: ApprovalDecision): Promise<{ runId: string; sequence: number }> {
    await this.existingRun(runId);
    return recordApprovalDecision(this.store, runId, decision);
  }

  /** A person's answer to an MCP elicitation an agent run waits for (ADR 0038; refusals: `recordElicitationAnswer`). */
  async answerElicitation(runId: string, answer: ElicitationAnswerRequest) {
    await this.existingRun(runId);
    return recordElicitationAnswer(this.store, runId, answer);
  }

  /**
   * Answers an input a workflow run waits for (issue 36), from any process: checked against the
   * input's JSON Schema and choices (`InvalidInputAnswerError`, nothing written), then journaled
   * through the store's external append; whichever process owns the run goes on with it. Exactly
   * one answer is taken: a second one, or one after the timeout outcome was recorded, is an
   * `InputAlreadyAnsweredError`; an input the run never asked is an `InputNotFoundError`.
   */
  async answerInput(
    runId: string,
    answer: InputAnswerRequest,
  ): Promise<{ runId: string; interruptId: string; sequence: number }> {
    await this.existingRun(runId);
    return recordInputAnswer(this.store, runId, answer);
  }

  /** The inputs a run waits for now (asked, not answered), oldest first; none once it ended. */
  async pendingInputs(runId: string): Promise<PendingInput[]> {
    const run = await this.existingRun(runId);
    if (!isUnfinished(run.status)) return [];
    return pendingInputsOf(await this.store.readJournal(runId));
  }

  /**
   * The raw record of a session's agent runs, oldest first (H-1): each run's input, its
   * supplements (and whether the entry role consumed them), the supplements carried into it, its
   * outcome and its entry role's messages — never shortened, whatever the model saw. Runs that
   * never started (pending, or stopped while pending) are not in it: `listRuns({ sessionId })`
   * and `describeRun` show them.
   */
  async readSessionHistory(sessionId: string): Promise<SessionRun[]> {
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new InvalidRunRequestError(`(session ${String(sessionId)})`, 'A session id must be a non-empty string.');
    }
    return readSessionRecord(this.store, sessionId);
  }

  /** Runs newest first, filtered, one page at a time (keyset pagination). */
  async listRuns(
    options: {
      sessionId?: string;
      kind?: RunKind;
      status?: Exclude<StoredRunStatus, 'deleted'>;
      metadata?: RunMetadata;
      limit?: number;
      cursor?: string;
    } = {},
  ): Promise<Page<RunSummary>> {
    const limit = pageSize(options.limit);
    const before = options.cursor
      ? decodeCursor<{ createdAt: number; runId: string }>(options.cursor, { createdAt: 'number', runId: 'string' })
      : undefined;
    const rows = await this.store.listRuns({
      limit: limit + 1,
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.status !== undefined ? { status: options.status } : {}),
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(before ? { before } : {}),
    });
    const items = rows.slice(0, limit).map(summaryOf);
    const last = items.at(-1);
    return rows.length > limit && last
      ? { items, nextCursor: encodeCursor({ createdAt: last.createdAt, runId: last.runId }) }
      : { items };
  }

  /** Sessions most recently active first, one page at a time. */
  async listSessions(
    options: { limit?: number; cursor?: string } = {},
  ): Promise<Page<{ sessionId: string; runs: number; firstRunAt: number; lastRunAt: number }>> {
    const limit = pageSize(options.limit);
    const before = options.cursor
      ? decodeCursor<{ lastRunAt: number; sessionId: string }>(options.cursor, { lastRunAt: 'number', sessionId: 'string' })
      : undefined;
    const rows = await this.store.listSessions({ limit: limit + 1, ...(before ? { before } : {}) });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return rows.length > limit && last
      ? { items, nextCursor: encodeCursor({ lastRunAt: last.lastRunAt, sessionId: last.sessionId }) }
      : { items };
  }

  /**
   * Deletes a finished run: its journal goes, a tombstone stays so that a late write or a takeover
   * is refused (P-13.2). `RunNotFinishedError` while it is pending or running.
   */
  async deleteRun(runId: string): Promise<void> {
    await this.existingRun(runId);
    await this.store.deleteRuns([runId]);
  }

  /** Deletes every run of a session, all or none: `RunNotFinishedError` names the unfinished ones. */
  async deleteSession(sessionId: string): Promise<{ deleted: string[] }> {
    const runs = await this.store.listSessionRuns(sessionId);
    if (runs.length === 0) throw new RunNotFoundError(`(session ${sessionId})`);
    return { deleted: await this.store.deleteRuns(runs.map((run) => run.runId)) };
  }

  private async existingRun(runId: string): Promise<RunRecord> {
    assertRunId(runId);
    const run = await this.store.getRun(runId);
    if (!run || run.status === 'deleted') throw new RunNotFoundError(runId, { deleted: run?.status === 'deleted' });
    return run;
  }
}

export type { HostedRunEvent } from './run-projection.js';

function assertRunId(runId: string): void {
  if (typeof runId !== 'string' || runId === '')
    throw new InvalidRunRequestError(String(runId), 'A run id must be a non-empty string.');
}

function summaryOf(run: RunRecord): RunSummary {
  return {
    runId: run.runId,
    sessionId: run.sessionId,
    kind: run.kind,
    name: run.name,
    status: run.status as RunSummary['status'],
    metadata: run.metadata,
    loops: run.loopsUsed,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.result ? { result: run.result } : {}),
  };
}
