import { type AgentRunEvent, type AgentRunResult, type EventHandlers, handleEvent, ignored } from './run-events.js';

/** What the events say about an agent run's progress: loops, model calls, tool calls, executor tasks. */
export interface RunProgress {
  loopsUsed: number;
  /** Model calls that finished (a start is live-only, so a replay would not count it). */
  modelCalls: number;
  tools: { operationId: string; toolName: string; status: string; attempt: number }[];
  executors: { taskId: string; role: string; status: string }[];
  stopRequested: boolean;
  /** Each move to the next model of the fallback chain (N-15): from, to, and why. */
  fallbacks: { sequence: number; from: string; to: string; reason: string }[];
  finished?: AgentRunResult;
}

interface AgentFold {
  progress: RunProgress;
  tools: Map<string, RunProgress['tools'][number]>;
  executors: Map<string, RunProgress['executors'][number]>;
}

const inTheView = 'shown from the run view (`GET /runs/:id/view`), which every event refreshes';

/**
 * Every agent run event type, and what the live progress of the chat page and the debug panel
 * makes of it. The ignored ones are read elsewhere (the run view) or never reach the stream.
 */
export const agentProgressHandlers: EventHandlers<AgentRunEvent, AgentFold> = {
  'run-start': ignored('the run row and its session say that it started'),
  'loop-start': ({ progress }, event) => {
    progress.loopsUsed = Math.max(progress.loopsUsed, event.loopsUsed);
  },
  'model-call-start': ignored('live only: the stream replays the journal, which does not keep it'),
  'model-call-fail': ignored('a retried model call shows as the next call; the failure that ends the run is in its result'),
  'model-fallback': ({ progress }, event) => {
    progress.fallbacks.push({
      sequence: event.sequence,
      from: event.from.modelId,
      to: event.to.modelId,
      reason: event.failure.message,
    });
  },
  'model-call-finish': ({ progress }) => {
    progress.modelCalls += 1;
  },
  'tool-call-start': ({ tools }, event) => {
    tools.set(event.operationId, {
      operationId: event.operationId,
      toolName: event.toolName,
      status: 'running',
      attempt: event.attempt,
    });
  },
  'tool-call-fail': ({ tools }, event) => {
    tools.set(event.operationId, {
      operationId: event.operationId,
      toolName: event.toolName,
      status: 'retrying',
      attempt: event.attempt,
    });
  },
  'tool-call-finish': ({ tools }, event) => {
    const attempt = tools.get(event.operationId)?.attempt ?? 1;
    tools.set(event.operationId, { operationId: event.operationId, toolName: event.toolName, status: event.status, attempt });
  },
  'batch-join': ignored('the tool calls of the batch have each finished already'),
  'approval-request': ignored(`approvals are ${inTheView}`),
  'approval-decide': ignored(`approvals are ${inTheView}`),
  'elicitation-request': ignored(`questions are ${inTheView}`),
  'elicitation-answer': ignored(`questions are ${inTheView}`),
  'supplement-accept': ignored(`supplements are ${inTheView}`),
  'supplement-consume': ignored(`supplements are ${inTheView}`),
  'task-start': ({ executors }, event) => {
    executors.set(event.taskId, { taskId: event.taskId, role: event.role, status: 'working' });
  },
  'task-finish': ({ executors }, event) => {
    executors.set(event.taskId, { taskId: event.taskId, role: event.role, status: event.status });
  },
  'answer-reject': ignored('the loop that follows shows the retry; the task view keeps the details'),
  'stop-request': ({ progress }) => {
    progress.stopRequested = true;
  },
  'run-finish': ({ progress }, event) => {
    progress.finished = event.result;
  },
};

/** Folds an agent run's events into the progress the chat page shows. */
export function progressOf(events: readonly AgentRunEvent[]): RunProgress {
  const fold: AgentFold = {
    progress: { loopsUsed: 0, modelCalls: 0, tools: [], executors: [], stopRequested: false, fallbacks: [] },
    tools: new Map(),
    executors: new Map(),
  };
  for (const event of events) handleEvent(agentProgressHandlers, fold, event);
  fold.progress.tools = [...fold.tools.values()];
  fold.progress.executors = [...fold.executors.values()];
  return fold.progress;
}
