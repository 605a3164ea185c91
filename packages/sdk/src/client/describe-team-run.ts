import { TEAM_EVENTS_FIELD, type TeamEventPayload, type TeamLedger, teamEventsOf } from '../engine/workflow/team-events.js';
import type { JournalEntry } from '../store/run-store.js';

/**
 * The inside of a team run (N-12) as `describeRun` shows it, read from the journal alone: the
 * latest saved values of the team's coordination fields — who owns the answer, the turns, the
 * orchestrator's ledger with its stall and re-plan counters, the task board — and its events.
 */
export interface TeamRunDescription {
  turns: number;
  /** Who owns the final answer (handoff) or spoke last. */
  owner?: string;
  /** The speaker chosen for the coming turn, when one is chosen and has not spoken yet. */
  next?: { speaker: string; instruction?: string; subject?: string };
  handoffs: number;
  ledger?: TeamLedger;
  board?: Record<string, { status: string; owner?: string; result?: string }>;
  /** How the team ended, once it has. */
  termination?: { reason: string; conditions: string[]; turns: number };
  /** Every team event saved so far, in order. */
  events: TeamEventPayload[];
}

const FIELDS = ['turns', 'owner', 'next', 'handoffs', 'ledger', 'board', 'termination'] as const;

/** The team view of a workflow run's journal, or `undefined` when the run is not a team's. */
export function describeTeamRun(journal: readonly JournalEntry[]): TeamRunDescription | undefined {
  const latest: Partial<Record<(typeof FIELDS)[number], unknown>> = {};
  const events: TeamEventPayload[] = [];
  let team = false;
  for (const entry of journal) {
    if (entry.type !== 'task-finished') continue;
    const writes = (entry.data as { writes?: [string, unknown][] }).writes ?? [];
    for (const [channel, value] of writes) {
      if (channel === TEAM_EVENTS_FIELD) team = true;
      if ((FIELDS as readonly string[]).includes(channel)) latest[channel as (typeof FIELDS)[number]] = value;
    }
    events.push(...teamEventsOf(writes));
  }
  if (!team) return undefined;
  const description: TeamRunDescription = {
    turns: (latest.turns as number | undefined) ?? 0,
    handoffs: (latest.handoffs as number | undefined) ?? 0,
    events,
  };
  if (latest.owner !== undefined) description.owner = latest.owner as string;
  if (latest.ledger !== undefined) description.ledger = latest.ledger as TeamLedger;
  if (latest.board !== undefined) description.board = latest.board as TeamRunDescription['board'] & object;
  if (latest.termination !== undefined)
    description.termination = latest.termination as TeamRunDescription['termination'] & object;
  const next = latest.next as TeamRunDescription['next'];
  const spoken = events.some((event) => event.type === 'team-turn' && event.turn === description.turns + 1);
  if (next && !description.termination && !spoken) description.next = next;
  return description;
}
