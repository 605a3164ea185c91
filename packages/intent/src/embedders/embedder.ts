/**
 * The embedding port of the similarity layer (N-14): turns texts into vectors whose cosine says
 * how alike two texts are. The host injects it; the core never does I/O of its own. One call may
 * carry many texts (the catalog's examples are embedded in batches, once per catalog and
 * embedder); the answer has one vector per text, in order, all of the same length.
 */
export interface Embedder {
  /** A name for traces and errors (`hashing`, `openai-compatible:text-embedding-3-small`). */
  readonly name: string;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** The cosine of two vectors (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** A copy of the vector scaled to length 1 (all zeros stay zeros), so that a dot product is a cosine. */
export function unitVector(vector: ArrayLike<number>): Float64Array {
  const unit = Float64Array.from(vector);
  let norm = 0;
  for (const value of unit) norm += value * value;
  if (norm === 0) return unit;
  const scale = 1 / Math.sqrt(norm);
  for (let index = 0; index < unit.length; index += 1) unit[index] = (unit[index] as number) * scale;
  return unit;
}

/** The dot product of two vectors of the same length. */
export function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) sum += (a[index] as number) * (b[index] as number);
  return sum;
}
