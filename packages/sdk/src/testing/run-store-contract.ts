import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidRunRequestError,
  JournalMovedError,
  RunNotActiveError,
  RunNotFinishedError,
  RunNotFoundError,
  StaleEpochError,
} from '../core/errors/index.js';
import type { RunStore } from '../store/run-store.js';
import { pendingRequest, request, result } from './contract-requests.js';
import { listingCases } from './run-store-contract-listings.js';
import { sessionCheckpointCases } from './session-checkpoint-contract.js';

/** How the contract suite makes and disposes of a fresh, empty store for each test. */
export interface RunStoreContractOptions {
  /** Shown in the suite's name. */
  name: string;
  create: () => Promise<RunStore> | RunStore;
  /** Called after each test with the store `create` returned (drop files, schemas …). */
  destroy?: (store: RunStore) => Promise<void> | void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every `RunStore` adapter must have (ARCHITECTURE §2), as a Vitest suite. Call it
 * from a test file of your adapter:
 *
 * @example
 * runStoreContract({ name: 'SqliteRunStore', create: () => new SqliteRunStore({ path }) });
 */
export function runStoreContract(options: RunStoreContractOptions): void {
  describe(`RunStore contract: ${options.name}`, () => {
    let store: RunStore;
    beforeEach(async () => {
      store = await options.create();
    });
    afterEach(async () => {
      await options.destroy?.(store);
      await store.close();
    });

    sessionCheckpointCases(() => store);
    listingCases(() => store);

    it('creates a run with its initial entries, epoch 1 and the given deadline', async () => {
      const input = request();
      const acquired = await store.acquire(input);
      expect(acquired.outcome).toBe('created');
      expect(acquired.run).toMatchObject({
        runId: input.runId,
        sessionId: input.sessionId,
        status: 'running',
        ownerId: 'owner-a',
        epoch: 1,
        deadlineAt: input.deadlineAt,
        loopsUsed: 0,
        lastSequence: 1,
      });
      const journal = await store.readJournal(input.runId);
      expect(journal).toHaveLength(1);
      expect(journal[0]).toMatchObject({ sequence: 1, epoch: 1, type: 'run-started', data: { input: 'question' } });
    });

    it('answers owned-elsewhere to a second acquirer while the lease lives, changing nothing', async () => {
      const input = request();
      await store.acquire(input);
      const second = await store.acquire({ ...input, ownerId: 'owner-b', initialEntries: [{ type: 'run-started', data: {} }] });
      expect(second.outcome).toBe('owned-elsewhere');
      expect(second.run.ownerId).toBe('owner-a');
      expect(second.run.epoch).toBe(1);
      expect(await store.readJournal(input.runId)).toHaveLength(1);
    });

    it('lets exactly one of many concurrent acquirers create a run', async () => {
      const input = request();
      const answers = await Promise.all(
        ['a', 'b', 'c', 'd', 'e'].map((owner) => store.acquire({ ...input, ownerId: `owner-${owner}` })),
      );
      expect(answers.filter((answer) => answer.outcome === 'created')).toHaveLength(1);
      expect(answers.filter((answer) => answer.outcome === 'owned-elsewhere')).toHaveLength(4);
      expect(await store.readJournal(input.runId)).toHaveLength(1);
    });

    it('hands an expired lease to a new owner with epoch + 1, keeping deadline and budget', async () => {
      const input = request({ leaseMs: 30 });
      await store.acquire(input);
      await store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'loop-started', data: {} }], chargeLoops: 1 });
      await sleep(80);
      const takeover = await store.acquire({ ...input, ownerId: 'owner-b', deadlineAt: input.deadlineAt + 999_999 });
      expect(takeover.outcome).toBe('acquired');
      expect(takeover.run).toMatchObject({ ownerId: 'owner-b', epoch: 2, deadlineAt: input.deadlineAt, loopsUsed: 1 });
      expect(await store.readJournal(input.runId)).toHaveLength(2);
    });

    it('rejects every write of a stale owner and writes nothing of it', async () => {
      const input = request({ leaseMs: 30 });
      await store.acquire(input);
      await sleep(80);
      await store.acquire({ ...input, ownerId: 'owner-b' });
      await expect(
        store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'zombie', data: {} }], chargeLoops: 1 }),
      ).rejects.toSatisfy(StaleEpochError.isInstance);
      await expect(store.renewLease(input.runId, 1, 60_000)).rejects.toSatisfy(StaleEpochError.isInstance);
      const run = await store.getRun(input.runId);
      expect(run).toMatchObject({ epoch: 2, ownerId: 'owner-b', loopsUsed: 0, lastSequence: 1 });
      expect((await store.readJournal(input.runId)).map((entry) => entry.type)).toEqual(['run-started']);
    });

    it('appends entries densely with the writer epoch, charging loops in the same write', async () => {
      const input = request();
      await store.acquire(input);
      const written = await store.append({
        runId: input.runId,
        epoch: 1,
        entries: [
          { type: 'loop-started', taskId: 'entry', data: { loop: 1 } },
          { type: 'model-responded', taskId: 'entry', data: { text: 'héllo ✓', nested: { list: [1, null, 'x'] } } },
        ],
        chargeLoops: 1,
      });
      expect(written.lastSequence).toBe(3);
      const journal = await store.readJournal(input.runId);
      expect(journal.map((entry) => entry.sequence)).toEqual([1, 2, 3]);
      expect(journal[1]).toMatchObject({ epoch: 1, type: 'loop-started', taskId: 'entry', data: { loop: 1 } });
      expect(journal[2]?.data).toEqual({ text: 'héllo ✓', nested: { list: [1, null, 'x'] } });
      expect(journal[0]?.taskId).toBeUndefined();
      expect((await store.getRun(input.runId))?.loopsUsed).toBe(1);
      expect(await store.readJournal(input.runId, { afterSequence: 2 })).toHaveLength(1);
      expect((await store.readJournal(input.runId, { limit: 1 })).map((entry) => entry.sequence)).toEqual([1]);
      expect((await store.readJournal(input.runId, { afterSequence: 1, limit: 1 })).map((entry) => entry.sequence)).toEqual([2]);
      expect((await store.getRun(input.runId))?.lastSequence).toBe(3);
    });

    it('ends a run atomically with its last entries; a finished run takes no writes and acquires as terminal', async () => {
      const input = request();
      await store.acquire(input);
      const final = result(input.runId);
      await store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'run-finished', data: final }], terminal: final });
      const run = await store.getRun(input.runId);
      expect(run).toMatchObject({ status: 'succeeded', ownerId: null, result: final });
      await expect(store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'late', data: {} }] })).rejects.toSatisfy(
        StaleEpochError.isInstance,
      );
      const again = await store.acquire({ ...input, ownerId: 'owner-b' });
      expect(again.outcome).toBe('terminal');
      expect(again.run.result).toEqual(final);
      expect(await store.readJournal(input.runId)).toHaveLength(2);
    });

    it('takes external entries (epoch 0) in the same sequence while the run is active, and none after its end', async () => {
      const input = request();
      await store.acquire(input);
      const external = await store.appendExternal({
        runId: input.runId,
        entries: [{ type: 'supplement-accepted', taskId: 'entry', data: { text: 'also this' } }],
      });
      expect(external.lastSequence).toBe(2);
      const owned = await store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'loop-started', data: {} }] });
      expect(owned.lastSequence).toBe(3);
      const journal = await store.readJournal(input.runId);
      expect(journal.map((entry) => [entry.sequence, entry.epoch, entry.type])).toEqual([
        [1, 1, 'run-started'],
        [2, 0, 'supplement-accepted'],
        [3, 1, 'loop-started'],
      ]);
      const final = result(input.runId);
      await store.append({ runId: input.runId, epoch: 1, entries: [{ type: 'run-finished', data: final }], terminal: final });
      await expect(
        store.appendExternal({ runId: input.runId, entries: [{ type: 'supplement-accepted', data: {} }] }),
      ).rejects.toSatisfy(RunNotActiveError.isInstance);
      await expect(store.appendExternal({ runId: 'no-such-run', entries: [{ type: 'x', data: {} }] })).rejects.toSatisfy(
        RunNotActiveError.isInstance,
      );
      expect(await store.readJournal(input.runId)).toHaveLength(4);
    });

    it('writes a conditional append only while the journal ends where the writer says (ADR 0025)', async () => {
      const { runId } = request();
      await store.acquire({ ...request(), runId });
      const entries = [{ type: 'loop-started', data: {} }];
      expect((await store.append({ runId, epoch: 1, entries, ifLastSequence: 1 })).lastSequence).toBe(2);
      await store.appendExternal({ runId, entries: [{ type: 'supplement-accepted', data: {} }] });
      const moved = await store.append({ runId, epoch: 1, entries, chargeLoops: 1, ifLastSequence: 2 }).catch((error) => error);
      expect(moved).toMatchObject({ code: 'journal-moved', expectedSequence: 2, lastSequence: 3 });
      expect(JournalMovedError.isInstance(moved)).toBe(true);
      expect(await store.getRun(runId)).toMatchObject({ lastSequence: 3, loopsUsed: 0 });
      await expect(store.append({ runId, epoch: 2, entries, ifLastSequence: 2 })).rejects.toSatisfy(StaleEpochError.isInstance);
      expect((await store.append({ runId, epoch: 1, entries, ifLastSequence: 3 })).lastSequence).toBe(4);
    });

    it('renews the lease of the current owner', async () => {
      const input = request({ leaseMs: 60 });
      await store.acquire(input);
      await sleep(30);
      await store.renewLease(input.runId, 1, 60_000);
      await sleep(60);
      expect((await store.acquire({ ...input, ownerId: 'owner-b' })).outcome).toBe('owned-elsewhere');
    });

    it('releases a lease so that another owner can take over at once', async () => {
      const input = request();
      await store.acquire(input);
      await store.releaseLease(input.runId, 1);
      const takeover = await store.acquire({ ...input, ownerId: 'owner-b' });
      expect(takeover.outcome).toBe('acquired');
      expect(takeover.run.epoch).toBe(2);
      await store.releaseLease(input.runId, 1);
      expect((await store.getRun(input.runId))?.ownerId).toBe('owner-b');
    });

    it('refuses to create a run that must exist, and takes one that does (mustExist)', async () => {
      const input = request();
      await expect(store.acquire({ ...input, initialEntries: [], mustExist: true })).rejects.toMatchObject({
        code: 'run-not-found',
        deleted: false,
      });
      expect(await store.getRun(input.runId)).toBeUndefined();
      await store.acquire({ ...input, leaseMs: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const taken = await store.acquire({ ...input, ownerId: 'owner-b', initialEntries: [], mustExist: true, withJournal: true });
      expect(taken).toMatchObject({
        outcome: 'acquired',
        run: { ownerId: 'owner-b', epoch: 2, lastSequence: input.initialEntries.length },
      });
      // A store may answer the journal with the takeover (withJournal); if it does, the whole of it.
      if (taken.outcome === 'acquired' && taken.journal) expect(taken.journal).toEqual(await store.readJournal(input.runId));
    });

    it('refuses to acquire a run under another session', async () => {
      const input = request();
      await store.acquire(input);
      await expect(store.acquire({ ...input, sessionId: 'other-session' })).rejects.toSatisfy(InvalidRunRequestError.isInstance);
    });

    it('lists the runs of a session, oldest first', async () => {
      const session = `session-${Date.now()}-${Math.random()}`;
      const first = request({ sessionId: session });
      await store.acquire(first);
      await sleep(5);
      const second = request({ sessionId: session });
      await store.acquire(second);
      await store.acquire(request({ sessionId: `${session}-other` }));
      const runs = await store.listSessionRuns(session);
      expect(runs.map((run) => run.runId)).toEqual([first.runId, second.runId]);
    });

    it('reads a session in one call: digests of finished runs, journals only where wanted (issue 18)', async () => {
      const session = `read-session-${Date.now()}-${Math.random()}`;
      const finish = async (runId: string, digest?: unknown) =>
        store.append({
          runId,
          epoch: 1,
          entries: [{ type: 'run-finished', data: { runId } }],
          terminal: result(runId, { sessionId: session }),
          ...(digest === undefined ? {} : { digest }),
        });
      const first = request({ sessionId: session });
      const legacy = request({ sessionId: session });
      const workflow = request({ sessionId: session, labels: { kind: 'workflow', name: 'w', metadata: {} } });
      const recent = request({ sessionId: session });
      const deleted = request({ sessionId: session });
      const live = request({ sessionId: session });
      for (const run of [first, legacy, workflow, recent, deleted, live]) await store.acquire(run);
      await finish(first.runId, { input: 'first question', supplements: [{ id: 's1', text: 'más', consumed: false }] });
      await finish(legacy.runId);
      await finish(workflow.runId, { workflow: true });
      await finish(recent.runId, { input: 'recent question' });
      await finish(deleted.runId, { input: 'gone' });
      await store.deleteRuns([deleted.runId]);
      await store.appendExternal({ runId: live.runId, entries: [{ type: 'supplement', data: { text: 'more' } }] });

      const agentRuns = await store.readSession({ sessionId: session, kind: 'agent', recentFinished: 1 });
      expect(agentRuns.map((read) => read.run.runId)).toEqual([first.runId, legacy.runId, recent.runId, live.runId]);
      const [firstRead, legacyRead, recentRead, liveRead] = agentRuns;
      expect(firstRead?.digest).toEqual({ input: 'first question', supplements: [{ id: 's1', text: 'más', consumed: false }] });
      expect(firstRead?.journal).toBeUndefined();
      expect(firstRead?.run.status).toBe('succeeded');
      expect(firstRead?.run.result?.output).toBe('answer');
      // A finished run without a digest (written before digests) and an unfinished one come with their journal.
      expect(legacyRead?.digest).toBeUndefined();
      expect(legacyRead?.journal).toEqual(await store.readJournal(legacy.runId));
      expect(recentRead?.digest).toEqual({ input: 'recent question' });
      expect(recentRead?.journal).toEqual(await store.readJournal(recent.runId));
      expect(liveRead?.run.lastSequence).toBe(2);
      expect(liveRead?.journal).toEqual(await store.readJournal(live.runId));

      const named = await store.readSession({ sessionId: session, journalsOf: [first.runId], exceptRunId: live.runId });
      expect(named.map((read) => read.run.runId)).toEqual([first.runId, legacy.runId, workflow.runId, recent.runId]);
      expect(named[0]?.journal?.map((entry) => entry.type)).toEqual(['run-started', 'run-finished']);
      expect(named[2]?.journal).toBeUndefined();
      expect(named[3]?.journal).toBeUndefined();
      expect(await store.readSession({ sessionId: `${session}-empty` })).toEqual([]);
      await expect(store.readSession({ sessionId: session, recentFinished: -1 })).rejects.toMatchObject({
        code: 'invalid-run-request',
      });
      await expect(store.readSession({ sessionId: '' })).rejects.toMatchObject({ code: 'invalid-identifier' });
      await expect(store.readSession({ sessionId: session, journalsOf: ['nul\u0000byte'] })).rejects.toMatchObject({
        code: 'invalid-identifier',
      });
    });

    it('refuses the same invalid ids as every other store, writing nothing', async () => {
      const invalid: unknown[] = ['', 'x'.repeat(256), 'lone \ud800 surrogate', 'nul\u0000byte', 42, { id: 1 }];
      for (const runId of invalid) {
        await expect(store.acquire(request({ runId: runId as string }))).rejects.toMatchObject({
          code: 'invalid-identifier',
          field: 'runId',
        });
        await expect(store.getRun(runId as string)).rejects.toMatchObject({ code: 'invalid-identifier' });
      }
      await expect(store.acquire(request({ sessionId: '\udc00' }))).rejects.toMatchObject({ field: 'sessionId' });
      await expect(store.listSessionRuns('')).rejects.toMatchObject({ code: 'invalid-identifier' });
      const valid = request({ runId: `${'é'.repeat(200)}-${process.pid}-${Date.now()}-✓😀`.slice(0, 255) });
      expect((await store.acquire(valid)).outcome).toBe('created');
      expect((await store.getRun(valid.runId))?.runId).toBe(valid.runId);
      await expect(store.readJournal(valid.runId, { limit: 0 })).rejects.toMatchObject({ code: 'invalid-run-request' });
      await expect(store.readJournal(valid.runId, { afterSequence: -1 })).rejects.toMatchObject({ code: 'invalid-run-request' });
    });

    it('answers undefined and an empty journal for an unknown run', async () => {
      expect(await store.getRun('no-such-run')).toBeUndefined();
      expect(await store.readJournal('no-such-run')).toEqual([]);
    });

    it('reads a run with its journal in one call where the store offers it: the same as getRun and readJournal', async (context) => {
      if (!store.readRunAndJournal) return context.skip();
      expect(await store.readRunAndJournal('no-such-run')).toEqual({ run: undefined, entries: [] });
      const input = request();
      await store.acquire(input);
      expect(await store.readRunAndJournal(input.runId)).toEqual({
        run: await store.getRun(input.runId),
        entries: await store.readJournal(input.runId),
      });
      await store.append({
        runId: input.runId,
        epoch: 1,
        entries: [
          { type: 'step', data: { n: 1 } },
          { type: 'step', taskId: 't', data: { n: 2 } },
        ],
      });
      const options = { afterSequence: 1, limit: 1 };
      const { run, entries } = await store.readRunAndJournal(input.runId, options);
      expect(run).toEqual(await store.getRun(input.runId));
      expect(entries).toEqual(await store.readJournal(input.runId, options));
      expect(entries.map((entry) => entry.sequence)).toEqual([2]);
      await expect(store.readRunAndJournal('', {})).rejects.toMatchObject({ code: 'invalid-identifier' });
    });

    it('records a pending run once, unowned, with its labels and first entries', async () => {
      const pending = pendingRequest();
      const first = await store.createRun(pending);
      expect(first.created).toBe(true);
      expect(first.run).toMatchObject({ status: 'pending', ownerId: null, kind: 'workflow', name: 'writer', lastSequence: 1 });
      expect(first.run.metadata).toEqual({ release: 'r-1', space: 'north' });
      const again = await store.createRun({ ...pending, entries: [{ type: 'run-requested', data: { input: 'other' } }] });
      expect(again.created).toBe(false);
      const journal = await store.readJournal(pending.runId);
      expect(journal.map((entry) => entry.data)).toEqual([{ input: 'question' }]);
      expect((await store.getRun(pending.runId))?.metadata).toEqual({ release: 'r-1', space: 'north' });
    });

    it('takes supplements for a pending run and lets the first executor take it (epoch 2, running)', async () => {
      const pending = pendingRequest();
      await store.createRun(pending);
      await store.appendExternal({ runId: pending.runId, entries: [{ type: 'supplement-accepted', data: { text: 'also' } }] });
      const taken = await store.acquire(request({ runId: pending.runId, sessionId: pending.sessionId, initialEntries: [] }));
      expect(taken.outcome).toBe('acquired');
      expect(taken.run).toMatchObject({ status: 'running', epoch: 2, lastSequence: 2, kind: 'workflow', name: 'writer' });
      const appended = await store.append({ runId: pending.runId, epoch: 2, entries: [{ type: 'run-started', data: {} }] });
      expect(appended.lastSequence).toBe(3);
      const renewed = await store.renewLease(pending.runId, 2, 60_000);
      expect(renewed.lastSequence).toBe(3);
    });

    it('reports the last sequence with each renewal, external entries included', async () => {
      const first = request();
      await store.acquire(first);
      await store.appendExternal({ runId: first.runId, entries: [{ type: 'stop-requested', data: {} }] });
      expect((await store.renewLease(first.runId, 1, 60_000)).lastSequence).toBe(2);
    });

    it('deletes only finished runs and leaves a tombstone that refuses every later write', async () => {
      const live = request();
      await store.acquire(live);
      const pending = pendingRequest();
      await store.createRun(pending);
      const refused = await store.deleteRuns([live.runId, pending.runId]).catch((error: unknown) => error);
      expect(RunNotFinishedError.isInstance(refused)).toBe(true);
      expect((refused as RunNotFinishedError).runIds.slice().sort()).toEqual([live.runId, pending.runId].sort());
      expect((await store.getRun(live.runId))?.status).toBe('running');

      await store.append({
        runId: live.runId,
        epoch: 1,
        entries: [{ type: 'run-finished', data: {} }],
        terminal: result(live.runId),
      });
      expect(await store.deleteRuns([live.runId, 'no-such-run'])).toEqual([live.runId]);
      expect((await store.getRun(live.runId))?.status).toBe('deleted');
      expect(await store.readJournal(live.runId)).toEqual([]);
      expect((await store.listSessionRuns(live.sessionId)).some((run) => run.runId === live.runId)).toBe(false);
      const takeover = await store.acquire(request({ runId: live.runId })).catch((error: unknown) => error);
      expect(RunNotFoundError.isInstance(takeover) && takeover.deleted).toBe(true);
      await expect(store.append({ runId: live.runId, epoch: 1, entries: [{ type: 'late', data: {} }] })).rejects.toSatisfy(
        StaleEpochError.isInstance,
      );
      await expect(store.appendExternal({ runId: live.runId, entries: [{ type: 'late', data: {} }] })).rejects.toSatisfy(
        RunNotActiveError.isInstance,
      );
      expect((await store.createRun({ ...pendingRequest(), runId: live.runId })).created).toBe(false);
    });
  });
}
