/**
 * What a workflow run's team events (N-12, issue 31) say about each team node, for the run page:
 * the turns so far (who spoke, what), the speaker chosen next, the orchestrator's current ledger,
 * who owns the answer, the votes, claims and mail, and how the team ended. A team node `X` runs
 * as the tasks of `X` (choose the speaker), `X.turn` (a member speaks) and `X.done` (the answer):
 * its events are folded under `X`. The stream replays the journal, so a reload shows the same.
 */
import type { WorkflowRunEvent } from './run-events.js';

type TeamEvent = Extract<
  WorkflowRunEvent,
  {
    type:
      | 'team-turn'
      | 'speaker-selected'
      | 'handoff'
      | 'ledger-updated'
      | 'vote-cast'
      | 'task-claimed'
      | 'mail-sent'
      | 'team-stop';
  }
>;

/** The orchestrator's ledgers as the last `ledger-updated` saved them. */
export type TeamLedger = Extract<WorkflowRunEvent, { type: 'ledger-updated' }>['ledger'];

/** One team node's conversation as far as the events tell. */
export interface TeamProgress {
  turns: { turn: number; speaker: string; text: string }[];
  /** The speaker chosen for the coming turn, and how (until that turn is saved). */
  next?: { speaker: string; by: string; instruction?: string };
  /** The orchestrator's current ledger and what changed it last. */
  ledger?: { change: string; turn: number; ledger: TeamLedger };
  /** Who owns the final answer: the receiver of the last handoff, else the member who spoke last. */
  owner?: string;
  handoffs: { turn: number; from: string; to: string }[];
  votes: { voter: string; choice: string }[];
  claims: { task: string; member: string }[];
  mail: { from: string; to: string; text: string }[];
  stop?: { reason: string; conditions: string[]; turn: number };
}

/** The team node whose task wrote an event: `X` for `X`, `X.turn` and `X.done`. */
export function teamNodeOf(node: string): string {
  return node.replace(/\.(turn|done)$/, '');
}

function teamOf(teams: Map<string, TeamProgress>, node: string): TeamProgress {
  const name = teamNodeOf(node);
  let team = teams.get(name);
  if (!team) {
    team = { turns: [], handoffs: [], votes: [], claims: [], mail: [] };
    teams.set(name, team);
  }
  return team;
}

/** Folds one team event into its team node's progress. */
export function foldTeamEvent(teams: Map<string, TeamProgress>, event: TeamEvent): void {
  const team = teamOf(teams, event.node);
  switch (event.type) {
    case 'team-turn':
      team.turns.push({ turn: event.turn, speaker: event.speaker, text: event.text });
      if (!team.handoffs.length) team.owner = event.speaker;
      delete team.next;
      return;
    case 'speaker-selected':
      team.next = {
        speaker: event.speaker,
        by: event.by,
        ...(event.instruction !== undefined ? { instruction: event.instruction } : {}),
      };
      return;
    case 'handoff':
      team.handoffs.push({ turn: event.turn, from: event.from, to: event.to });
      team.owner = event.to;
      return;
    case 'ledger-updated':
      team.ledger = { change: event.change, turn: event.turn, ledger: event.ledger };
      return;
    case 'vote-cast':
      team.votes.push({ voter: event.voter, choice: event.choice });
      return;
    case 'task-claimed':
      team.claims.push({ task: event.task, member: event.member });
      return;
    case 'mail-sent':
      team.mail.push({ from: event.from, to: event.to, text: event.text });
      return;
    case 'team-stop':
      team.stop = { reason: event.reason, conditions: event.conditions, turn: event.turn };
      delete team.next;
      return;
  }
}
