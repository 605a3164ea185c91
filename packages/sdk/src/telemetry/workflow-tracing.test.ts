import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { Agent } from '../engine/agent/agent.js';
import { START } from '../engine/workflow/channels/channel-names.js';
import { lastValue } from '../engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import type { WorkflowEvent } from '../engine/workflow/workflow-events.js';
import { type BusMessage, InMemoryEventBus } from '../hooks/event-bus.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';

/** Span names as an indented tree, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = (parent: string | undefined) =>
    spans
      .filter((span) => {
        const of = span.parentSpanContext?.spanId;
        return (of && ids.has(of) ? of : undefined) === parent;
      })
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of children(parent)) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

describe('workflow telemetry and event bus (N-3, K-3)', () => {
  it('nests invoke_workflow ⊃ workflow_task ⊃ the agent node’s one invoke_agent ⊃ chat / execute_tool, and publishes every event', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const store = new MemoryRunStore();
    const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found' });
    const model = new ScriptedModel({
      modelId: 'scripted-1',
      respond: (request) =>
        request.messages.some((message) => message.role === 'tool') ? { text: 'answer' } : { toolCalls: [{ name: 'lookup' }] },
    });
    // The agent traces its own runs too: as a node, its invocation is traced once, in the workflow's trace.
    const agent = new Agent({
      name: 'researcher',
      mode: 'react',
      model,
      prompt: 'Research.',
      tools: [lookup],
      store,
      telemetry: { tracer: provider.getTracer('agent') },
    });
    const stamp = tool({
      name: 'stamp',
      description: 'Stamps.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => `[${text}]`,
    });
    const bus = new InMemoryEventBus<WorkflowEvent>();
    const published: BusMessage<WorkflowEvent>[] = [];
    bus.subscribe((message) => published.push(message));
    const workflow = new WorkflowBuilder({
      name: 'traced-flow',
      state: { question: lastValue(z.string()), answer: lastValue(z.string()), stamped: lastValue(z.string()) },
    })
      .addAgentNode('research', agent, { input: 'question', output: 'answer' })
      .addCapabilityNode('stamp', stamp, { input: { text: 'answer' }, output: 'stamped' })
      .addEdge(START, 'research')
      .addEdge('research', 'stamp')
      .compile({ store, telemetry: { tracer: provider.getTracer('test') }, eventBus: bus });
    const run = workflow.run({ sessionId: 's', input: { question: 'q' } });
    expect(await run.result()).toMatchObject({ status: 'succeeded', output: { stamped: '[answer]' } });
    expect(tree(exporter.getFinishedSpans())).toEqual([
      'invoke_workflow traced-flow',
      '  workflow_task research',
      '    invoke_agent researcher',
      '      chat scripted-1',
      '      execute_tool lookup',
      '      chat scripted-1',
      '  workflow_task stamp',
    ]);
    const root = exporter.getFinishedSpans().find((span) => span.name === 'invoke_workflow traced-flow');
    expect(root?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'traced-flow',
      'agentloom.run.id': run.runId,
    });
    expect(root?.attributes['agentloom.workflow.name']).toBeUndefined();
    expect(published.map((message) => message.event.type)).toContain('workflow-finish');
    expect(
      published.every((message) => message.identity.runId === run.runId && message.identity.agentName === 'traced-flow'),
    ).toBe(true);
  });
});
