import type { AssistantMessage, Message, ToolResultMessage } from '../../../core/messages.js';
import type { CarriedSupplement } from '../agent-journal.js';
import type { SessionRun } from './session-runs.js';

/** What a new run starts with besides its question: the selected history and carried supplements. */
export interface RunStartContext {
  history: Message[];
  carried: CarriedSupplement[];
}

/**
 * Selects the history a new run starts with (H-3, C-1): the `keepFull` most recent *finished*
 * runs in full (success, failure and stop all count; no skipping back to find successful ones),
 * and every other earlier run as its user inputs in order, its final result and its end status.
 * A run without a result is marked so, never given an invented one; a run still running (or under
 * recovery) is not finished. Supplements that a finished run accepted but never consumed, and that
 * no later run has carried yet, are carried into the new run once (S-4).
 */
export function selectHistory(runs: readonly SessionRun[], keepFull: number): RunStartContext {
  const finished = runs.filter((run) => run.status !== 'running');
  const full = new Set(keepFull > 0 ? finished.slice(-keepFull).map((run) => run.runId) : []);
  const summarised = runs.filter((run) => !full.has(run.runId));
  const history: Message[] = [];
  if (summarised.length > 0) history.push({ role: 'user', content: summarise(summarised, runs) });
  for (const run of runs) if (full.has(run.runId)) history.push(...inFull(run));
  const alreadyCarried = new Set(runs.flatMap((run) => run.carried.map((item) => `${item.runId}/${item.supplementId}`)));
  const carried = finished.flatMap((run) =>
    run.supplements
      .filter((supplement) => !supplement.consumed && !alreadyCarried.has(`${run.runId}/${supplement.supplementId}`))
      .map((supplement) => ({ runId: run.runId, supplementId: supplement.supplementId, text: supplement.text })),
  );
  return { history, carried };
}

function summarise(runs: readonly SessionRun[], all: readonly SessionRun[]): string {
  const lines = ['[Earlier runs of this session, oldest first. Only their inputs and outcomes are kept here.]'];
  for (const run of runs) {
    const number = all.indexOf(run) + 1;
    lines.push(`Run ${number}: ${statusText(run)}`);
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
  const messages: Message[] = [];
  const answered = new Set(
    run.messages.filter((message): message is ToolResultMessage => message.role === 'tool').map((message) => message.toolCallId),
  );
  for (const message of run.messages) {
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
