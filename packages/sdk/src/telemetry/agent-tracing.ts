import { type Context, context as otelContext, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { RunEvent } from '../engine/agent/run-events.js';

/** Options of `createAgentTracing`. */
export interface TracingOptions {
  /** Defaults to `trace.getTracer('@agentloom/sdk')`: a no-op until an OpenTelemetry SDK is registered. */
  tracer?: Tracer;
  /** Record prompts' outcomes, tool arguments and results on spans. Off by default (N-3). */
  recordContent?: boolean;
  /** Parent of the run's span, e.g. a workflow's `invoke_workflow` span. */
  parentContext?: Context;
}

/**
 * Turns one run's lifecycle events into OpenTelemetry GenAI spans (N-3): `invoke_agent` for the run
 * and for each executor task, `chat` for each model attempt and `execute_tool` for each tool
 * attempt, nested run ⊃ agent ⊃ model/tool. Attributes use the GenAI semantic-convention names;
 * prompts, tool arguments and results are not recorded unless `recordContent` is on. Tracing is an
 * observer of the run's events: it can never change or slow what the run does (K-10).
 */
export function createAgentTracing(options: TracingOptions = {}): (event: RunEvent) => void {
  const tracer = options.tracer ?? trace.getTracer('@agentloom/sdk');
  const recordContent = options.recordContent ?? false;
  let runSpan: Span | undefined;
  const taskSpans = new Map<string, Span>();
  const chatSpans = new Map<string, Span>();
  const toolSpans = new Map<string, Span>();
  const parentOf = (taskId: string): Context => {
    const parent = taskSpans.get(taskId) ?? runSpan;
    return parent ? trace.setSpan(otelContext.active(), parent) : (options.parentContext ?? otelContext.active());
  };
  const end = (spans: Map<string, Span>, key: string, error?: { type: string; message: string }) => {
    const span = spans.get(key);
    if (!span) return;
    if (error) {
      span.setAttribute('error.type', error.type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    span.end();
    spans.delete(key);
  };
  return (event) => {
    switch (event.type) {
      case 'run-start':
        runSpan = tracer.startSpan(
          `invoke_agent ${event.agentName}`,
          {
            attributes: {
              'gen_ai.operation.name': 'invoke_agent',
              'gen_ai.agent.name': event.agentName,
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
            `invoke_agent ${event.role}`,
            {
              attributes: {
                'gen_ai.operation.name': 'invoke_agent',
                'gen_ai.agent.name': event.role,
                'agentloom.task.id': event.taskId,
              },
            },
            parentOf(event.parentTaskId),
          ),
        );
        return;
      case 'model-call-start':
        chatSpans.set(
          event.taskId,
          tracer.startSpan(
            `chat ${event.modelId}`,
            {
              attributes: {
                'gen_ai.operation.name': 'chat',
                'gen_ai.provider.name': event.provider,
                'gen_ai.request.model': event.modelId,
                'agentloom.task.id': event.taskId,
              },
            },
            parentOf(event.taskId),
          ),
        );
        return;
      case 'model-call-finish': {
        const span = chatSpans.get(event.taskId);
        span?.setAttributes({
          'gen_ai.usage.input_tokens': event.usage.inputTokens,
          'gen_ai.usage.output_tokens': event.usage.outputTokens,
          'gen_ai.response.finish_reasons': [event.finishReason],
        });
        end(chatSpans, event.taskId);
        return;
      }
      case 'model-call-fail':
        end(chatSpans, event.taskId, { type: event.failure.kind, message: event.failure.message });
        return;
      case 'tool-call-start': {
        const span = tracer.startSpan(
          `execute_tool ${event.toolName}`,
          {
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': event.toolName,
              'gen_ai.tool.call.id': event.operationId,
              'agentloom.attempt': event.attempt,
            },
          },
          parentOf(event.taskId),
        );
        if (recordContent) span.setAttribute('gen_ai.tool.call.arguments', JSON.stringify(event.arguments ?? null));
        toolSpans.set(event.operationId, span);
        return;
      }
      case 'tool-call-fail':
        end(toolSpans, event.operationId, { type: event.failure.kind, message: event.failure.message });
        return;
      case 'tool-call-finish': {
        const span = toolSpans.get(event.operationId);
        if (span && recordContent) span.setAttribute('gen_ai.tool.call.result', event.content);
        end(
          toolSpans,
          event.operationId,
          event.failure ? { type: event.failure.kind, message: event.failure.message } : undefined,
        );
        return;
      }
      case 'task-finish':
        end(taskSpans, event.taskId, event.failure ? { type: event.failure.kind, message: event.failure.message } : undefined);
        return;
      case 'run-finish': {
        for (const key of [...toolSpans.keys()]) end(toolSpans, key);
        for (const key of [...chatSpans.keys()]) end(chatSpans, key);
        for (const key of [...taskSpans.keys()]) end(taskSpans, key);
        if (!runSpan) return;
        const result = event.result;
        runSpan.setAttributes({
          'agentloom.run.status': result.status,
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          'agentloom.run.loops': result.loops,
        });
        if (recordContent && result.output !== undefined) runSpan.setAttribute('agentloom.run.output', result.output);
        if (result.status !== 'succeeded') {
          runSpan.setAttribute('error.type', result.reason ?? result.status);
          runSpan.setStatus({ code: SpanStatusCode.ERROR, message: result.reason ?? result.status });
        }
        runSpan.end();
        runSpan = undefined;
        return;
      }
      default:
        return;
    }
  };
}
