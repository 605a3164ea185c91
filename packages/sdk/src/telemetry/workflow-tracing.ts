import { context as otelContext, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { RunEvent } from '../engine/agent/run-events.js';
import type { WorkflowEvent } from '../engine/workflow/workflow-events.js';
import type { AgentTelemetryProfile } from './agent-profile.js';
import { createAgentTracing, defaultTracer, type RunTracing, type TracingOptions } from './agent-tracing.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_WORKFLOW_NAME,
  ATTR_RUN_ID,
  ATTR_RUN_REASON,
  ATTR_RUN_RESUMED,
  ATTR_RUN_STATUS,
  ATTR_TASK_ID,
  ATTR_TASK_STATUS,
  ATTR_WORKFLOW_NODE,
  ATTR_WORKFLOW_STEP,
  OPERATION_INVOKE_WORKFLOW,
} from './semantic-conventions.js';
import { type EndReason, endReasonOf, endSpan } from './span-ending.js';

/**
 * Turns one workflow run's events into OpenTelemetry spans (N-3), semantic conventions v1.41.0
 * (docs/telemetry.md): an INTERNAL `invoke_workflow <name>` span for the run, an INTERNAL
 * `workflow_task <node>` span per task, and under an agent node's task the inner agent run's
 * GenAI spans (`invoke_agent` ⊃ `chat` / `execute_tool`), made from the `agent-event`s the
 * workflow forwards with the profile of the node's agent (`agents`, by node name). The workflow
 * traces its agent nodes' runs itself, so each invocation has exactly one `invoke_agent` span, in
 * the workflow's trace: an agent node never runs its agent's own tracing. Content is recorded
 * only with `recordContent`. An observer: it never changes or slows the run (K-10).
 */
export function createWorkflowTracing(
  workflowName: string,
  options: TracingOptions,
  agents: Readonly<Record<string, AgentTelemetryProfile>>,
): RunTracing<WorkflowEvent> {
  const tracer = defaultTracer(options);
  let runSpan: Span | undefined;
  const taskSpans = new Map<string, Span>();
  const agentTracings = new Map<string, RunTracing<RunEvent>>();
  const contextOf = (span: Span | undefined) =>
    span ? trace.setSpan(otelContext.active(), span) : (options.parentContext ?? otelContext.active());
  /** Ends the spans still open, innermost first: inner agents' (`abandon`), tasks', the run's. */
  const endAll = (agentReason: unknown, reason: EndReason | undefined) => {
    for (const tracing of agentTracings.values()) tracing.abandon(agentReason);
    agentTracings.clear();
    for (const span of taskSpans.values()) endSpan(span, reason);
    taskSpans.clear();
    if (runSpan) endSpan(runSpan, reason);
    runSpan = undefined;
  };
  const observe = (event: WorkflowEvent) => {
    switch (event.type) {
      case 'workflow-start':
        runSpan = tracer.startSpan(
          `${OPERATION_INVOKE_WORKFLOW} ${workflowName}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              [ATTR_GEN_AI_OPERATION_NAME]: OPERATION_INVOKE_WORKFLOW,
              [ATTR_GEN_AI_WORKFLOW_NAME]: workflowName,
              [ATTR_GEN_AI_CONVERSATION_ID]: event.sessionId,
              [ATTR_RUN_ID]: event.runId,
              [ATTR_RUN_RESUMED]: event.resumed,
            },
          },
          options.parentContext ?? otelContext.active(),
        );
        return;
      case 'task-start':
        taskSpans.set(
          event.taskId,
          tracer.startSpan(
            `workflow_task ${event.node}`,
            {
              kind: SpanKind.INTERNAL,
              attributes: {
                [ATTR_TASK_ID]: event.taskId,
                [ATTR_WORKFLOW_NODE]: event.node,
                [ATTR_WORKFLOW_STEP]: event.step,
              },
            },
            contextOf(runSpan),
          ),
        );
        return;
      case 'agent-event': {
        // Nothing is traced outside the workflow's own span (an event that arrives after it ended).
        if (!runSpan) return;
        let tracing = agentTracings.get(event.taskId);
        const profile = agents[event.node];
        if (!tracing && profile) {
          tracing = createAgentTracing({ ...options, parentContext: contextOf(taskSpans.get(event.taskId) ?? runSpan) }, profile);
          agentTracings.set(event.taskId, tracing);
        }
        tracing?.(event.event);
        return;
      }
      case 'task-finish': {
        const span = taskSpans.get(event.taskId);
        taskSpans.delete(event.taskId);
        // The inner run has finished by now; were it still open, it would end with the task.
        agentTracings.get(event.taskId)?.abandon({ code: event.failure?.kind ?? `task-${event.status}` });
        agentTracings.delete(event.taskId);
        if (!span) return;
        span.setAttribute(ATTR_TASK_STATUS, event.status);
        endSpan(
          span,
          event.status === 'failed'
            ? { error: event.failure?.kind ?? 'failed', message: event.failure?.message ?? 'the task failed' }
            : undefined,
        );
        return;
      }
      case 'workflow-finish': {
        const result = event.result;
        runSpan?.setAttributes({
          [ATTR_RUN_STATUS]: result.status,
          ...(result.reason ? { [ATTR_RUN_REASON]: result.reason } : {}),
        });
        const failed =
          result.status === 'failed'
            ? { error: result.reason ?? 'failed', message: `the workflow ended ${result.reason}` }
            : undefined;
        endAll({ code: result.reason ?? `workflow-${result.status}` }, failed);
        return;
      }
      case 'workflow-interrupt':
        // The run pauses: its spans end here; a resume opens a new `invoke_workflow` span.
        runSpan?.setAttribute(ATTR_RUN_STATUS, 'interrupted');
        endAll({ code: 'workflow-interrupted' }, undefined);
        return;
      default:
        return;
    }
  };
  return Object.assign(observe, {
    abandon(reason: unknown) {
      if (!runSpan) return;
      const ending = endReasonOf(reason);
      runSpan.setAttribute(ATTR_RUN_STATUS, ending.status);
      endAll(reason, ending.run);
    },
  });
}
