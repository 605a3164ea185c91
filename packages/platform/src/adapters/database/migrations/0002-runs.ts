import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Runs over HTTP (issue 14): the platform's index of runs (the SDK store keeps their truth,
 * P-11.9), the sessions they belong to, the idempotency keys that make a retried POST answer the
 * same run, and `run_jobs`, the lease table the dispatcher hands runs to workers with.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'sessions',
    {
      id: 'text primary key',
      space_id: 'text not null',
      app_id: 'text not null references apps.id on delete cascade',
      created_by: 'text not null',
      created_at: 'text not null',
      last_run_at: 'text not null',
    },
    { indexes: { sessions_app: ['app_id', 'last_run_at'] } },
  );

  await createTable(
    database,
    'runs',
    {
      id: 'text primary key',
      space_id: 'text not null',
      app_id: 'text not null references apps.id on delete cascade',
      session_id: 'text not null references sessions.id on delete cascade',
      release_id: 'text',
      stop_cause: 'text',
      requested_by: 'text not null',
      created_at: 'text not null',
    },
    { indexes: { runs_app: ['app_id', 'created_at'], runs_session: ['session_id', 'created_at'] } },
  );

  await createTable(
    database,
    'idempotency_keys',
    {
      principal: 'text not null',
      app_id: 'text not null references apps.id on delete cascade',
      key: 'text not null',
      request_hash: 'text not null',
      run_id: 'text not null',
      session_id: 'text not null',
      created_at: 'text not null',
    },
    { primaryKey: { idempotency_keys_pk: ['principal', 'app_id', 'key'] } },
  );

  await createTable(
    database,
    'run_jobs',
    {
      run_id: 'text primary key references runs.id on delete cascade',
      state: 'text not null',
      attempt: 'integer not null default 0',
      worker_id: 'text',
      claimed_at: 'text',
      lease_until: 'text',
      not_before: 'text not null',
      created_at: 'text not null',
    },
    { indexes: { run_jobs_ready: ['state', 'not_before'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['run_jobs', 'idempotency_keys', 'runs', 'sessions']) await database.schema.dropTable(table).execute();
}
