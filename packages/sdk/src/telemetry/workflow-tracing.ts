import { context as otelContext, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RunEvent } from '../engine/agent/run-events.js';
import type { WorkflowEvent } from '../engine/workflow/workflow-events.js';
import { createAgentTracing, type TracingOptions } from './agent-tracing.js';

/**
 * Turns one workflow run's events into OpenTelemetry spans (N-3): `invoke_workflow <name>` for the
 * run, one `workflow_task <node>` per task, and under an agent node's task the inner agent run's
 * own GenAI spans (`invoke_agent` ⊃ `chat` / `execute_tool`), fed from the `agent-event`s the
 * workflow forwards. Content is recorded only with `recordContent`. An observer: it can never
 * change or slow the run (K-10).
 */
export function createWorkflowTracing(workflowName: string, options: TracingOptions = {}): (event: WorkflowEvent) => void {
  const tracer = options.tracer ?? trace.getTracer('@agentloom/sdk');
  let runSpan: Span | undefined;
  const taskSpans = new Map<string, Span>();
  const agentTracers = new Map<string, (event: RunEvent) => void>();
  const contextOf = (span: Span | undefined) =>
    span ? trace.setSpan(otelContext.active(), span) : (options.parentContext ?? otelContext.active());
  return (event) => {
    switch (event.type) {
      case 'workflow-start':
        runSpan = tracer.startSpan(
          `invoke_workflow ${workflowName}`,
          {
            attributes: {
              'gen_ai.operation.name': 'invoke_workflow',
              'agentloom.workflow.name': workflowName,
              'gen_ai.conversation.id': event.sessionId,
              'agentloom.run.id': event.runId,
              'agentloom.run.resumed': event.resumed,
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
              attributes: {
                'agentloom.task.id': event.taskId,
                'agentloom.workflow.node': event.node,
                'agentloom.workflow.step': event.step,
              },
            },
            contextOf(runSpan),
          ),
        );
        return;
      case 'agent-event': {
        let observe = agentTracers.get(event.taskId);
        if (!observe) {
          observe = createAgentTracing({ ...options, parentContext: contextOf(taskSpans.get(event.taskId) ?? runSpan) });
          agentTracers.set(event.taskId, observe);
        }
        observe(event.event);
        return;
      }
      case 'task-finish': {
        const span = taskSpans.get(event.taskId);
        if (!span) return;
        if (event.status === 'failed') {
          span.setAttribute('error.type', event.failure?.kind ?? 'failed');
          span.setStatus({ code: SpanStatusCode.ERROR, message: event.failure?.message ?? 'the task failed' });
        }
        span.setAttribute('agentloom.task.status', event.status);
        span.end();
        taskSpans.delete(event.taskId);
        agentTracers.delete(event.taskId);
        return;
      }
      case 'workflow-finish': {
        for (const span of taskSpans.values()) span.end();
        taskSpans.clear();
        if (!runSpan) return;
        runSpan.setAttribute('agentloom.run.status', event.result.status);
        if (event.result.reason) runSpan.setAttribute('agentloom.run.reason', event.result.reason);
        if (event.result.status === 'failed') {
          runSpan.setAttribute('error.type', event.result.reason ?? 'failed');
          runSpan.setStatus({ code: SpanStatusCode.ERROR, message: `workflow ended ${event.result.reason ?? 'failed'}` });
        }
        runSpan.end();
        runSpan = undefined;
        return;
      }
      case 'workflow-interrupt':
        // The run pauses: its span ends here; a resume opens a new one.
        runSpan?.setAttribute('agentloom.run.status', 'interrupted');
        runSpan?.end();
        runSpan = undefined;
        return;
      default:
        return;
    }
  };
}
