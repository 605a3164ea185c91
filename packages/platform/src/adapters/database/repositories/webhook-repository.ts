import { prepareQuery } from '../prepared-query.js';
import type { Queryable } from '../queryable.js';
import type { WebhookDeliveriesTable } from '../schema.js';

/** Makes or replaces the app's sealed webhook signing secret. */
export async function upsertWebhookSecret(
  database: Queryable,
  values: { appId: string; sealed: string; createdBy: string; createdAt: string },
): Promise<void> {
  await database
    .insertInto('app_webhook_secrets')
    .values({ app_id: values.appId, secret_sealed: values.sealed, created_by: values.createdBy, created_at: values.createdAt })
    .onConflict((conflict) =>
      conflict
        .column('app_id')
        .doUpdateSet({ secret_sealed: values.sealed, created_by: values.createdBy, created_at: values.createdAt }),
    )
    .execute();
}

/** The app's sealed signing secret, or undefined. */
export async function findWebhookSecret(database: Queryable, appId: string): Promise<string | undefined> {
  const row = await database
    .selectFrom('app_webhook_secrets')
    .select('secret_sealed')
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return row?.secret_sealed;
}

export async function insertWebhookDelivery(database: Queryable, row: WebhookDeliveriesTable): Promise<void> {
  await database.insertInto('webhook_deliveries').values(row).execute();
}

/** Makes the run's waiting, never tried delivery (if any) due at `at`. */
export async function makeWaitingDeliveryDue(database: Queryable, runId: string, at: string): Promise<void> {
  await waitingDeliveryDue(database, runId, at);
}

/** Every finished run asks it (most have no delivery): compiled once. */
const waitingDeliveryDue = prepareQuery((database, runId: string, at: string) =>
  database
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: at })
    .where('run_id', '=', runId)
    .where('state', '=', 'waiting')
    .where('attempts', '=', 0),
);
