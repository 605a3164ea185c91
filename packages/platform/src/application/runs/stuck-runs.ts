import type { RunRecord } from '@agentloom/sdk/ports';
import { findRunsByIds } from '../../adapters/database/repositories/run-repository.js';
import type { PlatformContext } from '../context.js';

/** A run that needs attention, and why. */
export interface StuckRun {
  runId: string;
  appId: string;
  spaceId: string;
  sessionId: string;
  kind: 'agent' | 'workflow';
  status: 'pending' | 'running';
  /**
   * `lease-expired`: running, but no worker has renewed its lease for more than two lease lengths
   * (its worker died or hangs; the dispatcher hands it over, the sweeper re-enqueues it);
   * `never-claimed`: still waiting for its first worker after two lease lengths (no worker can
   * take it: none is running, or none has the isolation it needs).
   */
  reason: 'lease-expired' | 'never-claimed';
  /** Since when it has been idle: its lease's end, or its creation. */
  idleSince: string;
  createdAt: string;
}

/**
 * The runs the sweeper is handling or that need attention (PLATFORM.md §4.4
 * `GET /admin/runs?state=stuck`), read from the SDK store — the truth of every run (P-11.9) —
 * and kept to the platform's own runs (inner workflow runs are reached through their workflow).
 * Oldest idle first; at most `limit`.
 */
export async function listStuckRuns(
  context: Pick<PlatformContext, 'runStore' | 'database' | 'config' | 'now'>,
  limit: number,
): Promise<StuckRun[]> {
  const now = context.now().getTime();
  const grace = 2 * context.config.runLeaseMs;
  const candidates: { record: RunRecord; reason: StuckRun['reason']; idleSince: number }[] = [];
  for (const status of ['running', 'pending'] as const) {
    for (const record of await context.runStore.listRuns({ status, limit: 1000 })) {
      const idleSince = status === 'pending' ? record.createdAt : record.ownerId ? record.leaseExpiresAt : record.updatedAt;
      if (now - idleSince <= grace) continue;
      candidates.push({ record, reason: status === 'pending' ? 'never-claimed' : 'lease-expired', idleSince });
    }
  }
  const rows = new Map(
    (
      await findRunsByIds(
        context.database,
        candidates.map((item) => item.record.runId),
      )
    ).map((row) => [row.id, row]),
  );
  return candidates
    .filter((item) => rows.has(item.record.runId))
    .sort((left, right) => left.idleSince - right.idleSince)
    .slice(0, limit)
    .map(({ record, reason, idleSince }) => {
      const row = rows.get(record.runId) as NonNullable<ReturnType<typeof rows.get>>;
      return {
        runId: record.runId,
        appId: row.app_id,
        spaceId: row.space_id,
        sessionId: row.session_id,
        kind: record.kind,
        status: record.status as StuckRun['status'],
        reason,
        idleSince: new Date(idleSince).toISOString(),
        createdAt: new Date(record.createdAt).toISOString(),
      };
    });
}
