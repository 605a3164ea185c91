import { type Kysely, sql, type Transaction } from 'kysely';
import type { WorkerCapabilities } from '../../domain/run-requirements.js';
import type { DatabaseDialect } from '../database/index.js';
import { prepareQuery } from '../database/prepared-query.js';
import type { PlatformDatabase } from '../database/schema.js';
import type { ClaimedJob, Dispatcher, RunRequirements } from './dispatcher.js';
import { type JobChannelOptions, JobSignals } from './job-wake-ups.js';

/** Claims a job seen at `attempt` (none when another worker took it first): per claimed run, compiled once. */
const claimJob = prepareQuery((database, runId: string, attempt: number, workerId: string, at: string, leaseUntil: string) =>
  database
    .updateTable('run_jobs')
    .set((update) => ({
      state: 'claimed',
      worker_id: workerId,
      attempt: update('attempt', '+', 1),
      claimed_at: at,
      lease_until: leaseUntil,
    }))
    .where('run_id', '=', runId)
    .where('attempt', '=', attempt)
    .returning('run_id'),
);

/** Marks a claimed job done (its claim still this worker's): per finished run, compiled once. */
const completeJob = prepareQuery((database, runId: string, workerId: string, attempt: number) =>
  database
    .updateTable('run_jobs')
    .set({ state: 'done', lease_until: null })
    .where('run_id', '=', runId)
    .where('worker_id', '=', workerId)
    .where('attempt', '=', attempt),
);

/**
 * A run's job, queued; a run whose job ended (`done`) while the run did not gets it back queued
 * (one job per run). Every run start writes it: compiled once (issue 34).
 */
const enqueueJob = prepareQuery((database, runId: string, at: string, needsIsolation: number) =>
  database
    .insertInto('run_jobs')
    .values({
      run_id: runId,
      state: 'queued',
      attempt: 0,
      worker_id: null,
      claimed_at: null,
      lease_until: null,
      not_before: at,
      created_at: at,
      needs_isolation: needsIsolation,
    })
    .onConflict((conflict) =>
      conflict.column('run_id').doUpdateSet({
        state: 'queued',
        worker_id: null,
        claimed_at: null,
        lease_until: null,
        not_before: at,
        needs_isolation: needsIsolation,
      }),
    ),
);

/**
 * The dispatcher on the `run_jobs` lease table of the platform database (the SQLite default; on
 * PostgreSQL with `AGENTLOOM_DISPATCHER=lease-table`). On PostgreSQL a claim is one
 * `UPDATE … WHERE run_id IN (SELECT … FOR UPDATE SKIP LOCKED)`, so many worker processes on many
 * machines claim different jobs without waiting on each other; on SQLite (one process) a claim is
 * a transaction whose guarded update only takes a job still ready. Times are ISO-8601 text, which
 * orders like the instants it names. A job's `attempt` is its claim counter, and renew, complete
 * and release act only while the claim they name is still the job's current one.
 */
export class LeaseTableDispatcher implements Dispatcher {
  private readonly signals: JobSignals;

  /** `channel`: on PostgreSQL, where enqueues notify and workers listen (without it, wake-ups stay in this process). */
  constructor(
    private readonly database: Kysely<PlatformDatabase>,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => Date = () => new Date(),
    channel?: JobChannelOptions,
  ) {
    this.signals = new JobSignals(dialect === 'postgres' ? channel : undefined);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    await this.signals.close();
  }

  announce(): void {
    this.signals.announce();
  }

  watchJobs(listener: () => void): () => void {
    return this.signals.watch(listener);
  }

  async enqueue(transaction: Transaction<PlatformDatabase>, runId: string, requirements: RunRequirements): Promise<void> {
    const at = this.now().toISOString();
    await enqueueJob(transaction, runId, at, requirements.isolation ? 1 : 0);
    const notify = this.signals.notifyQuery();
    if (notify) await transaction.executeQuery(notify);
  }

  async claim(workerId: string, limit: number, leaseMs: number, capabilities: WorkerCapabilities): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    const now = this.now();
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const isolationAllowed = capabilities.isolation ? 1 : 0;
    if (this.dialect === 'postgres') {
      const { rows } = await sql<{ run_id: string; attempt: number }>`
        update run_jobs set state = 'claimed', worker_id = ${workerId}, attempt = attempt + 1,
          claimed_at = ${at}, lease_until = ${leaseUntil}
        where run_id in (
          select run_id from run_jobs
          where ((state = 'queued' and not_before <= ${at}) or (state = 'claimed' and lease_until < ${at}))
            and needs_isolation <= ${isolationAllowed}
          order by not_before
          limit ${limit}
          for update skip locked)
        returning run_id, attempt`.execute(this.database);
      return rows.map((row) => ({ runId: row.run_id, attempt: Number(row.attempt), workerId, jobId: row.run_id }));
    }
    return this.database.transaction().execute(async (transaction) => {
      const candidates = await transaction
        .selectFrom('run_jobs')
        .select(['run_id', 'attempt'])
        .where((where) =>
          where.or([
            where.and([where('state', '=', 'queued'), where('not_before', '<=', at)]),
            where.and([where('state', '=', 'claimed'), where('lease_until', '<', at)]),
          ]),
        )
        .where('needs_isolation', '<=', isolationAllowed)
        .orderBy('not_before')
        .limit(limit)
        .execute();
      const claimed: ClaimedJob[] = [];
      for (const candidate of candidates) {
        const [taken] = await claimJob(transaction, candidate.run_id, candidate.attempt, workerId, at, leaseUntil);
        if (taken) claimed.push({ runId: candidate.run_id, attempt: candidate.attempt + 1, workerId, jobId: candidate.run_id });
      }
      return claimed;
    });
  }

  async renew(job: ClaimedJob, leaseMs: number): Promise<boolean> {
    const result = await this.database
      .updateTable('run_jobs')
      .set({ lease_until: new Date(this.now().getTime() + leaseMs).toISOString() })
      .where('run_id', '=', job.runId)
      .where('worker_id', '=', job.workerId)
      .where('attempt', '=', job.attempt)
      .where('state', '=', 'claimed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(job: ClaimedJob): Promise<void> {
    await completeJob(this.database, job.runId, job.workerId, job.attempt);
  }

  async release(job: ClaimedJob, notBefore: Date, requirements?: RunRequirements): Promise<void> {
    await this.database
      .updateTable('run_jobs')
      .set({
        state: 'queued',
        worker_id: null,
        lease_until: null,
        not_before: notBefore.toISOString(),
        ...(requirements ? { needs_isolation: requirements.isolation ? 1 : 0 } : {}),
      })
      .where('run_id', '=', job.runId)
      .where('worker_id', '=', job.workerId)
      .where('attempt', '=', job.attempt)
      .where('state', '=', 'claimed')
      .execute();
    if (notBefore.getTime() <= this.now().getTime()) await this.jobsDueNow();
  }

  /** A job became claimable now outside an enqueue: wake this process's workers and, on PostgreSQL, the others. */
  private async jobsDueNow(): Promise<void> {
    const notify = this.signals.notifyQuery();
    if (notify) await this.database.executeQuery(notify);
    this.signals.announce();
  }

  async sweep(): Promise<string[]> {
    const at = this.now().toISOString();
    const rows = await this.database
      .updateTable('run_jobs')
      .set({ state: 'queued', worker_id: null, lease_until: null, not_before: at })
      .where('state', '=', 'claimed')
      .where('lease_until', '<', at)
      .returning('run_id')
      .execute();
    if (rows.length > 0) await this.jobsDueNow();
    return rows.map((row) => row.run_id);
  }

  async runsWithJobs(runIds: readonly string[]): Promise<Set<string>> {
    if (runIds.length === 0) return new Set();
    const rows = await this.database
      .selectFrom('run_jobs')
      .select('run_id')
      .where('run_id', 'in', [...runIds])
      .where('state', '!=', 'done')
      .execute();
    return new Set(rows.map((row) => row.run_id));
  }
}
