/**
 * The measuring loop of `bench:platform` and its baselines: the SDK alone running the same
 * 1-loop agent on a store, and raw pg-boss send → work on the platform's database.
 */
import { Agent, type RunStore } from '@agentloom/sdk';
import { ScriptedModel } from '@agentloom/sdk/testing';
import PgBoss from 'pg-boss';

/** Runs per throughput measurement. */
export const RUNS = Number(process.env.BENCH_PLATFORM_RUNS ?? 200);
/** Rounds of `RUNS` runs each contestant runs, discarded, before it is measured. */
export const WARM_UP_ROUNDS = Number(process.env.BENCH_PLATFORM_WARMUP ?? 3);
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

/**
 * The SDK alone: the same 1-loop agent on `store`, with the same concurrency. `warmUp` runs
 * `WARM_UP_ROUNDS` rounds, discarded (the platform's rows have the same); each `round(n)` runs `RUNS` runs in
 * sessions of their own.
 */
export function sdkAlone(store: RunStore): { warmUp(): Promise<void>; round(index: number): Promise<Figures> } {
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
  return {
    warmUp: async () => {
      for (let round = 0; round < WARM_UP_ROUNDS; round += 1) await measure(RUNS, CONCURRENCY, oneRun(`warm${round}-`));
    },
    round: (index) => measure(RUNS, CONCURRENCY, oneRun(`r${index}-`)),
  };
}

/** Rounds of the platform and of the SDK alone, taken in turn (`ROUNDS` each). */
export const ROUNDS = Number(process.env.BENCH_PLATFORM_ROUNDS ?? 9);

/** The rounds of one interleaved measure, and the figures the targets judge. */
export interface Interleaved<Round extends { value: Figures }> {
  platformRounds: Round[];
  sdkRounds: Figures[];
  /** The platform round of median throughput (its latency, loop delay and CPU are printed). */
  platform: Round;
  /** The SDK round of median throughput. */
  sdk: Figures;
  /** The median of each round's ratio to the SDK round right after it. */
  ratio: number;
}

/**
 * Measures the platform and the SDK alone in alternating rounds (platform, SDK, platform, SDK …):
 * the machine's speed drifts by several per cent within minutes, and a ratio of two measures taken
 * minutes apart moved with it; each pair here is taken seconds apart, and the median pair judges.
 */
export async function interleave<Round extends { value: Figures }>(
  platformRound: () => Promise<Round>,
  sdkRound: (index: number) => Promise<Figures>,
  rounds = ROUNDS,
): Promise<Interleaved<Round>> {
  const platformRounds: Round[] = [];
  const sdkRounds: Figures[] = [];
  for (let index = 0; index < rounds; index += 1) {
    platformRounds.push(await platformRound());
    sdkRounds.push(await sdkRound(index));
  }
  const medianOf = <Item>(items: Item[], key: (item: Item) => number) =>
    [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)] as Item;
  const ratios = platformRounds.map((round, index) => round.value.runsPerSecond / (sdkRounds[index] as Figures).runsPerSecond);
  return {
    platformRounds,
    sdkRounds,
    platform: medianOf(platformRounds, (round) => round.value.runsPerSecond),
    sdk: medianOf(sdkRounds, (round) => round.runsPerSecond),
    ratio: medianOf(ratios, (ratio) => ratio),
  };
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
  // A whole round of warm-up, discarded (its rate is set by its two loops' polling, not by warm code).
  await measure(RUNS, CONCURRENCY, (index) => oneJob(-1 - index));
  const figures = await measure(RUNS, CONCURRENCY, oneJob);
  await boss.stop({ graceful: false, wait: true });
  return figures;
}
