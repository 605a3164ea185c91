import { z } from 'zod';
import { InvalidConfigurationError, InvalidRunRequestError } from '../../core/errors/index.js';
import { createRunId } from '../../core/ids.js';
import type { EventBus } from '../../hooks/event-bus.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import type { AgentTelemetryProfile } from '../../telemetry/agent-profile.js';
import type { TracingOptions } from '../../telemetry/agent-tracing.js';
import { createWorkflowTracing } from '../../telemetry/workflow-tracing.js';
import { RunControl } from '../run/run-control.js';
import { assertRunRequestShape } from '../run/run-request-validation.js';
import type { FieldName, StateDefinition, StateOf, UpdateOf } from './channels/state-fields.js';
import { executeWorkflowRun, type WorkflowRunRequest, type WorkflowRuntime } from './execute-workflow.js';
import type { CompiledGraph } from './graph/compile-graph.js';
import { AgentNode } from './nodes/agent-node.js';
import { type NodeRetryPolicy, nodeRetrySchema } from './nodes/node-retry.js';
import type { ContinuationRequest } from './pregel/continuation.js';
import type { Durability } from './pregel/workflow-journal.js';
import type { WorkflowEvent, WorkflowResult } from './workflow-events.js';
import { WorkflowRun } from './workflow-run.js';

/** Run policy of a workflow (W-6, N-10); every run is created with these and keeps them. */
export interface WorkflowOptions<Definition extends StateDefinition> {
  /** Where runs are kept; give agent nodes' agents the same store (R-6). Default: a new `MemoryRunStore`. */
  store?: RunStore;
  /**
   * When progress is saved (N-10): `sync` (default) waits until each finished task is durable;
   * `async` saves in the background, in order; `exit` saves once, when the run ends or pauses.
   */
  durability?: Durability;
  /** Supersteps a run may take before it ends `step-limit-exceeded`. Default 100. */
  maxSteps?: number;
  /** Run timeout from creation, for everything including inner agents. Default 1 hour. */
  timeoutMs?: number;
  /** Business loops that all agent nodes of a run may use together (W-6). Default: no workflow-level limit. */
  maxLoops?: number;
  /** Tasks of one superstep running at once. Default: all of them. */
  maxConcurrency?: number;
  /** Ownership lease of an executing process, renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** The state fields a successful run returns as `output`. Default: every field. */
  output?: readonly FieldName<Definition>[];
  /**
   * OpenTelemetry spans (N-3): `invoke_workflow` ⊃ `workflow_task` ⊃ the agent nodes' GenAI spans.
   * The workflow traces its agent nodes' runs itself (their agents' own `telemetry` stays out).
   */
  telemetry?: TracingOptions;
  /** Publishes every event of every run, with the run's identity (K-3). */
  eventBus?: EventBus<WorkflowEvent>;
  /**
   * The retry policy of every capability and function node that has none of its own. Default:
   * none (a failed attempt fails the task, C-7). Agent nodes keep their agent's own policy.
   */
  retry?: NodeRetryPolicy;
}

/** Arguments of `workflow.run()`. */
export interface WorkflowRunOptions<Definition extends StateDefinition> {
  /** The WorkflowSession the run belongs to (not a session of the agents it calls). */
  sessionId: string;
  /** Omit to start a new run; pass a run id to resume it (after a crash, on any machine, or to answer an interrupt). */
  runId?: string;
  /** The input: an update of the state. Required for a new run; never added twice. */
  input?: UpdateOf<Definition>;
  /** The answer to the run's one pending interrupt. */
  resume?: unknown;
  /** Answers to pending interrupts by interrupt id, when several are pending. */
  resumeById?: Record<string, unknown>;
  /** Host labels stored on a run created now (a release id …), returned by `RunClient`. */
  metadata?: Readonly<Record<string, string>>;
  /** Aborting it stops the run, like `run.stop()`. */
  signal?: AbortSignal;
  /**
   * Creates a new run that continues this failed run (NOT-6: the failed run stays as it is): it
   * records its lineage, takes the failed run's input, reuses every finished task's saved writes
   * and runs only what had not finished — the failed tasks and what comes after them. A finished
   * agent node is read back, never run again. Pass `runId` too to make the call re-entrant.
   */
  continueFrom?: string;
  /**
   * Creates a new run that runs an ended run again from a node: it reuses the writes saved
   * before the first superstep where `node` ran (or `step`), and that superstep's other finished
   * tasks, then runs `node` and everything after it.
   */
  rerunFrom?: { runId: string; node: string; step?: number };
}

const optionsSchema = z
  .object({
    store: z.custom<RunStore>(
      (value) => typeof value === 'object' && value !== null && typeof (value as RunStore).acquire === 'function',
      'must implement RunStore',
    ),
    durability: z.enum(['sync', 'async', 'exit']),
    maxSteps: z.number().int().min(1),
    timeoutMs: z.number().int().positive(),
    maxLoops: z.number().int().min(1),
    maxConcurrency: z.number().int().min(1),
    leaseMs: z.number().int().min(50),
    output: z.array(z.string()),
    telemetry: z.object({}).passthrough(),
    eventBus: z.custom<EventBus<WorkflowEvent>>(
      (value) => typeof value === 'object' && value !== null && typeof (value as EventBus<WorkflowEvent>).publish === 'function',
      'must implement EventBus',
    ),
    retry: nodeRetrySchema,
  })
  .partial()
  .strict();

/**
 * A compiled, validated workflow (D-4: a domain type of its own, not an agent mode): a graph of
 * complete agents and capabilities over a shared typed state, run by the outer engine (D-5).
 * Immutable; each `run()` creates, resumes or reports on one run in the store, like `agent.run()`.
 */
export class Workflow<Definition extends StateDefinition> {
  readonly name: string;
  private readonly runtime: WorkflowRuntime;
  private readonly telemetry: TracingOptions | undefined;
  /** The telemetry profile of each agent node's agent, by node name. */
  private readonly agentProfiles: Readonly<Record<string, AgentTelemetryProfile>>;
  private readonly eventBus: EventBus<WorkflowEvent> | undefined;

  /** @internal Created by `WorkflowBuilder.compile()`. */
  constructor(graph: CompiledGraph, options: WorkflowOptions<Definition>) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new InvalidConfigurationError(
        `workflow "${graph.definition.name}"`,
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      );
    }
    this.name = graph.definition.name;
    this.telemetry = options.telemetry;
    this.agentProfiles = Object.fromEntries(
      graph.nodes.flatMap((spec) => (spec.node instanceof AgentNode ? [[spec.name, spec.node.agent.telemetryProfile]] : [])),
    );
    this.eventBus = options.eventBus;
    // Without a store of its own, the workflow keeps its runs where its agents keep theirs.
    const agentStores = [
      ...new Set(graph.nodes.flatMap((spec) => (spec.node instanceof AgentNode ? [spec.node.agent.store] : []))),
    ];
    const store = options.store ?? (agentStores.length === 1 ? agentStores[0] : undefined) ?? new MemoryRunStore();
    // An agent node whose agent keeps its runs elsewhere would split the run across two stores,
    // and a resumed workflow could not reattach to its inner runs: refused here.
    const foreign = graph.nodes.flatMap((spec) =>
      spec.node instanceof AgentNode && spec.node.agent.store !== store ? [spec.name] : [],
    );
    if (foreign.length > 0) {
      throw new InvalidConfigurationError(
        `workflow "${graph.definition.name}"`,
        foreign.map((name) => ({
          path: `nodes.${name}`,
          message: `the agent of node "${name}" uses another store than the workflow; give both the same store (R-6)`,
        })),
      );
    }
    this.runtime = {
      graph,
      store,
      durability: options.durability ?? 'sync',
      maxSteps: options.maxSteps ?? 100,
      timeoutMs: options.timeoutMs ?? 3_600_000,
      maxLoops: options.maxLoops,
      maxConcurrency: options.maxConcurrency ?? Number.POSITIVE_INFINITY,
      leaseMs: options.leaseMs ?? 30_000,
      outputFields: [...(options.output ?? [])],
      retry: options.retry,
    };
  }

  /**
   * Starts, resumes or looks up a run and returns its handle at once. With the id of
   * an unfinished run it continues from the journal: finished tasks are not run again, agent
   * nodes reattach to their inner runs, the input is not added again and the deadline is not
   * restarted. With `resume` it answers the run's pending interrupt.
   */
  run(options: WorkflowRunOptions<Definition>): WorkflowRun<StateOf<Definition>> {
    assertRunRequestShape(options);
    const continues = continuationRequest(options);
    if (continues && options.input !== undefined) {
      throw new InvalidRunRequestError(
        options.runId ?? '(new)',
        'A continued run takes the input of the run it continues; pass no input.',
      );
    }
    if (!continues && options.runId === undefined && (typeof options.input !== 'object' || options.input === null)) {
      throw new InvalidRunRequestError('(new)', 'A new workflow run needs an input (an update of the state).');
    }
    const runId = options.runId ?? createRunId();
    const control = new RunControl();
    control.followSignal(options.signal);
    // Optional members set one by one (a literal of conditional spreads is built slowly, per run).
    const request: WorkflowRunRequest = { runId, sessionId: options.sessionId };
    if (options.input !== undefined) request.input = options.input as Record<string, unknown>;
    if ('resume' in options) request.resume = { value: options.resume };
    if (options.resumeById) request.resumeById = options.resumeById;
    if (options.metadata) request.metadata = { ...options.metadata };
    if (continues) request.continues = continues;
    if (options.runId === undefined) request.fresh = true;
    const observers: Array<(event: WorkflowEvent) => void> = [];
    const tracing = this.telemetry ? createWorkflowTracing(this.name, this.telemetry, this.agentProfiles) : undefined;
    if (tracing) observers.push(tracing);
    const bus = this.eventBus;
    if (bus) {
      const identity = { runId, sessionId: options.sessionId, agentName: this.name };
      observers.push((event) => bus.publish({ identity, event }));
    }
    return new WorkflowRun<StateOf<Definition>>({
      runId,
      sessionId: options.sessionId,
      control,
      store: this.runtime.store,
      observers,
      // Whatever way the execution ends (an early error included), the control lets go of the
      // caller's signal.
      execute: (reporter) =>
        executeWorkflowRun(this.runtime, request, control, reporter)
          // Settled without its finish event (handed over, ownership lost): the open spans end now.
          .catch((error: unknown) => {
            tracing?.abandon(error);
            throw error;
          })
          .finally(() => control.dispose()) as Promise<WorkflowResult<StateOf<Definition>>>,
    });
  }
}

function continuationRequest(options: WorkflowRunOptions<StateDefinition>): ContinuationRequest | undefined {
  if (options.continueFrom !== undefined && options.rerunFrom !== undefined) {
    throw new InvalidRunRequestError(options.runId ?? '(new)', 'Pass continueFrom or rerunFrom, not both.');
  }
  if (options.continueFrom !== undefined) {
    if (typeof options.continueFrom !== 'string' || options.continueFrom === '') {
      throw new InvalidRunRequestError(options.runId ?? '(new)', 'continueFrom must be a run id.');
    }
    return { runId: options.continueFrom, from: 'failure' };
  }
  const rerun = options.rerunFrom;
  if (rerun === undefined) return undefined;
  if (typeof rerun?.runId !== 'string' || rerun.runId === '' || typeof rerun.node !== 'string') {
    throw new InvalidRunRequestError(options.runId ?? '(new)', 'rerunFrom needs { runId, node }.');
  }
  if (rerun.step !== undefined && !(Number.isInteger(rerun.step) && rerun.step >= 0)) {
    throw new InvalidRunRequestError(options.runId ?? '(new)', 'rerunFrom.step must be a superstep number.');
  }
  return { runId: rerun.runId, from: 'node', node: rerun.node, ...(rerun.step !== undefined ? { step: rerun.step } : {}) };
}
