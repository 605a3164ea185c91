import type { JournalEntry } from '../../store/run-store.js';
import { INPUT_NOTE_KEY, type InputRequest } from './input/input-requests.js';
import { workflowJournal } from './pregel/workflow-journal.js';
import { teamEventsOf } from './team-events.js';
import type { WorkflowEvent, WorkflowResult, WorkflowRunEvent } from './workflow-events.js';

/**
 * Turns a workflow run's journal into its saved events, entry by entry, without the graph: what
 * `RunClient.readEvents` and `follow` give for a workflow run in any process. Each event carries
 * the sequence of the entry it reports, so a follower never misses or repeats one across a crash
 * and a takeover. Events that report nothing saved (`step-start`, `task-start`, the inner agent's
 * `agent-event`s) exist only in the owner's live stream; an inner agent run is followed by its
 * own id (`agent-invoke` names it).
 */
export class WorkflowEventProjector {
  private readonly runId: string;
  private readonly sessionId: string;

  constructor(runId: string, sessionId: string) {
    this.runId = runId;
    this.sessionId = sessionId;
  }

  /** The event the entry reports, if any (without the team events a task's writes carry). */
  project(entry: JournalEntry): WorkflowRunEvent | undefined {
    const event = this.eventOf(entry);
    return event ? { ...event, sequence: entry.sequence } : undefined;
  }

  /**
   * Every event the entry reports: its own, then, for a finished team task, the team events saved
   * with its writes (N-12), all with the entry's sequence.
   */
  projectAll(entry: JournalEntry): WorkflowRunEvent[] {
    const event = this.project(entry);
    if (!event) return [];
    const record = workflowJournal.recordOf(entry);
    if (record.type !== 'task-finished' || event.type !== 'task-finish') return [event];
    const identity = { runId: this.runId, step: event.step, taskId: event.taskId, node: event.node, sequence: entry.sequence };
    return [event, ...teamEventsOf(record.data.writes).map((payload) => ({ ...payload, ...identity }))];
  }

  private eventOf(entry: JournalEntry): WorkflowEvent | undefined {
    const runId = this.runId;
    const record = workflowJournal.recordOf(entry);
    switch (record.type) {
      case 'stop-requested':
        return {
          type: 'stop-request',
          runId,
          requestedBy: record.data.requestedBy,
          ...(record.data.reason !== undefined ? { reason: record.data.reason } : {}),
        };
      case 'workflow-started':
        return { type: 'workflow-start', runId, sessionId: this.sessionId, resumed: false, epoch: entry.epoch };
      case 'agent-invoked':
        return {
          type: 'agent-invoke',
          runId,
          step: record.data.step,
          taskId: record.taskId,
          node: nodeOf(record.taskId),
          agentRunId: record.data.runId,
          agentSessionId: record.data.sessionId,
        };
      case 'task-finished':
        return {
          type: 'task-finish',
          runId,
          step: record.data.step,
          taskId: record.taskId,
          node: nodeOf(record.taskId),
          status: 'succeeded',
        };
      case 'task-attempt-failed':
        // Saved before the wait, so a follower sees a node retrying (W-5); the wait is what was left when it was saved.
        return {
          type: 'task-retry',
          runId,
          step: record.data.step,
          taskId: record.taskId,
          node: nodeOf(record.taskId),
          attempt: record.data.attempt,
          failure: record.data.failure,
          waitMs: Math.max(0, record.data.retryAt - entry.at),
        };
      case 'task-noted': {
        // An input node's question (issue 36): the run waits for a person from here.
        if (record.data.key !== INPUT_NOTE_KEY) return undefined;
        const request = record.data.value as InputRequest;
        const interrupt = { id: request.interruptId, taskId: record.taskId, node: nodeOf(record.taskId), value: request };
        return { type: 'workflow-interrupt', runId, interrupts: [interrupt] };
      }
      case 'task-interrupted':
        return {
          type: 'task-finish',
          runId,
          step: record.data.step,
          taskId: record.taskId,
          node: nodeOf(record.taskId),
          status: 'interrupted',
        };
      case 'task-failed':
        return {
          type: 'task-finish',
          runId,
          step: record.data.step,
          taskId: record.taskId,
          node: nodeOf(record.taskId),
          status: 'failed',
          failure: record.data.failure,
        };
      case 'workflow-finished': {
        const { output, ...ending } = record.data;
        const result: WorkflowResult = { runId, sessionId: this.sessionId, ...ending, usage: { ...ending.usage } };
        if (output !== undefined) result.output = output;
        return { type: 'workflow-finish', runId, result };
      }
      default:
        return undefined;
    }
  }
}

/** A task id is `<step>/<node>` or `<step>/<node>/<index>` (plan.ts). */
function nodeOf(taskId: string): string {
  return taskId.split('/')[1] ?? taskId;
}
