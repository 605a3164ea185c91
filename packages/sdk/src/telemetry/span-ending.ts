import { type Span, SpanStatusCode } from '@opentelemetry/api';
import type * as conventions from '@opentelemetry/semantic-conventions/incubating';
import { RunDetachedError } from '../core/errors/index.js';
import { ATTR_ERROR_TYPE } from './semantic-conventions.js';

/** Why a span ended in error: `error.type` (a low-cardinality, typed value) and the status message. */
export interface EndReason {
  error: string;
  message: string;
}

/** The conventions' `error.type` for an error that has no typed code of its own. */
const OTHER_ERROR = '_OTHER' satisfies typeof conventions.ERROR_TYPE_VALUE_OTHER;

/**
 * Ends a span; with a reason it is marked the conventions' way: `error.type` and the ERROR status
 * (never one without the other).
 */
export function endSpan(span: Span, reason?: EndReason): void {
  if (reason) {
    span.setAttribute(ATTR_ERROR_TYPE, reason.error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: reason.message });
  }
  span.end();
}

/**
 * How the spans of a run end when the run settles in this process without its finish event. A
 * handover (`detach`) is no failure of the run: its span ends with `agentloom.run.status`
 * `detached` and no error, and only the calls it cut are errors (`run-detached`). Anything else
 * (`ownership-lost`, a store failure) ends every open span in error, typed by the error's code.
 */
export function endReasonOf(reason: unknown): { status: string; run?: EndReason; children: EndReason } {
  if (RunDetachedError.isInstance(reason)) {
    return { status: 'detached', children: { error: 'run-detached', message: 'cut when the run was handed over' } };
  }
  const code = typeof reason === 'object' && reason !== null ? (reason as { code?: unknown }).code : undefined;
  const failure = {
    error: typeof code === 'string' ? code : OTHER_ERROR,
    message: reason instanceof Error ? reason.message : String(reason),
  };
  return { status: typeof code === 'string' ? code : 'abandoned', run: failure, children: failure };
}
