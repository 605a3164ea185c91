/**
 * Hand-over between real processes: process A runs until a tool is in flight, then
 * detaches and stays alive; process B (a fresh process) continues the same run at once. Both use
 * a 10-minute lease, so B could only get the run now if A really released it. Checked on a SQLite
 * file and on PostgreSQL: same run id, every tool executed once, input once, the same deadline.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunStore } from '../../src/store/run-store.js';
import { openStore } from '../crash/open-store.js';
import { spawnTestScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';

const child = join(import.meta.dirname, 'detach-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-detach-processes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs process B: one `agent.run({ sessionId, runId })`, no waiting; answers what it printed. */
async function take(storeUrl: string, runId: string, ledger: string) {
  const values: Record<string, unknown> = {};
  const exit = await spawnTestScript(
    child,
    { DETACH_ROLE: 'take', DETACH_STORE: storeUrl, DETACH_RUN_ID: runId, DETACH_LEDGER: ledger },
    (line) => {
      const match = /^([A-Z]+) (.*)$/.exec(line);
      if (match) values[match[1] as string] = JSON.parse(match[2] as string);
    },
  );
  return { values, exit };
}

async function handOver(storeUrl: string, read: (work: (store: RunStore) => Promise<void>) => Promise<void>) {
  const runId = `detach-${Date.now().toString(36)}`;
  const ledger = join(directory, `${runId}.ledger`);
  // A stays alive after detaching: B runs while A still lives, then A is killed.
  let killA: () => void = () => {};
  let detached: unknown;
  const detachedSeen = new Promise<void>((resolve, reject) => {
    void spawnTestScript(
      child,
      { DETACH_ROLE: 'detach', DETACH_STORE: storeUrl, DETACH_RUN_ID: runId, DETACH_LEDGER: ledger },
      (line, kill) => {
        if (!line.startsWith('DETACHED ')) return;
        detached = JSON.parse(line.slice('DETACHED '.length));
        killA = kill;
        resolve();
      },
    ).then((exit) => {
      if (detached === undefined) reject(new Error(`process A ended before detaching: ${exit.stderr}`));
    }, reject);
  });
  await detachedSeen;
  try {
    expect(detached).toEqual({ code: 'run-detached', runId, sessionId: `session-${runId}`, modelRequests: 2 });
    const taker = await take(storeUrl, runId, ledger);
    expect(taker.exit.stderr).toBe('');
    expect(taker.values.ERROR).toBeUndefined();
    expect(taker.values.RESULT).toEqual({ status: 'succeeded', output: 'handed over and done', loops: 3, modelRequests: 1 });
  } finally {
    killA();
  }
  const lines = readFileSync(ledger, 'utf8').trim().split('\n');
  expect(lines).toEqual(['fast detach', 'slow detach']);
  await read(async (store) => {
    const journal = await store.readJournal(runId);
    expect(journal.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    expect(journal.filter((entry) => entry.type === 'operation-finished')).toHaveLength(2);
    expect(new Set(journal.map((entry) => entry.epoch))).toEqual(new Set([1, 2]));
    const run = await store.getRun(runId);
    const started = journal.find((entry) => entry.type === 'run-started')?.data as { deadlineAt: number };
    expect(run).toMatchObject({ status: 'succeeded', deadlineAt: started.deadlineAt, loopsUsed: 3 });
  });
}

describe('hand-over between processes on a SQLite file', () => {
  it('process B takes the run over at once while A, which detached, is still alive', async () => {
    const storeUrl = `sqlite:${join(directory, 'runs.db')}`;
    await handOver(storeUrl, async (work) => {
      const store = await openStore(storeUrl);
      try {
        await work(store);
      } finally {
        await store.close();
      }
    });
  }, 60_000);
});

await describeWithPostgres('hand-over between processes on PostgreSQL', () => {
  const schema = uniqueSchemaName('detach_processes');
  const storeUrl = postgresUrlWithSchema(schema);
  afterAll(async () => dropSchema(schema));

  it('process B takes the run over at once while A, which detached, is still alive', async () => {
    const setup = (await openStore(storeUrl)) as RunStore & { setup(): Promise<void> };
    await setup.setup();
    try {
      await handOver(storeUrl, (work) => work(setup));
    } finally {
      await setup.close();
    }
  }, 60_000);
});
