import { claimDueRows, type OutboxTable } from '../adapters/database/repositories/claim-due-rows.js';
import type { PlatformContext } from '../application/context.js';
import { startPollingLoop } from './polling-loop.js';

/** What an outbox deliverer uses: the database, sealed secrets, the SDK client, the outbound module, the configuration, the logger, the clock. */
export type DelivererContext = Pick<
  PlatformContext,
  'database' | 'dialect' | 'secretBox' | 'runClient' | 'outbound' | 'config' | 'logger' | 'now'
>;

/** How long a claimed row is this process's; longer than one send may take. */
const claimMs = 60_000;
/** Rows one round claims. */
const batchSize = 20;
/** How long a receiver has to answer one send. */
export const sendTimeoutMs = 10_000;

/** One outbox: its table, the state of rows still owed, the log label of a failed round and what to do with a claimed row. */
export interface Outbox<Row> {
  table: OutboxTable;
  activeState: string;
  failureLabel: string;
  deliver: (row: Row) => Promise<void>;
}

/**
 * Runs an outbox's deliveries (completion webhooks, A2A pushes): every `intervalMs` it claims the
 * due rows (`claimDueRows`: one statement, `SKIP LOCKED` on PostgreSQL, so deliverers on many
 * machines never hold one row at once) and delivers them one after the other. A round that fails
 * is logged and the loop goes on. Answers a function that stops it.
 */
export function startOutboxDeliverer<Row>(
  services: DelivererContext,
  owner: string,
  intervalMs: number,
  outbox: Outbox<Row>,
): () => void {
  return startPollingLoop(services.logger, outbox.failureLabel, intervalMs, async () => {
    const rows = await claimDueRows<Row>(services.database, services.dialect, {
      table: outbox.table,
      activeState: outbox.activeState,
      owner,
      now: services.now(),
      claimMs,
      batchSize,
    });
    for (const row of rows) await outbox.deliver(row);
  });
}
