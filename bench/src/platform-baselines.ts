/**
 * The measuring loop of `bench:platform` and its baselines: the SDK alone running the same
 * 1-loop agent on a store, and raw pg-boss send → work on the platform's database.
 */
import { Agent, type RunStore } from '@agentloom/sdk';
import { ScriptedModel } from '@agentloom/sdk/testing';
import PgBoss from 'pg-boss';

/** Runs per throughput measurement. */
export const RUNS = Number(process.env.BENCH_PLATFORM_RUNS ?? 200);
/** Runs in flight at once. */
export const CONCURRENCY = 50;

/** Throughput and latency of one measurement. */
export interface Figures {
  runsPerSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Runs `count` jobs with at most `limit` in flight; answers each job's latency and the wall time. */
export async function measure(count: number, limit: number, job: (index: number) => Promise<void>): Promise<Figures> {
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

/** The SDK alone: the same 1-loop agent on `store`, `RUNS` runs with the same concurrency, after a round of warm-up. */
export async function sdkAlone(store: RunStore): Promise<Figures> {
  const agent = new Agent({
    name: 'bench',
    mode: 'react',
    model: new ScriptedModel({ respond: () => ({ text: 'Done.' }) }),
    prompt: 'Answer briefly.',
    store,
  });
  const oneRun = (prefix: string) => async (index: number) => {
    const result = await agent.run({ sessionId: `${prefix}${index}`, input: `question ${index}` }).result();
    if (result.status !== 'succeeded') throw new Error(`SDK run ${index}: ${result.status}`);
  };
  // The same warm-up as the platform's rows: a whole round, discarded, in sessions of its own.
  await measure(RUNS, CONCURRENCY, oneRun('warm-'));
  return measure(RUNS, CONCURRENCY, oneRun('s'));
}

/**
 * Raw pg-boss on `connectionString` in its own `schema`: `RUNS` jobs sent with `CONCURRENCY` in
 * flight, each waited for until a worker (2 `work` loops, like the platform's 2 workers) has
 * completed it — send → work, the queue alone.
 */
export async function rawPgBoss(connectionString: string, schema: string): Promise<Figures> {
  const boss = new PgBoss({ connectionString, schema, max: 10, schedule: false, supervise: false });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('bench', { name: 'bench' });
  const waiting = new Map<string, () => void>();
  const handler = async (jobs: PgBoss.Job<{ index: number }>[]) => {
    for (const job of jobs) waiting.get(String(job.data.index))?.();
  };
  // pg-boss 10 fetches only by polling (every 0.5 s at the least). Two workers started together
  // poll in step, and the second finds nothing; started half a period apart they take turns, the
  // most two workers can take: without this the figure was 100 or 200 jobs/s by chance.
  for (let worker = 0; worker < 2; worker += 1) {
    if (worker > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    await boss.work('bench', { batchSize: CONCURRENCY, pollingIntervalSeconds: 0.5 }, handler);
  }
  const oneJob = async (index: number) => {
    const done = new Promise<void>((resolve) => waiting.set(String(index), resolve));
    await boss.send('bench', { index });
    await done;
  };
  // The same warm-up as the platform's rows: a whole round, discarded.
  await measure(RUNS, CONCURRENCY, (index) => oneJob(-1 - index));
  const figures = await measure(RUNS, CONCURRENCY, oneJob);
  await boss.stop({ graceful: false, wait: true });
  return figures;
}
