import type { Failure, FailureKind } from '../../core/failure.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { ModelIdentity } from './agent-journal.js';
import type { RunContext } from './run-context.js';

/**
 * Final failures another model may not share (N-15): the provider overloaded, failing or out of
 * reach after the run's retries. A refused request, refused credentials or a denied call would
 * fail the same way anywhere the request is the same, so they end the run as before (S-10).
 */
const failingElsewhereKinds: ReadonlySet<FailureKind> = new Set([
  'server',
  'rate-limited',
  'timeout',
  'stalled',
  'connection',
  'incomplete-output',
]);

/**
 * Whether the final failure of a model call moves the run to the next model of its chain. Reads
 * typed fields only: a context too long for this model is the provider's code
 * `context_length_exceeded` or HTTP 413, which a model with a larger window may take.
 */
export function movesToNextModel(failure: Failure): boolean {
  if (failingElsewhereKinds.has(failure.kind)) return true;
  return failure.kind === 'invalid-request' && (failure.code === 'context_length_exceeded' || failure.status === 413);
}

/** The model at `index` of the run's chain: 0 is the agent's `model`, then its fallback models. */
export function modelAt(context: Pick<RunContext, 'model' | 'fallbackModels'>, index: number): LanguageModel | undefined {
  return index === 0 ? context.model : context.fallbackModels[index - 1];
}

/** What the journal keeps of a model: enough to show and audit, nothing secret. */
export function identityOf(model: LanguageModel): ModelIdentity {
  return { provider: model.provider, modelId: model.modelId };
}
