import { RunInterrupt } from '../../run/run-control.js';
import type { AgentJournalRecord } from '../agent-journal.js';
import { type AgentRunState, ENTRY_TASK_ID, type TaskState } from '../agent-state.js';
import { maxInvalidToolCallLoops } from '../execution-options.js';
import { hasHooks } from '../governance/governance.js';
import { notifyHooks, RunBlockedError, stepVerdict } from '../governance/step-hooks.js';
import { runModelStep } from '../model-step.js';
import { runOperation } from '../operation-runner.js';
import { validateAnswer } from '../output-validation.js';
import type { RunContext } from '../run-context.js';
import { Node, RunLimitReached, type TaskOutcome } from './node.js';

/**
 * The ReAct loop (L-1) as a node: charge a loop → call the model → run the whole batch → next
 * loop, until the model gives an answer the role accepts. Each step reads the task's phase from
 * the journal-backed state, so the same code continues a recovered task from wherever it stopped:
 * a charged loop is never charged again, a saved response is never asked for again, a saved
 * result is never redone. The budget is checked before a loop starts: the last allowed loop
 * runs and may answer, the next one is refused.
 */
export class ReactNode extends Node {
  async drive(context: RunContext, taskId: string): Promise<TaskOutcome> {
    const { durable, control } = context;
    const task = () => durable.state.tasks.get(taskId) as TaskState;
    for (;;) {
      control.throwIfInterrupted();
      const current = task();
      switch (current.phase) {
        case 'ready': {
          // Invalid tool calls given back to the model in more consecutive loops than it may
          // correct end the run; read from the journal-backed task, so a resumed run agrees.
          if (current.invalidCallLoops > maxInvalidToolCallLoops(durable.state.execution)) {
            return { kind: 'limit-reached', limit: 'invalid-tool-calls' };
          }
          if (durable.state.loopsUsed >= durable.state.execution.maxLoops) {
            return { kind: 'limit-reached', limit: 'loop-budget-exhausted' };
          }
          const loop = current.loop + 1;
          const pending = taskId === ENTRY_TASK_ID ? pendingSupplements(durable.state) : [];
          const checks = await supplementChecks(context, pending);
          // Decided again when the commit's turn comes: tasks running side by side (parallel or
          // background executors, N-7) never charge past the shared budget between them.
          const start = (state: AgentRunState) => {
            if (state.loopsUsed >= state.execution.maxLoops) return undefined;
            const entries: AgentJournalRecord[] = [...checks, { type: 'loop-started', taskId, data: { loop } }];
            if (pending.length > 0) entries.push({ type: 'supplement-consumed', taskId, data: { supplementIds: pending } });
            return { entries, chargeLoops: 1 };
          };
          // The entry role (ReAct role or planner) takes supplements that reached the run from any
          // machine, before its next model call (S-1, S-3); executors never see them. Its loop
          // starts only on the journal it has seen: when an entry arrived meanwhile, nothing is
          // written, the entry is applied and the loop is decided again (ADR 0025).
          if (taskId === ENTRY_TASK_ID) await durable.commitIfCurrent(start);
          else await durable.commit(start);
          break;
        }
        case 'calling-model':
          await runModelStep(context, current, this.role);
          break;
        case 'in-batch':
          try {
            await this.runBatch(context, current);
          } catch (error) {
            if (RunLimitReached.isInstance(error)) return { kind: 'limit-reached', limit: error.limit };
            throw error;
          }
          await notifyBatch(context, taskId);
          break;
        case 'answered': {
          const verdict = validateAnswer(this.role.outputSchema, current.answer ?? '');
          if (!verdict.ok) {
            await durable.commit(() => ({
              entries: [{ type: 'answer-rejected', taskId, data: { loop: current.loop, feedback: verdict.feedback } }],
            }));
            break;
          }
          if (taskId === ENTRY_TASK_ID && !(await acceptsFinalAnswer(context, current, verdict.output))) break;
          return { kind: 'answered', answer: verdict.output };
        }
        case 'finished':
          return { kind: 'answered', answer: current.outcome?.output ?? '' };
      }
    }
  }

  /**
   * Runs every unfinished member of the task's batch: one by one, or all at once when the run's
   * parallel switch is on (X-4; never because the model emitted several calls). The batch joins
   * when its last result is committed; a member's failure never cancels the others.
   */
  protected async runBatch(context: RunContext, task: TaskState): Promise<void> {
    const pending = this.pendingMembers(context, task);
    if (pending.length === 0) {
      // Every result was saved but not the join (not produced by this version): join now.
      await context.durable.commit(() => ({
        entries: [{ type: 'batch-joined', taskId: task.taskId, data: { loop: task.loop } }],
      }));
      return;
    }
    if (!context.durable.state.execution.parallel) {
      for (const operationId of pending) await this.runMember(context, operationId);
      return;
    }
    await settleAll(pending.map((operationId) => this.runMember(context, operationId)));
  }

  /** The members of the task's batch that have no result yet, in call order. */
  protected pendingMembers(context: RunContext, task: TaskState): string[] {
    return task.batch.filter((id) => context.durable.state.operations.get(id)?.result === undefined);
  }

  /** Runs one member of a batch to its result: a plain tool call, for a ReAct role. */
  protected runMember(context: RunContext, operationId: string): Promise<void> {
    return runOperation(context, this.role, operationId);
  }
}

/**
 * Waits for every promise, then rethrows the most important failure: a run interrupt first (stop,
 * deadline, lost ownership), then a run limit (budget, invalid tool calls), then anything else.
 */
export async function settleAll(promises: readonly Promise<void>[]): Promise<void> {
  const outcomes = await Promise.allSettled(promises);
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  const first =
    failures.find((reason) => RunInterrupt.isInstance(reason)) ??
    failures.find((reason) => RunLimitReached.isInstance(reason)) ??
    failures[0];
  if (failures.length > 0) throw first;
}

/**
 * The saved UserPromptSubmit verdicts (hooks and input guardrails) on supplements about to enter
 * the entry role's context; a denied one is never shown to the model (K-5, N-2).
 */
async function supplementChecks(context: RunContext, pending: readonly string[]): Promise<AgentJournalRecord[]> {
  const entries: AgentJournalRecord[] = [];
  for (const supplementId of pending) {
    const text = context.durable.state.supplements.get(supplementId)?.text ?? '';
    const checked = await stepVerdict(context, {
      trigger: 'UserPromptSubmit',
      subjectKey: `supplement:${supplementId}`,
      taskId: ENTRY_TASK_ID,
      subject: { text, source: 'supplement' },
      effectiveField: 'text',
      extraHooks: context.governance.inputGuards,
    });
    if (checked?.entry) entries.push(checked.entry);
  }
  return entries;
}

/**
 * The entry role's final answer passes the Stop hooks (which may send it back for another loop)
 * and the output guardrails (which end the run \`blocked\`), once, with the verdict saved.
 * Returns whether the answer stands.
 */
async function acceptsFinalAnswer(context: RunContext, task: TaskState, answer: string): Promise<boolean> {
  const { durable, governance } = context;
  const stop = await stepVerdict(context, {
    trigger: 'Stop',
    subjectKey: `stop:${task.taskId}:${task.loop}`,
    taskId: task.taskId,
    subject: { answer },
  });
  if (stop && (stop.verdict.decision === 'block' || stop.verdict.decision === 'deny')) {
    if (stop.entry) {
      const feedback = stop.verdict.reason ?? 'A Stop hook asked you to continue before answering.';
      await durable.commit(() => ({
        entries: [
          stop.entry as AgentJournalRecord,
          { type: 'answer-rejected', taskId: task.taskId, data: { loop: task.loop, feedback } },
        ],
      }));
    }
    return false;
  }
  if (stop?.entry) await durable.commit(() => ({ entries: [stop.entry as AgentJournalRecord] }));
  if (governance.outputGuards.length === 0) return true;
  const guarded = await stepVerdict(context, {
    trigger: 'Stop',
    subjectKey: `output:${task.taskId}:${task.loop}`,
    taskId: task.taskId,
    subject: { answer },
    extraHooks: governance.outputGuards,
  });
  if (guarded?.entry) await durable.commit(() => ({ entries: [guarded.entry as AgentJournalRecord] }));
  if (guarded?.verdict.decision === 'deny') {
    throw new RunBlockedError(
      guarded.verdict.source ?? 'an output guardrail',
      guarded.verdict.reason ?? 'the final answer was refused',
    );
  }
  return true;
}

/** Tells PostToolBatch observers about a joined batch. */
async function notifyBatch(context: RunContext, taskId: string): Promise<void> {
  if (!hasHooks(context.governance, 'PostToolBatch')) return;
  const task = context.durable.state.tasks.get(taskId) as TaskState;
  const results = task.batch.map((operationId) => {
    const operation = context.durable.state.operations.get(operationId);
    return {
      toolName: operation?.call.name ?? 'unknown',
      status: operation?.result?.status ?? ('failed' as const),
      content: operation?.result?.content ?? '',
    };
  });
  await notifyHooks(context, 'PostToolBatch', taskId, { results });
}

/** Ids of the supplements accepted but not yet in the entry role's context, in arrival order. */
function pendingSupplements(state: AgentRunState): string[] {
  return [...state.supplements].filter(([, supplement]) => !supplement.consumed).map(([supplementId]) => supplementId);
}
