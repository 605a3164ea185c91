import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * The chat box and app deletion (issue 14): `message_keys` makes a retried
 * `POST /sessions/:id/messages` answer what the first one did (a supplement or a run), and
 * `app_deletions` is the durable, resumable deletion job of an app with its progress (P-13).
 * A deletion row outlives its app (no foreign key) so that its progress stays readable.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'message_keys',
    {
      principal: 'text not null',
      session_id: 'text not null references sessions.id on delete cascade',
      key: 'text not null',
      request_hash: 'text not null',
      kind: 'text not null',
      run_id: 'text not null',
      supplement_id: 'text',
      created_at: 'text not null',
    },
    { primaryKey: { message_keys_pk: ['principal', 'session_id', 'key'] } },
  );

  await createTable(database, 'app_deletions', {
    id: 'text primary key',
    app_id: 'text not null unique',
    space_id: 'text not null',
    app_name: 'text not null',
    step: 'text not null',
    runs_total: 'integer not null default 0',
    runs_deleted: 'integer not null default 0',
    attempts: 'integer not null default 0',
    last_error: 'text',
    worker_id: 'text',
    lease_until: 'text',
    requested_by: 'text not null',
    created_at: 'text not null',
    updated_at: 'text not null',
    finished_at: 'text',
  });
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['app_deletions', 'message_keys']) await database.schema.dropTable(table).execute();
}
