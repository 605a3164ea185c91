import { RunNotFoundError } from '@agentloom/sdk';
import { releaseClaimedRow } from '../adapters/database/repositories/claim-due-rows.js';
import type { WebhookDeliveryRow } from '../adapters/database/schema.js';
import { errorCodeOf, findEgressDenial } from '../adapters/outbound/index.js';
import { runView } from '../application/runs/run-status.js';
import { type WebhookAttempt, webhookRecheckMs } from '../application/webhooks/webhook-deliveries.js';
import { readWebhookSecret } from '../application/webhooks/webhook-secrets.js';
import { signWebhook, webhookSignatureHeader } from '../domain/webhook-signature.js';
import { type DelivererContext, sendTimeoutMs, startOutboxDeliverer } from './outbox-deliverer.js';

/** Longest wait between two tries. */
const maxBackoffMs = 3_600_000;

/**
 * Sends the completion webhooks runs owe (issue 14): every round it claims due deliveries (on
 * PostgreSQL with `FOR UPDATE SKIP LOCKED`, so deliverers on many machines never send one twice at
 * once), and for each whose run has ended in the SDK store POSTs `{ type: 'run.finished', run }`,
 * signed with the app's secret (`AgentLoom-Signature`), through the outbound module (P-15.1; no
 * redirect is followed). A 2xx ends it `delivered`; a refusal of the egress policy ends it `failed`
 * at once (`code: egress-denied` and its rule on the try); anything else is tried again after a
 * doubling wait until the attempts run out (`failed`). Every try is logged
 * on the delivery. A receiver may see a delivery twice (a process that died after sending and
 * before recording); `AgentLoom-Delivery` carries the id to deduplicate on. Answers a function
 * that stops it.
 */
export function startWebhookDeliverer(services: DelivererContext, owner: string, intervalMs = 250): () => void {
  return startOutboxDeliverer<WebhookDeliveryRow>(services, owner, intervalMs, {
    table: 'webhook_deliveries',
    activeState: 'waiting',
    failureLabel: 'webhook round failed',
    deliver: (delivery) => deliver(services, owner, delivery),
  });
}

async function deliver(services: DelivererContext, owner: string, delivery: WebhookDeliveryRow): Promise<void> {
  const { database, runClient, config, now } = services;
  const run = await database.selectFrom('runs').selectAll().where('id', '=', delivery.run_id).executeTakeFirst();
  let description: Awaited<ReturnType<typeof runClient.describeRun>> | undefined;
  try {
    description = run ? await runClient.describeRun(delivery.run_id) : undefined;
  } catch (error) {
    if (!(error instanceof RunNotFoundError)) throw error;
  }
  if (!run || !description) {
    await finish(services, owner, delivery, 'failed', [{ at: now().toISOString(), error: 'the run was deleted' }]);
    return;
  }
  if (description.status === 'pending' || description.status === 'running') {
    await releaseClaimedRow(database, 'webhook_deliveries', delivery.id, owner, {
      next_attempt_at: new Date(now().getTime() + webhookRecheckMs).toISOString(),
    });
    return;
  }
  const secret = await readWebhookSecret(services, delivery.app_id);
  const attempt: WebhookAttempt = { at: now().toISOString() };
  if (!secret) {
    attempt.error = 'the app has no webhook secret';
  } else {
    const body = JSON.stringify({ type: 'run.finished', deliveryId: delivery.id, run: runView(run, description) });
    try {
      const response = await services.outbound.fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'AgentLoom-Webhook/1',
          'agentloom-delivery': delivery.id,
          'agentloom-event': 'run.finished',
          [webhookSignatureHeader]: signWebhook(secret, body, Math.floor(now().getTime() / 1000)),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(sendTimeoutMs),
      });
      attempt.status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      const denial = findEgressDenial(error);
      if (denial) Object.assign(attempt, { error: denial.message, code: denial.code, rule: denial.rule });
      else if ((error as Error).name === 'TimeoutError') attempt.error = 'no answer within 10 s';
      else {
        attempt.error = String((error as Error).message);
        const code = errorCodeOf(error);
        if (code) attempt.code = code;
      }
    }
  }
  const log = [...(JSON.parse(delivery.attempt_log) as WebhookAttempt[]), attempt];
  if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
    await finish(services, owner, delivery, 'delivered', log);
    return;
  }
  // A refusal of the egress policy is final: trying again cannot change its answer (P-15.1).
  if (log.length >= config.webhookAttempts || attempt.code === 'egress-denied') {
    await finish(services, owner, delivery, 'failed', log);
    services.logger.warn({ runId: delivery.run_id, deliveryId: delivery.id }, 'webhook delivery failed for good');
    return;
  }
  const backoff = Math.min(maxBackoffMs, config.webhookRetryMs * 2 ** (log.length - 1));
  await releaseClaimedRow(database, 'webhook_deliveries', delivery.id, owner, {
    attempts: log.length,
    attempt_log: JSON.stringify(log),
    next_attempt_at: new Date(now().getTime() + backoff).toISOString(),
  });
}

async function finish(
  services: DelivererContext,
  owner: string,
  delivery: WebhookDeliveryRow,
  state: 'delivered' | 'failed',
  log: WebhookAttempt[],
): Promise<void> {
  await releaseClaimedRow(services.database, 'webhook_deliveries', delivery.id, owner, {
    state,
    attempts: log.length,
    attempt_log: JSON.stringify(log),
    finished_at: services.now().toISOString(),
  });
}
