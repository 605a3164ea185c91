import { ModelCallError } from '../../../core/errors/index.js';
import type { Failure } from '../../../core/failure.js';
import type { AgentJournalRecord } from '../agent-journal.js';
import type { OperationState, TaskState } from '../agent-state.js';
import { stepVerdict } from '../governance/step-hooks.js';
import { operationResultEntries, passesGate, unparsedArgumentsFailure } from '../operation-runner.js';
import type { RunContext } from '../run-context.js';
import type { ExecutorNode } from './executor-node.js';
import { RunLimitReached } from './node.js';

/**
 * Runs one delegation of a planner's batch to its result (L-3…L-5, D-3, S-10, R-4). The
 * delegation's operation id is the executor task's id, so a resumed run finds the task again:
 * a finished task is reused as saved, an unfinished one continues from its last saved loop with
 * its own context, and a task not yet created is created once.
 *
 * Invalid task arguments return to the planner as a correctable error and create no task (C-13).
 * The executor's final answer, or its model failure, becomes the delegation's result in the same
 * commit that ends the task, so the planner receives it exactly once. An exhausted budget ends
 * the whole run, and so do an executor's invalid tool calls past their limit. Task
 * arguments that are not JSON are answered `invalid-arguments` before any gate.
 */
export async function runDelegation(context: RunContext, executor: ExecutorNode, operationId: string): Promise<void> {
  const { durable } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  if (operation().result) return;
  // A queued delegation that gets its slot after a stop never starts (S-5).
  context.control.throwIfInterrupted();
  if (!durable.state.tasks.has(operationId)) {
    const unparsed = unparsedArgumentsFailure(operation().call);
    if (unparsed) {
      await finishDelegation(context, operation(), unparsed);
      return;
    }
    // Delegations pass the same gate as tools (PreToolUse, permissions), then SubagentStart (K-4).
    if (!(await passesGate(context, operationId, 'delegation'))) return;
    const input = executor.taskInput(operation().call.arguments);
    if (!input.ok) {
      await finishDelegation(context, operation(), { kind: 'invalid-arguments', message: `invalid task: ${input.problem}` });
      return;
    }
    const start = await subagentStart(context, executor, operation(), input.message);
    if ('denied' in start) {
      await durable.commit((state) => ({
        entries: [...(start.entry ? [start.entry] : []), ...operationResultEntries(state, operation(), start.denied)],
      }));
      return;
    }
    const { message } = start;
    await durable.commit(() => ({
      entries: [
        ...(start.entry ? [start.entry] : []),
        {
          type: 'task-created',
          taskId: operationId,
          data: { role: executor.role.name, parentTaskId: operation().taskId, operationId, input: message },
        },
      ],
    }));
  }
  let answer: string;
  try {
    const outcome = await executor.drive(context, operationId);
    if (outcome.kind === 'limit-reached') throw new RunLimitReached(outcome.limit);
    answer = outcome.answer;
  } catch (error) {
    if (!ModelCallError.isInstance(error)) throw error;
    await finishDelegation(context, operation(), {
      kind: 'executor-failed',
      message: `the "${executor.role.name}" executor stopped: its model failed (${error.failure.kind}: ${error.failure.message})`,
    });
    return;
  }
  const stop = await subagentStop(context, executor, operationId, `subagent-stop:${operationId}`, answer);
  await finishDelegation(context, operation(), undefined, stop.output, stop.entry);
}

/**
 * The SubagentStart verdict on a new executor task (K-4), saved once: a denial to return to the
 * planner, or the (possibly modified) first message of the task.
 */
export async function subagentStart(
  context: RunContext,
  executor: ExecutorNode,
  operation: OperationState,
  message: string,
): Promise<{ denied: Failure; entry?: AgentJournalRecord } | { message: string; entry?: AgentJournalRecord }> {
  const start = await stepVerdict(context, {
    trigger: 'SubagentStart',
    subjectKey: `subagent-start:${operation.operationId}`,
    taskId: operation.taskId,
    subject: { executor: executor.role.name, task: message },
    effectiveField: 'task',
  });
  const entry = start?.entry ? { entry: start.entry } : {};
  if (start?.verdict.decision === 'deny' || start?.verdict.decision === 'block') {
    const reason = `${start.verdict.source ?? 'a hook'}: ${start.verdict.reason ?? 'no reason given'}`;
    return { denied: { kind: 'denied', message: `delegation denied by ${reason}` }, ...entry };
  }
  return { message: typeof start?.verdict.effective === 'string' ? start.verdict.effective : message, ...entry };
}

/** The SubagentStop verdict on an executor's answer (K-4), saved once under `subjectKey`: the output the planner gets. */
export async function subagentStop(
  context: RunContext,
  executor: ExecutorNode,
  taskId: string,
  subjectKey: string,
  answer: string,
): Promise<{ output: string; entry?: AgentJournalRecord }> {
  const stop = await stepVerdict(context, {
    trigger: 'SubagentStop',
    subjectKey,
    taskId,
    subject: { executor: executor.role.name, status: 'succeeded', output: answer },
    effectiveField: 'output',
  });
  const output = typeof stop?.verdict.effective === 'string' ? stop.verdict.effective : answer;
  return stop?.entry ? { output, entry: stop.entry } : { output };
}

function finishDelegation(
  context: RunContext,
  operation: OperationState,
  failure: Failure | undefined,
  output?: string,
  verdictEntry?: AgentJournalRecord,
) {
  return context.durable.commit((state) => {
    const task = state.tasks.get(operation.operationId) as TaskState | undefined;
    const entries = operationResultEntries(state, operation, failure, output);
    if (verdictEntry) entries.unshift(verdictEntry);
    if (task) {
      entries.unshift({
        type: 'task-finished',
        taskId: task.taskId,
        data: failure ? { status: 'failed', failure } : { status: 'succeeded', output: output ?? '' },
      });
    }
    return { entries };
  });
}
