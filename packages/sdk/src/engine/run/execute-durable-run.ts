import { InvalidRunRequestError, RunNotFoundError, RunOwnedElsewhereError } from '../../core/errors/index.js';
import { createOwnerId } from '../../core/ids.js';
import type {
  AcquireRequest,
  AcquireResult,
  JournalEntry,
  NewJournalEntry,
  RunKind,
  RunLabels,
  RunRecord,
  RunStore,
} from '../../store/run-store.js';
import { DurableRun } from './durable-run.js';
import type { RunControl } from './run-control.js';
import { retryTransient } from './store-retry.js';

/** Calls a store operation that is safe to repeat, retrying transient failures (see `executeDurableRun`). */
export type StoreCall = <T>(call: () => Promise<T>) => Promise<T>;

/** What creates the run when it does not exist yet: its first entries, deadline and labels. */
export interface RunCreation {
  deadlineAt: number;
  /** Written with the new run, in one step; ignored by the store when the run exists. */
  initialEntries: NewJournalEntry[];
  labels: RunLabels;
}

/** The owned run as an engine opened it: what the durable run and the shared steps need. */
export interface OpenedRun<State> {
  /** The run's state, folded from its journal; the durable run advances it from here. */
  state: State;
  /** The sequence of the last journal entry folded into `state`. */
  lastSequence: number;
  /** The run's deadline, fixed at creation. */
  deadlineAt: number;
  /** A stop was requested before this owner took the run (while pending, or from a dead owner's time). */
  stopRequested: boolean;
  /** Applies a committed entry: the same reducer the fold used, so live and recovered state agree. */
  apply: (state: State, entry: JournalEntry) => void;
  /** Called with each committed entry, the owner's own and those others appended, in journal order. */
  onCommitted?: (entry: JournalEntry) => void;
}

/**
 * One engine's part of a durable run's life. `executeDurableRun` calls these in order; everything
 * else (owner id, transient-failure retries, ownership outcomes, the lease and its release) is
 * the same for every engine.
 */
export interface DurableRunSteps<State, Entry extends NewJournalEntry, Opened extends OpenedRun<State>, Result> {
  store: RunStore;
  kind: RunKind;
  runId: string;
  sessionId: string;
  leaseMs: number;
  control: RunControl;
  /** The owner id this call acquires the run under: its handle's `ownerId` (made here when absent). */
  ownerId?: string;
  /**
   * The run id was made by this very call (`createRunId`, a new UUID): no stored run can have
   * it, so it is not looked up before `acquire` (one store read less per new run). `acquire`
   * still decides: it creates the run, or answers for one that exists after all.
   */
  fresh?: boolean;
  /**
   * The request only resumes a run that must exist (no input to create one with): it is
   * acquired at once, `mustExist`, without a `getRun` first (one store read less per run a host
   * created); the row `acquire` answers is checked instead.
   */
  resumes?: boolean;
  /** Called once the store has answered `acquire` (a handle's durable stop waits for it). */
  onAcquired?: () => void;
  /**
   * Checks the request against the run as it is stored (undefined: it does not exist yet) and
   * says how to create it. Throws `InvalidRunRequestError` for a request that cannot be executed.
   */
  creation(existing: RunRecord | undefined, call: StoreCall): Promise<RunCreation>;
  /** The stored outcome of a run that has already ended: nothing is executed, no lease is held. */
  answerEnded(run: RunRecord, call: StoreCall): Promise<Result>;
  /**
   * Reads the run this process now owns and folds its journal (starting a run a host created, R-3).
   * `created` holds the run's whole journal when the caller has it already: `acquire` has just
   * created it with the initial entries (sequences 1…n, epoch 1), or read it with a takeover
   * (`withJournal`): the engine may fold those instead of reading them back.
   * If it throws, the lease is released and the error is rethrown.
   */
  open(run: RunRecord, outcome: 'created' | 'acquired', call: StoreCall, created: JournalEntry[] | undefined): Promise<Opened>;
  /** Executes the owned run, lease renewed, until it ends, pauses, or is interrupted. */
  drive(durable: DurableRun<State, Entry>, opened: Opened): Promise<Result>;
  /** Whether the result ends the run (its terminal commit closed it); otherwise the lease is released for the next owner. */
  ends(result: Result): boolean;
}

/**
 * The life of one `run` call, the same for agent and workflow runs (R-1…R-5): acquire the run by
 * its stored state — create it, take over an unfinished one whose owner is gone, answer
 * `owned-elsewhere` while a live owner holds it, or answer a finished one from the store without
 * executing anything — then open it, arm its deadline, honour a stop requested before this owner
 * took it, renew the lease while the engine drives it, and finally either leave it ended or release
 * the lease so that another process can continue at once.
 *
 * The calls before the run is owned have no side effect to lose: a transient store failure is
 * retried for up to one lease length, then reported. A retried `acquire` whose first try landed
 * finds the run held by this call's own owner id, which is recognised as ours.
 */
export async function executeDurableRun<State, Entry extends NewJournalEntry, Opened extends OpenedRun<State>, Result>(
  steps: DurableRunSteps<State, Entry, Opened, Result>,
): Promise<Result> {
  const { store, control } = steps;
  const ownerId = steps.ownerId ?? createOwnerId();
  const startedAt = Date.now();
  const call: StoreCall = (operation) => retryTransient(operation, { until: () => startedAt + steps.leaseMs });
  const { acquired, created } = steps.resumes
    ? await acquireExisting(steps, ownerId, call)
    : await acquireOrCreate(steps, ownerId, call);
  steps.onAcquired?.();
  const { run } = acquired;
  if (acquired.outcome === 'terminal') return steps.answerEnded(run, call);
  if (acquired.outcome === 'owned-elsewhere') {
    throw new RunOwnedElsewhereError(run.runId, run.ownerId ?? 'unknown', run.leaseExpiresAt);
  }
  let opened: Opened;
  try {
    opened = await steps.open(run, acquired.outcome, call, created);
  } catch (error) {
    await store.releaseLease(run.runId, run.epoch).catch(() => {});
    throw error;
  }
  const durable = new DurableRun<State, Entry>({
    store,
    runId: run.runId,
    epoch: run.epoch,
    leaseMs: steps.leaseMs,
    lastSequence: opened.lastSequence,
    state: opened.state,
    control,
    apply: opened.apply,
    ...(opened.onCommitted ? { onCommitted: opened.onCommitted } : {}),
  });
  control.armDeadline(opened.deadlineAt);
  // A stop requested before this owner took the run is honoured at once (S-5).
  if (opened.stopRequested) control.stop();
  durable.startLeaseRenewal();
  let ended = false;
  try {
    const result = await steps.drive(durable, opened);
    ended = steps.ends(result);
    return result;
  } finally {
    control.dispose();
    await durable.dispose({ release: !ended });
  }
}

/**
 * Acquires the run by its stored state: looked up first (unless `fresh`), created with the
 * engine's initial entries when missing. `created`: the journal of a run this call created.
 */
async function acquireOrCreate<State, Entry extends NewJournalEntry, Opened extends OpenedRun<State>, Result>(
  steps: DurableRunSteps<State, Entry, Opened, Result>,
  ownerId: string,
  call: StoreCall,
): Promise<{ acquired: AcquireResult; created: JournalEntry[] | undefined }> {
  const { store, runId } = steps;
  const existing = steps.fresh ? undefined : await call(() => store.getRun(runId));
  if (existing && existing.kind !== steps.kind) throw kindMismatch(runId, existing.kind, steps.kind);
  const creation = await steps.creation(existing, call);
  // A run that existed at `getRun` is never created again, so no entries are needed for it.
  const initialEntries = existing ? [] : creation.initialEntries;
  const acquired = await acquireOwned(steps, ownerId, call, existing === undefined, {
    deadlineAt: creation.deadlineAt,
    initialEntries,
    labels: creation.labels,
  });
  return { acquired, created: createdJournal(acquired, initialEntries) };
}

/**
 * Acquires a run that must exist (`resumes`): no `getRun` first. A missing run is refused as the
 * engine words it (a new run needs an input); a run of another kind is let go again and refused.
 */
async function acquireExisting<State, Entry extends NewJournalEntry, Opened extends OpenedRun<State>, Result>(
  steps: DurableRunSteps<State, Entry, Opened, Result>,
  ownerId: string,
  call: StoreCall,
): Promise<{ acquired: AcquireResult; created: JournalEntry[] | undefined }> {
  const { store, runId } = steps;
  let acquired: AcquireResult;
  try {
    const rest = { deadlineAt: 0, initialEntries: [], mustExist: true, withJournal: true };
    acquired = await acquireOwned(steps, ownerId, call, false, rest);
  } catch (error) {
    if (RunNotFoundError.isInstance(error) && !error.deleted) await steps.creation(undefined, call);
    throw error;
  }
  if (acquired.run.kind !== steps.kind) {
    if (acquired.outcome === 'acquired') await store.releaseLease(runId, acquired.run.epoch).catch(() => {});
    throw kindMismatch(runId, acquired.run.kind, steps.kind);
  }
  return { acquired, created: acquired.outcome === 'acquired' ? acquired.journal : undefined };
}

function kindMismatch(runId: string, stored: RunKind, asked: RunKind): InvalidRunRequestError {
  return new InvalidRunRequestError(
    runId,
    `Run ${runId} is ${article(stored)} ${stored} run; ${article(asked)} ${asked} cannot execute it.`,
  );
}

/** `acquire` of the steps' run under `ownerId`, with the rest of the request, as `ownAcquire` reads its answer. */
async function acquireOwned<State, Entry extends NewJournalEntry, Opened extends OpenedRun<State>, Result>(
  steps: DurableRunSteps<State, Entry, Opened, Result>,
  ownerId: string,
  call: StoreCall,
  creating: boolean,
  rest: Pick<AcquireRequest, 'deadlineAt' | 'initialEntries' | 'labels' | 'mustExist' | 'withJournal'>,
): Promise<AcquireResult> {
  const request = { runId: steps.runId, sessionId: steps.sessionId, ownerId, leaseMs: steps.leaseMs, ...rest };
  return ownAcquire(ownerId, creating, await call(() => steps.store.acquire(request)));
}

/**
 * An `acquire` retried after a transient failure may find that its first try landed: the run is
 * then held by this very call's owner id (unique per call), which is ours, not someone else's.
 */
function ownAcquire(ownerId: string, creating: boolean, result: AcquireResult): AcquireResult {
  if (result.outcome !== 'owned-elsewhere' || result.run.ownerId !== ownerId) return result;
  return { outcome: creating ? 'created' : 'acquired', run: result.run };
}

/**
 * The journal of a run that `acquire` has just created: exactly the initial entries, numbered
 * from 1 in the run's first epoch, as every store writes them (the stores' contract), their data
 * copied through JSON as a store gives it back (the fold never shares the caller's input
 * objects). Undefined for a run that existed, or when the row says otherwise (then the journal is
 * read back).
 */
function createdJournal(acquired: AcquireResult, initialEntries: readonly NewJournalEntry[]): JournalEntry[] | undefined {
  const { run } = acquired;
  if (acquired.outcome !== 'created' || initialEntries.length === 0 || run.lastSequence !== initialEntries.length)
    return undefined;
  return initialEntries.map((entry, index) => {
    const data: unknown = JSON.parse(JSON.stringify(entry.data) ?? 'null');
    const stored: JournalEntry = { sequence: index + 1, epoch: run.epoch, at: run.createdAt, type: entry.type, data };
    if (entry.taskId !== undefined) stored.taskId = entry.taskId;
    return stored;
  });
}

function article(kind: RunKind): string {
  return kind === 'agent' ? 'an' : 'a';
}
