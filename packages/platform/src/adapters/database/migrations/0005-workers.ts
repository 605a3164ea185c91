import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Workers (PLATFORM.md §4.3 `workers`, §4.6): each `RunWorker` registers here at start with what it
 * can do, heartbeats while it lives and marks itself `gone` when it stops. An operator sets
 * `draining`; the worker sees it at its next heartbeat, hands its runs over and ends `gone`.
 * Times are ISO text, like every other table of the platform.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'workers',
    {
      id: 'text primary key',
      host: 'text not null',
      version: 'text not null',
      capabilities: 'text not null',
      max_concurrent_runs: 'integer not null',
      started_at: 'text not null',
      heartbeat_at: 'text not null',
      state: 'text not null',
    },
    { indexes: { workers_state_heartbeat: ['state', 'heartbeat_at'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('workers').execute();
}
