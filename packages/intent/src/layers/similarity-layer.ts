import { type CompiledCatalog, type CompiledTarget, isAction } from '../catalog/compile-catalog.js';
import { dot, type Embedder, unitVector } from '../embedders/embedder.js';
import { EmbedderError, IntentError } from '../errors/index.js';
import type { SimilarityScore, SimilarityTrace } from './trace.js';

/** The catalog's examples as unit vectors, per target. */
interface ExampleIndex {
  targets: ReadonlyArray<{ target: CompiledTarget; examples: readonly string[]; vectors: readonly Float64Array[] }>;
}

/** Example vectors by catalog and embedder: each catalog's examples are embedded once per embedder. */
const indexes = new WeakMap<CompiledCatalog, WeakMap<Embedder, Promise<ExampleIndex>>>();

/** Calls the embedder and checks its answer: one vector per text, all of one length. */
export async function embedChecked(embedder: Embedder, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
  let vectors: unknown;
  try {
    vectors = await embedder.embed(texts, signal ? { signal } : {});
  } catch (error) {
    if (IntentError.isInstance(error)) throw error;
    throw new EmbedderError(`embedder ${embedder.name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new EmbedderError(
      `embedder ${embedder.name} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts`,
    );
  }
  const length = (vectors[0] as unknown[] | undefined)?.length ?? 0;
  if (length === 0 || vectors.some((vector) => !Array.isArray(vector) || vector.length !== length)) {
    throw new EmbedderError(`embedder ${embedder.name} returned vectors of different or zero lengths`);
  }
  return vectors as number[][];
}

/** The catalog's example vectors for this embedder, computed on first use (a failure is not remembered). */
function exampleIndex(catalog: CompiledCatalog, embedder: Embedder, signal?: AbortSignal): Promise<ExampleIndex> {
  let byEmbedder = indexes.get(catalog);
  if (!byEmbedder) {
    byEmbedder = new WeakMap();
    indexes.set(catalog, byEmbedder);
  }
  const cached = byEmbedder.get(embedder);
  if (cached) return cached;
  const targets = catalog.targets.filter((target) => target.examples.length > 0);
  const texts = targets.flatMap((target) => target.examples);
  const promise = (texts.length === 0 ? Promise.resolve([]) : embedChecked(embedder, texts, signal)).then((vectors) => {
    let next = 0;
    return {
      targets: targets.map((target) => {
        const own = vectors.slice(next, next + target.examples.length).map(unitVector);
        next += target.examples.length;
        return { target, examples: target.examples, vectors: own };
      }),
    };
  });
  byEmbedder.set(embedder, promise);
  promise.catch(() => byEmbedder.delete(embedder));
  return promise;
}

/** The similarity layer's verdict: the target chosen, or the actions to clarify between, or nothing. */
export interface SimilarityVerdict {
  chosen?: CompiledTarget;
  clarify?: CompiledTarget[];
  /** Every target's best score, best first (the model layer ranks actions by it). */
  ranked: SimilarityScore[];
  trace: SimilarityTrace;
}

/**
 * The second layer (N-14, after semantic-router): the utterance is embedded by the injected
 * `Embedder` and compared (cosine) with every example of every target not vetoed by a negative
 * keyword; a target scores its best example. A target below its threshold does not match — there
 * is no "nearest anyway" (semantic-router's users learned that a missing threshold routes
 * everything). When other actions pass too and score within `clarifyMargin` of the best, the turn
 * is a `clarify` between them rather than a guess.
 */
export async function matchSimilarity(
  catalog: CompiledCatalog,
  utterance: string,
  embedder: Embedder,
  vetoed: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<SimilarityVerdict> {
  const index = await exampleIndex(catalog, embedder, signal);
  const [vector] = await embedChecked(embedder, [utterance], signal);
  const query = unitVector(vector as number[]);
  const ranked: Array<SimilarityScore & { target: string; compiled: CompiledTarget }> = [];
  for (const entry of index.targets) {
    if (vetoed.has(entry.target.key)) continue;
    let best = -Infinity;
    let example = '';
    entry.vectors.forEach((candidate, position) => {
      const score = dot(query, candidate);
      if (score > best) {
        best = score;
        example = entry.examples[position] as string;
      }
    });
    ranked.push({
      target: entry.target.key,
      score: round(best),
      threshold: entry.target.threshold,
      example,
      compiled: entry.target,
    });
  }
  ranked.sort((a, b) => b.score - a.score || a.compiled.order - b.compiled.order);
  const scores = ranked.map(({ compiled: _compiled, ...score }) => score);
  const trace: SimilarityTrace = { layer: 'similarity', outcome: 'no-match', reason: '', scores: scores.slice(0, 8) };
  const passing = ranked.filter((entry) => entry.score >= entry.threshold);
  const best = passing[0];
  if (!best) {
    const top = ranked[0];
    trace.reason = top
      ? `best ${top.target} ${top.score} is below its threshold ${top.threshold}`
      : 'the catalog has no examples';
    return { ranked: scores, trace };
  }
  trace.outcome = 'decided';
  trace.chosen = best.target;
  const margin = catalog.catalog.similarity.clarifyMargin;
  const close = isAction(best.compiled)
    ? passing.filter((entry) => entry !== best && isAction(entry.compiled) && best.score - entry.score <= margin)
    : [];
  if (close.length > 0) {
    const options = [best, ...close];
    trace.reason = `${options.map((entry) => `${entry.target} ${entry.score}`).join(', ')} are within ${margin} of each other: clarify`;
    return { clarify: options.map((entry) => entry.compiled), ranked: scores, trace };
  }
  trace.reason = `${best.target} ${best.score} ≥ threshold ${best.threshold} (example "${best.example}")`;
  return { chosen: best.compiled, ranked: scores, trace };
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
