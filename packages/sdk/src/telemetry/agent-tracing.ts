import {
  type Attributes,
  type Context,
  context as otelContext,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { RunEvent } from '../engine/agent/run-events.js';
import type { AgentTelemetryProfile, RoleTelemetryProfile } from './agent-profile.js';
import {
  ATTR_ATTEMPT,
  ATTR_GEN_AI_AGENT_DESCRIPTION,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_OPERATION_ID,
  ATTR_RUN_ID,
  ATTR_RUN_LOOPS,
  ATTR_RUN_OUTPUT,
  ATTR_RUN_REASON,
  ATTR_RUN_RESUMED,
  ATTR_RUN_STATUS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_TASK_ID,
  conventionalFinishReason,
  GENAI_SCHEMA_URL,
  OPERATION_CHAT,
  OPERATION_EXECUTE_TOOL,
  OPERATION_INVOKE_AGENT,
  TOOL_TYPE_FUNCTION,
} from './semantic-conventions.js';
import { type EndReason, endReasonOf, endSpan } from './span-ending.js';

/** Options of `createAgentTracing`. */
export interface TracingOptions {
  /** Defaults to the global tracer provider's `@agentloom/sdk` tracer: a no-op until an OpenTelemetry SDK is registered. */
  tracer?: Tracer;
  /** Record prompts' outcomes, tool arguments and results on spans. Off by default (N-3). */
  recordContent?: boolean;
  /** Parent of the run's span, e.g. a workflow's `workflow_task` span. */
  parentContext?: Context;
}

/**
 * An observer of one run's events that turns them into spans; `abandon` ends the spans still open
 * when the run settles in this process without its finish event (handed over with `detach`, lost
 * to a takeover, failed on its store), so that none is left unended and never exported.
 */
export interface RunTracing<Event> {
  (event: Event): void;
  abandon(reason: unknown): void;
}

/** The tracer to use when none is given: the global one, with the conventions' schema URL. */
export function defaultTracer(options: TracingOptions): Tracer {
  return options.tracer ?? trace.getTracerProvider().getTracer('@agentloom/sdk', undefined, { schemaUrl: GENAI_SCHEMA_URL });
}

/** An `invoke_agent` span and what its model calls added up to in this process. */
interface Invocation {
  span: Span;
  role: RoleTelemetryProfile | undefined;
  inputTokens: number;
  outputTokens: number;
  finishReason?: string;
}

/**
 * Turns one run's lifecycle events into OpenTelemetry GenAI spans (N-3) following the semantic
 * conventions v1.41.0 (docs/telemetry.md): an INTERNAL `invoke_agent` span for the run and for
 * each executor task, a CLIENT `chat` span for each model attempt and an INTERNAL `execute_tool`
 * span for each tool attempt, nested run ⊃ executor ⊃ model/tool. The profile gives what the
 * events do not carry (provider, endpoint, descriptions). Prompts, tool arguments and results are
 * recorded only with `recordContent`. Tracing observes the run's events: it never changes or slows
 * what the run does (K-10). Each process traces what it executes: a resumed run opens a new
 * `invoke_agent` span (`agentloom.run.resumed`), and work saved before is not traced again.
 */
export function createAgentTracing(options: TracingOptions, profile: AgentTelemetryProfile): RunTracing<RunEvent> {
  const tracer = defaultTracer(options);
  const recordContent = options.recordContent ?? false;
  let run: Invocation | undefined;
  let sessionId = '';
  const tasks = new Map<string, Invocation>();
  const chats = new Map<string, Span>();
  const tools = new Map<string, Span>();
  const contextOf = (span: Span | undefined) =>
    span ? trace.setSpan(otelContext.active(), span) : (options.parentContext ?? otelContext.active());
  const invocationOf = (taskId: string) => tasks.get(taskId) ?? run;
  const requestAttributes = (): Attributes => ({
    [ATTR_GEN_AI_PROVIDER_NAME]: profile.provider,
    [ATTR_GEN_AI_REQUEST_MODEL]: profile.modelId,
    [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
    ...(profile.maxOutputTokens !== undefined ? { [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: profile.maxOutputTokens } : {}),
  });
  const startInvocation = (name: string, role: RoleTelemetryProfile | undefined, attributes: Attributes, parent: Context) => ({
    span: tracer.startSpan(
      `${OPERATION_INVOKE_AGENT} ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: OPERATION_INVOKE_AGENT,
          ...requestAttributes(),
          [ATTR_GEN_AI_AGENT_NAME]: name,
          ...(role?.description ? { [ATTR_GEN_AI_AGENT_DESCRIPTION]: role.description } : {}),
          ...attributes,
        },
      },
      parent,
    ),
    role,
    inputTokens: 0,
    outputTokens: 0,
  });
  const endInvocation = (invocation: Invocation, reason?: EndReason) => {
    invocation.span.setAttributes({
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: invocation.inputTokens,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: invocation.outputTokens,
      ...(invocation.finishReason && !reason ? { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [invocation.finishReason] } : {}),
    });
    endSpan(invocation.span, reason);
  };
  /** Ends the spans still open, innermost first: calls, executor tasks, the run. */
  const endAll = (calls: EndReason | undefined, tasksReason: EndReason | undefined, runReason: EndReason | undefined) => {
    for (const span of [...tools.values(), ...chats.values()]) endSpan(span, calls);
    tools.clear();
    chats.clear();
    for (const invocation of tasks.values()) endInvocation(invocation, tasksReason);
    tasks.clear();
    if (run) endInvocation(run, runReason);
    run = undefined;
  };
  const observe = (event: RunEvent) => {
    switch (event.type) {
      case 'run-start':
        sessionId = event.sessionId;
        run = startInvocation(
          event.agentName,
          profile.entry,
          { [ATTR_RUN_ID]: event.runId, [ATTR_RUN_RESUMED]: event.resumed },
          options.parentContext ?? otelContext.active(),
        );
        return;
      case 'task-start':
        tasks.set(
          event.taskId,
          startInvocation(
            event.role,
            profile.executors[event.role],
            { [ATTR_RUN_ID]: event.runId, [ATTR_TASK_ID]: event.taskId },
            contextOf(invocationOf(event.parentTaskId)?.span),
          ),
        );
        return;
      case 'task-finish': {
        const invocation = tasks.get(event.taskId);
        tasks.delete(event.taskId);
        if (invocation)
          endInvocation(invocation, event.failure ? { error: event.failure.kind, message: event.failure.message } : undefined);
        return;
      }
      case 'model-call-start': {
        const server = profile.server;
        chats.set(
          event.taskId,
          tracer.startSpan(
            `${OPERATION_CHAT} ${event.modelId}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                [ATTR_GEN_AI_OPERATION_NAME]: OPERATION_CHAT,
                ...requestAttributes(),
                [ATTR_GEN_AI_PROVIDER_NAME]: event.provider,
                [ATTR_GEN_AI_REQUEST_MODEL]: event.modelId,
                [ATTR_GEN_AI_REQUEST_STREAM]: true,
                ...(server ? { [ATTR_SERVER_ADDRESS]: server.address, [ATTR_SERVER_PORT]: server.port } : {}),
                [ATTR_TASK_ID]: event.taskId,
                [ATTR_ATTEMPT]: event.attempt,
              },
            },
            contextOf(invocationOf(event.taskId)?.span),
          ),
        );
        return;
      }
      case 'model-call-finish': {
        const finishReason = conventionalFinishReason(event.finishReason);
        for (const invocation of new Set([invocationOf(event.taskId), run])) {
          if (!invocation) continue;
          invocation.inputTokens += event.usage.inputTokens;
          invocation.outputTokens += event.usage.outputTokens;
        }
        const invocation = invocationOf(event.taskId);
        if (invocation) invocation.finishReason = finishReason;
        const span = chats.get(event.taskId);
        chats.delete(event.taskId);
        if (!span) return;
        span.setAttributes({
          [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.usage.inputTokens,
          [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.usage.outputTokens,
          [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [finishReason],
          ...(event.response?.id ? { [ATTR_GEN_AI_RESPONSE_ID]: event.response.id } : {}),
          ...(event.response?.modelId ? { [ATTR_GEN_AI_RESPONSE_MODEL]: event.response.modelId } : {}),
        });
        endSpan(span);
        return;
      }
      case 'model-call-fail': {
        const span = chats.get(event.taskId);
        chats.delete(event.taskId);
        if (span) endSpan(span, { error: event.failure.kind, message: event.failure.message });
        return;
      }
      case 'tool-call-start': {
        const description = invocationOf(event.taskId)?.role?.tools[event.toolName];
        const span = tracer.startSpan(
          `${OPERATION_EXECUTE_TOOL} ${event.toolName}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              [ATTR_GEN_AI_OPERATION_NAME]: OPERATION_EXECUTE_TOOL,
              [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
              [ATTR_GEN_AI_TOOL_TYPE]: TOOL_TYPE_FUNCTION,
              ...(description ? { [ATTR_GEN_AI_TOOL_DESCRIPTION]: description } : {}),
              ...(event.toolCallId ? { [ATTR_GEN_AI_TOOL_CALL_ID]: event.toolCallId } : {}),
              [ATTR_OPERATION_ID]: event.operationId,
              [ATTR_ATTEMPT]: event.attempt,
              ...(recordContent ? { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: JSON.stringify(event.arguments ?? null) } : {}),
            },
          },
          contextOf(invocationOf(event.taskId)?.span),
        );
        tools.set(event.operationId, span);
        return;
      }
      case 'tool-call-fail': {
        const span = tools.get(event.operationId);
        tools.delete(event.operationId);
        if (span) endSpan(span, { error: event.failure.kind, message: event.failure.message });
        return;
      }
      case 'tool-call-finish': {
        const span = tools.get(event.operationId);
        tools.delete(event.operationId);
        if (!span) return;
        if (recordContent && !event.failure) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, event.content);
        endSpan(span, event.failure ? { error: event.failure.kind, message: event.failure.message } : undefined);
        return;
      }
      case 'run-finish': {
        const result = event.result;
        run?.span.setAttributes({
          [ATTR_RUN_STATUS]: result.status,
          [ATTR_RUN_LOOPS]: result.loops,
          ...(result.reason ? { [ATTR_RUN_REASON]: result.reason } : {}),
          ...(recordContent && result.output !== undefined ? { [ATTR_RUN_OUTPUT]: result.output } : {}),
        });
        const failed =
          result.status === 'failed'
            ? { error: result.reason ?? 'failed', message: `the run ended ${result.reason}` }
            : undefined;
        // Calls still open were cut by the end of the run (a deadline, a stop).
        const cut = { error: result.reason ?? 'run-ended', message: 'cut by the end of the run' };
        endAll(cut, cut, failed);
        return;
      }
      default:
        return;
    }
  };
  return Object.assign(observe, {
    abandon(reason: unknown) {
      if (!run) return;
      const ending = endReasonOf(reason);
      run.span.setAttribute(ATTR_RUN_STATUS, ending.status);
      endAll(ending.children, ending.run, ending.run);
    },
  });
}
