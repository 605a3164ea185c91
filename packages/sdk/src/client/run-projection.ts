import { AgentEventProjector, type RunEvent } from '../engine/agent/run-events.js';
import { WorkflowEventProjector } from '../engine/workflow/workflow-event-projector.js';
import type { WorkflowRunEvent } from '../engine/workflow/workflow-events.js';
import type { JournalEntry, RunRecord } from '../store/run-store.js';

/* How a stored run reads back as events and input, whatever its engine. */

/** An event of an agent run or of a workflow run, with its journal sequence. */
export type HostedRunEvent = RunEvent | WorkflowRunEvent;

/** The projection of the run's kind: the journal's entries become that engine's events. */
export function projectorOf(run: RunRecord): { projectAll(entry: JournalEntry): HostedRunEvent[] } {
  if (run.kind === 'workflow') return new WorkflowEventProjector(run.runId, run.sessionId);
  const agent = new AgentEventProjector(run.runId, run.sessionId);
  return {
    projectAll: (entry) => {
      const event = agent.project(entry);
      return event ? [event] : [];
    },
  };
}

/** The input the run was started with, from its first journal entry. */
export function startedInput(journal: readonly JournalEntry[]): unknown {
  const started = journal.find((entry) => entry.type === 'run-started' || entry.type === 'workflow-started');
  return (started?.data as { input?: unknown } | undefined)?.input;
}
