import { type AgentIdentity, AgentMismatchError, RunInputMismatchError } from '../../core/errors/index.js';
import type { JournalEntry } from '../../store/run-store.js';
import { type AgentJournalRecord, agentJournal } from './agent-journal.js';

type RunStartedData = Extract<AgentJournalRecord, { type: 'run-started' }>['data'];

/** The identity of the agent recorded in a run's `run-started` record. */
export function recordedIdentity(data: RunStartedData): AgentIdentity {
  // Runs recorded before role names were kept name only their entry role.
  return { name: data.agentName, mode: data.mode, roles: data.roles ?? [data.entryRole] };
}

/**
 * Refuses a run to an agent other than its own, and a call whose input differs from the one the
 * run was created with (issue 18): a run belongs to one agent and one question for life (R-3,
 * B-5). Compared: the agent's name, mode and role names (entry role first); for a run recorded
 * before role names were kept, the entry role only. Applies to a resume and to a finished run
 * alike, so that neither another agent nor another question gets a stored answer.
 */
export function assertSameRun(
  runId: string,
  first: JournalEntry | undefined,
  agent: AgentIdentity,
  input: string | undefined,
): void {
  const start = first && agentJournal.recordOf(first);
  if (start?.type !== 'run-started') return;
  const data = start.data;
  const recorded = recordedIdentity(data);
  const requestedRoles = data.roles ? agent.roles : agent.roles.slice(0, 1);
  const same =
    recorded.name === agent.name &&
    recorded.mode === agent.mode &&
    recorded.roles.length === requestedRoles.length &&
    recorded.roles.every((role, index) => role === requestedRoles[index]);
  if (!same) throw new AgentMismatchError(runId, recorded, agent);
  if (input !== undefined && input !== data.input) throw new RunInputMismatchError(runId);
}
