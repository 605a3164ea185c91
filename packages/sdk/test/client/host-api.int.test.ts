/**
 * The host API across real processes (issue 12): process A owns a run, B follows its events from
 * sequence 0 with `RunClient.follow`, C requests a stop with `RunClient.requestStop`. In the
 * second case A is SIGKILLed while a tool call is in flight and D takes the run over. B's events
 * must have no gap and no duplicate, end with the terminal event and equal what the journal
 * holds; the stop is honoured by whoever owns the run. ReAct and Plan–Executor, on SQLite and
 * on PostgreSQL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient, type HostedRunEvent as RunEvent, type RunStore } from '../../src/index.js';
import type { PostgresRunStore } from '../../src/store/postgres/index.js';
import { openStore } from '../crash/open-store.js';
import { spawnTestScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';

const CHILD = fileURLToPath(new URL('./host-child.ts', import.meta.url));
const LEASE_MS = 900;

/** A child process of `host-child.ts` with the lines it printed. */
class HostChild {
  readonly lines: Array<{ key: string; value: unknown }> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  private killer: (() => void) | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(environment: Record<string, string>) {
    this.exited = spawnTestScript(CHILD, environment, (line, kill) => {
      this.killer = kill;
      const match = /^([A-Z][A-Z-]*) (.*)$/.exec(line);
      if (match) this.lines.push({ key: match[1] as string, value: JSON.parse(match[2] as string) });
      for (const waiter of this.waiters) waiter();
    }).then((exit) => ({ code: exit.exitCode, signal: exit.exitSignal, stderr: exit.stderr }));
  }

  values(key: string): unknown[] {
    return this.lines.filter((line) => line.key === key).map((line) => line.value);
  }

  /** Resolves once the child printed a line with `key` (fails when it exits first). */
  async waitFor(key: string): Promise<unknown> {
    for (;;) {
      const found = this.values(key)[0];
      if (found !== undefined) return found;
      const exited = await Promise.race([
        this.exited.then((exit) => exit),
        new Promise<undefined>((resolve) => {
          this.waiters.add(() => resolve(undefined));
        }),
      ]);
      if (exited && this.values(key)[0] === undefined)
        throw new Error(`the child exited before printing ${key}: ${exited.stderr}`);
    }
  }

  kill(): void {
    this.killer?.();
  }
}

interface World {
  url: string;
  store: RunStore;
}

function hostSuite(name: string, open: () => Promise<World>, close: (world: World) => Promise<void>): void {
  describe(name, () => {
    let world: World;
    let directory: string;
    beforeAll(async () => {
      world = await open();
    });
    afterAll(async () => {
      await close(world);
    });

    const start = (role: string, runId: string, mode: string) =>
      new HostChild({
        HOST_ROLE: role,
        HOST_RUN_ID: runId,
        HOST_MODE: mode,
        HOST_DIR: directory,
        HOST_STORE: world.url,
        HOST_LEASE_MS: String(LEASE_MS),
      });

    /** B's events: dense in the journal's order, no duplicate, ending with the terminal event, equal to the journal's. */
    async function expectCompleteStream(follower: HostChild, runId: string): Promise<RunEvent[]> {
      expect(await follower.exited).toMatchObject({ code: 0, signal: null });
      const followed = follower.values('EVENT') as RunEvent[];
      const sequences = followed.map((event) => event.sequence);
      expect(new Set(sequences).size).toBe(sequences.length);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      expect(['run-finish', 'workflow-finish']).toContain(followed.at(-1)?.type);
      expect(follower.values('DONE')).toHaveLength(1);
      const journalEvents = await new RunClient({ store: world.store }).readEvents(runId);
      expect(followed).toEqual(journalEvents);
      return followed;
    }

    for (const mode of ['react', 'plan-executor']) {
      it(`${mode}: B follows A's run from 0 while C stops it; A honours the stop, the call in flight settles and is kept`, async () => {
        directory = mkdtempSync(join(tmpdir(), 'agentloom-host-'));
        const runId = `host-stop-${mode}-${Date.now()}`;
        const owner = start('owner', runId, mode);
        await owner.waitFor('TOOL-START');
        const follower = start('follower', runId, mode);
        const stopper = start('stopper', runId, mode);
        await stopper.waitFor('STOPPED');
        // The owner sees the request at a lease renewal; then the call in flight may finish.
        await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 2));
        writeFileSync(join(directory, 'release'), '');
        const result = (await owner.waitFor('RESULT')) as { status: string; reason: string };
        expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop' });
        expect(await owner.exited).toMatchObject({ code: 0 });
        const events = await expectCompleteStream(follower, runId);
        expect(events.map((event) => event.type)).toContain('stop-request');
        expect(events.filter((event) => event.type === 'tool-call-finish')).toEqual([
          expect.objectContaining({ status: 'succeeded', content: `held ${mode === 'react' ? 'react' : 'executor'}` }),
        ]);
        expect(readFileSync(join(directory, 'executions'), 'utf8').trim().split('\n')).toHaveLength(1);
        rmSync(directory, { recursive: true, force: true });
      });

      it(`${mode}: A is SIGKILLed with a call in flight, C stops the run, D takes over and honours the stop; B misses and repeats nothing`, async () => {
        directory = mkdtempSync(join(tmpdir(), 'agentloom-host-'));
        const runId = `host-crash-${mode}-${Date.now()}`;
        const owner = start('owner', runId, mode);
        await owner.waitFor('TOOL-START');
        const follower = start('follower', runId, mode);
        owner.kill();
        expect(await owner.exited).toMatchObject({ signal: 'SIGKILL' });
        const stopper = start('stopper', runId, mode);
        await stopper.waitFor('STOPPED');
        writeFileSync(join(directory, 'release'), '');
        const taker = start('owner', runId, mode);
        const result = (await taker.waitFor('RESULT')) as { status: string; reason: string };
        expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop' });
        expect(await taker.exited).toMatchObject({ code: 0 });
        const events = await expectCompleteStream(follower, runId);
        const starts = events.filter((event) => event.type === 'run-start');
        expect(starts).toHaveLength(1);
        // The taker starts no new call: the one in flight ran once, in the dead owner.
        expect(readFileSync(join(directory, 'executions'), 'utf8').trim().split('\n')).toHaveLength(1);
        const described = await new RunClient({ store: world.store }).describeRun(runId);
        expect(described.owner).toBeNull();
        // The call the dead owner left open is recorded `unknown`, never run again.
        expect(described.agent?.operations.find((operation) => operation.toolName === 'hold')).toMatchObject({
          status: 'failed',
          failure: { kind: 'unknown-outcome' },
        });
        expect(described.stopRequest).toMatchObject({ reason: 'the user pressed stop' });
        expect(existsSync(join(directory, 'release'))).toBe(true);
        rmSync(directory, { recursive: true, force: true });
      });
    }

    it('workflow with an agent node: B follows the workflow run while C stops it; the owner honours the stop', async () => {
      directory = mkdtempSync(join(tmpdir(), 'agentloom-host-'));
      const runId = `host-stop-workflow-${Date.now()}`;
      const owner = start('owner', runId, 'workflow');
      await owner.waitFor('TOOL-START');
      const follower = start('follower', runId, 'workflow');
      const stopper = start('stopper', runId, 'workflow');
      await stopper.waitFor('STOPPED');
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 2));
      writeFileSync(join(directory, 'release'), '');
      expect(await owner.waitFor('RESULT')).toMatchObject({ status: 'stopped', reason: 'user-stop' });
      const events = await expectCompleteStream(follower, runId);
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['workflow-start', 'agent-invoke', 'stop-request']),
      );
      expect(events.filter((event) => event.type === 'task-finish' && 'node' in event && event.node === 'stamp')).toEqual([]);
      expect(readFileSync(join(directory, 'executions'), 'utf8').trim().split('\n')).toHaveLength(1);
      rmSync(directory, { recursive: true, force: true });
    });

    it('workflow with an agent node: A is SIGKILLed, C stops the run, D takes over and honours it; B misses and repeats nothing', async () => {
      directory = mkdtempSync(join(tmpdir(), 'agentloom-host-'));
      const runId = `host-crash-workflow-${Date.now()}`;
      const owner = start('owner', runId, 'workflow');
      await owner.waitFor('TOOL-START');
      const follower = start('follower', runId, 'workflow');
      owner.kill();
      expect(await owner.exited).toMatchObject({ signal: 'SIGKILL' });
      const stopper = start('stopper', runId, 'workflow');
      await stopper.waitFor('STOPPED');
      writeFileSync(join(directory, 'release'), '');
      const taker = start('owner', runId, 'workflow');
      expect(await taker.waitFor('RESULT')).toMatchObject({ status: 'stopped', reason: 'user-stop' });
      const events = await expectCompleteStream(follower, runId);
      expect(events.filter((event) => event.type === 'workflow-start')).toHaveLength(1);
      expect(readFileSync(join(directory, 'executions'), 'utf8').trim().split('\n')).toHaveLength(1);
      rmSync(directory, { recursive: true, force: true });
    });
  });
}

hostSuite(
  'host API across processes on SQLite',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentloom-host-sqlite-'));
    const url = `sqlite:${join(folder, 'runs.db')}`;
    return { url, store: await openStore(url) };
  },
  async (world) => {
    await world.store.close();
    rmSync(world.url.slice('sqlite:'.length).replace(/runs\.db$/, ''), { recursive: true, force: true });
  },
);

const schema = uniqueSchemaName('host_api');
await describeWithPostgres('host API across processes on PostgreSQL', () => {
  hostSuite(
    'PostgreSQL',
    async () => {
      const url = postgresUrlWithSchema(schema);
      const store = (await openStore(url)) as PostgresRunStore;
      await store.setup();
      return { url, store };
    },
    async (world) => {
      await world.store.close();
      await dropSchema(schema);
    },
  );
});
