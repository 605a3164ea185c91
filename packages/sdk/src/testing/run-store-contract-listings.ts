import { expect, it } from 'vitest';
import type { RunRecord, RunStore } from '../store/run-store.js';
import { request } from './contract-requests.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The contract cases of listings: `listRuns` newest first with its filters and keyset pages,
 * `listSessions` by last activity with run counts.
 */
export function listingCases(store: () => RunStore): void {
  it('lists runs newest first with filters and pages that neither overlap nor skip', async () => {
    const sessionId = `list-${process.pid}-${Date.now()}-${Math.random()}`;
    const made: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      const runId = `${sessionId}-run-${index}`;
      const labels = {
        kind: index % 2 === 0 ? ('agent' as const) : ('workflow' as const),
        name: 'n',
        metadata: { parity: String(index % 2) },
      };
      if (index === 3) await store().createRun({ runId, sessionId, labels, entries: [{ type: 'run-requested', data: {} }] });
      else await store().acquire(request({ runId, sessionId, labels }));
      made.push(runId);
    }
    const pages: RunRecord[][] = [];
    let before: { createdAt: number; runId: string } | undefined;
    for (;;) {
      const page = await store().listRuns({ sessionId, limit: 3, ...(before ? { before } : {}) });
      if (page.length === 0) break;
      pages.push(page);
      const last = page.at(-1) as RunRecord;
      before = { createdAt: last.createdAt, runId: last.runId };
    }
    const listed = pages.flat().map((run) => run.runId);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(new Set(listed).size).toBe(7);
    const byAge = pages.flat();
    for (let index = 1; index < byAge.length; index += 1) {
      const newer = byAge[index - 1] as RunRecord;
      const older = byAge[index] as RunRecord;
      expect(newer.createdAt > older.createdAt || (newer.createdAt === older.createdAt && newer.runId > older.runId)).toBe(true);
    }
    const workflows = await store().listRuns({ sessionId, kind: 'workflow', limit: 10 });
    expect(workflows.map((run) => run.runId).sort()).toEqual([made[1], made[3], made[5]].sort());
    const odd = await store().listRuns({ sessionId, metadata: { parity: '1' }, limit: 10 });
    expect(odd).toHaveLength(3);
    const pendingOnly = await store().listRuns({ sessionId, status: 'pending', limit: 10 });
    expect(pendingOnly.map((run) => run.runId)).toEqual([made[3]]);
    expect(await store().listRuns({ sessionId, metadata: { parity: '1', other: 'x' }, limit: 10 })).toEqual([]);
  });

  it('lists sessions by last activity with their run counts', async () => {
    const prefix = `sessions-${process.pid}-${Date.now()}-${Math.random()}`;
    await store().acquire(request({ sessionId: `${prefix}-a` }));
    await sleep(3);
    await store().acquire(request({ sessionId: `${prefix}-b` }));
    await sleep(3);
    await store().acquire(request({ sessionId: `${prefix}-a` }));
    const seen: Array<{ sessionId: string; runs: number }> = [];
    let before: { lastRunAt: number; sessionId: string } | undefined;
    for (;;) {
      const page = await store().listSessions({ limit: 1, ...(before ? { before } : {}) });
      const last = page.at(-1);
      if (!last) break;
      seen.push(...page);
      before = { lastRunAt: last.lastRunAt, sessionId: last.sessionId };
    }
    const ours = seen.filter((session) => session.sessionId.startsWith(prefix));
    expect(ours.map((session) => [session.sessionId, session.runs])).toEqual([
      [`${prefix}-a`, 2],
      [`${prefix}-b`, 1],
    ]);
  });
}
