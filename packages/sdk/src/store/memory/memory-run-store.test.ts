import { describe, expect, it, vi } from 'vitest';
import { runStoreContract } from '../../testing/run-store-contract.js';
import { MemoryRunStore } from './memory-run-store.js';

runStoreContract({ name: 'MemoryRunStore', create: () => new MemoryRunStore() });

describe('MemoryRunStore copies (issue 31)', () => {
  it('keeps a run and its result as JSON: no structured clone on the way in or out, and every reader gets its own copy', async () => {
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      const store = new MemoryRunStore();
      const { run } = await store.acquire({
        runId: 'r1',
        sessionId: 's1',
        ownerId: 'owner',
        leaseMs: 60_000,
        deadlineAt: Date.now() + 60_000,
        initialEntries: [{ type: 'workflow-started', data: { input: 'x' } }],
        labels: { kind: 'workflow', name: 'w', metadata: { team: 'a' } },
      });
      const result = { runId: 'r1', sessionId: 's1', status: 'succeeded' as const, output: { list: [1, 2] } };
      await store.append({
        runId: 'r1',
        epoch: run.epoch,
        entries: [{ type: 'workflow-finished', data: {} }],
        terminal: result as never,
      });
      result.output.list.push(3);
      const first = await store.getRun('r1');
      const second = (await store.listRuns({ limit: 10 }))[0];
      expect(first?.result).toEqual({ runId: 'r1', sessionId: 's1', status: 'succeeded', output: { list: [1, 2] } });
      expect(second?.result).toEqual(first?.result);
      expect(second?.result).not.toBe(first?.result);
      expect(second?.metadata).not.toBe(first?.metadata);
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });
});
