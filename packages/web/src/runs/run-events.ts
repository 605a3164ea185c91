import type { components } from '../api/generated/platform-api.js';

/**
 * The run events the console reads, GENERATED, not copied: the platform's OpenAPI document types
 * its event stream with the SDK's `runEventSchema` (ADR 0020), and `npm run api:generate` turns the
 * document into `api/generated/platform-api.ts` (`test/api-types.test.ts` fails when it is stale).
 */

/** One message of `GET /runs/:id/events` (its `data:`): an agent run's or a workflow run's event. */
export type RunEvent = components['schemas']['RunEvent'];
/** An event of an agent run: a union discriminated by `type`. */
export type AgentRunEvent = components['schemas']['AgentRunEvent'];
/** An event of a workflow run: a union discriminated by `type` (three types share names with the agent's). */
export type WorkflowRunEvent = components['schemas']['WorkflowRunEvent'];
/** How an agent run ended (`run-finish`). */
export type AgentRunResult = components['schemas']['AgentRunResult'];
/** How a workflow run ended, or that it waits for a resume (`workflow-finish`). */
export type WorkflowResult = components['schemas']['WorkflowResult'];

/** An event type the console deliberately reads nothing of, and why. */
export interface Ignored {
  readonly ignored: string;
}

/** Marks an event type as deliberately ignored, saying why (the handler maps below must name every type). */
export const ignored = (reason: string): Ignored => ({ ignored: reason });

/**
 * What the console does with each event type of one engine: a handler that folds it into `State`,
 * or `ignored(reason)`. The map is keyed by every `type` of the generated union, so a new SDK event
 * does not compile until someone decides what the console does with it, and
 * `test/run-event-contract.test.ts` compares the keys with the SDK's JSON Schema at run time.
 */
export type EventHandlers<Union extends { type: string }, State> = {
  readonly [Type in Union['type']]: ((state: State, event: Extract<Union, { type: Type }>) => void) | Ignored;
};

/** Applies the handler of the event's type, if it has one (an unknown type from a newer server is skipped). */
export function handleEvent<Union extends { type: string }, State>(
  handlers: EventHandlers<Union, State>,
  state: State,
  event: Union,
): void {
  const handler: unknown = handlers[event.type as Union['type']];
  // The map's key and the handler's event type are the same `type`; TypeScript cannot correlate them.
  if (typeof handler === 'function') (handler as (state: State, event: Union) => void)(state, event);
}

/** The event types a handler map names: what an `EventSource` must listen for (it hears named events only). */
export function eventTypesOf<Union extends { type: string }, State>(handlers: EventHandlers<Union, State>): Union['type'][] {
  return Object.keys(handlers) as Union['type'][];
}
