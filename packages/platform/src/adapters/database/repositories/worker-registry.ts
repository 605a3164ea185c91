import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { WorkerCapabilities } from '../../../domain/run-requirements.js';
import type { PlatformDatabase, WorkerRow } from '../schema.js';

/** A worker's life in the `workers` table: working, handing its runs over, or stopped. */
export type WorkerState = WorkerRow['state'];

/**
 * The `workers` table (PLATFORM.md §4.3, §4.6): how a `RunWorker` says it exists, that it is still
 * alive, and that it is gone; and how an operator asks one to drain. The worker is the only
 * writer of its row but for `state = 'draining'`, which it reads back at each heartbeat.
 */
export class WorkerRegistry {
  constructor(
    private readonly database: Kysely<PlatformDatabase>,
    private readonly now: () => Date,
  ) {}

  /** Records a worker that starts now, `active`. */
  async register(values: { id: string; capabilities: WorkerCapabilities; maxConcurrentRuns: number }): Promise<void> {
    const at = this.now().toISOString();
    await this.database
      .insertInto('workers')
      .values({
        id: values.id,
        host: hostname(),
        version: packageJson.version,
        capabilities: JSON.stringify(values.capabilities),
        max_concurrent_runs: values.maxConcurrentRuns,
        started_at: at,
        heartbeat_at: at,
        state: 'active',
      })
      .execute();
  }

  /** Marks the worker alive now; answers its state (an operator may have set `draining`). */
  async heartbeat(id: string): Promise<WorkerState | undefined> {
    await this.database
      .updateTable('workers')
      .set({ heartbeat_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('state', '!=', 'gone')
      .execute();
    const row = await this.database.selectFrom('workers').select('state').where('id', '=', id).executeTakeFirst();
    return row?.state;
  }

  /** Sets `draining` on a worker that is still `active`; answers the row after the change, if any. */
  async requestDrain(id: string): Promise<WorkerRow | undefined> {
    await this.database
      .updateTable('workers')
      .set({ state: 'draining' })
      .where('id', '=', id)
      .where('state', '=', 'active')
      .execute();
    return this.database.selectFrom('workers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The worker has stopped: it holds no run any more. */
  async markGone(id: string): Promise<void> {
    await this.database
      .updateTable('workers')
      .set({ state: 'gone', heartbeat_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Every worker, newest first, with the number of run jobs each holds now. */
  async list(): Promise<Array<WorkerRow & { runs: number }>> {
    const rows = await this.database.selectFrom('workers').selectAll().orderBy('started_at', 'desc').execute();
    const held = await this.database
      .selectFrom('run_jobs')
      .select(['worker_id', (eb) => eb.fn.countAll<number | string>().as('runs')])
      .where('state', '=', 'claimed')
      .groupBy('worker_id')
      .execute();
    const counts = new Map(held.map((row) => [row.worker_id, Number(row.runs)]));
    return rows.map((row) => ({ ...row, runs: counts.get(row.id) ?? 0 }));
  }
}
