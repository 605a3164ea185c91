/**
 * Persistent and temporary work directories (F-4, F-5, S-5): a temporary run directory is deleted
 * once, only after the whole run has settled — never while a stopped run's calls are still
 * settling, never after a crash (the resumed run, in another process, finds its files) — and a
 * persistent session directory is kept across runs. Tested across a stop and across a SIGKILL.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import type { RunResult } from '../../src/core/run-result.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { createWorkspace, RunNotSettledError } from '../../src/sandbox/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { runTestChild, tagged } from './capability-harness.js';

const directory = sandboxReachableDirectory('agentloom-work-directories-');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A run that writes a draft, then waits in `hold` until the test releases it. */
function holdingAgent(root: string, persistent: boolean, store: SqliteRunStore) {
  const workspace = createWorkspace({ root, persistent });
  let release: () => void = () => {};
  let entered: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const hold = tool({
    name: 'hold',
    description: 'Waits until released.',
    parameters: z.object({}),
    execute: async () => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'released';
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const results = request.messages.filter((message) => message.role === 'tool');
      if (results.length === 0)
        return { toolCalls: [{ name: 'write_file', arguments: { path: 'draft.txt', content: 'draft' } }] };
      if (results.length === 1) return { toolCalls: [{ name: 'hold', arguments: {} }] };
      return { text: 'done' };
    },
  });
  const agent = new Agent({
    name: 'holder',
    mode: 'react',
    model,
    prompt: 'You draft.',
    tools: [...workspace.tools, hold],
    store,
  });
  return { workspace, agent, holding, release: () => release() };
}

describe('work directories across a stop (S-5, F-4)', () => {
  it('deletes a temporary run directory once, only after the stopped run has settled', async () => {
    const store = new SqliteRunStore({ path: join(directory, 'stop-temporary.db') });
    const { workspace, agent, holding, release } = holdingAgent(join(directory, 'stop-temporary'), false, store);
    const run = agent.run({ sessionId: 'session-1', input: 'Draft.' });
    await holding;
    const work = workspace.workDirectory({ sessionId: 'session-1', runId: run.runId });
    expect(readFileSync(join(work, 'draft.txt'), 'utf8')).toBe('draft');
    run.stop();
    // Stopped, but the call in flight is still settling: the run has not settled, the files stay.
    await expect(workspace.cleanupRun(run.runId, store)).rejects.toSatisfy(
      (error: unknown) => RunNotSettledError.isInstance(error) && error.status === 'running',
    );
    expect((await workspace.cleanupStaleRunDirectories(store)).kept).toEqual([
      expect.objectContaining({ runId: run.runId, status: 'running' }),
    ]);
    release();
    const result = await run.result();
    expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    expect(existsSync(join(work, 'draft.txt'))).toBe(true);
    expect(await workspace.cleanupRun(run.runId, store)).toEqual({ runId: run.runId, outcome: 'removed' });
    expect(existsSync(join(directory, 'stop-temporary', 'runs', run.runId))).toBe(false);
    expect(await workspace.cleanupRun(run.runId, store)).toEqual({ runId: run.runId, outcome: 'already-removed' });
    await store.close();
  });

  it('keeps a persistent session directory after a stop, for the next run of the session', async () => {
    const store = new SqliteRunStore({ path: join(directory, 'stop-persistent.db') });
    const root = join(directory, 'stop-persistent');
    const { workspace, agent, holding, release } = holdingAgent(root, true, store);
    const run = agent.run({ sessionId: 'session-1', input: 'Draft.' });
    await holding;
    run.stop();
    release();
    expect((await run.result()).status).toBe('stopped');
    expect(await workspace.cleanupRun(run.runId, store)).toEqual({ runId: run.runId, outcome: 'kept-persistent' });
    const next = new Agent({
      name: 'reader',
      mode: 'react',
      model: new ScriptedModel({
        respond: (request) => {
          // Only this run's messages: the session's earlier runs may be in the history.
          const start = request.messages.findLastIndex((message) => message.role === 'user');
          const result = request.messages.slice(start).find((message) => message.role === 'tool');
          return result ? { text: result.content } : { toolCalls: [{ name: 'read_file', arguments: { path: 'draft.txt' } }] };
        },
      }),
      prompt: 'You read.',
      tools: workspace.tools,
      store,
    });
    expect((await next.run({ sessionId: 'session-1', input: 'Read the draft.' }).result()).output).toBe('draft');
    expect(existsSync(join(root, 'sessions', 'session-1', 'work', 'draft.txt'))).toBe(true);
    await store.close();
  });
});

describe('work directories across a crash (F-5)', () => {
  it.each([
    { persistent: false, label: 'temporary' },
    { persistent: true, label: 'persistent' },
  ])(
    'keeps the $label directory through a SIGKILL, resumes with its files, cleans up only after settling',
    async ({ persistent, label }) => {
      const root = join(directory, `crash-${label}`);
      const env = {
        WORK_ROOT: root,
        WORK_PERSISTENT: persistent ? '1' : '0',
        WORK_STORE: join(directory, `crash-${label}.db`),
        WORK_RUN_ID: `crash-run-${label}`,
      };
      const workspace = createWorkspace({ root, persistent });
      const scope = { sessionId: 'work-session', runId: env.WORK_RUN_ID };
      const work = workspace.workDirectory(scope);
      const crashed = await runTestChild('work-directory-child.ts', { ...env, WORK_FREEZE: '1' }, 'FROZEN');
      expect(crashed.exitSignal, crashed.stderr).toBe('SIGKILL');
      expect(readFileSync(join(work, 'drafts', 'draft.txt'), 'utf8')).toBe('from the first process');
      const store = new SqliteRunStore({ path: env.WORK_STORE });
      try {
        if (!persistent) {
          await expect(workspace.cleanupRun(scope.runId, store)).rejects.toSatisfy(RunNotSettledError.isInstance);
          expect((await workspace.cleanupStaleRunDirectories(store)).kept).toEqual([
            expect.objectContaining({ runId: scope.runId, status: 'running' }),
          ]);
          expect(existsSync(work)).toBe(true);
        }
        const resumed = await runTestChild('work-directory-child.ts', env);
        expect(tagged<RunResult>(resumed, 'RESULT', true), resumed.stderr).toMatchObject({
          status: 'succeeded',
          output: 'from the first process',
        });
        if (persistent) {
          expect(await workspace.cleanupRun(scope.runId, store)).toEqual({ runId: scope.runId, outcome: 'kept-persistent' });
          expect(existsSync(join(work, 'drafts', 'draft.txt'))).toBe(true);
        } else {
          expect(await workspace.cleanupStaleRunDirectories(store)).toEqual({ removed: [scope.runId], kept: [] });
          expect(existsSync(join(root, 'runs', scope.runId))).toBe(false);
          expect(existsSync(join(root, 'system', 'checkpoints', 'runs', scope.runId))).toBe(false);
        }
      } finally {
        await store.close();
      }
    },
  );
});
