/** The virtual node every workflow starts from: `addEdge(START, 'first')`. */
export const START = '__start__';

/** The virtual node that ends a branch: a route may return `END`. */
export const END = '__end__';

/** The channel that carries one superstep's send requests (dynamic fan-out). */
export const SENDS_CHANNEL = '__sends__';

/** Where a loop's decision notes that it ended by its limit (read by the journal fold, no channel). */
export const LOOP_LIMIT_CHANNEL = '__loop-limit__';

/** The trigger channel of a node: an edge into the node writes it. */
export function triggerChannel(node: string): string {
  return `to:${node}`;
}

/** The channel of a join of `sources` into `target`. */
export function joinChannel(target: string, sources: readonly string[]): string {
  return `join:${target}:${sources.join('+')}`;
}

/** The iteration counter of the loop that leaves node `from`. */
export function loopChannel(from: string): string {
  return `loop:${from}`;
}

/** Names a node may not take: the virtual nodes, and characters used in channel and task ids. */
export function isReservedName(name: string): boolean {
  return name === START || name === END || name.startsWith('__') || /[:/#+]/.test(name) || name.length === 0;
}
