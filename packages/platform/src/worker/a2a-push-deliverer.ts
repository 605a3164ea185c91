import { RunNotFoundError } from '@agentloom/sdk';
import { releaseClaimedRow } from '../adapters/database/repositories/claim-due-rows.js';
import type { A2aPushConfigRow } from '../adapters/database/schema.js';
import { findEgressDenial } from '../adapters/outbound/index.js';
import { frameOf } from '../application/a2a/a2a-tasks.js';
import { initialProjection, isTerminalState, streamEventsOf } from '../domain/a2a-task.js';
import { type DelivererContext, sendTimeoutMs, startOutboxDeliverer } from './outbox-deliverer.js';

/** How soon an active config whose task has nothing new is looked at again. */
const idleRecheckMs = 500;
/** Longest wait between two failed tries. */
const maxBackoffMs = 300_000;

/**
 * Pushes A2A task events to the configured webhooks (issue 32): each round claims due configs
 * (PostgreSQL: `FOR UPDATE SKIP LOCKED`), reads the task's run journal after the config's cursor,
 * projects it exactly as a stream does, and POSTs each `StreamResponse` (`application/a2a+json`,
 * `X-A2A-Notification-Token`, the config's `Authorization`) through the outbound module (egress
 * policy, no redirects). The cursor — the journal sequence — advances after each accepted push,
 * so delivery is at least once and in order, across restarts and machines; a receiver
 * de-duplicates on `metadata["agentloom.seq"]`. Done once the task ended and all was pushed;
 * failed after `config.webhookAttempts` failures in a row or an egress refusal.
 */
export function startA2aPushDeliverer(services: DelivererContext, owner: string, intervalMs = 250): () => void {
  return startOutboxDeliverer<A2aPushConfigRow>(services, owner, intervalMs, {
    table: 'a2a_push_configs',
    activeState: 'active',
    failureLabel: 'a2a push round failed',
    deliver: (config) => deliver(services, owner, config),
  });
}

/** Releases a claimed config with changes (cursor, state, next try). */
function release(services: DelivererContext, owner: string, config: A2aPushConfigRow, changes: Partial<A2aPushConfigRow>) {
  return releaseClaimedRow(services.database, 'a2a_push_configs', config.id, owner, changes);
}

async function deliver(services: DelivererContext, owner: string, config: A2aPushConfigRow): Promise<void> {
  const { database, runClient, now } = services;
  const run = await database.selectFrom('runs').selectAll().where('id', '=', config.task_id).executeTakeFirst();
  let events: Awaited<ReturnType<typeof runClient.readEvents>> = [];
  let frame: Awaited<ReturnType<typeof frameOf>> | undefined;
  try {
    if (run) {
      events = await runClient.readEvents(run.id);
      frame = await frameOf(services, run);
    }
  } catch (error) {
    if (!(error instanceof RunNotFoundError)) throw error;
  }
  if (!run || !frame) {
    await release(services, owner, config, { state: 'failed', last_error: 'the task was deleted' });
    return;
  }
  let projection = initialProjection();
  let cursor = config.delivered_sequence;
  try {
    for (const event of events) {
      const step = streamEventsOf(projection, event, { ...frame, timestamp: now().toISOString() });
      projection = step.after;
      if (event.sequence <= cursor) continue;
      for (const body of step.events) await push(services, config, body);
      cursor = event.sequence;
    }
  } catch (error) {
    const denial = findEgressDenial(error);
    const attempts = config.attempts + 1;
    const message = denial ? denial.message : (error as Error).message;
    const final = denial !== undefined || attempts >= services.config.webhookAttempts;
    await release(services, owner, config, {
      delivered_sequence: cursor,
      attempts,
      last_error: message,
      ...(final
        ? { state: 'failed' as const }
        : {
            next_attempt_at: new Date(
              now().getTime() + Math.min(maxBackoffMs, services.config.webhookRetryMs * 2 ** (attempts - 1)),
            ).toISOString(),
          }),
    });
    if (final) services.logger.warn({ taskId: config.task_id, configId: config.config_id }, 'a2a push failed for good');
    return;
  }
  await release(services, owner, config, {
    delivered_sequence: cursor,
    attempts: 0,
    last_error: null,
    ...(isTerminalState(projection.state)
      ? { state: 'done' as const }
      : { next_attempt_at: new Date(now().getTime() + idleRecheckMs).toISOString() }),
  });
}

/** One push: a 2xx accepts it; anything else throws (the round stops, the cursor keeps what was accepted). */
async function push(services: DelivererContext, config: A2aPushConfigRow, body: unknown): Promise<void> {
  const credentials = config.auth_credentials_sealed ? services.secretBox.open(config.auth_credentials_sealed) : undefined;
  const response = await services.outbound.fetch(config.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/a2a+json',
      'user-agent': 'AgentLoom-A2A/1',
      ...(config.token ? { 'x-a2a-notification-token': config.token } : {}),
      ...(config.auth_scheme && credentials ? { authorization: `${config.auth_scheme} ${credentials}` } : {}),
    },
    body: JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(sendTimeoutMs),
  });
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status >= 300) throw new Error(`the receiver answered ${response.status}`);
}
