import { ModelCallError } from '../../core/errors/index.js';
import type { Message } from '../../core/messages.js';
import { type CallModelResult, callModel } from '../../model/call-model.js';
import { ENTRY_TASK_ID, type TaskState } from './agent-state.js';
import { ensureContextFits, visibleContext } from './compression/index.js';
import { assembleRequest, type ContextReport } from './context-features/index.js';
import { notifyHooks } from './governance/step-hooks.js';
import { identityOf, modelAt, movesToNextModel } from './model-fallback.js';
import { renderTemplate } from './prompt-template.js';
import type { RoleDefinition, RunContext } from './run-context.js';

/**
 * The model step of a loop (L-1): sends the task's context and commits the complete response
 * as the loop's decision. Failed attempts are committed as incomplete records (S-9). A final
 * model failure is thrown as `ModelCallError` for the caller to end the task or run (S-10).
 */
export async function runModelStep(context: RunContext, startTask: TaskState, role: RoleDefinition): Promise<void> {
  const { durable } = context;
  await ensureContextFits(context, startTask, role);
  const task = durable.state.tasks.get(startTask.taskId) as TaskState;
  const loop = task.loop;
  const messages = visibleContext(task);
  await notifyHooks(context, 'ModelRequest', task.taskId, { messages: messages.length, tools: role.toolDefinitions.length });
  const chained = context.fallbackModels.length > 0;
  let response: CallModelResult;
  let answeredBy = durable.state.modelIndex;
  let report: ContextReport;
  for (;;) {
    answeredBy = durable.state.modelIndex;
    const model = modelAt(context, answeredBy) ?? context.model;
    // Assembled for each model of the chain: the shaping may differ by provider (N-15).
    const request = assembleRequest({
      system: renderTemplate(role.prompt, durable.state.variables),
      tools: role.toolDefinitions,
      messages,
      provider: model.provider,
      features: context.contextFeatures,
      ...(durable.state.sessionNote ? { note: durable.state.sessionNote } : {}),
      entryRole: task.taskId === ENTRY_TASK_ID,
      countTokens: context.countTokens,
    });
    report = request.report;
    try {
      response = await callModelOnce(context, task.taskId, role, request, model);
      break;
    } catch (error) {
      const next = modelAt(context, answeredBy + 1);
      if (!(ModelCallError.isInstance(error) && next && movesToNextModel(error.failure))) throw error;
      // Journaled before the next model is called: a takeover continues on `next` (N-15). Another
      // task of the run may have moved the chain meanwhile; the fold keeps the furthest move.
      if (durable.state.modelIndex > answeredBy) continue;
      const fallback = {
        type: 'model-fallback' as const,
        taskId: task.taskId,
        data: {
          loop,
          fromIndex: answeredBy,
          toIndex: answeredBy + 1,
          from: identityOf(model),
          to: identityOf(next),
          failure: error.failure,
        },
      };
      await durable.commit(() => ({ entries: [fallback] }));
    }
  }
  await notifyHooks(context, 'ModelResponse', task.taskId, {
    finishReason: response.finishReason,
    toolCalls: response.message.toolCalls?.length ?? 0,
    outputTokens: response.usage.outputTokens,
  });
  await durable.commit(() => ({
    entries: [
      {
        type: 'model-responded',
        taskId: task.taskId,
        data: {
          loop,
          attempt: response.attempt,
          message: response.message,
          finishReason: response.finishReason,
          usage: response.usage,
          ...(response.response ? { response: response.response } : {}),
          ...(chained ? { model: identityOf(modelAt(context, answeredBy) ?? context.model) } : {}),
          context: report,
        },
      },
    ],
  }));
}

/** One logical model call on `model`, with the run's retries; attempts continue the task's count. */
function callModelOnce(
  context: RunContext,
  taskId: string,
  role: RoleDefinition,
  request: { system: string; messages: Message[] },
  model: RunContext['model'],
): Promise<CallModelResult> {
  const { durable, control } = context;
  const task = durable.state.tasks.get(taskId) as TaskState;
  const execution = durable.state.execution;
  const loop = task.loop;
  return callModel(
    model,
    {
      system: request.system,
      messages: request.messages,
      tools: role.toolDefinitions,
      ...(role.settings ? { settings: role.settings } : {}),
    },
    {
      signal: control.signal,
      callSignal: control.callSignal,
      deadlineAt: durable.state.deadlineAt,
      firstOutputTimeoutMs: execution.modelFirstOutputTimeoutMs,
      stallTimeoutMs: execution.modelStallTimeoutMs,
      retry: context.retry,
      previousAttempts: task.modelAttempts,
      now: context.now,
      onAttemptStart: (attempt) =>
        context.emit({
          type: 'model-call-start',
          runId: context.runId,
          taskId,
          loop,
          attempt,
          provider: model.provider,
          modelId: model.modelId,
        }),
      onAttemptFailed: (report) =>
        durable.commit(() => ({
          entries: [
            {
              type: 'model-attempt-failed',
              taskId,
              data: {
                loop,
                attempt: report.attempt,
                failure: report.failure,
                partialText: report.partialText,
                incomplete: true,
                ...(report.retryWaitMs !== undefined ? { retryWaitMs: report.retryWaitMs } : {}),
              },
            },
          ],
        })),
    },
  );
}
