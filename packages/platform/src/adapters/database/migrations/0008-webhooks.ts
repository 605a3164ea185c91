import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Completion webhooks (issue 14): an app's signing secret (sealed with the platform key, like
 * connection keys, so the platform can sign but the database alone reveals nothing), and one
 * delivery per run that asked for a webhook, created with the run in one transaction so that a
 * run can never end without its delivery being owed. A delivery outlives nothing: it goes with
 * its run's app (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(database, 'app_webhook_secrets', {
    app_id: 'text primary key references apps.id on delete cascade',
    secret_sealed: 'text not null',
    created_by: 'text not null',
    created_at: 'text not null',
  });

  await createTable(
    database,
    'webhook_deliveries',
    {
      id: 'text primary key',
      run_id: 'text not null unique',
      app_id: 'text not null references apps.id on delete cascade',
      url: 'text not null',
      state: 'text not null',
      attempts: 'integer not null default 0',
      attempt_log: "text not null default '[]'",
      next_attempt_at: 'text not null',
      locked_by: 'text',
      locked_until: 'text',
      created_at: 'text not null',
      finished_at: 'text',
    },
    { indexes: { webhook_deliveries_due: ['state', 'next_attempt_at'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'app_webhook_secrets']) await database.schema.dropTable(table).execute();
}
