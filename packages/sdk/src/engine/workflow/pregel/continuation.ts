import type { RunStore } from '../../../store/run-store.js';
import type { StoredRecord } from '../../run/journal-reader.js';
import { RunNotContinuableError } from '../errors/workflow-errors.js';
import type { CompiledGraph } from '../graph/compile-graph.js';
import { type RunLineage, type WorkflowJournalRecord, type WorkflowStartedRecord, workflowJournal } from './workflow-journal.js';
import { foldWorkflowJournal } from './workflow-state.js';

/** What a caller asks to continue: a failed run after its failure, or any ended run before a node. */
export type ContinuationRequest =
  | { runId: string; from: 'failure' }
  | { runId: string; from: 'node'; node: string; step?: number };

/** The start of a new run that continues an earlier one: its input, lineage and reused entries. */
export interface Continuation {
  lineage: RunLineage;
  input: unknown;
  /** The earlier run's input writes (superstep -1), so that the new run plans the same supersteps. */
  writes: WorkflowStartedRecord['data']['writes'];
  /** Entries copied from the earlier run, in their order, marked `reused`. */
  entries: WorkflowJournalRecord[];
}

/** A record of one task of a superstep: its result, retry, pause, failure or inner agent run. */
type StepRecord = Extract<StoredRecord<WorkflowJournalRecord>, { taskId: string; data: { step: number } }>;

function isStepRecord(record: StoredRecord<WorkflowJournalRecord>): record is StepRecord {
  return 'taskId' in record && 'step' in record.data;
}

/**
 * Builds the start of a new run that continues `request.runId` (NOT-6: the earlier run is only
 * read, never changed or restarted). The new run's journal begins with copies of the earlier
 * run's saved task results, so folding it plans exactly the work that is left, with the same
 * deterministic task ids:
 * - `from: 'failure'` (the earlier run ended `failed`): every finished task's writes are reused;
 *   the failed tasks, and whatever had not run yet, run in the new run;
 * - `from: 'node'` (any ended run): the writes of the supersteps before the first one where
 *   `node` ran (or `step`) are reused, and that superstep's other finished tasks too; `node` and
 *   everything after it run again.
 * An agent node whose task had finished is reused with its result (its inner run is referenced,
 * never restarted); an agent node whose task failed runs a new inner run of the new run (R-6).
 */
export async function continuationOf(store: RunStore, graph: CompiledGraph, request: ContinuationRequest): Promise<Continuation> {
  const record = await store.getRun(request.runId);
  if (!record) throw new RunNotContinuableError(request.runId, 'it does not exist');
  const journal = await store.readJournal(request.runId);
  let state: ReturnType<typeof foldWorkflowJournal>;
  try {
    state = foldWorkflowJournal(graph, request.runId, journal);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new RunNotContinuableError(
      request.runId,
      `it is not a run of workflow "${graph.definition.name}" as compiled now (${detail})`,
    );
  }
  if (!state.ending)
    throw new RunNotContinuableError(request.runId, `it has not ended (status ${record.status}); resume it by its run id`);
  // A run a host created has its request before it, so it is found by type, not by position.
  const started = workflowJournal.find(journal, 'workflow-started')?.data;
  if (!started) throw new RunNotContinuableError(request.runId, 'it never started');
  const records = journal.map(workflowJournal.recordOf);
  const withStep = records.filter(isStepRecord);
  let keep: (entry: StepRecord) => boolean;
  let lineage: RunLineage;
  if (request.from === 'failure') {
    if (state.ending.status !== 'failed') {
      throw new RunNotContinuableError(
        request.runId,
        `it ended ${state.ending.status}, not failed; use rerunFrom to run it again from a node`,
      );
    }
    keep = () => true;
    lineage = { runId: request.runId, from: 'failure' };
  } else {
    if (!graph.nodeByName.has(request.node))
      throw new RunNotContinuableError(request.runId, `the graph has no node "${request.node}"`);
    const steps = withStep.filter((entry) => nodeOfTask(entry.taskId) === request.node).map((entry) => entry.data.step);
    const step = request.step ?? (steps.length > 0 ? Math.min(...steps) : undefined);
    if (step === undefined || !steps.includes(step)) {
      throw new RunNotContinuableError(
        request.runId,
        `node "${request.node}" did not run${request.step !== undefined ? ` in superstep ${request.step}` : ''} in it`,
      );
    }
    keep = (entry) => entry.data.step < step || (entry.data.step === step && nodeOfTask(entry.taskId) !== request.node);
    lineage = { runId: request.runId, from: 'node', node: request.node, step };
  }
  const finished = new Set(
    withStep.filter((entry) => entry.type === 'task-finished' && keep(entry)).map((entry) => entry.taskId),
  );
  const entries: WorkflowJournalRecord[] = [];
  for (const record of records) {
    switch (record.type) {
      case 'task-finished':
        if (finished.has(record.taskId))
          entries.push({ type: record.type, taskId: record.taskId, data: { ...record.data, reused: true } });
        break;
      case 'agent-invoked':
        if (finished.has(record.taskId))
          entries.push({ type: record.type, taskId: record.taskId, data: { ...record.data, reused: true } });
        break;
      case 'task-interrupted':
        if (keep(record)) entries.push({ type: record.type, taskId: record.taskId, data: record.data });
        break;
      case 'resume-accepted': {
        const values = Object.entries(record.data.values).filter(([id]) =>
          withStep.some((kept) => kept.type === 'task-interrupted' && keep(kept) && id.startsWith(`${kept.taskId}#`)),
        );
        if (values.length > 0) entries.push({ type: record.type, data: { values: Object.fromEntries(values) } });
        break;
      }
      default:
        // Nothing else is reused: the new run starts, retries, fails and ends on its own.
        break;
    }
  }
  return { lineage, input: started.input, writes: started.writes, entries };
}

/** The node of a task id (`<step>/<node>` or `<step>/<node>/<send index>`). */
function nodeOfTask(taskId: string): string {
  return taskId.split('/')[1] ?? '';
}

/** Whether two lineages name the same continuation. */
export function sameLineage(left: RunLineage | undefined, right: RunLineage | undefined): boolean {
  return JSON.stringify(left ?? null) === JSON.stringify(right ?? null);
}
