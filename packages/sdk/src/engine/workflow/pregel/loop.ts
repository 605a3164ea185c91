import { OwnershipLostError, RunDetachedError } from '../../../core/errors/index.js';
import type { Failure } from '../../../core/failure.js';
import type { RunResult } from '../../../core/run-result.js';
import { RunInterrupt } from '../../run/run-control.js';
import type { WorkflowTaskFailure } from '../nodes/workflow-node.js';
import type { WorkflowResult } from '../workflow-events.js';
import { type EngineContext, runSuperstep } from './runner.js';
import type { WorkflowEnding, WorkflowJournalRecord, WorkflowTerminalReason } from './workflow-journal.js';
import type { WorkflowRunState } from './workflow-state.js';

/**
 * The checkpointed loop (LangGraph's loop, written here): run the current superstep's pending
 * tasks, let the recorder save each outcome, and go on with the superstep the reducer planned
 * when the last outcome was applied. Ends when nothing is planned (success), at the step limit,
 * on a task failure, a spent loop budget, a stop or the deadline; pauses when the only tasks
 * left wait for an answer to `interrupt()`. Lost ownership is rethrown: the new owner goes on; so
 * is a detach (`RunDetachedError`), after which any process continues the run at once.
 */
export async function driveWorkflow(context: EngineContext): Promise<WorkflowResult> {
  const { state, control, recorder } = context;
  try {
    for (;;) {
      recorder.throwIfFailed();
      control.throwIfInterrupted();
      if (state.conflict) return await finish(context, conflictEnding(state));
      if (state.tasks.size === 0) return await finish(context, { status: 'succeeded' });
      if (state.step >= state.maxSteps) return await finish(context, { status: 'failed', reason: 'step-limit-exceeded' });
      const pending = [...state.tasks.values()].filter((task) => !state.finished.has(task.id) && !state.interrupted.has(task.id));
      if (pending.length === 0) return await pause(context);
      context.emit({
        type: 'step-start',
        runId: context.runId,
        step: state.step,
        tasks: pending.map((task) => ({ taskId: task.id, node: task.node })),
      });
      const outcome = await runSuperstep(context, pending);
      if (outcome.budgetExhausted) return await finish(context, { status: 'failed', reason: 'loop-budget-exhausted' });
      const [first] = outcome.failures;
      if (first) {
        // Every failed task is recorded, with the loops it used; the first in planned order is the run's failure.
        const entries = outcome.failures.map(
          ({ task, failure, loops }): WorkflowJournalRecord => ({
            type: 'task-failed',
            taskId: task.id,
            data: loops ? { step: state.step, failure, loops } : { step: state.step, failure },
          }),
        );
        const loops = outcome.failures.reduce((total, failed) => total + failed.loops, 0);
        const reason = first.failure.kind === 'loop-limit-reached' ? 'loop-limit-reached' : 'node-failed';
        return await finish(context, { status: 'failed', reason, failure: first.failure }, entries, loops);
      }
    }
  } catch (error) {
    const interrupt = RunInterrupt.isInstance(error) ? error : control.interrupt;
    if (OwnershipLostError.isInstance(error) || interrupt?.reason === 'ownership-lost') {
      throw OwnershipLostError.isInstance(error) ? error : new OwnershipLostError(context.runId, { cause: interrupt?.cause });
    }
    if (interrupt?.reason === 'detached') {
      // Handed over: what finished is saved (an `exit`-mode buffer too), then the lease is let go.
      await context.recorder.flush().catch(() => {});
      throw new RunDetachedError(context.runId, context.sessionId);
    }
    if (interrupt?.reason === 'user-stop') return await finish(context, { status: 'stopped', reason: 'user-stop' });
    if (interrupt?.reason === 'run-timeout') return await finish(context, { status: 'failed', reason: 'run-timeout' });
    throw error;
  }
}

async function pause(context: EngineContext): Promise<WorkflowResult> {
  await context.recorder.flush();
  const interrupts = [...context.state.interrupted.values()];
  context.emit({ type: 'workflow-interrupt', runId: context.runId, interrupts });
  return { ...resultBase(context), status: 'interrupted', interrupts };
}

async function finish(
  context: EngineContext,
  ending: { status: WorkflowEnding['status']; reason?: WorkflowTerminalReason; failure?: WorkflowTaskFailure },
  entries: WorkflowJournalRecord[] = [],
  chargeLoops = 0,
): Promise<WorkflowResult> {
  const { state } = context;
  const record: WorkflowEnding = {
    ...ending,
    steps: state.step,
    loops: state.loopsUsed + chargeLoops,
    usage: { ...state.usage },
    ...(state.loopLimits.length > 0 ? { loopLimits: [...state.loopLimits] } : {}),
  };
  // Declared output fields are the run's answer, saved with its ending like an agent's output, so
  // readers without the graph can show it; the whole state is never saved again (ADR 0003).
  if (record.status === 'succeeded' && context.outputFields.length > 0) record.output = outputOf(state, context.outputFields);
  const terminal: RunResult = {
    runId: context.runId,
    sessionId: context.sessionId,
    status: record.status,
    ...(record.reason ? { reason: record.reason } : {}),
    ...(failureOf(record.failure) ? { failure: failureOf(record.failure) } : {}),
    loops: record.loops,
    usage: record.usage,
  };
  await context.recorder.flush({
    entries: [...entries, { type: 'workflow-finished', data: record }],
    chargeLoops,
    terminal,
  });
  const result = resultOfEnding(context.runId, context.sessionId, state, record, context.outputFields);
  context.emit({ type: 'workflow-finish', runId: context.runId, result });
  return result;
}

/** The result of an ended run, from its saved ending and its folded state. */
export function resultOfEnding(
  runId: string,
  sessionId: string,
  state: WorkflowRunState,
  ending: WorkflowEnding,
  outputFields: readonly string[],
): WorkflowResult {
  const { output: _saved, ...rest } = ending;
  const result: WorkflowResult = {
    runId,
    sessionId,
    ...rest,
    usage: { ...ending.usage },
    ...(state.continues ? { continues: state.continues } : {}),
  };
  if (ending.status === 'succeeded') result.output = outputOf(state, outputFields);
  return result;
}

/** The output fields of a state: the named ones, or every field. */
function outputOf(state: WorkflowRunState, outputFields: readonly string[]): Record<string, unknown> {
  const names = outputFields.length > 0 ? outputFields : Object.keys(state.values);
  return Object.fromEntries(names.map((name) => [name, state.values[name]]));
}

function resultBase(context: EngineContext): Omit<WorkflowResult, 'status'> {
  const { state } = context;
  return {
    runId: context.runId,
    sessionId: context.sessionId,
    steps: state.step,
    loops: state.loopsUsed,
    usage: { ...state.usage },
    ...(state.loopLimits.length > 0 ? { loopLimits: [...state.loopLimits] } : {}),
    ...(state.continues ? { continues: state.continues } : {}),
  };
}

/** The run's end when two tasks of a superstep wrote one single-value field (the second one is named). */
function conflictEnding(state: WorkflowRunState): Parameters<typeof finish>[1] {
  const [first, second] = (state.conflict as { field: string; taskIds: string[] }).taskIds;
  const taskId = second ?? (first as string);
  const node = state.tasks.get(taskId)?.node ?? taskId;
  const writers = (state.conflict?.taskIds ?? []).join(', ');
  return {
    status: 'failed',
    reason: 'write-conflict',
    failure: {
      node,
      taskId,
      kind: 'write-conflict',
      message: `tasks ${writers} wrote the single-value field "${state.conflict?.field}" in one superstep; make it an appendList or mergeWith field, or set onConflict: 'last-write-wins'`,
    },
  };
}

function failureOf(failure: WorkflowTaskFailure | undefined): Failure | undefined {
  return failure?.failure;
}
