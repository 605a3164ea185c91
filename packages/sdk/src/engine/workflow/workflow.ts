import { z } from 'zod';
import { InvalidConfigurationError, InvalidRunRequestError } from '../../core/errors/index.js';
import { createRunId } from '../../core/ids.js';
import type { EventBus } from '../../hooks/event-bus.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import type { TracingOptions } from '../../telemetry/agent-tracing.js';
import { createWorkflowTracing } from '../../telemetry/workflow-tracing.js';
import { RunControl } from '../run/run-control.js';
import type { FieldName, StateDefinition, StateOf, UpdateOf } from './channels/state-fields.js';
import { executeWorkflowRun, type WorkflowRuntime } from './execute-workflow.js';
import type { CompiledGraph } from './graph/compile-graph.js';
import { AgentNode } from './nodes/agent-node.js';
import type { Durability } from './pregel/workflow-journal.js';
import type { WorkflowEvent } from './workflow-events.js';
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
  /** OpenTelemetry spans (N-3): `invoke_workflow` ⊃ `workflow_task` ⊃ the agent nodes' GenAI spans. */
  telemetry?: TracingOptions;
  /** Publishes every event of every run, with the run's identity (K-3). */
  eventBus?: EventBus<WorkflowEvent>;
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
    };
  }

  /**
   * Starts, resumes or looks up a run and returns its handle at once. With the id of
   * an unfinished run it continues from the journal: finished tasks are not run again, agent
   * nodes reattach to their inner runs, the input is not added again and the deadline is not
   * restarted. With `resume` it answers the run's pending interrupt.
   */
  run(options: WorkflowRunOptions<Definition>): WorkflowRun<StateOf<Definition>> {
    if (typeof options?.sessionId !== 'string' || options.sessionId === '') {
      throw new InvalidRunRequestError(options?.runId ?? '(new)', 'workflow.run needs a non-empty sessionId.');
    }
    if (options.runId === undefined && (typeof options.input !== 'object' || options.input === null)) {
      throw new InvalidRunRequestError('(new)', 'A new workflow run needs an input (an update of the state).');
    }
    const runId = options.runId ?? createRunId();
    const control = new RunControl();
    control.followSignal(options.signal);
    const request = {
      runId,
      sessionId: options.sessionId,
      ...(options.input !== undefined ? { input: options.input as Record<string, unknown> } : {}),
      ...('resume' in options ? { resume: { value: options.resume } } : {}),
      ...(options.resumeById ? { resumeById: options.resumeById } : {}),
      ...(options.metadata ? { metadata: { ...options.metadata } } : {}),
    };
    const observers: Array<(event: WorkflowEvent) => void> = [];
    if (this.telemetry) observers.push(createWorkflowTracing(this.name, this.telemetry));
    const bus = this.eventBus;
    if (bus) {
      const identity = { runId, sessionId: options.sessionId, agentName: this.name };
      observers.push((event) => bus.publish({ identity, event }));
    }
    return new WorkflowRun<StateOf<Definition>>(
      runId,
      options.sessionId,
      control,
      (emit) => executeWorkflowRun(this.runtime, request, control, emit),
      observers,
    );
  }
}
