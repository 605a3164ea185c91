/**
 * `npm run bench:platform`: runs through the platform's HTTP API against the SDK alone, measured
 * in the same run (figures, not a test).
 * - (a) the embedded default: SQLite, one `serve`-like process with 2 in-process workers;
 * - (b) PostgreSQL (when it answers): the same, on one shared database;
 * - the baseline: the SDK alone running a 1-loop agent on the same kind of store, concurrently.
 * Each run is a 1-loop agent on the offline demo model (no network). Latency is from the
 * `POST /apps/:appId/runs` to the end of the run's SSE stream (its terminal event).
 * Target: platform throughput ≥ 1/3 of the SDK-alone figure on the same store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform, createUser, type PlatformConfig } from '@agentloom/platform';
import { Agent, type RunStore } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { ScriptedModel } from '@agentloom/sdk/testing';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { postgresAvailable, postgresUrl } from './workflow-stores.js';

const RUNS = Number(process.env.BENCH_PLATFORM_RUNS ?? 200);
const CONCURRENCY = 50;

interface Figures {
  runsPerSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Runs `count` jobs with at most `limit` in flight; answers each job's latency and the wall time. */
async function measure(count: number, limit: number, job: (index: number) => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        const begin = performance.now();
        await job(index);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { runsPerSecond: count / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

/** The platform on `database`, listening on a free port, with an app published and a space key; 2 workers. */
async function platformTarget(database: PlatformConfig['database'], dataDirectory: string) {
  const config: PlatformConfig = {
    dataDirectory,
    database,
    secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
    secretKeySource: 'environment',
    port: 0,
    host: '127.0.0.1',
    logLevel: 'warn',
    bodyLimitBytes: 10 * 1024 * 1024,
    seedDemo: false,
    runLeaseMs: 30_000,
    workerConcurrency: 50,
    embeddedWorkers: 2,
  };
  const platform = await createPlatform({ config });
  platform.startWorker();
  platform.startWorker();
  const server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  await createUser(platform.services.database, {
    email: 'bench@example.com',
    displayName: 'bench',
    password: 'correct horse battery staple',
    isInstanceAdmin: true,
    now: new Date(),
  });
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery staple' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const call = async <Answer>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json as Answer;
  };
  const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Bench' });
  const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
    name: 'Demo',
    provider: 'offline-demo',
    settings: { demoReplies: [], demoFallback: 'Done.' },
    models: [{ modelId: 'demo-1' }],
  });
  const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
    kind: 'agent',
    mode: 'react',
    name: 'Bench agent',
  });
  const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
  await call(
    'PUT',
    `/apps/${app.id}/draft`,
    { config: { model: { connectionId: connection.id, modelId: 'demo-1' }, prompt: { text: 'Answer briefly.' } } },
    { 'if-match': `"${draft.revision}"` },
  );
  await call('POST', `/apps/${app.id}/releases`, { notes: 'bench' });
  const key = await call<{ secret: string }>('POST', `/spaces/${space.id}/api-keys`, { name: 'bench' });
  const authorization = `Bearer ${key.secret}`;
  /** One run through the API: submit, then read its SSE stream to the end (the terminal event). */
  const oneRun = async (index: number) => {
    const response = await fetch(`${base}/apps/${app.id}/runs`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ input: `question ${index}` }),
    });
    const { runId } = (await response.json()) as { runId: string };
    const events = await fetch(`${base}/runs/${runId}/events`, { headers: { authorization } });
    const text = await events.text();
    if (!text.includes('event: run-finish')) throw new Error(`run ${runId} ended without run-finish`);
  };
  return {
    oneRun,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.close();
    },
  };
}

/** The SDK alone: the same 1-loop agent on `store`, `RUNS` runs with the same concurrency. */
async function sdkAlone(store: RunStore): Promise<Figures> {
  const agent = new Agent({
    name: 'bench',
    mode: 'react',
    model: new ScriptedModel({ respond: () => ({ text: 'Done.' }) }),
    prompt: 'Answer briefly.',
    store,
  });
  return measure(RUNS, CONCURRENCY, async (index) => {
    const result = await agent.run({ sessionId: `s${index}`, input: `question ${index}` }).result();
    if (result.status !== 'succeeded') throw new Error(`SDK run ${index}: ${result.status}`);
  });
}

const rows: { name: string; platform: Figures; sdk: Figures }[] = [];
const directory = mkdtempSync(join(tmpdir(), 'agentloom-bench-platform-'));
try {
  const sqlite = await platformTarget({ dialect: 'sqlite', file: join(directory, 'platform.sqlite') }, directory);
  const platformSqlite = await measure(RUNS, CONCURRENCY, sqlite.oneRun);
  await sqlite.close();
  const sdkStore = new SqliteRunStore({ path: join(directory, 'sdk-alone.sqlite') });
  rows.push({ name: 'SQLite (embedded)', platform: platformSqlite, sdk: await sdkAlone(sdkStore) });
  await sdkStore.close();

  if (await postgresAvailable()) {
    const schema = `bench_platform_${process.pid}`;
    const postgres = await platformTarget({ dialect: 'postgres', url: postgresUrl, schema }, directory);
    const platformPostgres = await measure(RUNS, CONCURRENCY, postgres.oneRun);
    await postgres.close();
    const store = await PostgresRunStore.fromConnectionString(postgresUrl, { schema: `${schema}_alone` });
    rows.push({ name: 'PostgreSQL', platform: platformPostgres, sdk: await sdkAlone(store) });
    await store.close();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    for (const name of [schema, `${schema}_runs`, `${schema}_alone`, `${schema}_pgboss`])
      await client.query(`drop schema if exists "${name}" cascade`);
    await client.end();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

const format = (value: number) => value.toFixed(1);
console.log(`bench:platform — ${RUNS} runs of a 1-loop agent, ${CONCURRENCY} in flight; platform = HTTP API + 2 workers`);
console.log('| store | platform runs/s | p50 ms | p99 ms | SDK alone runs/s | SDK p50 ms | ratio | target ≥ 0.33 | met |');
console.log('|---|---|---|---|---|---|---|---|---|');
const missed: string[] = [];
for (const row of rows) {
  const ratio = row.platform.runsPerSecond / row.sdk.runsPerSecond;
  const met = ratio >= 1 / 3;
  if (!met) missed.push(`${row.name} throughput ratio ${ratio.toFixed(2)}`);
  console.log(
    `| ${row.name} | ${format(row.platform.runsPerSecond)} | ${format(row.platform.p50)} | ${format(row.platform.p99)} | ${format(row.sdk.runsPerSecond)} | ${format(row.sdk.p50)} | ${ratio.toFixed(2)} | ≥ 0.33 | ${met ? 'yes' : 'no'} |`,
  );
}
console.log(missed.length === 0 ? 'every target met' : `missed: ${missed.join('; ')}`);
process.exit(0);
