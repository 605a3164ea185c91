/**
 * Conformance of AgentLoom's spans to the OpenTelemetry GenAI semantic conventions v1.41.0
 * (docs/telemetry.md): the finished spans of a ReAct run, a Plan–Executor run, a workflow run
 * with agent nodes, a failing run, a run over a real provider adapter and a workflow taken over
 * by another instance are read from the OpenTelemetry SDK's in-memory exporter and checked
 * against the conventions' table (`__fixtures__/genai-conventions.ts`).
 */
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { Agent } from '../engine/agent/agent.js';
import { END, START } from '../engine/workflow/channels/channel-names.js';
import { lastValue } from '../engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import { createOpenAICompatible } from '../providers/openai-compatible/openai-compatible-provider.js';
import { readEventData, readHttpFixture } from '../providers/testing/http-fixture.js';
import { type ReplayServer, startReplayServer } from '../providers/testing/replay-server.js';
import { weatherAgent } from '../providers/testing/weather-task.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import type { RunStore } from '../store/run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type ConformanceFacts, checkConformance } from './__fixtures__/genai-conventions.js';

const PLANNER = 'You plan and delegate.';
const descriptions = {
  researcher: 'Finds facts with the lookup tool.',
  team: 'Plans research and delegates it.',
  worker: 'Looks things up.',
};
const toolDescriptions = { lookup: 'Looks a key up.', stamp: 'Stamps a text.' };
const facts: ConformanceFacts = { agentDescriptions: descriptions, toolDescriptions, recordContent: false };

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('conformance') };
}

/** Calls `lookup` until the conversation holds a tool result, then answers; the planner delegates to `worker`. */
function scriptedModel() {
  return new ScriptedModel({
    modelId: 'scripted-1',
    respond: (request) => {
      const done = request.messages.some((message) => message.role === 'tool');
      if (request.system === PLANNER)
        return done ? { text: 'report' } : { toolCalls: [{ name: 'worker', arguments: { task: 'look up k' } }] };
      return done ? { text: 'found' } : { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] };
    },
  });
}

function agents(model: ScriptedModel, store: RunStore, telemetry: ReturnType<typeof tracing>['tracer']) {
  let lookups = 0;
  const lookup = tool({
    name: 'lookup',
    description: toolDescriptions.lookup,
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => {
      lookups += 1;
      return `value of ${key}`;
    },
  });
  const react = new Agent({
    name: 'researcher',
    description: descriptions.researcher,
    mode: 'react',
    model,
    modelSettings: { maxOutputTokens: 512 },
    prompt: 'You research.',
    tools: [lookup],
    store,
    telemetry: { tracer: telemetry },
  });
  const team = new Agent({
    name: 'team',
    description: descriptions.team,
    mode: 'plan-executor',
    model,
    modelSettings: { maxOutputTokens: 512 },
    planner: { prompt: PLANNER },
    executors: [{ name: 'worker', description: descriptions.worker, prompt: 'You look things up.', tools: [lookup] }],
    store,
    telemetry: { tracer: telemetry },
  });
  return { react, team, lookups: () => lookups };
}

const count = (spans: readonly ReadableSpan[], operation: string) =>
  spans.filter((span) => span.attributes['gen_ai.operation.name'] === operation).length;

describe('GenAI semantic conventions v1.41.0: conformance of the spans (N-3)', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a ReAct run: 0 problems, every recommended attribute that applies present', async () => {
    const { exporter, tracer } = tracing();
    const model = scriptedModel();
    const { react, lookups } = agents(model, new MemoryRunStore(), tracer);
    expect((await react.run({ sessionId: 'session-react', input: 'find k' }).result()).status).toBe('succeeded');
    const spans = exporter.getFinishedSpans();
    expect(checkConformance(spans, { ...facts, maxOutputTokens: 512 })).toEqual({ problems: [], recommendedMissing: [] });
    expect(count(spans, 'chat')).toBe(model.requestCount);
    expect(count(spans, 'execute_tool')).toBe(lookups());
  });

  it('a Plan–Executor run: 0 problems, the executor an invoke_agent inside the planner’s', async () => {
    const { exporter, tracer } = tracing();
    const model = scriptedModel();
    const { team, lookups } = agents(model, new MemoryRunStore(), tracer);
    expect((await team.run({ sessionId: 'session-team', input: 'find k' }).result()).status).toBe('succeeded');
    const spans = exporter.getFinishedSpans();
    expect(checkConformance(spans, { ...facts, maxOutputTokens: 512 })).toEqual({ problems: [], recommendedMissing: [] });
    expect(count(spans, 'invoke_agent')).toBe(2);
    expect(count(spans, 'chat')).toBe(model.requestCount);
    expect(count(spans, 'execute_tool')).toBe(lookups());
  });

  it('a workflow whose agents trace themselves too: one trace, each agent node invoked once, nested in its workflow_task', async () => {
    const { exporter, tracer } = tracing();
    const store = new MemoryRunStore();
    const model = scriptedModel();
    const { react, team, lookups } = agents(model, store, tracer);
    const stamp = tool({
      name: 'stamp',
      description: toolDescriptions.stamp,
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => `[${text}]`,
    });
    const workflow = new WorkflowBuilder({
      name: 'research-flow',
      state: {
        question: lastValue(z.string()),
        facts: lastValue(z.string()),
        report: lastValue(z.string()),
        stamped: lastValue(z.string()),
      },
    })
      .addAgentNode('research', react, { input: 'question', output: 'facts' })
      .addAgentNode('plan', team, { input: 'facts', output: 'report' })
      .addCapabilityNode('stamp', stamp, { input: { text: 'report' }, output: 'stamped' })
      .addEdge(START, 'research')
      .addEdge('research', 'plan')
      .addEdge('plan', 'stamp')
      .addEdge('stamp', END)
      .compile({ store, telemetry: { tracer } });
    const run = workflow.run({ sessionId: 'session-flow', input: { question: 'k?' } });
    expect((await run.result()).status).toBe('succeeded');
    const spans = exporter.getFinishedSpans();
    expect(checkConformance(spans, { ...facts, maxOutputTokens: 512 })).toEqual({ problems: [], recommendedMissing: [] });
    // research's agent, team's planner and its worker: three invocations, each traced once.
    expect(count(spans, 'invoke_agent')).toBe(3);
    expect(count(spans, 'chat')).toBe(model.requestCount);
    expect(count(spans, 'execute_tool')).toBe(lookups());
    const root = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_workflow');
    expect(root?.attributes).toMatchObject({ 'gen_ai.workflow.name': 'research-flow', 'agentloom.run.id': run.runId });
  });

  it('a failing run: error.type on the failed chat and on the agent, the span status ERROR', async () => {
    const { exporter, tracer } = tracing();
    const model = new ScriptedModel({
      modelId: 'scripted-1',
      respond: () => ({ text: 'par', error: { kind: 'server', message: 'upstream broke' } }),
    });
    const agent = new Agent({
      name: 'researcher',
      description: descriptions.researcher,
      mode: 'react',
      model,
      prompt: 'You research.',
      telemetry: { tracer },
    });
    expect(await agent.run({ sessionId: 'session-failing', input: 'find k' }).result()).toMatchObject({ status: 'failed' });
    const spans = exporter.getFinishedSpans();
    expect(checkConformance(spans, facts)).toEqual({ problems: [], recommendedMissing: [] });
    const chat = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chat?.attributes['error.type']).toBe('server');
    const agentSpan = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(agentSpan?.attributes['error.type']).toBe('model-failed');
  });

  it('a run over the OpenAI-compatible adapter: server address and port, response id and model from the provider', async () => {
    const fixture = (name: string) =>
      readHttpFixture(new URL(`../providers/openai-compatible/__fixtures__/${name}.http`, import.meta.url));
    server = await startReplayServer([{ fixture: fixture('parallel-tool-calls') }, { fixture: fixture('weather-answer') }]);
    const { exporter, tracer } = tracing();
    const model = createOpenAICompatible({ apiKey: 'test-key', baseURL: `${server.baseURL}/v1` })('gpt-5.4-mini');
    const { agent, calls } = weatherAgent(model, { telemetry: { tracer } });
    expect((await agent.run({ sessionId: 'session-weather', input: 'Weather in Paris and Tokyo?' }).result()).status).toBe(
      'succeeded',
    );
    const spans = exporter.getFinishedSpans();
    const serverFacts: ConformanceFacts = {
      ...facts,
      serverAddress: '127.0.0.1',
      toolDescriptions: { get_weather: 'Current temperature of a city.' },
    };
    expect(checkConformance(spans, serverFacts)).toEqual({ problems: [], recommendedMissing: [] });
    expect(count(spans, 'execute_tool')).toBe(calls.length);
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const recorded = ['parallel-tool-calls', 'weather-answer'].map((name) => readEventData(fixture(name))[0]);
    expect(chats.map((span) => span.attributes)).toEqual(
      recorded.map((chunk) =>
        expect.objectContaining({
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-5.4-mini',
          'gen_ai.response.id': chunk?.id,
          'gen_ai.response.model': chunk?.model,
          'server.address': '127.0.0.1',
          'server.port': Number(new URL(server?.baseURL ?? '').port),
        }),
      ),
    );
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool_call'], ['stop']]);
  });

  it('a workflow handed over to another instance: each instance’s spans conform, nothing is traced twice or lost', async () => {
    const store = new MemoryRunStore();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const reachedTool = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let lookups = 0;
    /** One instance of the workflow, as another process would build it, with its own exporter. */
    const instance = (gated: boolean) => {
      const traced = tracing();
      const model = scriptedModel();
      const lookup = tool({
        name: 'lookup',
        description: toolDescriptions.lookup,
        parameters: z.object({ key: z.string() }),
        execute: async ({ key }) => {
          lookups += 1;
          if (gated) {
            reached();
            await released;
          }
          return `value of ${key}`;
        },
      });
      const agent = new Agent({
        name: 'researcher',
        description: descriptions.researcher,
        mode: 'react',
        model,
        prompt: 'You research.',
        tools: [lookup],
        store,
        leaseMs: 600_000,
        telemetry: { tracer: traced.tracer },
      });
      const workflow = new WorkflowBuilder({
        name: 'handover',
        state: { question: lastValue(z.string()), facts: lastValue(z.string()) },
      })
        .addAgentNode('research', agent, { input: 'question', output: 'facts' })
        .addEdge(START, 'research')
        .addEdge('research', END)
        .compile({ store, leaseMs: 600_000, telemetry: { tracer: traced.tracer } });
      return { ...traced, model, workflow };
    };
    const first = instance(true);
    const run = first.workflow.run({ sessionId: 'session-handover', input: { question: 'k?' } });
    await reachedTool;
    // The host hands the run over; the tool call in flight settles within the bound and is kept.
    const detached = run.detach({ settleMs: 60_000 });
    release();
    await detached;
    const second = instance(false);
    const resumed = second.workflow.run({ sessionId: 'session-handover', runId: run.runId });
    expect((await resumed.result()).status).toBe('succeeded');

    const before = first.exporter.getFinishedSpans();
    const after = second.exporter.getFinishedSpans();
    for (const spans of [before, after]) expect(checkConformance(spans, facts)).toEqual({ problems: [], recommendedMissing: [] });
    const agentSpan = (spans: readonly ReadableSpan[]) =>
      spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(agentSpan(before)?.attributes).toMatchObject({ 'agentloom.run.resumed': false, 'agentloom.run.status': 'detached' });
    expect(agentSpan(after)?.attributes).toMatchObject({ 'agentloom.run.resumed': true, 'agentloom.run.status': 'succeeded' });
    expect(agentSpan(after)?.attributes['agentloom.run.id']).toBe(agentSpan(before)?.attributes['agentloom.run.id']);
    // Each model call and each tool execution has exactly one span, in the instance that made it.
    expect([count(before, 'chat'), count(after, 'chat')]).toEqual([first.model.requestCount, second.model.requestCount]);
    expect(count(before, 'execute_tool') + count(after, 'execute_tool')).toBe(lookups);
  });
});
