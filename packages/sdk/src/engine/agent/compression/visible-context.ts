import type { Message } from '../../../core/messages.js';
import type { TaskState } from '../agent-state.js';

/**
 * What the model sees of a task (H-7, H-8): without compression, the raw context; after one, the
 * summary, then the protected messages it covers (question and supplements, verbatim and in
 * order), then every raw message after the covered range.
 */
export function visibleContext(task: TaskState): Message[] {
  const compression = task.compression;
  if (!compression) return task.messages;
  const protectedBefore = task.protectedIndexes
    .filter((index) => index < compression.coveredUpTo)
    .sort((a, b) => a - b)
    .map((index) => task.messages[index] as Message);
  return [
    summaryMessage(compression.summary, compression.coveredUpTo),
    ...protectedBefore,
    ...task.messages.slice(compression.coveredUpTo),
  ];
}

/** The message that stands for a compressed range; it says which raw messages it covers (H-8). */
export function summaryMessage(summary: string, coveredUpTo: number): Message {
  return {
    role: 'user',
    content: `[Summary of the earlier conversation: raw messages 1–${coveredUpTo}, questions kept below]\n${summary}`,
  };
}

/**
 * Where a new compression of the task may end (exclusive): the start of its most recent model
 * turn, so the latest exchange stays verbatim and no tool call is separated from its result
 * (H-8). Returns `undefined` when that would cover nothing new.
 */
export function compressionCut(task: TaskState): number | undefined {
  const covered = task.compression?.coveredUpTo ?? 0;
  for (let index = task.messages.length - 1; index > covered; index -= 1) {
    const message = task.messages[index] as Message;
    if (message.role === 'assistant') return index;
  }
  return undefined;
}
