import type { Message } from '../../core/messages.js';
import { AGENT_JOURNAL_FORMAT, type AgentJournalRecord } from './agent-journal.js';
import type { ResolvedExecution } from './execution-options.js';
import type { RunnableAgent, RunRequest } from './runnable-agent.js';
import {
  type HistoryParts,
  readSessionRuns,
  regenerationOf,
  replacedRuns,
  type SessionRunSummary,
  selectHistory,
} from './session/index.js';

/** A new run's `run-started` record, and the history it refers to, resolved for the first owner. */
export interface RunStart {
  record: Extract<AgentJournalRecord, { type: 'run-started' }>;
  history: Message[];
  parts: HistoryParts;
}

/**
 * The `run-started` record of a new run: its input, the execution snapshot it keeps for life
 * (C-15) tightened by the caller's limits (W-6), its deadline, and the session history and
 * carried supplements selected now (H-3, S-4), so that a resumed run sees exactly what it started
 * with even if the session moved on meanwhile. The history is kept by reference to the earlier
 * runs (ADR 0010): the session is read in one query, with the journals of the history window only,
 * and the record's size does not grow with the session.
 */
export async function createRunStartedEntry(agent: RunnableAgent, request: RunRequest, now: number): Promise<RunStart> {
  const limits = request.limits ?? {};
  const deadlineAt = Math.min(now + agent.execution.timeoutMs, limits.deadlineAt ?? Number.POSITIVE_INFINITY);
  const execution: ResolvedExecution =
    limits.maxLoops !== undefined && limits.maxLoops < agent.execution.maxLoops
      ? { ...agent.execution, maxLoops: Math.max(0, Math.floor(limits.maxLoops)) }
      : agent.execution;
  const sessionRuns = await readSessionRuns(agent.store, request.sessionId, sessionReadOf(agent, request));
  // A regenerated answer leaves the history with every variant it replaced (N-15).
  const regeneration = request.regenerate ? regenerationOf(request.runId, sessionRuns, request.regenerate) : undefined;
  const excluded = replacedRuns(sessionRuns);
  if (regeneration) excluded.add(regeneration.variant.replaces);
  const current = (runs: SessionRunSummary[]) => runs.filter((run) => !excluded.has(run.runId));
  const selected = selectHistory(current(await withFullMessages(agent, request, current(sessionRuns))), agent.historyRuns);
  const { history, carried, parts } = selected;
  const historyFrom = excluded.size > 0 ? { ...selected.historyFrom, excluded: [...excluded] } : selected.historyFrom;
  const record: Extract<AgentJournalRecord, { type: 'run-started' }> = {
    type: 'run-started',
    data: {
      formatVersion: AGENT_JOURNAL_FORMAT,
      agentName: agent.name,
      mode: agent.mode,
      entryRole: agent.entry.role.name,
      roles: [...agent.roles],
      input: request.input ?? regeneration?.input ?? '',
      execution,
      deadlineAt,
      historyFrom,
      carried,
      window: agent.window,
      variables: request.variables ?? {},
      ...(request.sessionNote ? { sessionNote: request.sessionNote } : {}),
      ...(request.command ? { command: request.command } : {}),
      ...(regeneration ? { variant: regeneration.variant } : {}),
    },
  };
  return { record, history, parts };
}

/**
 * What a new run reads of its session: with a context window, only the runs after the newest
 * session checkpoint (ADR 0012); without one, every run (H-3 asks for every older run's inputs
 * and outcome, so the read grows with the session).
 */
function sessionReadOf(agent: RunnableAgent, request: RunRequest) {
  return {
    exceptRunId: request.runId,
    recentFinished: agent.historyRuns,
    ...(agent.window.windowTokens !== undefined ? { afterCheckpoint: true as const } : {}),
  };
}

/**
 * The store's "most recent finished" may count a run this engine skips (one stopped before it
 * started); then a run chosen in full can lack its messages, and is read once more by name.
 */
async function withFullMessages(
  agent: RunnableAgent,
  request: RunRequest,
  runs: SessionRunSummary[],
): Promise<SessionRunSummary[]> {
  const finished = runs.filter((run) => run.status !== 'running');
  const missing = (agent.historyRuns > 0 ? finished.slice(-agent.historyRuns) : []).filter((run) => !run.messages);
  if (missing.length === 0) return runs;
  return readSessionRuns(agent.store, request.sessionId, {
    ...sessionReadOf(agent, request),
    messagesOf: missing.map((run) => run.runId),
  });
}
