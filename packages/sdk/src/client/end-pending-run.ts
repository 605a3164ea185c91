import { randomUUID } from 'node:crypto';
import { emptyUsage } from '../core/messages.js';
import type { RunResult } from '../core/run-result.js';
import { hasAgentRunStarted } from '../engine/agent/agent-state.js';
import type { stopRequestEntry } from '../engine/run/run-requests.js';
import type { NewJournalEntry, RunRecord, RunStore } from '../store/run-store.js';

/**
 * Ends a pending run that no executor has taken: takes it (like a worker would, so that only
 * one of them wins) and writes the stop and the end in one commit. Answers undefined when an
 * executor took it first: the stop request then goes through the journal like any other.
 */
export async function endPendingRun(
  store: RunStore,
  leaseMs: number,
  run: RunRecord,
  entry: ReturnType<typeof stopRequestEntry>,
): Promise<{ runId: string; sequence: number } | undefined> {
  const acquired = await store.acquire({
    runId: run.runId,
    sessionId: run.sessionId,
    ownerId: `client_${randomUUID()}`,
    leaseMs: leaseMs,
    deadlineAt: 0,
    initialEntries: [],
  });
  if (acquired.outcome !== 'acquired') return undefined;
  const journal = await store.readJournal(run.runId);
  if (hasAgentRunStarted(journal) || journal.some((candidate) => candidate.type === 'workflow-started')) {
    // An executor started it and died before we looked: leave the stop for the next taker.
    const { lastSequence } = await store.append({ runId: run.runId, epoch: acquired.run.epoch, entries: [entry] });
    await store.releaseLease(run.runId, acquired.run.epoch);
    return { runId: run.runId, sequence: lastSequence };
  }
  const result: RunResult = {
    runId: run.runId,
    sessionId: run.sessionId,
    status: 'stopped',
    reason: 'user-stop',
    loops: 0,
    usage: emptyUsage(),
  };
  // The end record each engine reads back: `run-finished` for an agent, `workflow-finished` for a workflow.
  const ending: NewJournalEntry =
    run.kind === 'agent'
      ? { type: 'run-finished', data: result }
      : {
          type: 'workflow-finished',
          data: { status: 'stopped', reason: 'user-stop', steps: 0, loops: 0, usage: emptyUsage() },
        };
  const { lastSequence } = await store.append({
    runId: run.runId,
    epoch: acquired.run.epoch,
    entries: [entry, ending],
    terminal: result,
  });
  return { runId: run.runId, sequence: lastSequence };
}
