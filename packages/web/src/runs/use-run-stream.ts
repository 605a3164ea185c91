import { useEffect, useRef, useState } from 'react';
import { agentProgressHandlers } from './agent-progress.js';
import { type AgentRunEvent, eventTypesOf, type RunEvent, type WorkflowRunEvent } from './run-events.js';
import { workflowProgressHandlers } from './workflow-progress.js';

/** What each run kind's stream carries, and the handler map that names every type of it. */
const listenedTypes = {
  agent: eventTypesOf(agentProgressHandlers),
  workflow: eventTypesOf(workflowProgressHandlers),
} as const;

/** The events of each run kind. */
interface EventsOfKind {
  agent: AgentRunEvent;
  workflow: WorkflowRunEvent;
}

/** The events after which a run's stream has nothing more to say. */
const isFinish = (event: RunEvent) => event.type === 'run-finish' || event.type === 'workflow-finish';

/** Where the events seen so far are kept, per tab, so that a reload re-attaches after the last one. */
const storageKey = (runId: string) => `agentloom.run-events.${runId}`;
const keptEvents = 400;

/** How the stream is doing, for the status line the chat page shows. */
export type StreamConnection = 'connecting' | 'live' | 're-attaching' | 'ended';

export interface RunStream<Event extends RunEvent = RunEvent> {
  events: Event[];
  connection: StreamConnection;
  /** The sequence the latest (re-)attach resumed after: 0 for a fresh start. */
  resumedAfter: number;
  /** How many times the stream re-attached (after a dropped connection or a reload). */
  reattachments: number;
}

function restore(runId: string): RunEvent[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(runId)) ?? '[]') as unknown;
    return Array.isArray(stored) ? (stored as RunEvent[]) : [];
  } catch {
    return [];
  }
}

function lastSequenceOf(events: readonly RunEvent[]): number {
  return events.reduce((highest, event) => Math.max(highest, event.sequence), 0);
}

/**
 * Follows a run's Server-Sent Events (`GET /runs/:id/events`). The events seen are kept in
 * `sessionStorage`, so a reload attaches with `?after=<last sequence seen>` and shows what it had;
 * a dropped connection is re-opened by the browser with `Last-Event-ID` (or by this hook with
 * `?after=` when the browser gave up). The journal is the stream's only source, so nothing is
 * missed or repeated; the stream closes after `run-finish` or a workflow's `workflow-finish` (P-8.10).
 * `kind` is the run's: it says which events the stream carries (the listener list is the keys of
 * that kind's handler map, so it names every event type of the SDK's schema).
 */
export function useRunStream<Kind extends keyof EventsOfKind>(
  runId: string | undefined,
  kind: Kind,
): RunStream<EventsOfKind[Kind]> {
  const [state, setState] = useState<RunStream>({ events: [], connection: 'connecting', resumedAfter: 0, reattachments: 0 });
  const eventsRef = useRef<RunEvent[]>([]);

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
      let event: RunEvent;
      try {
        // The platform writes each event as its OpenAPI document (the SDK's schema) describes it.
        event = JSON.parse(message.data) as RunEvent;
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
      for (const type of listenedTypes[kind]) source.addEventListener(type, receive as EventListener);
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
  }, [runId, kind]);

  // The stream of a run of this kind carries only this kind's events (its listener list).
  return state as RunStream<EventsOfKind[Kind]>;
}
