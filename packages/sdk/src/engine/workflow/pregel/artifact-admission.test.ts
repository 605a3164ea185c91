import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteRunStore } from '../../../store/sqlite/sqlite-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { appendList } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { artifactsConflict } from './artifact-admission.js';

/** Counts the tasks inside each artifact at once, and the most there ever were. */
function occupancy() {
  const inside = new Map<string, number>();
  const most = new Map<string, number>();
  return {
    most,
    async hold(artifact: string, milliseconds: number) {
      const now = (inside.get(artifact) ?? 0) + 1;
      inside.set(artifact, now);
      most.set(artifact, Math.max(most.get(artifact) ?? 0, now));
      await new Promise((resolve) => setTimeout(resolve, milliseconds));
      inside.set(artifact, (inside.get(artifact) ?? 1) - 1);
    },
  };
}

describe('read and write sets of workflow nodes (seed 004 Q1)', () => {
  it('say which pairs conflict: a writer with a reader or writer of the same artifact, never two readers', () => {
    expect(artifactsConflict({ writes: ['a'] }, { writes: ['a'] })).toBe(true);
    expect(artifactsConflict({ writes: ['a'] }, { reads: ['a'] })).toBe(true);
    expect(artifactsConflict({ reads: ['a'] }, { writes: ['a'] })).toBe(true);
    expect(artifactsConflict({ reads: ['a'] }, { reads: ['a'] })).toBe(false);
    expect(artifactsConflict({ writes: ['a'] }, { writes: ['b'] })).toBe(false);
    expect(artifactsConflict(undefined, { writes: ['a'] })).toBe(false);
  });

  it('never run two writers of one artifact at once, let two readers overlap, and keep every result', async () => {
    const store = new SqliteRunStore({ path: ':memory:' });
    const files = occupancy();
    const readersTogether = { started: 0 };
    const builder = new WorkflowBuilder({ name: 'artifacts', state: { log: appendList(z.string()) } });
    for (const name of ['draft-1', 'draft-2', 'draft-3']) {
      builder
        .addNode(
          name,
          async () => {
            await files.hold('report.md', 40);
            return { log: [name] };
          },
          { artifacts: { writes: ['report.md'] } },
        )
        .addEdge(START, name);
    }
    for (const name of ['read-1', 'read-2']) {
      builder
        .addNode(
          name,
          async () => {
            readersTogether.started += 1;
            // Waits (bounded) for the other reader: it can only come while this one is inside.
            for (let wait = 0; wait < 50 && readersTogether.started < 2; wait += 1)
              await new Promise((resolve) => setTimeout(resolve, 10));
            await files.hold('notes.md', 20);
            return { log: [name] };
          },
          { artifacts: { reads: ['notes.md'] } },
        )
        .addEdge(START, name);
    }
    for (const name of ['draft-1', 'draft-2', 'draft-3', 'read-1', 'read-2']) builder.addEdge(name, END);
    const workflow = builder.compile({ store });
    const result = await workflow.run({ sessionId: 's', input: {} }).result();
    expect(result.status).toBe('succeeded');
    expect([...(result.output?.log ?? [])].sort()).toEqual(['draft-1', 'draft-2', 'draft-3', 'read-1', 'read-2']);
    expect(files.most.get('report.md')).toBe(1);
    expect(files.most.get('notes.md')).toBe(2);
    store.close();
  });

  it('overlap the same writers when they declare nothing (what the test above would catch)', async () => {
    const files = occupancy();
    const builder = new WorkflowBuilder({ name: 'undeclared', state: { log: appendList(z.string()) } });
    for (const name of ['draft-1', 'draft-2']) {
      builder
        .addNode(name, async () => {
          await files.hold('report.md', 40);
          return { log: [name] };
        })
        .addEdge(START, name);
    }
    for (const name of ['draft-1', 'draft-2']) builder.addEdge(name, END);
    await builder.compile().run({ sessionId: 's', input: {} }).result();
    expect(files.most.get('report.md')).toBe(2);
  });

  it('take declarations for any node kind, and refuse one for a node that does not exist', () => {
    const builder = new WorkflowBuilder({ name: 'declared', state: { log: appendList(z.string()) } }).addNode('a', () => ({}));
    expect(() => builder.declareArtifacts('a', { writes: ['x'] })).not.toThrow();
    expect(() => builder.declareArtifacts('missing', { writes: ['x'] })).toThrow(/no node "missing"/);
  });
});
