import { AGENT_JOURNAL_FORMAT, type AgentJournalRecord } from './agent-journal.js';
import type { ResolvedExecution } from './execution-options.js';
import type { RunnableAgent, RunRequest } from './runnable-agent.js';
import { readSessionRuns, selectHistory } from './session/index.js';

/**
 * The `run-started` record of a new run: its input, the execution snapshot it keeps for life
 * (C-15) tightened by the caller's limits (W-6), its deadline, and the session history and
 * carried supplements selected now (H-3, S-4), so that a resumed run sees exactly what it started
 * with even if the session moved on meanwhile.
 */
export async function createRunStartedEntry(agent: RunnableAgent, request: RunRequest, now: number): Promise<AgentJournalRecord> {
  const limits = request.limits ?? {};
  const deadlineAt = Math.min(now + agent.execution.timeoutMs, limits.deadlineAt ?? Number.POSITIVE_INFINITY);
  const execution: ResolvedExecution =
    limits.maxLoops !== undefined && limits.maxLoops < agent.execution.maxLoops
      ? { ...agent.execution, maxLoops: Math.max(0, Math.floor(limits.maxLoops)) }
      : agent.execution;
  const sessionRuns = await readSessionRuns(agent.store, request.sessionId, { exceptRunId: request.runId });
  const { history, carried } = selectHistory(sessionRuns, agent.historyRuns);
  const record: Extract<AgentJournalRecord, { type: 'run-started' }> = {
    type: 'run-started',
    data: {
      formatVersion: AGENT_JOURNAL_FORMAT,
      agentName: agent.name,
      mode: agent.mode,
      entryRole: agent.entry.role.name,
      roles: [...agent.roles],
      input: request.input ?? '',
      execution,
      deadlineAt,
      history,
      carried,
      window: agent.window,
      variables: request.variables ?? {},
    },
  };
  return record;
}
