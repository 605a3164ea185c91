import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import type { WorkerCapabilities } from '../../domain/run-requirements.js';
import type { PlatformDatabase } from '../database/schema.js';
import type { ClaimedJob, Dispatcher, RunRequirements } from './dispatcher.js';
import { EmptyQueues, JobSignals, jobChannelOf } from './job-wake-ups.js';
import { type PgBossConnection, pgBossConnection } from './pg-boss-connection.js';
import { jobStatements, onTransaction, parseJobId, partitionStatements } from './pg-boss-statements.js';

/** Options of a `PgBossDispatcher`. */
export interface PgBossDispatcherOptions {
  /** The platform database (PostgreSQL): claims guard and renew jobs through it. */
  database: Kysely<PlatformDatabase>;
  /** The PostgreSQL URL pg-boss connects to (the platform's database). */
  connectionString: string;
  /** pg-boss's own schema, created at `start` (letters, digits, underscores). */
  schema: string;
  /** The configured lease: a job sent now expires this long after a claim unless renewed. */
  leaseMs: number;
  /** Where pg-boss's background errors go (maintenance, connections). */
  onError?: (error: Error) => void;
  /** How long a queue a fetch found empty is trusted to stay so, unsignalled (default 250 ms; tests lengthen it). */
  emptyTrustMs?: number;
}

/** The queue of runs any worker may take. */
export const plainRunQueue = 'agentloom-runs';
/** The queue of runs that need a worker that can isolate commands (bubblewrap, NOT-18). */
export const isolatedRunQueue = 'agentloom-runs-isolated';
/** pg-boss gives up a job after this many failures; a run's job is never given up (the SDK decides). */
const retryLimit = 1_000_000;
/** A claim fails expired jobs at most this often (per process), so takeover waits at most this past the lease. */
const expiryPassMs = 250;

/** The payload of a run's job. */
interface RunJobData {
  runId: string;
  /** Claims made before this job was sent (a release hands the run back as a fresh job). */
  attempt: number;
}

/**
 * The dispatcher on pg-boss 10 (PLATFORM.md §4.6, D-P13; the PostgreSQL default). Runs go to one
 * of two queues — `agentloom-runs`, or `agentloom-runs-isolated` when the run's agent runs
 * commands — and a worker fetches only from the queues its capabilities allow. `enqueue` sends
 * the job with pg-boss's `db` option on the caller's Kysely transaction, so the `runs` row and
 * the job commit or roll back together.
 *
 * pg-boss 10 has no heartbeat: a job's only liveness is `expire_in` from its `started_on`. The
 * lease therefore lives there: a job is sent with the lease as its `expire_in` (a claim sets it
 * only on a job sent with another), `renew` pushes it to "now + lease" (the adapter's one write
 * outside pg-boss's API), and a claim first fails expired jobs
 * (at most every 250 ms) through `fail`, which with `retryDelay` 0 makes them fetchable at once
 * — so a dead worker's run is claimable about when the SDK lease lets a taker in, however long
 * runs last (ADR 0007). A claim is named by (queue, job id, `retry_count`): pg-boss counts a
 * re-fetch in `retry_count`, so a stale claim's renew, complete or release finds no row.
 */
export class PgBossDispatcher implements Dispatcher {
  private readonly boss: PgBoss;
  /** pg-boss's pool, with its statements prepared (`pgBossConnection`). */
  private readonly connection: PgBossConnection;
  /** The adapter's own statements on pg-boss's job table, fixed per schema (named on each connection). */
  private readonly statements: ReturnType<typeof jobStatements>;
  /**
   * Renew and complete on each queue's own partition of the job table (pg-boss 10 partitions it by
   * queue), once `start` has read their names: on the partitioned table PostgreSQL kept planning
   * these anew on every call (a generic plan there costs every partition), on the partition it
   * keeps one plan per connection.
   */
  private readonly onPartition = new Map<string, ReturnType<typeof partitionStatements>>();
  private lastExpiryPass = 0;
  /** The queues a fetch found empty, skipped until a signal names them (ADR 0036's revision). */
  private readonly emptyQueues: EmptyQueues;
  /** Wake-ups: each send notifies `jobChannelOf(schema)` in its transaction; workers listen on one connection per process. */
  private readonly signals: JobSignals;

  constructor(private readonly options: PgBossDispatcherOptions) {
    if (!/^[A-Za-z_]\w{0,49}$/.test(options.schema))
      throw new Error(`The pg-boss schema "${options.schema}" must be letters, digits and underscores (at most 50).`);
    this.connection = pgBossConnection({ connectionString: options.connectionString, max: 4, onError: options.onError });
    this.boss = new PgBoss({
      db: this.connection.db,
      schema: options.schema,
      schedule: false,
      supervise: true,
      migrate: true,
    });
    this.boss.on('error', (error: Error) => options.onError?.(error));
    this.statements = jobStatements(`"${options.schema}".job`);
    this.signals = new JobSignals({
      connectionString: options.connectionString,
      channel: jobChannelOf(options.schema),
      ...(options.onError ? { onError: options.onError } : {}),
    });
    this.emptyQueues = new EmptyQueues(this.signals, options.emptyTrustMs);
  }

  /** Creates pg-boss's schema (under its own advisory lock, safe from many processes) and both queues. */
  async start(): Promise<void> {
    await this.boss.start();
    for (const name of [plainRunQueue, isolatedRunQueue]) await this.boss.createQueue(name, { name, retryLimit, retryDelay: 0 });
    const { rows } = await this.options.database.executeQuery<{ name: string; partition_name: string | null }>(
      CompiledQuery.raw(`select name, partition_name from "${this.options.schema}".queue where name = any($1::text[])`, [
        [plainRunQueue, isolatedRunQueue],
      ]),
    );
    for (const row of rows)
      if (row.partition_name && /^\w+$/.test(row.partition_name))
        this.onPartition.set(row.name, partitionStatements(`"${this.options.schema}"."${row.partition_name}"`));
  }

  async close(): Promise<void> {
    await this.signals.close();
    await this.boss.stop({ graceful: false, wait: true });
    await this.connection.close();
  }

  announce(): void {
    this.signals.announce();
  }

  watchJobs(listener: () => void): () => void {
    return this.signals.watch(listener);
  }

  async enqueue(transaction: Transaction<PlatformDatabase>, runId: string, requirements: RunRequirements): Promise<void> {
    await this.send(transaction, { runId, attempt: 0 }, requirements, undefined);
  }

  async claim(workerId: string, limit: number, leaseMs: number, capabilities: WorkerCapabilities): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    if (Date.now() - this.lastExpiryPass >= expiryPassMs) {
      this.lastExpiryPass = Date.now();
      await this.sweep();
    }
    const fetched: { queue: string; job: PgBoss.JobWithMetadata<RunJobData> }[] = [];
    const fetchFrom = async (queue: string, batchSize: number) => {
      if (batchSize <= 0 || !this.emptyQueues.mayHoldJobs(queue)) return;
      const fetching = this.emptyQueues.fetching(queue);
      const jobs = await this.boss.fetch<RunJobData>(queue, { batchSize, includeMetadata: true });
      for (const job of jobs) fetched.push({ queue, job });
      fetching.found(jobs.length < batchSize);
    };
    if (capabilities.isolation) {
      // Half from each queue, then the rest from whichever had more, so neither starves the other.
      const half = Math.ceil(limit / 2);
      await fetchFrom(isolatedRunQueue, half);
      await fetchFrom(plainRunQueue, limit - fetched.length);
      if (fetched.length < limit) await fetchFrom(isolatedRunQueue, limit - fetched.length);
    } else {
      await fetchFrom(plainRunQueue, limit);
    }
    const claimed = fetched.map(({ queue, job }) => ({
      runId: job.data.runId,
      attempt: job.data.attempt + job.retryCount + 1,
      workerId,
      jobId: `${queue}/${job.id}/${job.retryCount}`,
    }));
    // A job sent with this lease as its `expire_in` already expires a lease after the fetch
    // started it; only the others (another process's lease, a job renewed before it was swept
    // back) are set now. Most claims thus take no statement beyond the fetch (issue 34).
    await this.renewAll(
      claimed.filter((_, index) => Math.round(Number(fetched[index]?.job.expireInSeconds) * 1000) !== leaseMs),
      leaseMs,
    );
    return claimed;
  }

  async renew(job: ClaimedJob, leaseMs: number): Promise<boolean> {
    const { queue, id, retryCount } = parseJobId(job.jobId);
    const partition = this.onPartition.get(queue);
    const result = await this.options.database.executeQuery(
      partition
        ? CompiledQuery.raw(partition.renew, [id, retryCount, leaseMs])
        : CompiledQuery.raw(this.statements.renew, [queue, id, retryCount, leaseMs]),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  /** Sets the lease of freshly fetched jobs in one statement (one round trip per claim, not one per job). */
  private async renewAll(jobs: ClaimedJob[], leaseMs: number): Promise<void> {
    if (jobs.length === 0) return;
    const parsed = jobs.map((job) => parseJobId(job.jobId));
    await this.options.database.executeQuery(
      CompiledQuery.raw(this.statements.renewAll, [
        parsed.map((job) => job.queue),
        parsed.map((job) => job.id),
        parsed.map((job) => job.retryCount),
        leaseMs,
      ]),
    );
  }

  /**
   * Completes the claim's job in one statement, as pg-boss's own `complete` writes it (state,
   * `completed_on`, empty output) but fenced by the claim (`retry_count`): a stale claim changes
   * nothing. One round trip and no transaction of its own, where a lock, pg-boss's update and the
   * commit took four (issue 34: every run ends with it).
   */
  async complete(job: ClaimedJob): Promise<void> {
    const { queue, id, retryCount } = parseJobId(job.jobId);
    const partition = this.onPartition.get(queue);
    await this.options.database.executeQuery(
      partition
        ? CompiledQuery.raw(partition.complete, [id, retryCount])
        : CompiledQuery.raw(this.statements.complete, [queue, id, retryCount]),
    );
  }

  async release(job: ClaimedJob, notBefore: Date, requirements?: RunRequirements): Promise<void> {
    const { queue, id } = parseJobId(job.jobId);
    const sendTo = requirements ?? { isolation: queue === isolatedRunQueue };
    await this.options.database.transaction().execute(async (transaction) => {
      if (!(await this.lockClaim(transaction, job))) return;
      // pg-boss has no "retry at": the claim is completed and the run sent again, due at `notBefore`.
      await this.boss.complete(queue, id, {}, { db: onTransaction(transaction) });
      await this.send(transaction, { runId: job.runId, attempt: job.attempt }, sendTo, notBefore);
    });
    if (notBefore.getTime() <= Date.now()) this.signals.announce(queueOf(sendTo));
  }

  /** Fails every job whose lease expired through pg-boss (`retryDelay` 0: fetchable at once). */
  async sweep(): Promise<string[]> {
    const swept = await this.options.database.transaction().execute(async (transaction) => {
      const { rows } = await transaction.executeQuery<{ name: string; id: string; run_id: string }>(
        CompiledQuery.raw(this.statements.sweep, [[plainRunQueue, isolatedRunQueue]]),
      );
      for (const row of rows)
        await this.boss.fail(row.name, row.id, { message: 'lease expired' }, { db: onTransaction(transaction) });
      return rows;
    });
    // Fetchable again (retryDelay 0): this process's claims must look in their queues.
    for (const name of new Set(swept.map((row) => row.name))) this.signals.announce(name);
    return swept.map((row) => row.run_id);
  }

  async runsWithJobs(runIds: readonly string[]): Promise<Set<string>> {
    if (runIds.length === 0) return new Set();
    // created / retry: waiting to be fetched; active: claimed. completed, failed, cancelled: ended.
    const { rows } = await this.options.database.executeQuery<{ run_id: string }>(
      CompiledQuery.raw(this.statements.runsWithJobs, [[plainRunQueue, isolatedRunQueue], [...runIds]]),
    );
    return new Set(rows.map((row) => row.run_id));
  }

  /** Sends a run's job on `transaction` to the queue its requirements call for. */
  private async send(
    transaction: Transaction<PlatformDatabase>,
    data: RunJobData,
    requirements: RunRequirements,
    startAfter: Date | undefined,
  ): Promise<void> {
    const queue = queueOf(requirements);
    // Due now: every process's workers hear of it, and of its queue, once the transaction commits;
    // the signal rides on pg-boss's insert (one statement, not two).
    const notify = !startAfter || startAfter.getTime() <= Date.now() ? this.signals.notifyArguments(queue) : undefined;
    const id = await this.boss.send(queue, data, {
      // pg-boss's insert of a job, one fixed text per schema: named, every run sends one.
      db: onTransaction(transaction, true, notify),
      retryLimit,
      retryDelay: 0,
      expireInSeconds: Math.max(1, this.options.leaseMs / 1000),
      ...(startAfter ? { startAfter } : {}),
    });
    if (!id) throw new Error(`pg-boss did not accept the job of run ${data.runId}.`);
  }

  /** Locks the claim's job row while it is still this claim (active, same `retry_count`); false if it is not. */
  private async lockClaim(transaction: Transaction<PlatformDatabase>, job: ClaimedJob): Promise<boolean> {
    const { queue, id, retryCount } = parseJobId(job.jobId);
    const { rows } = await transaction.executeQuery(CompiledQuery.raw(this.statements.lockClaim, [queue, id, retryCount]));
    return rows.length === 1;
  }
}

/** The queue of a run with these requirements. */
function queueOf(requirements: RunRequirements): string {
  return requirements.isolation ? isolatedRunQueue : plainRunQueue;
}
