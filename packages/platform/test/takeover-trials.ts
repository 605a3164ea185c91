import { innerRunIdOf, type RunClient } from '@agentloom/sdk';
import type { TestClient } from './harness.js';
import type { PlatformProcess } from './process-harness.js';
import { isTerminalEvent, SseFollower } from './sse-follower.js';
import type { Trial } from './takeover-checks.js';
import { startTrialRun, type TrialFixture, type TrialKind, type TrialRun, trialWorkflowTasks } from './takeover-fixture.js';

/** The kinds started in turn: every third run of a wave is a workflow run. */
const kinds: readonly TrialKind[] = ['react', 'plan-executor', 'workflow'];

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** The runs of a trial suite, their SSE followers, and the kills done so far. */
export class TrialBook {
  readonly runs: TrialRun[] = [];
  readonly followers = new Map<string, SseFollower>();
  readonly trials: (Trial & { victim: PlatformProcess })[] = [];
  kills = 0;

  constructor(
    private readonly client: () => TestClient,
    private readonly runClient: RunClient,
    private readonly fixture: TrialFixture,
    private readonly baseUrl: () => string,
  ) {}

  /**
   * Starts `count` runs over HTTP (ReAct, Plan–Executor and workflow in turn), a random 0–150 ms apart so
   * they are at different points when a kill comes, each with an SSE follower from its first event.
   */
  async start(count: number, prefix: string, only?: TrialKind): Promise<TrialRun[]> {
    const started = await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        await pause(index === 0 ? 0 : randomBetween(0, 150) * index);
        const kind = only ?? (kinds[index % kinds.length] as TrialKind);
        return startTrialRun(this.client(), this.fixture, kind, `${prefix}-${index}`);
      }),
    );
    for (const run of started) {
      this.runs.push(run);
      this.followers.set(run.runId, new SseFollower(this.baseUrl, this.fixture.headers, run.runId));
    }
    return started;
  }

  /** Headers of the space API key the followers use. */
  get headers(): Record<string, string> {
    return this.fixture.headers;
  }

  /** Runs that were not yet hit by a kill. */
  unhit(runs: readonly TrialRun[]): TrialRun[] {
    return runs.filter((run) => !this.trials.some((trial) => trial.runId === run.runId));
  }

  /**
   * Waits until every run of `wave` not yet hit (or 6 of them) has an owner that one of
   * `processes` announced (the SDK owner id `describeRun` names, matched to the process that
   * printed it), then after a random wait (so the kill lands at a random point of each run:
   * before, inside or after a model call, a tool call or a journal write) answers the process that
   * owns the most of them; undefined once every run of the wave was hit or ended.
   */
  async nextVictim(wave: readonly TrialRun[], processes: () => readonly PlatformProcess[]): Promise<PlatformProcess | undefined> {
    let settled = false;
    for (;;) {
      const candidates = this.unhit(wave).filter((run) => !this.ended(run));
      const described = await Promise.all(candidates.map((run) => this.runClient.describeRun(run.runId)));
      const open = described.filter((description) => ['pending', 'running'].includes(description.status));
      if (open.length === 0) return undefined;
      const owners = open.map((description) => {
        const owner = description.owner;
        return owner ? processes().find((item) => item.output().includes(`owner ${owner.ownerId}`)) : undefined;
      });
      if (!settled) {
        const announced = owners.filter((owner) => owner !== undefined).length;
        if (announced === owners.length || announced >= 6) {
          settled = true;
          await pause(randomBetween(0, 500));
        } else await pause(50);
        continue;
      }
      const owned = new Map<PlatformProcess, number>();
      for (const owner of owners) if (owner) owned.set(owner, (owned.get(owner) ?? 0) + 1);
      const most = Math.max(0, ...owned.values());
      const victims = [...owned.entries()].filter(([, count]) => count === most).map(([process]) => process);
      if (victims.length > 0) return victims[randomBetween(0, victims.length - 1)];
      settled = false;
    }
  }

  /**
   * SIGKILLs `victim` after a random short wait. Every run whose SDK owner (by `describeRun`) it
   * had announced and that had not ended when it died is a trial (described just before the kill;
   * a run that ended in between is not one). Each trial's SSE follower then drops its connection and
   * reconnects with `Last-Event-ID`. Answers the number of trials.
   */
  async kill(victim: PlatformProcess): Promise<number> {
    await pause(randomBetween(0, 60));
    const ownerIds = new Set([...victim.output().matchAll(/owner (\S+)/g)].map((match) => match[1] as string));
    const open = this.runs.filter((run) => !this.ended(run));
    const described = await Promise.all(open.map((run) => this.runClient.describeRun(run.runId)));
    const owned = described.filter(
      (description) => description.status === 'running' && description.owner && ownerIds.has(description.owner.ownerId),
    );
    // A workflow's agent nodes as they were just before the kill (after their workflow's row was read).
    const agentNodes = await Promise.all(owned.map((description) => this.agentNodesOf(description.runId)));
    await victim.kill('SIGKILL');
    const killedAt = Date.now();
    this.kills += 1;
    // Dead now: a run still unfinished can only be finished by another process.
    const after = await Promise.all(owned.map((before) => this.runClient.describeRun(before.runId)));
    // A run still held under an epoch that an earlier kill already hit (its taker had not come yet,
    // and the restarted process announces the same owner id) is not a new trial: no new takeover.
    let count = 0;
    owned.forEach((before, index) => {
      const repeated = this.trials.some(
        (trial) => trial.runId === before.runId && trial.before.owner?.epoch === before.owner?.epoch,
      );
      if (after[index]?.status !== 'running' || repeated) return;
      const nodes = agentNodes[index];
      this.trials.push({ runId: before.runId, before, victim, killedAt, ...(nodes ? { agentNodes: nodes } : {}) });
      this.followers.get(before.runId)?.reconnect();
      count += 1;
    });
    return count;
  }

  /**
   * Issue 16's case on purpose (random kills land in it only now and then): starts one workflow
   * run and answers the process that owns it once its ReAct agent node has finished and its
   * Plan–Executor node still runs; undefined if the run got past that point unseen.
   */
  async midParallelVictim(prefix: string, processes: () => readonly PlatformProcess[]): Promise<PlatformProcess | undefined> {
    const [run] = await this.start(1, prefix, 'workflow');
    const runId = (run as TrialRun).runId;
    for (;;) {
      const [workflow, research, plan] = await Promise.all([
        this.runClient.describeRun(runId),
        this.runClient.describeRun(innerRunIdOf(runId, trialWorkflowTasks.research)).catch(() => undefined),
        this.runClient.describeRun(innerRunIdOf(runId, trialWorkflowTasks.plan)).catch(() => undefined),
      ]);
      if (workflow.status !== 'pending' && workflow.status !== 'running') return undefined;
      if (plan && plan.status !== 'running') return undefined;
      const owner = workflow.owner;
      const process = owner ? processes().find((item) => item.output().includes(`owner ${owner.ownerId}`)) : undefined;
      if (research?.status === 'succeeded' && plan && process) return process;
      await pause(20);
    }
  }

  /** Whether the run's follower has seen its terminal event. */
  private ended(run: TrialRun): boolean {
    return this.followers.get(run.runId)?.types.some(isTerminalEvent) ?? false;
  }

  /**
   * For a workflow run of the book: its two agent nodes' inner runs (R-6) as the SDK store has
   * them now — absent when not invoked yet; undefined for any other run.
   */
  private async agentNodesOf(runId: string): Promise<Trial['agentNodes']> {
    if (this.runs.find((run) => run.runId === runId)?.kind !== 'workflow') return undefined;
    const nodes: NonNullable<Trial['agentNodes']> = {};
    for (const taskId of [trialWorkflowTasks.research, trialWorkflowTasks.plan]) {
      const description = await this.runClient.describeRun(innerRunIdOf(runId, taskId)).catch(() => undefined);
      if (description) nodes[taskId] = { status: description.status, lastSequence: description.lastSequence };
    }
    return nodes;
  }

  /** Trials of workflow runs that came while one agent node had finished and the other had not (issue 16, R-6). */
  get midParallelTrials(): number {
    return this.trials.filter((trial) => {
      const nodes = Object.values(trial.agentNodes ?? {});
      return nodes.length === 2 && nodes.filter((node) => node.status === 'succeeded').length === 1;
    }).length;
  }

  /** Trials of workflow runs. */
  get workflowTrials(): number {
    return this.trials.filter((trial) => trial.agentNodes !== undefined).length;
  }

  /** The trials of one run. */
  trialsOf(runId: string): (Trial & { victim: PlatformProcess })[] {
    return this.trials.filter((trial) => trial.runId === runId);
  }
}
