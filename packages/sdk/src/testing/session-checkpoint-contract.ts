import { expect, it } from 'vitest';
import type { RunResult } from '../core/run-result.js';
import type { AcquireRequest, RunStore, SessionRunRead } from '../store/run-store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The contract cases of session checkpoints (ADR 0012): `append` keeps the run a checkpoint covers
 * through and refuses one that is not an earlier run of the same session, and
 * `readSession({ afterCheckpoint })` answers only the runs after the newest (or a named) checkpoint.
 */
export function sessionCheckpointCases(store: () => RunStore): void {
  it('keeps session checkpoints and reads only the runs after the newest one (ADR 0012)', async () => {
    const session = `checkpoint-session-${process.pid}-${Date.now()}-${Math.random()}`;
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const runId = `${session}-run-${index}`;
      ids.push(runId);
      await store().acquire(acquireRequest(runId, session));
      // Distinct creation times: a checkpoint covers only runs created before its holder.
      await sleep(3);
    }
    const [a, b, c, d, e, live] = ids as [string, string, string, string, string, string];
    const finish = (runId: string, checkpointThrough?: string, digest: unknown = { input: runId }) =>
      store().append({
        runId,
        epoch: 1,
        entries: [{ type: 'run-finished', data: {} }],
        terminal: result(runId, session),
        digest,
        ...(checkpointThrough ? { checkpointThrough } : {}),
      });
    await store().acquire(acquireRequest(`${session}-elsewhere`, `${session}-other`));

    // Refused, writing nothing: a later run, a run of another session, no terminal or no digest.
    for (const through of [live, `${session}-elsewhere`, 'no-such-run', c]) {
      await expect(finish(c, through)).rejects.toMatchObject({ code: 'invalid-run-request' });
    }
    await expect(
      store().append({ runId: c, epoch: 1, entries: [{ type: 'x', data: {} }], checkpointThrough: a }),
    ).rejects.toMatchObject({ code: 'invalid-run-request' });
    expect((await store().getRun(c))?.status).toBe('running');
    expect(await store().readJournal(c)).toHaveLength(1);

    const whole = await store().readSession({ sessionId: session, afterCheckpoint: true });
    expect(whole.map((read) => read.run.runId)).toEqual(ids);
    expect(whole.some((read) => read.checkpoint)).toBe(false);

    await finish(a);
    await finish(b);
    await finish(c, a, { input: c, checkpoint: 'through a' });
    await finish(d, b, { input: d, checkpoint: 'through b' });
    await finish(e);

    const newest = await store().readSession({ sessionId: session, afterCheckpoint: true, recentFinished: 1, exceptRunId: live });
    expect(newest.map((read) => read.run.runId)).toEqual([c, d, e]);
    expect(marked(newest)).toEqual([d]);
    expect(newest.find((read) => read.checkpoint)?.digest).toEqual({ input: d, checkpoint: 'through b' });
    expect(newest.map((read) => read.journal !== undefined)).toEqual([false, false, true]);

    const named = await store().readSession({ sessionId: session, afterCheckpoint: c, journalsOf: [b] });
    expect(named.map((read) => read.run.runId)).toEqual([b, c, d, e, live]);
    expect(marked(named)).toEqual([c]);
    expect(named[0]?.journal?.map((entry) => entry.type)).toEqual(['run-started', 'run-finished']);

    // A deleted holder holds no checkpoint: the newest is then the one before it.
    await store().deleteRuns([d]);
    const after = await store().readSession({ sessionId: session, afterCheckpoint: true });
    expect(after.map((read) => read.run.runId)).toEqual([b, c, e, live]);
    expect(marked(after)).toEqual([c]);
    expect((await store().readSession({ sessionId: session, afterCheckpoint: d })).map((read) => read.run.runId)).toEqual([
      a,
      b,
      c,
      e,
      live,
    ]);
    // A deleted covered run still marks where its checkpoint ends.
    await store().deleteRuns([a]);
    expect((await store().readSession({ sessionId: session, afterCheckpoint: true })).map((read) => read.run.runId)).toEqual([
      b,
      c,
      e,
      live,
    ]);
    await expect(store().readSession({ sessionId: session, afterCheckpoint: '' })).rejects.toMatchObject({
      code: 'invalid-identifier',
    });
  });
}

function marked(reads: readonly SessionRunRead[]): string[] {
  return reads.filter((read) => read.checkpoint).map((read) => read.run.runId);
}

function acquireRequest(runId: string, sessionId: string): AcquireRequest {
  return {
    runId,
    sessionId,
    ownerId: 'owner-a',
    leaseMs: 60_000,
    deadlineAt: Date.now() + 3_600_000,
    initialEntries: [{ type: 'run-started', data: { input: runId } }],
  };
}

function result(runId: string, sessionId: string): RunResult {
  return {
    runId,
    sessionId,
    status: 'succeeded',
    output: 'answer',
    loops: 1,
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  };
}
