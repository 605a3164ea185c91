import type { RunStore } from '@agentloom/sdk';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';

/** The journal writes a worker child committed since its last report: each run with its newest sequence (null: unknown). */
export type JournalWrites = [runId: string, through: number | null][];

/**
 * How often the serving process still checks the SQLite file for its worker child's writes once
 * the child reports them (ADR 0048): the safety net for a report that never comes (the child was
 * killed between its commit and its report), not the path of every event.
 */
export const RELAYED_CHECK_MS = 250;

/**
 * In the embedded default's worker child: reports every write of its SQLite run store to the
 * serving process (`send`), the writes of one event-loop turn in one message, so that the
 * followers there (SSE, `follow`) wake at once rather than at their next check of the file.
 * Answers the unsubscribe; nothing to relay (a no-op) for another kind of store.
 */
export function relayJournalWrites(store: RunStore, send: (writes: JournalWrites) => void): () => void {
  if (!(store instanceof SqliteRunStore)) return () => {};
  let pending: Map<string, number | null> | undefined;
  const flush = () => {
    const writes = pending;
    pending = undefined;
    if (writes) send([...writes]);
  };
  return store.relay.onWrite((runId, through) => {
    if (!pending) {
      pending = new Map();
      setImmediate(flush);
    }
    const known = pending.get(runId);
    pending.set(runId, through === undefined ? (known ?? null) : Math.max(known ?? 0, through));
  });
}

/**
 * In the serving process: answers what to do with its worker child's reports (wake the followers
 * of each run written), and from now on checks the file for the child's writes every
 * `RELAYED_CHECK_MS` only. Undefined for another kind of store (nothing is relayed).
 */
export function receiveJournalWrites(store: RunStore): ((writes: JournalWrites) => void) | undefined {
  if (!(store instanceof SqliteRunStore)) return undefined;
  const relay = store.relay;
  relay.checkEvery(RELAYED_CHECK_MS);
  return (writes) => {
    for (const [runId, through] of writes) relay.report(runId, through ?? undefined);
  };
}
