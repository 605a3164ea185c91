import { InvalidConfigurationError } from '../core/errors/index.js';
import type { RetryPolicy } from '../core/retry-policy.js';
import { END, START } from '../engine/workflow/channels/channel-names.js';
import type { StateOf } from '../engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import type { WorkflowNode } from '../engine/workflow/nodes/workflow-node.js';
import type { Durability } from '../engine/workflow/pregel/workflow-journal.js';
import type { Workflow } from '../engine/workflow/workflow.js';
import type { WorkflowEvent } from '../engine/workflow/workflow-events.js';
import type { WorkflowRun } from '../engine/workflow/workflow-run.js';
import type { EventBus } from '../hooks/event-bus.js';
import type { RunStore } from '../store/run-store.js';
import type { TracingOptions } from '../telemetry/agent-tracing.js';
import { TEAM_MODEL_RETRY } from './model-turn.js';
import {
  applyTeamUpdate,
  mergeTeamUpdates,
  type NextTurn,
  type TeamState,
  type TeamUpdate,
  teamStateDefinition,
} from './team-state.js';
import { TeamStepNode } from './team-step-node.js';
import type { TeamMember } from './team-types.js';
import { checkTermination, ExternalStop, externalStop, maxTurns, or, type TerminationCondition } from './termination.js';
import { type StepScope, type Topology, vouchesForWrites } from './topology.js';

/** The default hard cap of member turns, OR-ed with every team's termination (no endless team). */
export const DEFAULT_MAX_TURNS = 50;

/** A team in code: members, a topology, a termination, and the run policy of its workflow. */
export interface TeamConfig {
  /** Names the team's runs (its workflow's name). */
  name: string;
  members: readonly TeamMember[];
  topology: Topology;
  /** When to stop, checked at every turn boundary; always OR-ed with `maxTurns`. */
  termination?: TerminationCondition;
  /** Hard cap of member turns (default 50): a team always ends. */
  maxTurns?: number;
  /** The switch of the `external-stop` condition (always checked; default: a new one, `team.externalStop`). */
  externalStop?: ExternalStop;
  /** Where runs are kept. Default: a new `MemoryRunStore`. */
  store?: RunStore;
  /** Ownership lease of the executing process (default 30 s). */
  leaseMs?: number;
  /** Hard deadline of a run, from its creation (default 1 hour): the team's shared deadline. */
  timeoutMs?: number;
  durability?: Durability;
  /** Retry policy of the team's model calls. Default: 3 attempts of transient failures. */
  retry?: RetryPolicy;
  telemetry?: TracingOptions;
  eventBus?: EventBus<WorkflowEvent>;
}

/** The fields a team run returns as its output. */
const OUTPUT = [
  'answer',
  'owner',
  'termination',
  'transcript',
  'turns',
  'handoffs',
  'ledger',
  'board',
  'mail',
  'records',
  'usage',
] as const;

type Definition = ReturnType<typeof teamStateDefinition>;

/** The output of a finished team run. */
export type TeamOutput = Pick<StateOf<Definition>, (typeof OUTPUT)[number]>;

/**
 * A team (N-12): members and a topology compiled onto the workflow engine as one node, `turn`,
 * in a bounded loop: each task checks the termination, chooses the next speaker and lets it speak,
 * so that every choice, turn, handoff and ledger update is saved in the journal — the choice with
 * its turn, one entry per turn, when it needs no model (owner, round-robin, function), else in an
 * entry of its own before the member speaks. A crash resumes the team mid-conversation on any
 * process: finished steps are read back, never redone, and the counters (turns, budget, start
 * time, stalls) continue where they were.
 *
 * @example
 * const team = new Team({ name: 'support', members, topology: handoff({ entry: 'triage', handoffs: { triage: ['billing'] } }) });
 * const result = await team.run({ sessionId: 's1', input: 'I was charged twice' }).result();
 * result.output?.answer; // billing's answer: billing owns it
 */
export class Team {
  readonly name: string;
  readonly members: ReadonlyMap<string, TeamMember>;
  readonly topology: Topology;
  /** The workflow the team runs as (its runs are workflow runs: `RunClient` reads them). */
  readonly workflow: Workflow<Definition>;
  readonly externalStop: ExternalStop;
  /** The hard cap of member turns (the configured `maxTurns`, default 50). */
  readonly maxTurns: number;
  /**
   * The team's two steps as workflow nodes, `select` (check the termination, choose the speaker)
   * and `turn` (that member speaks): a workflow definition's team node embeds them in a host
   * workflow as two nodes (the team's own workflow runs them in one node, see above).
   */
  readonly steps: { readonly select: WorkflowNode; readonly turn: WorkflowNode };

  constructor(config: TeamConfig) {
    this.name = config.name;
    this.members = new Map(config.members.map((member) => [member.name, member]));
    this.topology = config.topology;
    this.externalStop = config.externalStop ?? new ExternalStop();
    const cap = config.maxTurns ?? DEFAULT_MAX_TURNS;
    this.maxTurns = cap;
    const issues = [
      ...(this.members.size !== config.members.length ? [{ path: 'members', message: 'member names must be unique' }] : []),
      ...config.members.flatMap((member, index) =>
        member.name === 'user' || member.name === 'orchestrator' || !/^[A-Za-z0-9_-]{1,64}$/.test(member.name)
          ? [
              {
                path: `members.${index}.name`,
                message: 'a member name is 1–64 letters, digits, _ or -, and not "user" or "orchestrator"',
              },
            ]
          : [],
      ),
      ...(Number.isInteger(cap) && cap >= 1 ? [] : [{ path: 'maxTurns', message: 'must be a whole number ≥ 1' }]),
      ...config.topology.validate(this.members),
    ];
    if (issues.length > 0) throw new InvalidConfigurationError(`team "${config.name}"`, issues);
    // The hard cap and the external switch always apply, whatever the configured termination.
    const termination = or(...(config.termination ? [config.termination] : []), maxTurns(cap), externalStop());
    const retry = config.retry ?? TEAM_MODEL_RETRY;
    // Spelled out rather than spread: made for every step, and a spread of a varying object is the slower copy.
    const scopeOf = (base: Omit<StepScope, 'members' | 'retry'>): StepScope => ({
      signal: base.signal,
      deadlineAt: base.deadlineAt,
      now: base.now,
      taskId: base.taskId,
      askUser: base.askUser,
      members: this.members,
      retry,
    });
    const external = this.externalStop;
    const topology = this.topology;
    /** The termination that holds at this turn boundary, if one does (and the team's start time). */
    const endedAt = (state: TeamState, now: number) => {
      const startedAt = state.startedAt ?? now;
      const last = state.transcript.at(-1);
      const ended = checkTermination(termination, {
        turns: state.turns,
        transcript: state.transcript,
        usage: state.usage,
        startedAt,
        now,
        handedToUser: last?.handoffTo === 'user',
        externalStop: external.isSet,
      });
      return { ended, startedAt };
    };
    const selectStep = async (state: TeamState, scope: StepScope): Promise<TeamUpdate> => {
      const { ended, startedAt } = endedAt(state, scope.now());
      const started: TeamUpdate = state.startedAt === undefined ? { startedAt } : {};
      if (ended) return { ...started, ...stopUpdate(state, ended, topology.answerOf(state)) };
      // The state is copied only at the first boundary, which sets the start time.
      const chosen = await topology.select(state.startedAt === startedAt ? state : { ...state, startedAt }, scope);
      if (chosen.termination)
        return {
          ...started,
          ...chosen,
          ...stopUpdate(state, chosen.termination, chosen.answer ?? topology.answerOf(state), chosen),
        };
      // The topology's update is its own new object: returned as it is once the start time is saved.
      return state.startedAt === undefined ? { ...started, ...chosen } : chosen;
    };
    const turnStep = async (state: TeamState, scope: StepScope): Promise<TeamUpdate> => {
      const update = await topology.turn(state, scope);
      if (update.termination) return { ...update, ...stopUpdate(state, update.termination, update.answer, update) };
      return update;
    };
    const checked = { checked: vouchesForWrites(topology) };
    const select = new TeamStepNode((state, base) => selectStep(state, scopeOf(base)), checked);
    const turn = new TeamStepNode((state, base) => turnStep(state, scopeOf(base)), checked);
    this.steps = { select, turn };
    // The team's own workflow: one node, `turn`, looping on itself. A choice that needs no model
    // is made in the turn's own step (one journal entry per turn); a model's choice is saved as a
    // step of its own (`next.turn` = the coming turn), and the member speaks in the next one.
    const pending = (state: TeamState) => state.next?.turn === state.turns + 1 && state.termination === undefined;
    // The boundary after a turn is checked in the turn's own task too: a team that ends there
    // (max turns, a mention, a budget…) takes no extra task to say so.
    const thenCheck = (state: TeamState, update: TeamUpdate, scope: StepScope): TeamUpdate => {
      if (update.termination) return update;
      const after = applyTeamUpdate(state, update);
      const { ended } = endedAt(after, scope.now());
      return ended ? { ...update, ...stopUpdate(after, ended, topology.answerOf(after), update) } : update;
    };
    const teamTurn = new TeamStepNode(async (state, base) => {
      const scope = scopeOf(base);
      if (pending(state)) return thenCheck(state, await turnStep(state, scope), scope);
      const selection = await selectStep(state, scope);
      if (selection.termination) return selection;
      if (!topology.choiceWithTurn) return choiceFor(selection, state.turns + 1);
      const turnUpdate = mergeTeamUpdates(selection, await turnStep(applyTeamUpdate(state, selection), scope));
      return thenCheck(state, turnUpdate, scope);
    }, checked);
    this.workflow = new WorkflowBuilder({ name: config.name, state: teamStateDefinition() })
      .addNode('turn', teamTurn)
      .addEdge(START, 'turn')
      .addLoop({
        from: 'turn',
        to: 'turn',
        exit: END,
        while: (state) => state.termination === undefined,
        maxIterations: 2 * cap + 2,
      })
      .compile({
        output: [...OUTPUT],
        maxSteps: 2 * cap + 8,
        ...(config.store ? { store: config.store } : {}),
        ...(config.leaseMs !== undefined ? { leaseMs: config.leaseMs } : {}),
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
        ...(config.durability ? { durability: config.durability } : {}),
        ...(config.telemetry ? { telemetry: config.telemetry } : {}),
        ...(config.eventBus ? { eventBus: config.eventBus } : {}),
      });
  }

  /**
   * Starts a team run on `input` (the user's request), or resumes one (`runId` of an unfinished
   * run: after a crash, on any process; with `resume`, the user's answer to its pending
   * question). Returns the workflow run's handle.
   */
  run(options: {
    sessionId: string;
    input?: string;
    runId?: string;
    signal?: AbortSignal;
    metadata?: Readonly<Record<string, string>>;
    /** The user's answer to the run's pending question (a task board approval): only this answers it. */
    resume?: unknown;
  }): WorkflowRun<StateOf<Definition>> {
    const request: Parameters<Workflow<Definition>['run']>[0] = { sessionId: options.sessionId };
    if (options.runId !== undefined) request.runId = options.runId;
    if (options.input !== undefined) request.input = { task: options.input };
    if (options.signal) request.signal = options.signal;
    if (options.metadata) request.metadata = options.metadata;
    if ('resume' in options) request.resume = options.resume;
    return this.workflow.run(request);
  }
}

/**
 * A choice saved apart from its turn: the selection with `next.turn` set to the coming turn. Copied
 * key by key, not spread: selections come in the shapes of every topology, and that spread site
 * (megamorphic) took about 3 µs of each group chat turn (issue 31). Keys keep their order, which
 * is the order of the saved writes.
 */
function choiceFor(selection: TeamUpdate, turn: number): TeamUpdate {
  const choice: Record<string, unknown> = {};
  for (const field in selection) choice[field] = selection[field as keyof TeamUpdate];
  const next: Record<string, unknown> = {};
  const chosen = selection.next as NextTurn;
  for (const field in chosen) next[field] = chosen[field as keyof NextTurn];
  next.turn = turn;
  choice.next = next;
  return choice as TeamUpdate;
}

/** The writes that end a team: its termination, its answer and the `team-stop` event. */
function stopUpdate(
  state: TeamState,
  termination: NonNullable<TeamUpdate['termination']>,
  answer: string | undefined,
  update: TeamUpdate = {},
): TeamUpdate {
  const turns = update.turns ?? state.turns;
  const ending = { ...termination, turns };
  return {
    termination: ending,
    ...(answer !== undefined ? { answer } : {}),
    teamEvents: [
      ...(update.teamEvents ?? []),
      { type: 'team-stop', turn: turns, reason: ending.reason, conditions: ending.conditions },
    ],
  };
}
