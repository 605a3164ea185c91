import type { Transaction } from 'kysely';
import type { RunRequirements, WorkerCapabilities } from '../../domain/run-requirements.js';
import type { PlatformDatabase } from '../database/schema.js';

export type { RunRequirements } from '../../domain/run-requirements.js';

/** A job a worker holds: the run to execute and which claim of it this is. */
export interface ClaimedJob {
  runId: string;
  /** 1 for the first claim; higher after a worker died or handed the run back. */
  attempt: number;
  /** The worker that claimed it; renew, complete and release act only for this claim. */
  workerId: string;
  /** The adapter's own id of the job (the pg-boss job id; the run id on the lease table). */
  jobId: string;
}

/**
 * How runs reach workers (PLATFORM.md §4.6, D-P13). The API enqueues a run in the same
 * transaction that records it; a worker claims jobs with a lease it renews while the run goes on,
 * and completes or releases them. A job whose lease expired (its worker died) is claimable again,
 * and the next worker calls the SDK with the same run id: the SDK journal decides whether to take
 * over, wait (owned elsewhere) or return the stored result, so the queue never has to be exact —
 * fencing in the SDK store, not the queue, keeps one owner.
 *
 * Adapters: `LeaseTableDispatcher` (the `run_jobs` table; the SQLite default) and
 * `PgBossDispatcher` (pg-boss queues in their own schema; the PostgreSQL default). Both are held
 * to `test/dispatcher-contract.ts`.
 */
export interface Dispatcher {
  /** Creates what the adapter needs (pg-boss: its schema and queues); called once before use. */
  start(): Promise<void>;
  /**
   * Adds the run's job inside the caller's transaction (the run row and its job commit together,
   * and a rollback leaves no job). `requirements` come from the release the run will use. Also
   * gives a run whose job ended or was lost a new one (the sweeper's re-enqueue).
   */
  enqueue(transaction: Transaction<PlatformDatabase>, runId: string, requirements: RunRequirements): Promise<void>;
  /**
   * Claims up to `limit` ready jobs (queued and due, or claimed with an expired lease) for
   * `workerId`, only jobs whose requirements `capabilities` meet.
   */
  claim(workerId: string, limit: number, leaseMs: number, capabilities: WorkerCapabilities): Promise<ClaimedJob[]>;
  /** Extends the lease; false when the claim is no longer this worker's (it expired and was re-claimed). */
  renew(job: ClaimedJob, leaseMs: number): Promise<boolean>;
  /** The run reached its end in the SDK (or no longer exists): the job is done. */
  complete(job: ClaimedJob): Promise<void>;
  /**
   * Hands the job back, claimable again from `notBefore` (owned elsewhere, a failed build); with
   * `requirements`, the run now needs those (its release changed what it needs).
   */
  release(job: ClaimedJob, notBefore: Date, requirements?: RunRequirements): Promise<void>;
  /** Puts jobs whose lease expired back in the queue at once; answers their run ids. */
  sweep(): Promise<string[]>;
  /** Which of `runIds` have a job that is queued, waiting to be retried or claimed (not ended, not lost). */
  runsWithJobs(runIds: readonly string[]): Promise<Set<string>>;
  /**
   * Wakes this process's workers at once (issue 34): called after a transaction that enqueued a
   * job committed. On PostgreSQL the enqueue also notified every other process (`pg_notify` in
   * its transaction); on SQLite the embedded worker process hears it from its parent over IPC.
   */
  announce(): void;
  /**
   * Calls `listener` whenever jobs may have become claimable (announced here, notified by another
   * process), until the answered function is called; on PostgreSQL the first watcher of a process
   * opens its one listening connection. A signal may be spurious: claiming decides.
   */
  watchJobs(listener: () => void): () => void;
  /** Releases the adapter's own resources (pg-boss: its connection pool; the listening connection). */
  close(): Promise<void>;
}
