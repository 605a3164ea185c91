import { ModelCallError, OwnershipLostError, RunDetachedError } from '../../core/errors/index.js';
import type { Failure } from '../../core/failure.js';
import type { RunResult, RunStatus, TerminalReason } from '../../core/run-result.js';
import { RunInterrupt } from '../run/run-control.js';
import { ENTRY_TASK_ID } from './agent-state.js';
import { CompressionFailedError, ensureHistoryCheckpoint, OverWindowError } from './compression/index.js';
import { maxInvalidToolCallLoops } from './execution-options.js';
import { notifyHooks, RunBlockedError, stepVerdict } from './governance/step-hooks.js';
import type { Node, RunLimit } from './nodes/node.js';
import type { RunContext } from './run-context.js';
import { digestOf } from './session/index.js';

/**
 * Drives a run from its entry task to its terminal record, turning every way a run can end into
 * its typed reason (S-11): an answer, an exhausted budget, a stop, the deadline, a model, a
 * compression or a window failure, or a blocked input or answer. A lost ownership is rethrown
 * without writing anything: the new owner continues the run; so is a detach (`RunDetachedError`),
 * after which the host lets another process continue it at once.
 */
export async function driveToResult(context: RunContext, entry: Node, resumed: boolean): Promise<RunResult> {
  let result: RunResult;
  try {
    await notifyHooks(context, 'SessionStart', ENTRY_TASK_ID, { input: context.durable.state.input, resumed });
    await checkInput(context);
    await ensureHistoryCheckpoint(context);
    const outcome = await entry.drive(context, ENTRY_TASK_ID);
    result =
      outcome.kind === 'answered'
        ? await finishRun(context, 'succeeded', { output: outcome.answer })
        : await finishRun(context, 'failed', limitDetail(context, outcome.limit));
  } catch (error) {
    result = await finishOnError(context, error);
  }
  await notifyHooks(context, 'SessionEnd', ENTRY_TASK_ID, {
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
  });
  return result;
}

/** The terminal reason of a run limit; invalid tool calls also say how many loops were allowed. */
function limitDetail(context: RunContext, limit: RunLimit): { reason: TerminalReason; failure?: Failure } {
  if (limit === 'loop-budget-exhausted') return { reason: limit };
  const allowed = maxInvalidToolCallLoops(context.durable.state.execution);
  return {
    reason: limit,
    failure: {
      kind: 'invalid-arguments',
      message: `the model sent invalid tool calls in more than ${allowed} consecutive loops (execution.maxInvalidToolCallLoops)`,
    },
  };
}

async function finishOnError(context: RunContext, error: unknown): Promise<RunResult> {
  const interrupt = RunInterrupt.isInstance(error) ? error : context.control.interrupt;
  if (OwnershipLostError.isInstance(error) || interrupt?.reason === 'ownership-lost') {
    throw OwnershipLostError.isInstance(error) ? error : new OwnershipLostError(context.runId, { cause: interrupt?.cause });
  }
  if (interrupt?.reason === 'detached') throw new RunDetachedError(context.runId, context.sessionId);
  if (interrupt?.reason === 'user-stop') return finishRun(context, 'stopped', { reason: 'user-stop' });
  if (interrupt?.reason === 'run-timeout') return finishRun(context, 'failed', { reason: 'run-timeout' });
  if (ModelCallError.isInstance(error)) return finishRun(context, 'failed', { reason: 'model-failed', failure: error.failure });
  if (CompressionFailedError.isInstance(error)) {
    return finishRun(context, 'failed', { reason: 'compression-failed', failure: error.failure });
  }
  if (OverWindowError.isInstance(error)) {
    return finishRun(context, 'failed', {
      reason: 'over-window-after-compression',
      failure: { kind: 'invalid-request', code: 'over-window', message: error.message },
    });
  }
  if (RunBlockedError.isInstance(error)) {
    return finishRun(context, 'failed', {
      reason: 'blocked',
      failure: { kind: 'denied', code: error.source, message: error.message },
    });
  }
  throw error;
}

/**
 * Checks the run's input once, with the UserPromptSubmit hooks and the input guardrails (K-4,
 * N-2; entry role only). A modified input becomes what the model reads, the raw one stays in the
 * journal; a refused one ends the run `blocked` before any model call.
 */
async function checkInput(context: RunContext): Promise<void> {
  const checked = await stepVerdict(context, {
    trigger: 'UserPromptSubmit',
    subjectKey: 'input',
    taskId: ENTRY_TASK_ID,
    subject: { text: context.durable.state.input, source: 'input' },
    effectiveField: 'text',
    extraHooks: context.governance.inputGuards,
  });
  if (!checked) return;
  if (checked.entry) await context.durable.commit(() => ({ entries: [checked.entry as NonNullable<typeof checked.entry>] }));
  if (checked.verdict.decision === 'deny' || checked.verdict.decision === 'block') {
    throw new RunBlockedError(checked.verdict.source ?? 'an input check', checked.verdict.reason ?? 'the input was refused');
  }
}

async function finishRun(
  context: RunContext,
  status: RunStatus,
  detail: { output?: string; reason?: TerminalReason; failure?: Failure },
): Promise<RunResult> {
  let result: RunResult | undefined;
  await context.durable.commit((state) => {
    result = {
      runId: context.runId,
      sessionId: context.sessionId,
      status,
      ...detail,
      loops: state.loopsUsed,
      usage: { ...state.usage },
      ...(state.usageByModel.size > 0 ? { usageByModel: Object.fromEntries(state.usageByModel) } : {}),
    };
    // The digest lets the session's later runs summarise this one without its journal (ADR 0010).
    // A session checkpoint it made is found by later runs through the run it covers (ADR 0012).
    return {
      entries: [{ type: 'run-finished', data: result }],
      terminal: result,
      digest: digestOf(state),
      ...(state.checkpoint ? { checkpointThrough: state.checkpoint.through.runId } : {}),
    };
  });
  return result as RunResult;
}
