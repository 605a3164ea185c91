import type { AssistantMessage, Message, ToolResultMessage } from '../../../core/messages.js';
import type { RunStore } from '../../../store/run-store.js';
import type { CarriedSupplement, HistoryReference, SessionCheckpoint } from '../agent-journal.js';
import { checkpointMessage } from '../checkpoint-state.js';
import type { HistoryParts, SummarisedRun } from './history-parts.js';
import { readSessionRuns, type SessionRunSummary as SessionRun } from './session-runs.js';

/** What a new run starts with besides its question: the selected history and carried supplements. */
export interface RunStartContext {
  history: Message[];
  /** The same history as a reference to the runs it is made of: what `run-started` keeps (ADR 0010). */
  historyFrom: HistoryReference;
  carried: CarriedSupplement[];
  /** How the history is made up, for a session checkpoint of it (ADR 0012). */
  parts: HistoryParts;
}

/** A history as messages, with how it is made up (what a session checkpoint needs, ADR 0012). */
export interface SelectedHistory {
  messages: Message[];
  parts?: HistoryParts;
}

/**
 * Selects the history a new run starts with (H-3, C-1): the `keepFull` most recent *finished*
 * runs in full (success, failure and stop all count; no skipping back to find successful ones),
 * and every other earlier run as its user inputs in order, its final result and its end status.
 * A run without a result is marked so, never given an invented one; a run still running (or under
 * recovery) is not finished. Supplements that a finished run accepted but never consumed, and that
 * no later run has carried yet, are carried into the new run once (S-4).
 *
 * When `runs` were read after a session checkpoint (ADR 0012), the run marked `holdsCheckpoint`
 * holds it: the history then starts with the checkpoint's summary, which stands for every run up
 * to the one it covers through, and the runs read are numbered after it.
 *
 * `runs` needs messages only for the `keepFull` most recent finished runs (what
 * `readSessionRuns` reads with `recentFinished: keepFull`).
 */
export function selectHistory(runs: readonly SessionRun[], keepFull: number): RunStartContext {
  const finished = runs.filter((run) => run.status !== 'running');
  const full = keepFull > 0 ? finished.slice(-keepFull).map((run) => run.runId) : [];
  const last = runs.at(-1);
  const holder = runs.find((run) => run.holdsCheckpoint && run.checkpoint);
  const base = holder?.checkpoint;
  const historyFrom: HistoryReference = {
    ...(last ? { through: { runId: last.runId, createdAt: last.createdAt } } : base ? { through: base.through } : {}),
    ...(holder ? { checkpoint: { runId: holder.runId } } : {}),
    count: (base?.count ?? 0) + runs.length,
    full,
    unfinished: runs
      .filter((run) => run.status === 'running')
      .map((run) => ({ runId: run.runId, input: run.input, supplements: run.supplements.map((supplement) => supplement.text) })),
  };
  const alreadyCarried = carriedBefore(runs);
  const carried = finished.flatMap((run) =>
    run.supplements
      .filter((supplement) => !supplement.consumed && !alreadyCarried.has(`${run.runId}/${supplement.supplementId}`))
      .map((supplement) => ({ runId: run.runId, supplementId: supplement.supplementId, text: supplement.text })),
  );
  const { messages, parts } = historyMessages(runs, historyFrom, base);
  return { history: messages, parts, historyFrom, carried };
}

/** The supplements the runs of a read have carried already, as `run/supplement` keys (S-4). */
function carriedBefore(runs: readonly SessionRun[]): Set<string> {
  return new Set(runs.flatMap((run) => run.carried.map((item) => `${item.runId}/${item.supplementId}`)));
}

/**
 * Rebuilds the history a format-2 `run-started` refers to, for a run that resumes (ADR 0010): the
 * same earlier runs, read again in one query, after the same session checkpoint when it started
 * from one (ADR 0012). Finished runs never change, and the runs that were unfinished at selection
 * are taken as they stood then, so the model sees what it saw before. A referenced run deleted
 * since (P-13.2) is left out of the summary; if the checkpoint's holder was deleted, the runs it
 * covered are summarised one by one instead.
 */
export async function resolveHistory(
  store: RunStore,
  sessionId: string,
  runId: string,
  reference: HistoryReference,
): Promise<SelectedHistory> {
  const { through } = reference;
  if (!through) return { messages: [] };
  const excluded = new Set(reference.excluded ?? []);
  const runs = (
    await readSessionRuns(store, sessionId, {
      exceptRunId: runId,
      recentFinished: 0,
      messagesOf: reference.full,
      ...(reference.checkpoint ? { afterCheckpoint: reference.checkpoint.runId } : {}),
    })
  ).filter((run) => !excluded.has(run.runId));
  const base = reference.checkpoint ? runs.find((run) => run.holdsCheckpoint)?.checkpoint : undefined;
  const end = runs.findIndex((run) => run.runId === through.runId);
  const considered = end >= 0 ? runs.slice(0, end + 1) : runs.filter((run) => run.createdAt <= through.createdAt);
  return historyMessages(considered, reference, base);
}

/**
 * The messages of a history: the checkpoint it starts from, one summary of the runs not given in
 * full, then the full runs in order; and its parts, which say which summarised runs a new
 * checkpoint may cover: finished ones, oldest first, up to the first that is unfinished or whose
 * unconsumed supplements no earlier run carried (S-4: this run carries them, so the next
 * checkpoint may cover that run, never this one).
 */
function historyMessages(
  runs: readonly SessionRun[],
  reference: HistoryReference,
  base: SessionCheckpoint | undefined,
): Required<SelectedHistory> {
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
  const offset = base?.count ?? 0;
  const carried = carriedBefore(runs);
  const summarised: SummarisedRun[] = [];
  asSelected.forEach((run, index) => {
    if (full.has(run.runId)) return;
    const settled =
      run.status !== 'running' &&
      run.supplements.every((supplement) => supplement.consumed || carried.has(`${run.runId}/${supplement.supplementId}`));
    const number = offset + index + 1;
    summarised.push({ runId: run.runId, createdAt: run.createdAt, number, text: summaryLines(run, number), settled });
  });
  const history: Message[] = [];
  if (base) history.push(checkpointMessage(base));
  if (summarised.length > 0) history.push({ role: 'user', content: summaryText(summarised) });
  const headLength = history.length;
  for (const run of asSelected) if (full.has(run.runId)) history.push(...inFull(run));
  return { messages: history, parts: { ...(base ? { base } : {}), summarised, headLength } };
}

/** The older-run summary message of the given runs. */
export function summaryText(runs: readonly SummarisedRun[]): string {
  return [SUMMARY_HEADER, ...runs.map((run) => run.text)].join('\n');
}

const SUMMARY_HEADER = '[Earlier runs of this session, oldest first. Only their inputs and outcomes are kept here.]';

function summaryLines(run: SessionRun, number: number): string {
  const lines = [`Run ${number}: ${statusText(run)}`];
  lines.push(`  User: ${run.input}`);
  for (const supplement of run.supplements) lines.push(`  User (added during the run): ${supplement.text}`);
  if (run.status === 'running') lines.push('  Final result: none yet (the run has not finished)');
  else lines.push(`  Final result: ${run.result?.output ?? 'none'}`);
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
