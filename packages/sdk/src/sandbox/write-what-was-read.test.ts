import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tool, ToolExecutionContext } from '../capabilities/tools/tool.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { FileNotReadError } from './sandbox-errors.js';
import { createWorkspace } from './workspace.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-write-read-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let operation = 0;
function context(runId: string, sessionId = 'session-1'): ToolExecutionContext {
  operation += 1;
  return {
    runId,
    sessionId,
    taskId: 'task-1',
    operationId: `operation-${operation}`,
    attempt: 1,
    signal: new AbortController().signal,
  };
}

/** The tools of a workspace on `root`; a second call on the same root stands for another process. */
function toolsOn(root: string, options: { persistent?: boolean; writeOnlyWhatWasRead?: boolean } = {}) {
  const workspace = createWorkspace({ root, ...options });
  const byName = new Map(workspace.tools.map((item) => [item.name, item]));
  const call = (name: string, args: unknown, runId: string) => {
    const found = byName.get(name) as Tool;
    return Promise.resolve(found.execute(found.parameters.parse(args), context(runId))) as Promise<string>;
  };
  return { workspace, call };
}

const refusal = (reason: 'not-read' | 'changed') => (error: unknown) =>
  FileNotReadError.isInstance(error) && error.reason === reason && error.code === 'file-not-read';

describe('write only what was read (N-15)', () => {
  it('refuses to replace or edit an existing file the run has not read, and creates new files freely', async () => {
    const root = join(directory, 'not-read');
    const { workspace, call } = toolsOn(root, { persistent: true });
    expect(await call('write_file', { path: 'plan.md', content: 'one\n' }, 'run-a')).toContain('wrote');
    // Another run of the session did not read it: both ways of changing it are refused, nothing written.
    await expect(call('write_file', { path: 'plan.md', content: 'two\n' }, 'run-b')).rejects.toSatisfy(refusal('not-read'));
    await expect(call('edit_file', { path: 'plan.md', oldText: 'one', newText: 'two' }, 'run-b')).rejects.toSatisfy(
      refusal('not-read'),
    );
    expect(await call('read_file', { path: 'plan.md' }, 'run-b')).toBe('one\n');
    expect(await call('edit_file', { path: 'plan.md', oldText: 'one', newText: 'two' }, 'run-b')).toContain('1 occurrence');
    // Its own write counts as knowing the file: the next edit needs no new read.
    expect(await call('edit_file', { path: 'plan.md', oldText: 'two', newText: 'three' }, 'run-b')).toContain('1 occurrence');
    expect(await call('read_file', { path: 'plan.md' }, 'run-a')).toBe('three\n');
    expect(workspace.workDirectory({ sessionId: 'session-1', runId: 'run-b' })).toContain('session-1');
  });

  it('refuses a file that changed on disk since the run read it, until the run reads it again', async () => {
    const root = join(directory, 'changed');
    const { workspace, call } = toolsOn(root, { persistent: true });
    await call('write_file', { path: 'data.txt', content: 'v1' }, 'run-a');
    await call('read_file', { path: 'data.txt' }, 'run-b');
    writeFileSync(join(workspace.workDirectory({ sessionId: 'session-1', runId: 'run-b' }), 'data.txt'), 'v2 by someone else');
    await expect(call('write_file', { path: 'data.txt', content: 'v3' }, 'run-b')).rejects.toSatisfy(refusal('changed'));
    await call('read_file', { path: 'data.txt' }, 'run-b');
    expect(await call('write_file', { path: 'data.txt', content: 'v3' }, 'run-b')).toContain('wrote');
  });

  it('remembers reads on disk: a run taken over by another process on the same file root may write what it read', async () => {
    const root = join(directory, 'takeover');
    const first = toolsOn(root, { persistent: true });
    await first.call('write_file', { path: 'shared.md', content: 'base' }, 'run-a');
    await first.call('read_file', { path: 'shared.md' }, 'run-b');
    const taker = toolsOn(root, { persistent: true });
    expect(await taker.call('write_file', { path: 'shared.md', content: 'after takeover' }, 'run-b')).toContain('wrote');
  });

  it('forgets what a run read once it settled, and can be switched off', async () => {
    const root = join(directory, 'settled');
    const { workspace, call } = toolsOn(root, { persistent: true });
    await call('write_file', { path: 'a.txt', content: 'a' }, 'run-a');
    await call('read_file', { path: 'a.txt' }, 'run-b');
    const store = new MemoryRunStore();
    await store.acquire({
      runId: 'run-b',
      sessionId: 'session-1',
      ownerId: 'o',
      leaseMs: 1_000,
      deadlineAt: 0,
      initialEntries: [],
    });
    await expect(workspace.cleanupRun('run-b', store)).rejects.toThrow();
    const run = await store.getRun('run-b');
    await store.append({ runId: 'run-b', epoch: run?.epoch ?? 1, entries: [], terminal: { status: 'stopped' } as never });
    expect(await workspace.cleanupRun('run-b', store)).toMatchObject({ outcome: 'kept-persistent' });
    await expect(call('write_file', { path: 'a.txt', content: 'b' }, 'run-b')).rejects.toSatisfy(refusal('not-read'));

    const unchecked = toolsOn(join(directory, 'unchecked'), { persistent: true, writeOnlyWhatWasRead: false });
    await unchecked.call('write_file', { path: 'x.txt', content: '1' }, 'run-c');
    expect(await unchecked.call('write_file', { path: 'x.txt', content: '2' }, 'run-d')).toContain('wrote');
  });
});
