import { describe, expect, it } from 'vitest';
import { OwnershipLostError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { AppendRequest, RunStore } from '../../store/run-store.js';
import { DurableRun } from './durable-run.js';
import { RunControl } from './run-control.js';

/** A memory store whose appends wait `appendMs` before landing (forever when undefined). */
class SlowAppendStore extends MemoryRunStore {
  appendMs: number | undefined;

  override append(request: AppendRequest): Promise<{ lastSequence: number }> {
    const wait = this.appendMs;
    if (wait === undefined) return new Promise(() => {});
    return new Promise((resolve) => setTimeout(resolve, wait)).then(() => super.append(request));
  }
}

async function owned(store: RunStore, leaseMs: number) {
  const { run } = await store.acquire({
    runId: 'run-lease',
    sessionId: 's',
    ownerId: 'owner',
    leaseMs,
    deadlineAt: Date.now() + 60_000,
    initialEntries: [{ type: 'started', data: {} }],
  });
  const control = new RunControl();
  const durable = new DurableRun<{ applied: number }>({
    store,
    runId: run.runId,
    epoch: run.epoch,
    leaseMs,
    lastSequence: 1,
    state: { applied: 0 },
    control,
    apply: (state) => {
      state.applied += 1;
    },
  });
  return { durable, control };
}

const entry = { type: 'noted', data: { value: 1 } };

describe('DurableRun: store calls bounded by the lease (X-4)', () => {
  it('gives up a commit the store never answers once the lease has run out, and loses the run', async () => {
    const store = new SlowAppendStore();
    const { durable, control } = await owned(store, 120);
    await expect(durable.commit(() => ({ entries: [entry] }))).rejects.toBeInstanceOf(OwnershipLostError);
    expect(control.hardSignal.aborted).toBe(true);
    expect(durable.state.applied).toBe(0);
    await durable.dispose({ release: false });
  });

  it('keeps a slow commit that answers within the lease, one after another', async () => {
    const store = new SlowAppendStore();
    store.appendMs = 20;
    const { durable } = await owned(store, 400);
    for (let index = 0; index < 3; index += 1) await durable.commit(() => ({ entries: [entry] }));
    expect(durable.state.applied).toBe(3);
    expect(durable.sequence).toBe(4);
    await durable.dispose({ release: true });
  });

  it('waits past the first lease end when a renewal moved it', async () => {
    const store = new SlowAppendStore();
    store.appendMs = 300;
    const { durable, control } = await owned(store, 150);
    durable.startLeaseRenewal();
    await durable.commit(() => ({ entries: [entry] }));
    expect(durable.state.applied).toBe(1);
    expect(control.hardSignal.aborted).toBe(false);
    await durable.dispose({ release: true });
  });
});
