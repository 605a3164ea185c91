import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Publishing an app over A2A (issue 32): one row per app whose owner switched A2A on (off by
 * default: no row), and the push-notification configs of its tasks: where to POST the task's
 * events, the credentials to send (sealed with the platform key) and the delivery cursor — the
 * journal sequence delivered last. Tasks and their events themselves are not stored: they are
 * projections of the run journal. Both go with their app (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(database, 'app_a2a', {
    app_id: 'text primary key references apps.id on delete cascade',
    enabled: 'integer not null',
    updated_by: 'text not null',
    updated_at: 'text not null',
  });
  await createTable(
    database,
    'a2a_push_configs',
    {
      id: 'text primary key',
      task_id: 'text not null',
      config_id: 'text not null',
      app_id: 'text not null references apps.id on delete cascade',
      url: 'text not null',
      token: 'text',
      auth_scheme: 'text',
      auth_credentials_sealed: 'text',
      delivered_sequence: 'integer not null default -1',
      state: 'text not null',
      attempts: 'integer not null default 0',
      last_error: 'text',
      next_attempt_at: 'text not null',
      locked_by: 'text',
      locked_until: 'text',
      created_by: 'text not null',
      created_at: 'text not null',
    },
    {
      unique: { a2a_push_configs_task_config: ['task_id', 'config_id'] },
      indexes: { a2a_push_configs_due: ['state', 'next_attempt_at'] },
    },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['a2a_push_configs', 'app_a2a']) await database.schema.dropTable(table).execute();
}
