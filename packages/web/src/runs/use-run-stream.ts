import { useEffect, useRef, useState } from 'react';
import type { RunStreamEvent } from './run-types.js';

/** Every lifecycle event type the platform streams (S-7); an EventSource only hears named types it listens to. */
const eventTypes = [
  'run-start',
  'loop-start',
  'model-call-start',
  'model-call-fail',
  'model-call-finish',
  'tool-call-start',
  'tool-call-fail',
  'tool-call-finish',
  'batch-join',
  'approval-request',
  'approval-decide',
  'supplement-accept',
  'supplement-consume',
  'task-start',
  'task-finish',
  'answer-reject',
  'stop-request',
  'run-finish',
  // A workflow run's saved facts (W-5): its start, agent nodes bound to inner runs, retries, its end.
  'workflow-start',
  'agent-invoke',
  'task-retry',
  'workflow-finish',
] as const;

/** The events after which a run's stream has nothing more to say. */
const isFinish = (event: RunStreamEvent) => event.type === 'run-finish' || event.type === 'workflow-finish';

/** Where the events seen so far are kept, per tab, so that a reload re-attaches after the last one. */
const storageKey = (runId: string) => `agentloom.run-events.${runId}`;
const keptEvents = 400;

/** How the stream is doing, for the status line the chat page shows. */
export type StreamConnection = 'connecting' | 'live' | 're-attaching' | 'ended';

export interface RunStream {
  events: RunStreamEvent[];
  connection: StreamConnection;
  /** The sequence the latest (re-)attach resumed after: 0 for a fresh start. */
  resumedAfter: number;
  /** How many times the stream re-attached (after a dropped connection or a reload). */
  reattachments: number;
}

function restore(runId: string): RunStreamEvent[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(runId)) ?? '[]') as unknown;
    return Array.isArray(stored) ? (stored as RunStreamEvent[]) : [];
  } catch {
    return [];
  }
}

function lastSequenceOf(events: readonly RunStreamEvent[]): number {
  return events.reduce((highest, event) => Math.max(highest, event.sequence), 0);
}

/**
 * Follows a run's Server-Sent Events (`GET /runs/:id/events`). The events seen are kept in
 * `sessionStorage`, so a reload attaches with `?after=<last sequence seen>` and shows what it had;
 * a dropped connection is re-opened by the browser with `Last-Event-ID` (or by this hook with
 * `?after=` when the browser gave up). The journal is the stream's only source, so nothing is
 * missed or repeated; the stream closes after `run-finish` or a workflow's `workflow-finish` (P-8.10).
 */
export function useRunStream(runId: string | undefined): RunStream {
  const [state, setState] = useState<RunStream>({ events: [], connection: 'connecting', resumedAfter: 0, reattachments: 0 });
  const eventsRef = useRef<RunStreamEvent[]>([]);

  useEffect(() => {
    if (!runId) return;
    let closed = false;
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const restored = restore(runId);
    eventsRef.current = restored;
    const finished = restored.some(isFinish);
    setState({
      events: restored,
      connection: finished ? 'ended' : 'connecting',
      resumedAfter: lastSequenceOf(restored),
      reattachments: restored.length > 0 && !finished ? 1 : 0,
    });
    if (finished) return;

    const receive = (message: MessageEvent<string>) => {
      let event: RunStreamEvent;
      try {
        event = JSON.parse(message.data) as RunStreamEvent;
      } catch {
        return;
      }
      const seen = eventsRef.current.some((known) => known.sequence === event.sequence && known.type === event.type);
      if (!seen) {
        eventsRef.current = [...eventsRef.current, event];
        sessionStorage.setItem(storageKey(runId), JSON.stringify(eventsRef.current.slice(-keptEvents)));
      }
      const ended = isFinish(event);
      if (ended) {
        closed = true;
        source?.close();
      }
      setState((previous) => ({ ...previous, events: eventsRef.current, connection: ended ? 'ended' : 'live' }));
    };

    const open = () => {
      const after = lastSequenceOf(eventsRef.current);
      source = new EventSource(`/api/v1/runs/${encodeURIComponent(runId)}/events${after > 0 ? `?after=${after}` : ''}`);
      source.onopen = () => setState((previous) => ({ ...previous, connection: 'live' }));
      for (const type of eventTypes) source.addEventListener(type, receive as EventListener);
      source.onerror = () => {
        if (closed) return;
        setState((previous) => ({
          ...previous,
          connection: 're-attaching',
          resumedAfter: lastSequenceOf(eventsRef.current),
          reattachments: previous.reattachments + 1,
        }));
        // CONNECTING: the browser retries by itself with Last-Event-ID. CLOSED: it gave up; open anew.
        if (source?.readyState === EventSource.CLOSED) retryTimer = setTimeout(open, 1000);
      };
    };
    open();
    return () => {
      closed = true;
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [runId]);

  return state;
}

/** What the events say about a run's progress: loops, model calls, tool calls, executor tasks. */
export interface RunProgress {
  loopsUsed: number;
  /** Model calls that finished (a start is live-only, so a replay would not count it). */
  modelCalls: number;
  tools: { operationId: string; toolName: string; status: string; attempt: number }[];
  executors: { taskId: string; role: string; status: string }[];
  stopRequested: boolean;
  finished?: RunStreamEvent['result'];
}

/** Folds the stream's events into the progress the chat page shows. */
export function progressOf(events: readonly RunStreamEvent[]): RunProgress {
  const progress: RunProgress = { loopsUsed: 0, modelCalls: 0, tools: [], executors: [], stopRequested: false };
  const tools = new Map<string, RunProgress['tools'][number]>();
  const executors = new Map<string, RunProgress['executors'][number]>();
  for (const event of events) {
    if (event.type === 'loop-start') progress.loopsUsed = Math.max(progress.loopsUsed, event.loopsUsed ?? 0);
    else if (event.type === 'model-call-finish') progress.modelCalls += 1;
    else if (event.type.startsWith('tool-call-') && event.operationId) {
      const status =
        event.type === 'tool-call-start' ? 'running' : event.type === 'tool-call-fail' ? 'retrying' : (event.status ?? 'done');
      tools.set(event.operationId, {
        operationId: event.operationId,
        toolName: event.toolName ?? 'tool',
        status,
        attempt: event.attempt ?? tools.get(event.operationId)?.attempt ?? 1,
      });
    } else if ((event.type === 'task-start' || event.type === 'task-finish') && event.taskId) {
      executors.set(event.taskId, {
        taskId: event.taskId,
        role: event.role ?? 'executor',
        status: event.type === 'task-start' ? 'working' : (event.status ?? 'done'),
      });
    } else if (event.type === 'stop-request') progress.stopRequested = true;
    else if (event.type === 'run-finish') progress.finished = event.result;
  }
  progress.tools = [...tools.values()];
  progress.executors = [...executors.values()];
  return progress;
}
