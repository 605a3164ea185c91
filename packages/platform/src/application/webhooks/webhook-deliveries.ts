import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { insertWebhookDelivery, makeWaitingDeliveryDue } from '../../adapters/database/repositories/webhook-repository.js';
import type { PlatformDatabase, WebhookDeliveryRow } from '../../adapters/database/schema.js';
import type { PlatformContext } from '../context.js';

/**
 * How long a `waiting` delivery rests before the deliverer looks at its run again when nobody
 * nudged it: the safety net for a run that ended where no nudge could follow (a worker that died
 * right after the run's last journal entry; a run stopped by another process).
 */
export const webhookRecheckMs = 30_000;

/** One try of a delivery, as `GET /runs/:id/webhook` shows it. */
export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the try failed without an answer (timeout, refused connection). */
  error?: string;
  /** The typed reason of a try that failed without an answer, when it has one (`egress-denied`, `ECONNREFUSED` …). */
  code?: string;
  /** For `egress-denied`: the rule of the egress policy that refused the destination (P-15.1). */
  rule?: string;
}

/**
 * Records that a run owes a completion webhook, in the transaction that records the run: a run
 * can never exist without the delivery it asked for.
 */
export async function recordWebhook(
  transaction: Transaction<PlatformDatabase>,
  services: Pick<PlatformContext, 'database' | 'now'>,
  delivery: { runId: string; appId: string; url: string },
): Promise<void> {
  const now = services.now();
  await insertWebhookDelivery(transaction, {
    id: `whd_${randomUUID()}`,
    run_id: delivery.runId,
    app_id: delivery.appId,
    url: delivery.url,
    state: 'waiting',
    attempts: 0,
    attempt_log: '[]',
    next_attempt_at: new Date(now.getTime() + webhookRecheckMs).toISOString(),
    locked_by: null,
    locked_until: null,
    created_at: now.toISOString(),
    finished_at: null,
  });
}

/** Says a run may have ended: its waiting delivery (if any) is due now rather than at the next recheck. */
export async function nudgeWebhook(services: Pick<PlatformContext, 'database' | 'now'>, runId: string): Promise<void> {
  await makeWaitingDeliveryDue(services.database, runId, services.now().toISOString());
}

/** The delivery of a run as the API shows it. */
export function webhookDeliveryView(row: WebhookDeliveryRow) {
  return {
    id: row.id,
    url: row.url,
    state: row.state,
    attempts: JSON.parse(row.attempt_log) as WebhookAttempt[],
    nextAttemptAt: row.state === 'waiting' ? row.next_attempt_at : null,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
