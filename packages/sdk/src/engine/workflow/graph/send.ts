/** A request to run `node` once more in the next superstep, with `payload` as its input (fan-out). */
export interface Send {
  readonly kind: 'send';
  readonly node: string;
  readonly payload: unknown;
}

/**
 * Asks for one task of `node` in the next superstep with `payload` as its input (its input
 * binding is not used): the building block of dynamic fan-out (map-reduce, orchestrator–worker).
 * Returned by an `addFanOut` function; the target must be declared there.
 *
 * @example
 * builder.addFanOut('plan', (state) => state.topics.map((topic) => send('research', { topic })), ['research']);
 */
export function send(node: string, payload: unknown): Send {
  return Object.freeze({ kind: 'send' as const, node, payload });
}

/** Whether `value` is a `Send` made by `send()`. */
export function isSend(value: unknown): value is Send {
  return (
    typeof value === 'object' && value !== null && (value as Send).kind === 'send' && typeof (value as Send).node === 'string'
  );
}
