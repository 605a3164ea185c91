import { callModel } from '../../model/call-model.js';
import type { TaskState } from './agent-state.js';
import { ensureContextFits, visibleContext } from './compression/index.js';
import { notifyHooks } from './governance/step-hooks.js';
import { renderTemplate } from './prompt-template.js';
import type { RoleDefinition, RunContext } from './run-context.js';

/**
 * The model step of a loop (L-1): sends the task's context and commits the complete response
 * as the loop's decision. Failed attempts are committed as incomplete records (S-9). A final
 * model failure is thrown as `ModelCallError` for the caller to end the task or run (S-10).
 */
export async function runModelStep(context: RunContext, startTask: TaskState, role: RoleDefinition): Promise<void> {
  const { durable, control } = context;
  await ensureContextFits(context, startTask, role);
  const task = durable.state.tasks.get(startTask.taskId) as TaskState;
  const messages = visibleContext(task);
  await notifyHooks(context, 'ModelRequest', task.taskId, { messages: messages.length, tools: role.toolDefinitions.length });
  const execution = durable.state.execution;
  const loop = task.loop;
  const response = await callModel(
    context.model,
    {
      system: renderTemplate(role.prompt, durable.state.variables),
      messages,
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
          taskId: task.taskId,
          loop,
          attempt,
          provider: context.model.provider,
          modelId: context.model.modelId,
        }),
      onAttemptFailed: (report) =>
        durable.commit(() => ({
          entries: [
            {
              type: 'model-attempt-failed',
              taskId: task.taskId,
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
        },
      },
    ],
  }));
}
