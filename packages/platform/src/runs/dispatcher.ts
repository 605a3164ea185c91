import type { Transaction } from 'kysely';
import type { PlatformDatabase } from '../database/schema.js';

/** A job a worker holds: the run to execute and which claim of it this is. */
export interface ClaimedJob {
  runId: string;
  /** 1 for the first claim; higher after a worker died or handed the run back. */
  attempt: number;
}

/**
 * How runs reach workers (PLATFORM.md §4.6, D-P13). The API enqueues a run in the same
 * transaction that records it; a worker claims jobs with a lease it renews while the run goes on,
 * and completes or releases them. A job whose lease expired (its worker died) is claimable again,
 * and the next worker calls the SDK with the same run id: the SDK journal decides whether to take
 * over, wait (owned elsewhere) or return the stored result, so the queue never has to be exact —
 * fencing in the SDK store, not the queue, keeps one owner.
 */
export interface Dispatcher {
  /** Adds the run's job inside the caller's transaction (the run row and its job commit together). */
  enqueue(transaction: Transaction<PlatformDatabase>, runId: string): Promise<void>;
  /** Claims up to `limit` ready jobs (queued, or claimed with an expired lease) for `workerId`. */
  claim(workerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]>;
  /** Extends the lease; false when the job is no longer this worker's (it was swept and re-claimed). */
  renew(runId: string, workerId: string, leaseMs: number): Promise<boolean>;
  /** The run reached its end in the SDK: the job is done. */
  complete(runId: string, workerId: string): Promise<void>;
  /** Hands the job back, claimable again from `notBefore` (owned elsewhere, a failed build). */
  release(runId: string, workerId: string, notBefore: Date): Promise<void>;
  /** Puts jobs whose lease expired back in the queue; answers their run ids. */
  sweep(): Promise<string[]>;
}
