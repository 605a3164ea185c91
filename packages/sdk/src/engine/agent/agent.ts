import { toToolDefinition } from '../../capabilities/tools/tool.js';
import { InvalidRunRequestError } from '../../core/errors/index.js';
import { createRunId } from '../../core/ids.js';
import type { ModelSettings } from '../../model/language-model.js';
import type { Workspace } from '../../sandbox/workspace.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import type { AgentTelemetryProfile, RoleTelemetryProfile } from '../../telemetry/agent-profile.js';
import { createAgentTracing } from '../../telemetry/agent-tracing.js';
import { RunControl } from '../run/run-control.js';
import { assertRunRequestShape } from '../run/run-request-validation.js';
import { type AgentConfig, type ResolvedAgentConfig, type ResolvedRole, resolveAgentConfig } from './agent-config.js';
import { AgentRun } from './agent-run.js';
import { estimateTokens } from './compression/index.js';
import { type ContextFeatures, compileEntries, expandUserCommand } from './context-features/index.js';
import { executeAgentRun, type RunLimits, type RunnableAgent } from './execute-run.js';
import { createGovernance, type Governance } from './governance/governance.js';
import { ExecutorNode } from './nodes/executor-node.js';
import type { Node } from './nodes/node.js';
import { PlannerNode } from './nodes/planner-node.js';
import { ReactNode } from './nodes/react-node.js';
import { RemoteExecutorNode } from './nodes/remote-executor-node.js';
import { assertVariablesComplete } from './prompt-template.js';
import type { RoleDefinition } from './run-context.js';
import type { RunEvent } from './run-events.js';

/** Arguments of `agent.run()`. */
export interface AgentRunOptions {
  /** The session (conversation) the run belongs to. */
  sessionId: string;
  /** Omit to start a new run; pass a run id to resume that run (after a crash, on any machine). */
  runId?: string;
  /**
   * The question. Required for a new run; when resuming it may be omitted (it is never added
   * twice). Structured data is allowed when the agent has an `inputSchema` (sent as JSON text).
   */
  input?: string | Record<string, unknown> | unknown[];
  /** Values for the prompts' `{{name}}` placeholders, over the agent's own (session or run values, C-12). */
  variables?: Readonly<Record<string, string>>;
  /** Tighter budget or deadline for a new run (a workflow passes its root run's limits, W-6). */
  limits?: RunLimits;
  /** Host labels stored on a run created now (a release id, a space), returned by `RunClient`. */
  metadata?: Readonly<Record<string, string>>;
  /**
   * The session's note for a new run (N-15): appended at the end of the entry role's context on
   * every model request, after the user's instructions; kept with the run, so a resume keeps it.
   */
  sessionNote?: string;
  /**
   * Regenerates the answer of run `runId` — the newest finished run of the session — as a new
   * run in the same variant group (N-15): the old run is kept; later runs see only the newest
   * variant; the replaced run's file changes are rolled back first (N-6). `input` defaults to the
   * replaced run's question.
   */
  regenerate?: { runId: string };
  /** Aborting it stops the run, like `run.stop()` (a parent's stop reaching an inner agent). */
  signal?: AbortSignal;
  /**
   * `false` leaves this run out of the agent's `telemetry`. A workflow's agent node passes it: the
   * workflow traces its inner runs itself, inside its own trace, so that an invocation has one
   * `invoke_agent` span (N-3).
   */
  telemetry?: false;
}

/**
 * An agent: a validated configuration that runs durably, in ReAct or Plan–Executor mode.
 * Constructing one validates the whole configuration and throws `InvalidConfigurationError`
 * before any side effect; it starts nothing (B-4). Each `run()` call creates, resumes, or reports
 * on one run in the store. An agent builds and runs; everything a host does to runs it does not
 * execute here — supplements, approval decisions, stops, the session's history, events — goes
 * through `RunClient` (ADR 0005, 0020).
 *
 * @example
 * const agent = new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', tools: [add], store });
 * const run = agent.run({ sessionId: 'session-1', input: 'What is 2 + 3?' });
 * for await (const event of run.events()) console.log(event.type);
 * const result = await run.result();
 */
export class Agent {
  readonly name: string;
  readonly mode: 'react' | 'plan-executor';
  private readonly config: ResolvedAgentConfig;
  /** The store its runs live in (a workflow's agent nodes must share the workflow's, R-6). */
  readonly store: RunStore;
  private readonly entry: Node;
  private readonly prompts: readonly string[];
  private readonly governance: Governance;
  private readonly contextFeatures: ContextFeatures;
  /**
   * What this agent's spans say beyond its run events (N-3): the model's provider and endpoint,
   * the descriptions of its roles and tools. A workflow's tracing reads it for its agent nodes;
   * `createAgentTracing(options, agent.telemetryProfile)` traces events read elsewhere.
   */
  readonly telemetryProfile: AgentTelemetryProfile;

  constructor(config: AgentConfig) {
    this.config = resolveAgentConfig(config);
    this.name = this.config.name;
    this.mode = this.config.mode;
    this.store = this.config.store ?? new MemoryRunStore();
    this.entry = buildEntryNode(this.config);
    this.prompts = [this.config.entry.prompt, ...this.config.executors.map((executor) => executor.prompt)];
    this.governance = createGovernance({
      hooks: this.config.hooks,
      ...(this.config.permissions ? { permissions: this.config.permissions } : {}),
      guardrails: this.config.guardrails,
      ...(this.config.approvals ? { approvals: this.config.approvals } : {}),
      approvalTimeoutMs: this.config.approvalTimeoutMs,
    });
    this.telemetryProfile = telemetryProfileOf(this.config);
    const { userInstructions, entries, entryBudgetTokens, messageShaping } = this.config.context;
    this.contextFeatures = {
      entries: compileEntries(entries ?? []),
      ...(userInstructions ? { userInstructions } : {}),
      ...(entryBudgetTokens !== undefined ? { entryBudgetTokens } : {}),
      ...(messageShaping !== undefined ? { shaping: messageShaping } : {}),
    };
  }

  /**
   * Starts, resumes or looks up a run and returns its handle at once; the work goes on
   * in the background. Calling it again with the same run id is always safe: it never adds the
   * input twice, never resets the budget or deadline, and never starts a second executor while a
   * live owner holds the run.
   */
  run(options: AgentRunOptions): AgentRun {
    assertRunRequestShape(options);
    const checked = this.checkInput(options);
    // A user command is expanded only in the input a caller typed (N-15); the same input on a
    // resume expands the same, so it matches the stored one.
    const expanded =
      checked !== undefined && typeof options.input === 'string'
        ? expandUserCommand(this.config.context.commands ?? [], checked)
        : undefined;
    const input = expanded?.text ?? checked;
    const variables = { ...this.config.variables, ...(options.variables ?? {}) };
    if (options.runId === undefined) assertVariablesComplete(this.prompts, variables);
    const runId = options.runId ?? createRunId();
    const control = new RunControl();
    const runnable: RunnableAgent = {
      name: this.config.name,
      roles: [this.config.entry.name, ...this.config.executors.map((executor) => executor.name)],
      mode: this.config.mode,
      model: this.config.model,
      fallbackModels: this.config.fallbackModels,
      store: this.store,
      entry: this.entry,
      execution: this.config.execution,
      isRetryable: this.config.isRetryable,
      leaseMs: this.config.leaseMs,
      historyRuns: this.config.context.historyRuns,
      window: {
        compressionThreshold: this.config.context.compressionThreshold,
        ...(this.config.context.windowTokens !== undefined ? { windowTokens: this.config.context.windowTokens } : {}),
      },
      countTokens: this.config.context.countTokens ?? estimateTokens,
      compressionPrompt: this.config.context.compressionPrompt,
      governance: this.governance,
      contextFeatures: this.contextFeatures,
      expandCommand: (text) => expandUserCommand(this.config.context.commands ?? [], text),
      ...(this.config.workspace ? { restoreVariantFiles: restorerOf(this.config.workspace) } : {}),
    };
    control.followSignal(options.signal);
    const request = {
      runId,
      sessionId: options.sessionId,
      variables,
      ...(input !== undefined ? { input } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.metadata ? { metadata: { ...options.metadata } } : {}),
      ...(options.sessionNote ? { sessionNote: options.sessionNote } : {}),
      ...(expanded ? { command: expanded.command } : {}),
      ...(options.regenerate ? { regenerate: options.regenerate.runId } : {}),
    };
    const observers: Array<(event: RunEvent) => void> = [];
    const tracing =
      this.config.telemetry && options.telemetry !== false
        ? createAgentTracing(this.config.telemetry, this.telemetryProfile)
        : undefined;
    if (tracing) observers.push(tracing);
    const bus = this.config.eventBus;
    if (bus) {
      const identity = { runId, sessionId: options.sessionId, agentName: this.name };
      observers.push((event) => bus.publish({ identity, event }));
    }
    return new AgentRun({
      runId,
      sessionId: options.sessionId,
      control,
      store: this.store,
      observers,
      execute: async (reporter) => {
        // Whatever way the execution ends (an early error included), the control lets go of the
        // caller's signal.
        const result = await executeAgentRun(runnable, request, control, reporter)
          // Settled without its finish event (handed over, ownership lost): the open spans end now.
          .catch((error: unknown) => {
            tracing?.abandon(error);
            throw error;
          })
          .finally(() => control.dispose());
        // The whole run has settled here (calls in flight included): a temporary work directory
        // goes now, once (S-5, F-4). A crash or a disconnect never reaches this line (F-5).
        await this.config.workspace?.cleanupRun(runId, this.store).catch(() => {});
        return result;
      },
    });
  }

  /**
   * Validates a run's input before anything is saved (C-12): required and non-empty for a new run;
   * checked against the agent's `inputSchema` when there is one. Returns it as the text the model reads.
   */
  private checkInput(options: AgentRunOptions): string | undefined {
    const { input, runId } = options;
    if (input === undefined) {
      if (runId === undefined && options.regenerate === undefined)
        throw new InvalidRunRequestError('(new)', 'A new run needs a non-empty input.');
      return undefined;
    }
    if (this.config.inputSchema) {
      const parsed = this.config.inputSchema.safeParse(input);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
        throw new InvalidRunRequestError(runId ?? '(new)', `The run input does not match the agent's input schema: ${problems}`);
      }
      return typeof parsed.data === 'string' ? parsed.data : JSON.stringify(parsed.data);
    }
    if (typeof input !== 'string' || input === '') {
      throw new InvalidRunRequestError(
        runId ?? '(new)',
        'The run input must be non-empty text (or set an inputSchema for structured input).',
      );
    }
    return input;
  }
}

/** Rolls back a replaced variant's own file changes in its scope (N-6). */
function restorerOf(workspace: Workspace): NonNullable<RunnableAgent['restoreVariantFiles']> {
  return async (scope) => {
    const outcome = await workspace.rollbackFiles(scope, { runId: scope.runId });
    return {
      restored: outcome.restored.map((change) => change.path),
      failed: outcome.failed.map((failure) => failure.change.path),
    };
  };
}

/** What the agent's spans say beyond its events: the model, its endpoint, descriptions of roles and tools. */
function telemetryProfileOf(config: ResolvedAgentConfig): AgentTelemetryProfile {
  const role = (resolved: ResolvedRole, description: string): RoleTelemetryProfile => ({
    ...(description ? { description } : {}),
    tools: Object.fromEntries(resolved.tools.map((item) => [item.name, item.description])),
  });
  const { model } = config;
  return {
    provider: model.provider,
    modelId: model.modelId,
    ...(model.server ? { server: model.server } : {}),
    ...(config.modelSettings?.maxOutputTokens !== undefined ? { maxOutputTokens: config.modelSettings.maxOutputTokens } : {}),
    entry: role(config.entry, config.description),
    executors: Object.fromEntries(config.executors.map((executor) => [executor.name, role(executor, executor.description)])),
  };
}

/** Builds the node graph (D-1): one ReactNode, or a PlannerNode with its ExecutorNodes. */
function buildEntryNode(config: ResolvedAgentConfig): Node {
  const roleDefinition = (role: ResolvedRole) => toRoleDefinition(role, config.modelSettings);
  if (config.mode === 'react') return new ReactNode(roleDefinition(config.entry));
  const executors = config.executors.map((executor) =>
    executor.remote
      ? new RemoteExecutorNode({ name: executor.name, description: executor.description, tool: executor.remote })
      : new ExecutorNode(roleDefinition(executor), {
          description: executor.description,
          ...(executor.inputSchema ? { inputSchema: executor.inputSchema } : {}),
          ...(executor.background ? { background: true } : {}),
        }),
  );
  const planner = roleDefinition(config.entry);
  return new PlannerNode(
    {
      ...planner,
      toolDefinitions: [...planner.toolDefinitions, ...executors.map((executor) => executor.delegationDefinition())],
    },
    executors,
  );
}

function toRoleDefinition(role: ResolvedRole, settings: ModelSettings | undefined): RoleDefinition {
  return {
    name: role.name,
    prompt: role.prompt,
    tools: new Map(role.tools.map((item) => [item.name, item])),
    toolDefinitions: role.tools.map(toToolDefinition),
    ...(role.outputSchema ? { outputSchema: role.outputSchema } : {}),
    ...(settings ? { settings } : {}),
  };
}
