/**
 * Issue 18, item 1: a PostgreSQL restart or a killed connection while runs save their tool
 * results costs time, never a duplicate execution or a lost result. Runs against a private
 * cluster (never the shared server), restarted or with its connections killed throughout.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { findPostgresBinaries, type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres.js';
import { postgresRequired } from '../postgres/postgres-availability.js';
import { runCountedRuns } from './fault-harness.js';

const binaries = findPostgresBinaries();
const directory = mkdtempSync(join(tmpdir(), 'agentloom-pg-faults-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeWithPrivateCluster(name: string, body: () => void): void {
  if ('directory' in binaries) {
    describe(name, body);
  } else if (postgresRequired) {
    describe(name, () => {
      it('can start a private PostgreSQL cluster (AGENTLOOM_REQUIRE_POSTGRES=1)', () => {
        throw new Error(binaries.reason);
      });
    });
  } else {
    console.warn(`[agentloom] SKIPPED PostgreSQL fault tests: ${binaries.reason}.`);
    describe.skip(`${name} (skipped: ${binaries.reason})`, () => {
      it.skip('needs the PostgreSQL server binaries', () => {});
    });
  }
}

describeWithPrivateCluster('PostgreSQL faults during 100 runs (issue 18)', () => {
  let server: PrivatePostgres;
  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 60_000);
  afterAll(() => {
    server?.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  async function openStore(schema: string): Promise<PostgresRunStore> {
    return PostgresRunStore.fromConnectionString(server.url, { schema, poolSize: 12 });
  }

  it('survives server restarts: 0 duplicate executions, 0 lost results', async () => {
    const store = await openStore('restarts');
    const countFile = join(directory, 'restarts.txt');
    writeFileSync(countFile, '');
    let running = true;
    let restarts = 0;
    const restarter = (async () => {
      while (running) {
        await sleep(150);
        if (!running) break;
        await server.restartAsync();
        restarts += 1;
      }
    })();
    const report = await runCountedRuns({ store, countFile, runs: 100, concurrency: 10, label: 'restart' });
    running = false;
    await restarter;
    await store.close();
    expect(report.duplicates).toEqual([]);
    expect(report.lost).toEqual([]);
    expect(restarts).toBeGreaterThan(0);
    expect(report.transientFailures).toBeGreaterThan(0);
  }, 240_000);

  it('survives killed connections (pg_terminate_backend): 0 duplicate executions, 0 lost results', async () => {
    const store = await openStore('killed');
    const countFile = join(directory, 'killed.txt');
    writeFileSync(countFile, '');
    let running = true;
    let killed = 0;
    const killer = (async () => {
      while (running) {
        await sleep(20);
        const admin = new pg.Client({ connectionString: server.url });
        admin.on('error', () => {});
        try {
          await admin.connect();
          const ended = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database()`,
          );
          killed += ended.rowCount ?? 0;
        } catch {
          // The next round tries again.
        } finally {
          await admin.end().catch(() => {});
        }
      }
    })();
    const report = await runCountedRuns({ store, countFile, runs: 100, concurrency: 10, label: 'killed' });
    running = false;
    await killer;
    await store.close();
    expect(report.duplicates).toEqual([]);
    expect(report.lost).toEqual([]);
    expect(killed).toBeGreaterThan(0);
    expect(report.transientFailures).toBeGreaterThan(0);
  }, 240_000);

  it('bounds a store call by the lease: a run whose database freezes mid-append settles while it is still frozen', async () => {
    const store = await openStore('frozen');
    let release: () => void = () => {};
    let started: () => void = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = tool({
      name: 'wait',
      description: 'Waits to be released.',
      parameters: z.object({}),
      execute: () =>
        new Promise<string>((resolve) => {
          release = () => resolve('released');
          started();
        }),
    });
    const model = new ScriptedModel({
      respond: (request) =>
        request.messages.some((message) => message.role === 'tool') ? { text: 'done' } : { toolCalls: [{ name: 'wait' }] },
    });
    const agent = new Agent({ name: 'frozen', mode: 'react', model, prompt: 'p', tools: [wait], store, leaseMs: 1_000 });
    const run = agent.run({ sessionId: 'frozen', input: 'go' });
    const settled = run.result().then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await toolStarted;
    server.freeze();
    let frozen = true;
    // A safety net only: without the lease bound the run would wait for the database, and the
    // assertion below would see that it settled after the thaw.
    const safety = setTimeout(() => {
      frozen = false;
      server.thaw();
    }, 20_000);
    release();
    const outcome = await settled;
    const settledWhileFrozen = frozen;
    clearTimeout(safety);
    server.thaw();
    await store.close();
    expect(settledWhileFrozen).toBe(true);
    expect(outcome).toMatchObject({ error: { code: 'ownership-lost' } });
  }, 60_000);
});
