import type { ElicitationAnsweredData, ElicitationRequestedData } from './agent-journal.js';

/** An elicitation a running call asked the run's user (ADR 0038): asked once, answered once. */
export interface CallElicitationState {
  operationId: string;
  /** When an unanswered question is cancelled (epoch ms), fixed when it was asked. */
  expiresAt: number;
  answered?: { action: ElicitationAnsweredData['action']; content?: ElicitationAnsweredData['content']; answeredBy: string };
}

/** What the elicitation records change. */
interface ElicitationScope {
  operations: ReadonlyMap<string, { result?: unknown }>;
  elicitations: Map<string, CallElicitationState>;
}

/** Applies `elicitation-requested`: the question waits for its answer. A repeat is ignored. */
export function applyElicitationRequested(scope: ElicitationScope, data: ElicitationRequestedData): void {
  if (scope.elicitations.has(data.elicitationId)) return;
  scope.elicitations.set(data.elicitationId, { operationId: data.operationId, expiresAt: data.expiresAt });
}

/**
 * Applies `elicitation-answered`. Answers come from outside (any process): an unknown or already
 * answered elicitation, or one whose call already has its result, ignores it — the first wins.
 */
export function applyElicitationAnswered(scope: ElicitationScope, data: ElicitationAnsweredData): void {
  const asked = scope.elicitations.get(data.elicitationId);
  if (!asked || asked.answered || scope.operations.get(asked.operationId)?.result) return;
  asked.answered = {
    action: data.action,
    answeredBy: data.answeredBy,
    ...(data.content !== undefined ? { content: data.content } : {}),
  };
}
