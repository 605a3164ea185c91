/**
 * Several processes on one PostgreSQL run (R-2, P-5): of three that call `run` on the same run id
 * at once, exactly one executes and the others are told `owned-elsewhere`; the executing one keeps
 * its lease alive by renewing it in the background for as long as it works.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithPostgres } from './postgres-availability.js';
import { type TakeoverChild, TakeoverWorld } from './takeover-harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EXPECTED_OUTPUT = 'Finished: recorded first | held x';

await describeWithPostgres('several processes on one PostgreSQL run', () => {
  let world: TakeoverWorld;
  beforeAll(async () => {
    world = new TakeoverWorld();
    await world.setup();
  });
  afterEach(async () => world.stopChildren());
  afterAll(async () => world.dispose());

  it('lets exactly one of three simultaneous run() calls execute; the others get owned-elsewhere', async () => {
    const runId = 'simultaneous';
    // Long enough that a starved owner (two busy cores) still renews in time.
    const leaseMs = 1_000;
    const children = ['a', 'b', 'c'].map((label) => world.start({ label, runId, leaseMs, waitForGo: true }));
    await Promise.all(children.map((child) => child.waitFor((event) => event.event === 'ready', 'ready')));
    for (const child of children) child.send('go');

    // Each child either reaches the held tool (it executes) or ends on owned-elsewhere.
    const roles = await Promise.all(
      children.map(async (child) => {
        const first = await child.waitFor((event) => ['tool-start', 'owned-elsewhere', 'error'].includes(event.event), 'a role');
        return { child, role: first.event };
      }),
    );
    const owners = roles.filter((entry) => entry.role === 'tool-start').map((entry) => entry.child);
    const refused = roles.filter((entry) => entry.role === 'owned-elsewhere').map((entry) => entry.child);
    expect(owners).toHaveLength(1);
    expect(refused).toHaveLength(2);
    const owner = owners[0] as TakeoverChild;
    const stored = await world.store.getRun(runId);
    expect(stored).toMatchObject({ status: 'running', epoch: 1 });

    for (const child of refused) {
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.named('owned-elsewhere')[0]).toMatchObject({ ownerId: stored?.ownerId });
      expect(child.named('run-start')).toEqual([]);
      expect(child.named('write')).toEqual([]);
      expect(child.named('model-requests')[0]).toMatchObject({ count: 0 });
    }

    // The owner works for several lease terms: its background renewal keeps the lease alive, so
    // a newcomer is still refused long after the first term ended (on the database's clock).
    const firstLease = stored?.leaseExpiresAt ?? 0;
    let current = firstLease;
    while (current < firstLease + 2 * leaseMs) {
      await sleep(100);
      current = (await world.store.getRun(runId))?.leaseExpiresAt ?? 0;
    }
    const newcomer = await world.store.acquire({
      runId,
      sessionId: `session-${runId}`,
      ownerId: 'newcomer',
      leaseMs,
      deadlineAt: 0,
      initialEntries: [],
    });
    expect(newcomer.outcome).toBe('owned-elsewhere');
    expect(newcomer.run.leaseExpiresAt).toBeGreaterThan(firstLease + leaseMs);
    const renewals = owner.named('write-done').filter((event) => event.kind === 'renew');
    expect(renewals.length).toBeGreaterThanOrEqual(2);
    expect(renewals.every((event) => event.ok === true)).toBe(true);

    world.release(owner.label);
    expect(await owner.exited).toEqual({ code: 0, signal: null });
    expect(owner.stderr).toBe('');
    expect(owner.named('result')[0]).toMatchObject({ result: { status: 'succeeded', output: EXPECTED_OUTPUT, loops: 3 } });
    expect(owner.named('run-start')).toEqual([{ event: 'run-start', epoch: 1 }]);

    // One executor only: one input, every entry of epoch 1, every tool run once, by the owner.
    const journal = await world.store.readJournal(runId);
    expect(journal.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    expect(new Set(journal.map((entry) => entry.epoch))).toEqual(new Set([1]));
    expect(world.effects().map((effect) => `${effect.tool}/${effect.attempt}/${effect.label}`)).toEqual([
      `record/1/${owner.label}`,
      `hold/1/${owner.label}`,
    ]);
    expect(await world.store.getRun(runId)).toMatchObject({ status: 'succeeded', ownerId: null, loopsUsed: 3 });
  }, 60_000);
});
