import type { AssistantMessage, Message, ToolResultMessage } from '../../../core/messages.js';
import type { RunStore } from '../../../store/run-store.js';
import type { CarriedSupplement, HistoryReference } from '../agent-journal.js';
import { readSessionRuns, type SessionRunSummary as SessionRun } from './session-runs.js';

/** What a new run starts with besides its question: the selected history and carried supplements. */
export interface RunStartContext {
  history: Message[];
  /** The same history as a reference to the runs it is made of: what `run-started` keeps (ADR 0010). */
  historyFrom: HistoryReference;
  carried: CarriedSupplement[];
}

/**
 * Selects the history a new run starts with (H-3, C-1): the `keepFull` most recent *finished*
 * runs in full (success, failure and stop all count; no skipping back to find successful ones),
 * and every other earlier run as its user inputs in order, its final result and its end status.
 * A run without a result is marked so, never given an invented one; a run still running (or under
 * recovery) is not finished. Supplements that a finished run accepted but never consumed, and that
 * no later run has carried yet, are carried into the new run once (S-4).
 *
 * `runs` needs messages only for the `keepFull` most recent finished runs (what
 * `readSessionRuns` reads with `recentFinished: keepFull`).
 */
export function selectHistory(runs: readonly SessionRun[], keepFull: number): RunStartContext {
  const finished = runs.filter((run) => run.status !== 'running');
  const full = keepFull > 0 ? finished.slice(-keepFull).map((run) => run.runId) : [];
  const last = runs.at(-1);
  const historyFrom: HistoryReference = {
    ...(last ? { through: { runId: last.runId, createdAt: last.createdAt } } : {}),
    count: runs.length,
    full,
    unfinished: runs
      .filter((run) => run.status === 'running')
      .map((run) => ({ runId: run.runId, input: run.input, supplements: run.supplements.map((supplement) => supplement.text) })),
  };
  const alreadyCarried = new Set(runs.flatMap((run) => run.carried.map((item) => `${item.runId}/${item.supplementId}`)));
  const carried = finished.flatMap((run) =>
    run.supplements
      .filter((supplement) => !supplement.consumed && !alreadyCarried.has(`${run.runId}/${supplement.supplementId}`))
      .map((supplement) => ({ runId: run.runId, supplementId: supplement.supplementId, text: supplement.text })),
  );
  return { history: historyMessages(runs, historyFrom), historyFrom, carried };
}

/**
 * Rebuilds the history a format-2 `run-started` refers to, for a run that resumes (ADR 0010): the
 * same earlier runs, read again in one query. Finished runs never change, and the runs that were
 * unfinished at selection are taken as they stood then, so the model sees what it saw before.
 * A referenced run deleted since (P-13.2) is left out of the summary.
 */
export async function resolveHistory(
  store: RunStore,
  sessionId: string,
  runId: string,
  reference: HistoryReference,
): Promise<Message[]> {
  const { through } = reference;
  if (!through) return [];
  const runs = await readSessionRuns(store, sessionId, { exceptRunId: runId, recentFinished: 0, messagesOf: reference.full });
  const end = runs.findIndex((run) => run.runId === through.runId);
  const considered = end >= 0 ? runs.slice(0, end + 1) : runs.filter((run) => run.createdAt <= through.createdAt);
  return historyMessages(considered, reference);
}

/** The messages of a history: one summary of the runs not given in full, then the full runs in order. */
function historyMessages(runs: readonly SessionRun[], reference: HistoryReference): Message[] {
  const full = new Set(reference.full);
  const unfinished = new Map(reference.unfinished.map((run) => [run.runId, run]));
  const asSelected = runs.map((run): SessionRun => {
    const then = unfinished.get(run.runId);
    if (!then) return run;
    return {
      runId: run.runId,
      status: 'running',
      createdAt: run.createdAt,
      input: then.input,
      supplements: then.supplements.map((text, index) => ({ supplementId: String(index), text, consumed: false })),
      carried: [],
    };
  });
  const history: Message[] = [];
  const summarised = asSelected.filter((run) => !full.has(run.runId));
  if (summarised.length > 0) history.push({ role: 'user', content: summarise(summarised, asSelected) });
  for (const run of asSelected) if (full.has(run.runId)) history.push(...inFull(run));
  return history;
}

function summarise(runs: readonly SessionRun[], all: readonly SessionRun[]): string {
  const lines = ['[Earlier runs of this session, oldest first. Only their inputs and outcomes are kept here.]'];
  const numbers = new Map(all.map((run, index) => [run.runId, index + 1]));
  for (const run of runs) {
    lines.push(`Run ${numbers.get(run.runId)}: ${statusText(run)}`);
    lines.push(`  User: ${run.input}`);
    for (const supplement of run.supplements) lines.push(`  User (added during the run): ${supplement.text}`);
    if (run.status === 'running') lines.push('  Final result: none yet (the run has not finished)');
    else lines.push(`  Final result: ${run.result?.output ?? 'none'}`);
  }
  return lines.join('\n');
}

function statusText(run: SessionRun): string {
  if (run.status === 'running') return 'unfinished';
  return run.result?.reason ? `${run.status} (${run.result.reason})` : run.status;
}

/**
 * A finished run's own messages, made safe to send again: a tool call whose result was never
 * recorded (the run ended first) gets a result that says so, and a run that did not succeed ends
 * with a note of how it ended.
 */
function inFull(run: SessionRun): Message[] {
  const own = run.messages ?? [];
  const messages: Message[] = [];
  const answered = new Set(
    own.filter((message): message is ToolResultMessage => message.role === 'tool').map((message) => message.toolCallId),
  );
  for (const message of own) {
    messages.push(message);
    if (message.role !== 'assistant') continue;
    for (const call of (message as AssistantMessage).toolCalls ?? []) {
      if (answered.has(call.id)) continue;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: 'No result: the run ended before this call finished.',
        isError: true,
      });
    }
  }
  if (run.status !== 'succeeded') {
    messages.push({ role: 'assistant', content: `[This run ended without a final answer: ${statusText(run)}.]` });
  }
  return messages;
}
