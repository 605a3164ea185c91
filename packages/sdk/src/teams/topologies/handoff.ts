import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import type { TeamEventPayload } from '../../engine/workflow/team-events.js';
import { callTeamModel, handoffToolName, handoffTools, memberMessages, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState, TeamUpdate } from '../team-state.js';
import { type TeamMessage, teamMessageSchema } from '../team-types.js';
import { type StepScope, type Topology, type TopologyIssue, vouchForWrites } from '../topology.js';

/** What the receiver of a handoff sees of the conversation so far (the task is always shown). */
export type HistoryFilter = (history: readonly TeamMessage[], handoff: { from: string; to: string }) => TeamMessage[];

/** The named history filters a definition may use. */
export const HISTORY_FILTERS = {
  /** The whole transcript. */
  all: (history) => [...history],
  /** Only the message that handed over (the caller's summary). */
  'last-message': (history) => history.slice(-1),
  /** Nothing but the task. */
  none: () => [],
} as const satisfies Record<string, HistoryFilter>;

/** Options of the `handoff` topology. */
export interface HandoffOptions {
  /** The member that owns the answer first. */
  entry: string;
  /** For each member, the members (or `user`) it may hand the answer to: its `transfer_to_<name>` tools. */
  handoffs: Readonly<Record<string, readonly string[]>>;
  /** What a receiver sees (part of the definition): a named filter or a function. Default `all`. */
  historyFilter?: keyof typeof HISTORY_FILTERS | HistoryFilter;
  /** Handoffs one run may make; one more ends the team `handoff-limit` (loops are bounded). Default 5. */
  maxHandoffs?: number;
}

/**
 * The `handoff` topology (N-12, OpenAI Agents' handoffs, AutoGen's Swarm): the member that owns
 * the final answer speaks; it answers, or passes the ownership to another member by a tool call
 * (`transfer_to_<name>`). The receiver becomes the owner — the caller never speaks again unless
 * it is handed the answer back — and sees the history through the filter, whose output is saved
 * with the handoff (a resumed run never re-runs it). Distinct from an agent used as a tool, where
 * the caller keeps the ownership. A handoff to `user` ends the team `handoff-to-user`.
 */
export function handoff(options: HandoffOptions): Topology {
  const maxHandoffs = options.maxHandoffs ?? 5;
  const filter: HistoryFilter =
    typeof options.historyFilter === 'function' ? options.historyFilter : HISTORY_FILTERS[options.historyFilter ?? 'all'];
  return vouchForWrites({
    kind: 'handoff',
    choiceWithTurn: true,
    validate(members) {
      const issues: TopologyIssue[] = [];
      if (!members.has(options.entry)) issues.push({ path: 'topology.entry', message: `"${options.entry}" is not a member` });
      for (const [from, targets] of Object.entries(options.handoffs)) {
        if (!members.has(from)) issues.push({ path: `topology.handoffs.${from}`, message: `"${from}" is not a member` });
        for (const target of targets) {
          if (target !== 'user' && !members.has(target))
            issues.push({ path: `topology.handoffs.${from}`, message: `"${target}" is not a member (nor "user")` });
          if (target === from) issues.push({ path: `topology.handoffs.${from}`, message: 'a member cannot hand off to itself' });
        }
      }
      if (!(Number.isInteger(maxHandoffs) && maxHandoffs >= 0))
        issues.push({ path: 'topology.maxHandoffs', message: 'must be a whole number ≥ 0' });
      if (typeof options.historyFilter === 'string' && !(options.historyFilter in HISTORY_FILTERS))
        issues.push({
          path: 'topology.historyFilter',
          message: `unknown filter; use ${Object.keys(HISTORY_FILTERS).join(', ')}`,
        });
      return issues;
    },
    async select(state) {
      const speaker = state.owner ?? options.entry;
      return {
        next: { speaker },
        teamEvents: [{ type: 'speaker-selected', turn: state.turns + 1, speaker, by: 'owner' }],
      };
    },
    async turn(state, scope) {
      return ownerTurn(state, scope, options, filter, maxHandoffs);
    },
    answerOf: (state) => state.answer ?? lastText(state),
  });
}

/** The messages a history filter may return (a user's function is checked: the topology vouches for its writes). */
const handedHistorySchema = teamMessageSchema.array();

/** Runs the history filter; a user's filter must return team messages (`invalid-state-update` otherwise). */
function filterHistory(filter: HistoryFilter, history: TeamMessage[], handoff: { from: string; to: string }): TeamMessage[] {
  const handed = filter(history, handoff);
  if (filter === HISTORY_FILTERS['last-message'] || filter === HISTORY_FILTERS.none) return handed;
  const parsed = handedHistorySchema.safeParse(handed);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(value)'}: ${issue.message}`).join('; ');
  throw new NodeFailure({
    kind: 'invalid-state-update',
    message: `the history filter returned an invalid history for "handedHistory": ${detail}`,
  });
}

function lastText(state: TeamState): string | undefined {
  return state.transcript.at(-1)?.text;
}

async function ownerTurn(
  state: TeamState,
  scope: StepScope,
  options: HandoffOptions,
  filter: HistoryFilter,
  maxHandoffs: number,
): Promise<TeamUpdate> {
  const name = state.next?.speaker ?? options.entry;
  const member = scope.members.get(name);
  if (!member) throw new NodeFailure({ kind: 'invalid-result', message: `the owner "${name}" is not a member` });
  const targets = options.handoffs[name] ?? [];
  const lastHandoff = state.transcript.findLastIndex((message) => message.handoffTo !== undefined);
  // The `all` filter hands over the whole transcript: it is read from the transcript itself, not
  // saved again with every handoff (a copy per handoff would grow the journal quadratically).
  const visible =
    lastHandoff < 0 || (filter === HISTORY_FILTERS.all && state.handedHistory === undefined)
      ? state.transcript
      : [...(state.handedHistory ?? []), ...state.transcript.slice(lastHandoff + 1)];
  const response = await callTeamModel(
    member.model,
    {
      system: memberSystem(member, state.privateNotes),
      messages: memberMessages(name, state.task ?? '', visible),
      tools: handoffTools(targets, (target) => scope.members.get(target)?.description),
    },
    scope,
  );
  const turn = state.turns + 1;
  const usage = usageOf(response);
  const text = response.message.content;
  const call = response.message.toolCalls?.[0];
  if (!call) {
    const message: TeamMessage = { turn, speaker: name, text };
    return {
      transcript: [message],
      owner: name,
      turns: turn,
      usage,
      answer: text,
      termination: { reason: 'final-answer', conditions: ['final-answer'], turns: turn },
      teamEvents: [{ type: 'team-turn', turn, speaker: name, text }],
    };
  }
  const target = targets.find((candidate) => handoffToolName(candidate) === call.name);
  if (target === undefined) {
    throw new NodeFailure({
      kind: 'invalid-result',
      message: `member "${name}" called "${call.name}", which is none of its handoffs (${targets.join(', ') || 'none'})`,
      failure: { kind: 'unknown-tool', message: `no handoff tool "${call.name}" for member "${name}"` },
    });
  }
  const reason =
    typeof (call.arguments as { reason?: unknown })?.reason === 'string' ? (call.arguments as { reason: string }).reason : '';
  const message: TeamMessage = { turn, speaker: name, text: text || reason || `Handing over to ${target}.`, handoffTo: target };
  const handoffs = state.handoffs + 1;
  const turnEvent = { type: 'team-turn' as const, turn, speaker: name, text: message.text };
  if (handoffs > maxHandoffs) {
    return {
      // The handoff past the limit is not made: the message stays, without its handoff.
      transcript: [{ turn, speaker: name, text: message.text }],
      turns: turn,
      usage,
      termination: { reason: 'handoff-limit', conditions: ['handoff-limit'], turns: turn },
      teamEvents: [turnEvent],
    };
  }
  const handedHistory =
    filter === HISTORY_FILTERS.all
      ? undefined
      : filterHistory(filter, [...state.transcript, message], { from: name, to: target });
  // Literals without spreads (V8 builds a literal with spreads slowly), the keys in the order the
  // saved writes have always had.
  const transcript = [message];
  const owner = target === 'user' ? name : target;
  const teamEvents: TeamEventPayload[] = [turnEvent, { type: 'handoff', turn, from: name, to: target, handoffs }];
  const update: TeamUpdate = handedHistory
    ? { transcript, owner, handoffs, handedHistory, turns: turn, usage, teamEvents }
    : { transcript, owner, handoffs, turns: turn, usage, teamEvents };
  if (target === 'user') {
    update.termination = { reason: 'handoff-to-user', conditions: ['handoff-to-user'], turns: turn };
    update.answer = message.text;
  }
  return update;
}
