import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tool, ToolExecutionContext } from '../capabilities/tools/tool.js';
import { FileEditConflictError, FileNotFoundError, WorkspaceAccessError } from './sandbox-errors.js';
import { createWorkspace } from './workspace.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-file-tools-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const skillDirectory = join(directory, 'skills', 'notes-helper');
mkdirSync(skillDirectory, { recursive: true });
writeFileSync(join(skillDirectory, 'SKILL.md'), '---\nname: notes-helper\ndescription: Use when notes.\n---\nRead me.\n');

let operation = 0;
function context(runId = 'run-1', sessionId = 'session-1'): ToolExecutionContext {
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

function toolsOf(root: string, persistent = false) {
  const workspace = createWorkspace({ root, persistent, skills: [{ name: 'notes-helper', directory: skillDirectory }] });
  const byName = new Map(workspace.tools.map((item) => [item.name, item]));
  const call = (name: string, args: unknown, callContext = context()) => {
    const found = byName.get(name) as Tool;
    return Promise.resolve(found.execute(found.parameters.parse(args), callContext)) as Promise<string>;
  };
  return { workspace, call };
}

describe('workspace file tools (F-1, F-2, N-6)', () => {
  it('writes, reads, edits, lists and greps inside /work, relative paths included', async () => {
    const { workspace, call } = toolsOf(join(directory, 'agent-a'));
    expect(await call('write_file', { path: 'notes/today.md', content: 'alpha\nbeta\n' })).toContain('/work/notes/today.md');
    expect(await call('read_file', { path: '/work/notes/today.md' })).toBe('alpha\nbeta\n');
    expect(await call('edit_file', { path: 'notes/today.md', oldText: 'beta', newText: 'gamma' })).toContain('1 occurrence');
    expect(await call('read_file', { path: 'notes/today.md', offset: 2, limit: 1 })).toBe('gamma');
    expect(await call('list_files', { path: 'notes' })).toBe('today.md (12 bytes)');
    expect(await call('list_files', { path: '/' })).toBe('skills/\nwork/');
    expect(await call('grep_files', { pattern: 'gam' })).toBe('/work/notes/today.md:2: gamma');
    expect(await call('read_file', { path: '/skills/notes-helper/SKILL.md' })).toContain('Read me.');
    const host = workspace.workDirectory({ sessionId: 'session-1', runId: 'run-1' });
    expect(host).toBe(join(directory, 'agent-a', 'runs', 'run-1', 'work'));
    expect(readFileSync(join(host, 'notes', 'today.md'), 'utf8')).toBe('alpha\ngamma\n');
  });

  it('refuses an ambiguous or missing edit, and reports missing files as not found', async () => {
    const { call } = toolsOf(join(directory, 'agent-b'));
    await call('write_file', { path: 'a.txt', content: 'x x' });
    await expect(call('edit_file', { path: 'a.txt', oldText: 'x', newText: 'y' })).rejects.toSatisfy(
      FileEditConflictError.isInstance,
    );
    await expect(call('edit_file', { path: 'a.txt', oldText: 'z', newText: 'y' })).rejects.toSatisfy(
      FileEditConflictError.isInstance,
    );
    expect(await call('edit_file', { path: 'a.txt', oldText: 'x', newText: 'y', replaceAll: true })).toContain('2 occurrence');
    await expect(call('read_file', { path: 'missing.txt' })).rejects.toSatisfy(FileNotFoundError.isInstance);
  });

  it('refuses skills writes, traversal, links and hard links with typed reasons', async () => {
    const root = join(directory, 'agent-c');
    const { workspace, call } = toolsOf(root);
    await call('write_file', { path: 'seed.txt', content: 'seed' });
    const host = workspace.workDirectory({ sessionId: 'session-1', runId: 'run-1' });
    writeFileSync(join(directory, 'outside.txt'), 'outside secret');
    symlinkSync(join(directory, 'outside.txt'), join(host, 'link.txt'));
    symlinkSync(directory, join(host, 'linked-directory'));
    linkSync(join(directory, 'outside.txt'), join(host, 'hard.txt'));
    const reasonOf = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WorkspaceAccessError.isInstance(error), String(error)).toBe(true);
      return (error as WorkspaceAccessError).reason;
    };
    expect(await reasonOf(call('write_file', { path: '/skills/notes-helper/SKILL.md', content: 'x' }))).toBe('read-only');
    expect(await reasonOf(call('read_file', { path: '../../../outside.txt' }))).toBe('outside-view');
    expect(await reasonOf(call('read_file', { path: join(directory, 'outside.txt') }))).toBe('outside-view');
    expect(await reasonOf(call('read_file', { path: 'link.txt' }))).toBe('symbolic-link');
    expect(await reasonOf(call('read_file', { path: 'linked-directory/outside.txt' }))).toBe('symbolic-link');
    expect(await reasonOf(call('read_file', { path: 'hard.txt' }))).toBe('hard-link');
    expect(await reasonOf(call('write_file', { path: 'hard.txt', content: 'overwrite' }))).toBe('hard-link');
    expect(await reasonOf(call('write_file', { path: 'link.txt', content: 'overwrite' }))).toBe('symbolic-link');
    expect(readFileSync(join(directory, 'outside.txt'), 'utf8')).toBe('outside secret');
    expect(await call('grep_files', { pattern: 'secret' })).toContain('(no matches)');
  });

  it('keeps sessions apart: each run sees only its own work directory (F-2)', async () => {
    const { call } = toolsOf(join(directory, 'agent-d'), true);
    await call('write_file', { path: 'mine.txt', content: 'session one' }, context('run-1', 'session-1'));
    await expect(call('read_file', { path: 'mine.txt' }, context('run-2', 'session-2'))).rejects.toSatisfy(
      FileNotFoundError.isInstance,
    );
    expect(await call('read_file', { path: 'mine.txt' }, context('run-3', 'session-1'))).toBe('session one');
  });

  it('records the content before each change and rolls files back (N-6)', async () => {
    const { workspace, call } = toolsOf(join(directory, 'agent-e'));
    const scope = { sessionId: 'session-1', runId: 'run-1' };
    await call('write_file', { path: 'draft.md', content: 'v1' });
    const log = workspace.checkpointLog(scope);
    const [first] = (await log?.list()) ?? [];
    await call('write_file', { path: 'draft.md', content: 'v2' });
    await call('edit_file', { path: 'draft.md', oldText: 'v2', newText: 'v3' });
    await call('write_file', { path: 'new/other.md', content: 'created later' });
    expect((await log?.list())?.map((change) => [change.path, change.existed])).toEqual([
      ['/work/draft.md', false],
      ['/work/draft.md', true],
      ['/work/draft.md', true],
      ['/work/new/other.md', false],
    ]);
    const back = await workspace.rollbackFiles(scope, { afterSequence: first?.sequence ?? 0 });
    expect(back.failed).toEqual([]);
    expect(back.restored).toHaveLength(3);
    expect(await call('read_file', { path: 'draft.md' })).toBe('v1');
    await expect(call('read_file', { path: 'new/other.md' })).rejects.toSatisfy(FileNotFoundError.isInstance);
    await workspace.rollbackFiles(scope, {});
    await expect(call('read_file', { path: 'draft.md' })).rejects.toSatisfy(FileNotFoundError.isInstance);
  });
});
