import type { Message } from '../../core/messages.js';
import type { AgentJournalRecord, SessionCheckpoint } from './agent-journal.js';

/** What a checkpoint changes in a run's state (a part of `AgentRunState`, kept apart to avoid a cycle). */
interface CheckpointTarget {
  checkpoint?: SessionCheckpoint;
  checkpointStarted?: boolean;
}

/** The part of the entry task a checkpoint rewrites. */
interface HistoryHolder {
  messages: Message[];
  ownStart: number;
  protectedIndexes: number[];
  compression?: { summary: string; coveredUpTo: number };
}

/**
 * Puts a committed session checkpoint in place of the head of the entry task's history (ADR
 * 0012): the checkpoint message, then the summary of the older runs it does not cover. It is
 * written before the first loop, so no later record refers to the indexes it shifts; the shift is
 * applied to every index anyway. The run's own messages are untouched (H-4).
 */
export function applyCheckpoint(
  state: CheckpointTarget,
  entry: HistoryHolder,
  data: Extract<AgentJournalRecord, { type: 'checkpoint-committed' }>['data'],
): void {
  const { summary, through, count, replaces, remainder } = data;
  const head: Message[] = [checkpointMessage({ summary, through, count })];
  if (remainder !== undefined) head.push({ role: 'user', content: remainder });
  const shift = head.length - replaces;
  entry.messages = [...head, ...entry.messages.slice(replaces)];
  entry.ownStart += shift;
  entry.protectedIndexes = entry.protectedIndexes.map((index) => index + shift);
  if (entry.compression) entry.compression = { ...entry.compression, coveredUpTo: entry.compression.coveredUpTo + shift };
  state.checkpoint = { summary, through, count };
  delete state.checkpointStarted;
}

/** The message that stands for a session checkpoint in a run's history; it says which runs it covers (H-8). */
export function checkpointMessage(checkpoint: SessionCheckpoint): Message {
  return {
    role: 'user',
    content: `[Summary of the earlier runs of this session: runs 1–${checkpoint.count}, through run ${checkpoint.through.runId}]\n${checkpoint.summary}`,
  };
}
