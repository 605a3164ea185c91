/**
 * Takeover between processes on PostgreSQL (R-2, R-5, P-5): a SIGKILLed owner's run is taken over
 * once its lease ends and finishes like an uncrashed run; an owner frozen with SIGSTOP whose run
 * was taken over is resumed with SIGCONT, every write it attempts is rejected, it stops itself,
 * and the journal shows the old epoch's entries strictly before the new one's.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/store/run-store.js';
import { describeWithPostgres } from './postgres-availability.js';
import { type ChildEvent, type TakeoverChild, TakeoverWorld } from './takeover-harness.js';

const LEASE_MS = 600;
const EXPECTED = { status: 'succeeded', output: 'Finished: recorded first | held x', loops: 3 };

const isEvent = (name: string) => (event: ChildEvent) => event.event === name;
const operationOf = (entry: JournalEntry) => (entry.data as { operationId?: string }).operationId;

/** The journal's epochs never go back: every entry of an older owner precedes the newer owner's. */
function expectNoInterleaving(journal: readonly JournalEntry[]): void {
  const epochs = journal.map((entry) => entry.epoch);
  expect(epochs).toEqual([...epochs].sort((a, b) => a - b));
  expect(journal.map((entry) => entry.sequence)).toEqual(journal.map((_, index) => index + 1));
}

/** The writes a child attempted from event `from` on, each with the store's answer. */
function writesSince(child: TakeoverChild, from: number): Array<{ kind: unknown; ok: unknown; code: unknown }> {
  const later = child.events.slice(from);
  return later.filter(isEvent('write')).map((write) => {
    const done = later.find((event) => event.event === 'write-done' && event.id === write.id);
    return { kind: write.kind, ok: done?.ok, code: done?.code };
  });
}

await describeWithPostgres('takeover between processes on PostgreSQL', () => {
  let world: TakeoverWorld;
  beforeAll(async () => {
    world = new TakeoverWorld();
    await world.setup();
  });
  afterEach(async () => world.stopChildren());
  afterAll(async () => world.dispose());

  it('takes over a SIGKILLed owner once its lease ends and finishes like an uncrashed run, redoing no saved result', async () => {
    const runId = 'killed-owner';
    world.release('baseline');
    const baseline = world.start({ label: 'baseline', runId: 'never-crashed', leaseMs: LEASE_MS });
    const owner = world.start({ label: 'killed', runId, leaseMs: LEASE_MS });
    await owner.waitFor(isEvent('tool-start'), 'the held tool');

    // A second process arrives while the owner lives: it is refused and waits for the lease.
    world.release('successor');
    const successor = world.start({ label: 'successor', runId, leaseMs: LEASE_MS, waitOutOwner: true });
    await successor.waitFor(isEvent('owned-elsewhere'), 'owned-elsewhere');
    const saved = await world.store.readJournal(runId);
    owner.signal('SIGKILL');
    expect(await owner.exited).toEqual({ code: null, signal: 'SIGKILL' });

    expect(await successor.exited).toEqual({ code: 0, signal: null });
    expect(successor.stderr).toBe('');
    expect(await baseline.exited).toEqual({ code: 0, signal: null });
    expect(baseline.named('result')[0]).toMatchObject({ result: { ...EXPECTED, runId: 'never-crashed' } });
    const {
      runId: _baselineRun,
      sessionId: _baselineSession,
      ...uncrashed
    } = (baseline.named('result')[0]?.result ?? {}) as Record<string, unknown>;
    expect(successor.named('result')[0]).toMatchObject({ result: { ...uncrashed, runId } });
    expect(successor.named('run-start')).toEqual([{ event: 'run-start', epoch: 2 }]);

    const journal = await world.store.readJournal(runId);
    expectNoInterleaving(journal);
    expect(journal.filter((entry) => entry.epoch === 1)).toEqual(saved);
    expect(journal.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    expect(await world.store.getRun(runId)).toMatchObject({ status: 'succeeded', epoch: 2, loopsUsed: EXPECTED.loops });

    // Saved results are consumed, never redone; the call in flight was recorded unknown and retried.
    const effects = world.effects().filter((effect) => effect.label !== 'baseline');
    const finishedBeforeKill = saved.filter((entry) => entry.type === 'operation-finished').map(operationOf);
    expect(finishedBeforeKill).toHaveLength(1);
    for (const operationId of finishedBeforeKill) {
      expect(effects.filter((effect) => effect.operationId === operationId).map((effect) => effect.label)).toEqual(['killed']);
    }
    expect(effects.map((effect) => `${effect.tool}/${effect.attempt}/${effect.label}`)).toEqual([
      'record/1/killed',
      'hold/1/killed',
      'hold/2/successor',
    ]);
    const unknown = journal.find((entry) => entry.type === 'attempt-failed');
    expect(unknown).toMatchObject({ epoch: 2, data: { attempt: 1, failure: { kind: 'unknown-outcome' } } });
  }, 60_000);

  /** Starts an owner, freezes it in its held tool and lets a successor take the run over. */
  async function freezeAndTakeOver(runId: string, ownerLabel: string, successorLabel: string) {
    const owner = world.start({ label: ownerLabel, runId, leaseMs: LEASE_MS });
    await owner.waitFor(isEvent('tool-start'), 'the held tool');
    owner.signal('SIGSTOP');
    const successor = world.start({ label: successorLabel, runId, leaseMs: LEASE_MS, waitOutOwner: true });
    await successor.waitFor(isEvent('tool-start'), 'the held tool after its takeover');
    expect(successor.named('run-start')).toEqual([{ event: 'run-start', epoch: 2 }]);
    const atTakeover = await world.store.readJournal(runId);
    // The owner was frozen for longer than its lease: all it reported before is read by now.
    return { owner, successor, atTakeover, frozenAt: owner.events.length };
  }

  /** Lets the successor finish and checks the run's final journal. */
  async function finishSuccessor(runId: string, successor: TakeoverChild): Promise<JournalEntry[]> {
    world.release(successor.label);
    expect(await successor.exited).toEqual({ code: 0, signal: null });
    expect(successor.stderr).toBe('');
    expect(successor.named('result')[0]).toMatchObject({ result: { ...EXPECTED, runId } });
    const journal = await world.store.readJournal(runId);
    expectNoInterleaving(journal);
    const finished = journal.filter((entry) => entry.type === 'operation-finished');
    expect(finished.map((entry) => [entry.epoch, (entry.data as { content: string }).content])).toEqual([
      [1, 'recorded first'],
      [2, 'held x'],
    ]);
    return journal;
  }

  it('rejects every write of a frozen owner resumed after a takeover; it stops itself, the journal does not interleave', async () => {
    const runId = 'frozen-owner-writes';
    const { owner, successor, atTakeover, frozenAt } = await freezeAndTakeOver(runId, 'frozen', 'taker');

    // The frozen owner's tool completes as soon as it resumes, so it tries to commit its result.
    world.release(owner.label);
    owner.signal('SIGCONT');
    expect(await owner.waitFor(isEvent('error'), 'its end', frozenAt)).toMatchObject({ code: 'ownership-lost' });
    expect(await owner.exited).toEqual({ code: 0, signal: null });
    expect(owner.stderr).toBe('');
    // Whether its own clock stops it first or the store refuses the append of its late result
    // (timer order after SIGCONT decides), nothing it attempts lands. The store's refusal of a
    // stale append is proven on its own in postgres-run-store.int.test.ts.
    // A write still waiting for its answer when the owner stops is abandoned (the process exits
    // without its answer); the journal below shows that it did not land either.
    const writes = writesSince(owner, frozenAt);
    expect(writes.every((write) => write.ok !== true)).toBe(true);
    expect(writes.filter((write) => write.ok === false).every((write) => write.code === 'stale-epoch')).toBe(true);
    expect(owner.named('model-requests')[0]).toMatchObject({ count: 2 });
    expect(await world.store.readJournal(runId)).toEqual(atTakeover);

    const journal = await finishSuccessor(runId, successor);
    expect(journal.slice(0, atTakeover.length)).toEqual(atTakeover);
    expect(journal.slice(atTakeover.length).every((entry) => entry.epoch === 2)).toBe(true);
  }, 60_000);

  it('stops a resumed frozen owner on its failed lease renewal alone, before it admits any more work', async () => {
    const runId = 'frozen-owner-renewal';
    const { owner, successor, atTakeover, frozenAt } = await freezeAndTakeOver(runId, 'sleeper', 'heir');

    // Its tool never completes: only the background renewal notices that the lease is gone — by
    // its own clock, before it even asks the store (a renewal could hang in a partition), or by the
    // store's refusal.
    owner.signal('SIGCONT');
    expect(await owner.waitFor(isEvent('error'), 'its end', frozenAt)).toMatchObject({ code: 'ownership-lost' });
    expect(await owner.exited).toEqual({ code: 0, signal: null });
    const writes = writesSince(owner, frozenAt);
    expect(writes).toEqual(writes.map(() => ({ kind: 'renew', ok: false, code: 'stale-epoch' })));
    expect(owner.named('model-requests')[0]).toMatchObject({ count: 2 });
    expect(await world.store.readJournal(runId)).toEqual(atTakeover);

    await finishSuccessor(runId, successor);
  }, 60_000);
});
