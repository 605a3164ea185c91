import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { OwnershipLostError, RunDetachedError } from '../core/errors/index.js';
import { Agent } from '../engine/agent/agent.js';
import type { RunEvent } from '../engine/agent/run-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createAgentTracing } from './agent-tracing.js';

const PLANNER_PROMPT = 'SECRET PLANNER PROMPT';
const WORKER_PROMPT = 'SECRET WORKER PROMPT';

function team(recordContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up.',
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => `value of ${key}`,
  });
  const model = new ScriptedModel({
    modelId: 'scripted-1',
    respond: (request) => {
      const done = request.messages.some((message) => message.role === 'tool');
      if (request.system === PLANNER_PROMPT)
        return done ? { text: 'final report' } : { toolCalls: [{ name: 'worker', arguments: { task: 'look up secret-key' } }] };
      return done ? { text: 'found it' } : { toolCalls: [{ name: 'lookup', arguments: { key: 'secret-key' } }] };
    },
  });
  const agent = new Agent({
    name: 'traced-team',
    mode: 'plan-executor',
    model,
    planner: { prompt: PLANNER_PROMPT },
    executors: [{ name: 'worker', description: 'Looks things up.', prompt: WORKER_PROMPT, tools: [lookup] }],
    telemetry: { tracer: provider.getTracer('test'), recordContent },
  });
  return { agent, exporter };
}

/** Renders spans as an indented tree of names, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = (byParent.get(parent) ?? []).sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    for (const child of children) {
      lines.push(`${'  '.repeat(depth)}${child.name}`);
      walk(child.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

describe('OpenTelemetry GenAI spans (N-3)', () => {
  it('nests a Plan–Executor run as invoke_agent ⊃ invoke_agent / chat / execute_tool, without content by default', async () => {
    const { agent, exporter } = team(false);
    const result = await agent.run({ sessionId: 'session-7', input: 'find the secret-key value' }).result();
    expect(result.status).toBe('succeeded');
    const spans = exporter.getFinishedSpans();
    expect(tree(spans)).toEqual([
      'invoke_agent traced-team',
      '  chat scripted-1',
      '  invoke_agent worker',
      '    chat scripted-1',
      '    execute_tool lookup',
      '    chat scripted-1',
      '  chat scripted-1',
    ]);
    const root = spans.find((span) => span.name === 'invoke_agent traced-team');
    expect(root?.kind).toBe(SpanKind.INTERNAL);
    expect(root?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-1',
      'gen_ai.agent.name': 'traced-team',
      'gen_ai.conversation.id': 'session-7',
      'gen_ai.response.finish_reasons': ['stop'],
      'agentloom.run.status': 'succeeded',
    });
    const worker = spans.find((span) => span.name === 'invoke_agent worker');
    expect(worker?.attributes).toMatchObject({
      'gen_ai.agent.description': 'Looks things up.',
      'gen_ai.conversation.id': 'session-7',
    });
    const chats = spans.filter((span) => span.name === 'chat scripted-1');
    expect(chats.map((span) => span.kind)).toEqual(chats.map(() => SpanKind.CLIENT));
    expect(chats[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-1',
      'gen_ai.request.stream': true,
      'gen_ai.response.model': 'scripted-1',
      'gen_ai.response.id': 'scripted-1-response-1',
      'gen_ai.response.finish_reasons': ['tool_call'],
    });
    // The tokens of the root invocation are those of every model call it made, executors' included.
    const sum = (key: string) => chats.reduce((total, span) => total + Number(span.attributes[key]), 0);
    expect(root?.attributes['gen_ai.usage.input_tokens']).toBe(sum('gen_ai.usage.input_tokens'));
    expect(root?.attributes['gen_ai.usage.output_tokens']).toBe(sum('gen_ai.usage.output_tokens'));
    const toolSpan = spans.find((span) => span.name === 'execute_tool lookup');
    expect(toolSpan?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Looks up.',
      // The id the model gave the call; AgentLoom's own operation id beside it.
      'gen_ai.tool.call.id': 'call_1_0',
      'agentloom.operation.id': 'entry/1/0/1/0',
    });
    const everything = JSON.stringify(
      spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    for (const secret of [PLANNER_PROMPT, WORKER_PROMPT, 'secret-key', 'find the secret-key value', 'final report'])
      expect(everything).not.toContain(secret);
  });

  it('records tool arguments, results and the output only when content recording is on', async () => {
    const { agent, exporter } = team(true);
    await agent.run({ sessionId: 's', input: 'go' }).result();
    const spans = exporter.getFinishedSpans();
    expect(spans.find((span) => span.name === 'execute_tool lookup')?.attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"key":"secret-key"}',
      'gen_ai.tool.call.result': 'value of secret-key',
    });
    expect(spans.find((span) => span.name === 'invoke_agent traced-team')?.attributes['agentloom.run.output']).toBe(
      'final report',
    );
  });

  it('ends the spans left open when a run settles without its finish: a handover is no error of the run, a lost ownership is', () => {
    const cases = [
      { reason: new RunDetachedError('run-1', 's'), status: 'detached', run: undefined, cut: 'run-detached' },
      { reason: new OwnershipLostError('run-1'), status: 'ownership-lost', run: 'ownership-lost', cut: 'ownership-lost' },
    ];
    for (const { reason, status, run, cut } of cases) {
      const { agent } = team(false);
      const exporter = new InMemorySpanExporter();
      const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
      const observe = createAgentTracing({ tracer }, agent.telemetryProfile);
      const events: RunEvent[] = [
        { type: 'run-start', runId: 'run-1', sessionId: 's', agentName: 'traced-team', resumed: false, epoch: 1, sequence: 1 },
        { type: 'task-start', runId: 'run-1', taskId: 'entry/1/0', role: 'worker', parentTaskId: 'entry', sequence: 4 },
        {
          type: 'model-call-start',
          runId: 'run-1',
          taskId: 'entry/1/0',
          loop: 1,
          attempt: 1,
          provider: 'scripted',
          modelId: 'scripted-1',
          sequence: 5,
        },
      ];
      for (const event of events) observe(event);
      expect(exporter.getFinishedSpans()).toEqual([]);
      observe.abandon(reason);
      const spans = exporter.getFinishedSpans();
      const errorOf = (name: string) => spans.find((span) => span.name === name)?.attributes['error.type'];
      expect(spans.map((span) => span.name)).toEqual(['chat scripted-1', 'invoke_agent worker', 'invoke_agent traced-team']);
      expect(spans.find((span) => span.name === 'invoke_agent traced-team')?.attributes['agentloom.run.status']).toBe(status);
      expect([errorOf('chat scripted-1'), errorOf('invoke_agent worker'), errorOf('invoke_agent traced-team')]).toEqual([
        cut,
        run,
        run,
      ]);
      expect(spans.map((span) => span.status.code === SpanStatusCode.ERROR)).toEqual([
        true,
        run !== undefined,
        run !== undefined,
      ]);
    }
  });
});
