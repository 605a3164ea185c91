import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseDialect } from '../database/index.js';
import type { PlatformDatabase } from '../database/schema.js';
import type { ClaimedJob, Dispatcher } from './dispatcher.js';

/**
 * The dispatcher on the `run_jobs` lease table of the platform database. On PostgreSQL a claim is
 * one `UPDATE … WHERE run_id IN (SELECT … FOR UPDATE SKIP LOCKED)`, so many worker processes on
 * many machines claim different jobs without waiting on each other; on SQLite (one process) a
 * claim is a transaction whose guarded update only takes a job still ready. Times are ISO-8601
 * text, which orders like the instants it names.
 */
export class LeaseTableDispatcher implements Dispatcher {
  constructor(
    private readonly database: Kysely<PlatformDatabase>,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async enqueue(transaction: Transaction<PlatformDatabase>, runId: string): Promise<void> {
    const at = this.now().toISOString();
    await transaction
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
      })
      .execute();
  }

  async claim(workerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    const now = this.now();
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    if (this.dialect === 'postgres') {
      const { rows } = await sql<{ run_id: string; attempt: number }>`
        update run_jobs set state = 'claimed', worker_id = ${workerId}, attempt = attempt + 1,
          claimed_at = ${at}, lease_until = ${leaseUntil}
        where run_id in (
          select run_id from run_jobs
          where (state = 'queued' and not_before <= ${at}) or (state = 'claimed' and lease_until < ${at})
          order by not_before
          limit ${limit}
          for update skip locked)
        returning run_id, attempt`.execute(this.database);
      return rows.map((row) => ({ runId: row.run_id, attempt: Number(row.attempt) }));
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
        .orderBy('not_before')
        .limit(limit)
        .execute();
      const claimed: ClaimedJob[] = [];
      for (const candidate of candidates) {
        const result = await transaction
          .updateTable('run_jobs')
          .set({ state: 'claimed', worker_id: workerId, attempt: candidate.attempt + 1, claimed_at: at, lease_until: leaseUntil })
          .where('run_id', '=', candidate.run_id)
          .where('attempt', '=', candidate.attempt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) claimed.push({ runId: candidate.run_id, attempt: candidate.attempt + 1 });
      }
      return claimed;
    });
  }

  async renew(runId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const result = await this.database
      .updateTable('run_jobs')
      .set({ lease_until: new Date(this.now().getTime() + leaseMs).toISOString() })
      .where('run_id', '=', runId)
      .where('worker_id', '=', workerId)
      .where('state', '=', 'claimed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(runId: string, workerId: string): Promise<void> {
    await this.database
      .updateTable('run_jobs')
      .set({ state: 'done', lease_until: null })
      .where('run_id', '=', runId)
      .where('worker_id', '=', workerId)
      .execute();
  }

  async release(runId: string, workerId: string, notBefore: Date): Promise<void> {
    await this.database
      .updateTable('run_jobs')
      .set({ state: 'queued', worker_id: null, lease_until: null, not_before: notBefore.toISOString() })
      .where('run_id', '=', runId)
      .where('worker_id', '=', workerId)
      .where('state', '=', 'claimed')
      .execute();
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
    return rows.map((row) => row.run_id);
  }
}
