import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { RunDetachedError } from '../core/errors/index.js';
import { Agent } from '../engine/agent/agent.js';
import { END, START } from '../engine/workflow/channels/channel-names.js';
import { appendList, lastValue } from '../engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import { interrupt } from '../engine/workflow/pregel/interrupt.js';
import type { ModelRequest } from '../model/language-model.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { Team } from '../teams/team.js';
import { handoff } from '../teams/topologies/handoff.js';
import { orchestrator } from '../teams/topologies/orchestrator.js';
import { taskBoard } from '../teams/topologies/task-board.js';
import { vote } from '../teams/topologies/vote.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { RunClient } from './run-client.js';
import {
  agentRunEventSchema,
  renderRunEventSchema,
  runEventSchema,
  workflowEventSchema,
  workflowRunEventSchema,
} from './run-event-schema.js';

const schemaFile = fileURLToPath(new URL('../../schemas/run-event.schema.json', import.meta.url));

/** The `type`s a union of event schemas has, read from the schemas themselves. */
function typesOf(union: { options: readonly { shape: { type: { value: string } } }[] }): string[] {
  return union.options.map((option) => option.shape.type.value).sort();
}

/**
 * Parses every event with `schema` (strict: an extra field fails too) and notes its type. A failure
 * names the event, so a drift between what a run emits and the schema is easy to find.
 */
function parseAll(schema: z.ZodType, events: readonly { type: string }[], seen: Set<string>): void {
  for (const event of events) {
    const parsed = schema.safeParse(event);
    expect(parsed.error?.issues ?? [], JSON.stringify(event)).toEqual([]);
    seen.add(event.type);
  }
}

async function collect<Event>(events: AsyncIterable<Event>): Promise<Event[]> {
  const seen: Event[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const toolResults = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool').length;

/**
 * Runs that between them emit every event type of both engines: a ReAct run with a failed model
 * attempt, a tool retry, a supplement and a rejected answer; one waiting for an approval; one handed
 * over, resumed and stopped; a Plan–Executor run; a workflow with a retried task, an agent node, a
 * loop limit and an interrupt; and a stopped workflow. Returns their live events and run ids.
 */
async function realRuns() {
  const store = new MemoryRunStore();
  const client = new RunClient({ store });
  const agentEvents: { type: string }[] = [];
  const workflowEvents: { type: string }[] = [];
  const runIds: string[] = [];

  // ReAct: model-call-fail, tool-call-fail, supplement-accept/-consume, answer-reject.
  let flakyCalls = 0;
  const flaky = tool({
    name: 'flaky',
    description: 'Fails once.',
    parameters: z.object({}),
    execute: () => {
      flakyCalls += 1;
      if (flakyCalls === 1) throw Object.assign(new Error('try again'), { retryable: true });
      return 'ok';
    },
  });
  const supplemented = deferred();
  const react = new Agent({
    name: 'react',
    mode: 'react',
    store,
    prompt: 'You help.',
    tools: [flaky],
    outputSchema: z.object({ answer: z.string() }),
    execution: { retry: { enabled: true, attempts: 2, waitMs: 0 } },
    model: new ScriptedModel({
      respond: async (_request, { index }) => {
        if (index === 0) return { error: { kind: 'server', message: 'busy' } };
        if (index === 1) {
          await supplemented.promise;
          return { toolCalls: [{ name: 'flaky', arguments: {} }] };
        }
        return index === 2 ? { text: 'not json' } : { text: '{"answer":"done"}' };
      },
    }),
  });
  const first = react.run({ sessionId: 'react', input: 'go' });
  for await (const event of first.events()) {
    agentEvents.push(event);
    if (event.type === 'model-call-fail') {
      await first.supplement('and also this');
      supplemented.resolve();
    }
  }
  expect(await first.result()).toMatchObject({ status: 'succeeded', output: '{"answer":"done"}' });
  runIds.push(first.runId);

  // A fallback chain: model-fallback, and model-call-finish with the model that answered (N-15).
  const chained = new Agent({
    name: 'chained',
    mode: 'react',
    store,
    prompt: 'You help.',
    execution: { retry: { enabled: false } },
    model: new ScriptedModel({ modelId: 'down', replies: [{ error: { kind: 'server', message: 'overloaded' } }] }),
    fallbackModels: [new ScriptedModel({ modelId: 'up', replies: [{ text: 'answered by the fallback' }] })],
  });
  const fallen = chained.run({ sessionId: 'chained', input: 'go' });
  agentEvents.push(...(await collect(fallen.events())));
  expect(await fallen.result()).toMatchObject({ status: 'succeeded', usageByModel: { 'scripted/up': expect.any(Object) } });
  runIds.push(fallen.runId);

  // Approvals: approval-request, approval-decide.
  const guarded = tool({ name: 'guarded', description: 'Needs approval.', parameters: z.object({}), execute: () => 'ran' });
  const approving = new Agent({
    name: 'approving',
    mode: 'react',
    store,
    prompt: 'You help.',
    tools: [guarded],
    permissions: { rules: [{ tool: 'guarded', decision: 'ask' }] },
    model: new ScriptedModel({
      respond: (request) => (toolResults(request) === 0 ? { toolCalls: [{ name: 'guarded', arguments: {} }] } : { text: 'done' }),
    }),
  });
  const second = approving.run({ sessionId: 'approving', input: 'go' });
  for await (const event of second.events()) {
    agentEvents.push(event);
    if (event.type === 'approval-request') {
      await client.decideApproval(second.runId, { approvalId: event.approvalId, approved: true, decidedBy: 'alice' });
    }
  }
  runIds.push(second.runId);

  // An MCP server's question to the user (ADR 0038): elicitation-request, elicitation-answer.
  const asking = tool({
    name: 'asking',
    description: 'Asks the user.',
    parameters: z.object({}),
    execute: async (_, context) =>
      (await context.requestElicitation?.({ key: 'q', server: 'shop', message: 'Size?', mode: 'form' }))?.action,
  });
  const eliciting = new Agent({
    name: 'eliciting',
    mode: 'react',
    store,
    prompt: 'You help.',
    tools: [asking],
    model: new ScriptedModel({
      respond: (request) => (toolResults(request) === 0 ? { toolCalls: [{ name: 'asking', arguments: {} }] } : { text: 'done' }),
    }),
  });
  const asked = eliciting.run({ sessionId: 'eliciting', input: 'go' });
  for await (const event of asked.events()) {
    agentEvents.push(event);
    if (event.type === 'elicitation-request')
      await client.answerElicitation(asked.runId, { elicitationId: event.elicitationId, action: 'decline' });
  }
  runIds.push(asked.runId);

  // A hand-over and a resume (run-start with `resumed`), then a stop (stop-request).
  const started = deferred();
  const release = deferred();
  const slow = tool({
    name: 'slow',
    description: 'Waits.',
    parameters: z.object({}),
    execute: async () => {
      started.resolve();
      await release.promise;
      return 'late';
    },
  });
  const handedOver = new Agent({
    name: 'handed-over',
    mode: 'react',
    store,
    prompt: 'You help.',
    tools: [slow],
    model: new ScriptedModel({
      respond: (request) => (toolResults(request) === 0 ? { toolCalls: [{ name: 'slow', arguments: {} }] } : { text: 'done' }),
    }),
  });
  const third = handedOver.run({ sessionId: 'handed-over', input: 'go' });
  const thirdEvents = collect(third.events());
  await started.promise;
  await third.detach({ settleMs: 0 });
  await expect(third.result()).rejects.toSatisfy(RunDetachedError.isInstance);
  agentEvents.push(...(await thirdEvents));
  const resumed = handedOver.run({ sessionId: 'handed-over', runId: third.runId });
  for await (const event of resumed.events()) {
    agentEvents.push(event);
    if (event.type === 'run-start') await resumed.stop({ reason: 'enough' });
  }
  expect(await resumed.result()).toMatchObject({ status: 'stopped' });
  release.resolve();
  runIds.push(third.runId);

  // Plan–Executor: task-start, task-finish.
  const team = new Agent({
    name: 'team',
    mode: 'plan-executor',
    store,
    planner: { prompt: 'PLAN' },
    executors: [{ name: 'researcher', description: 'Finds facts.', prompt: 'RESEARCH' }],
    model: new ScriptedModel({
      respond: (request) => {
        if (request.system !== 'PLAN') return { text: 'a fact' };
        return toolResults(request) === 0
          ? { toolCalls: [{ name: 'researcher', arguments: { task: 'Find it.' } }] }
          : { text: 'report' };
      },
    }),
  });
  const fourth = team.run({ sessionId: 'team', input: 'go' });
  agentEvents.push(...(await collect(fourth.events())));
  expect(await fourth.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(fourth.runId);

  // A workflow: task-retry, agent-invoke, agent-event, loop-limit, workflow-interrupt (and the rest).
  let wobblyCalls = 0;
  const wobbly = tool({
    name: 'wobbly',
    description: 'Fails once.',
    parameters: z.object({}),
    execute: () => {
      wobblyCalls += 1;
      if (wobblyCalls === 1) throw Object.assign(new Error('wobble'), { retryable: true });
      return 'steady';
    },
  });
  const ask = tool({
    name: 'ask',
    description: 'Asks a person.',
    parameters: z.object({}),
    execute: (_arguments, context) => interrupt<string>(context, { question: 'Publish?' }),
  });
  const helper = new Agent({
    name: 'helper',
    mode: 'react',
    store,
    prompt: 'You help.',
    model: new ScriptedModel({ replies: [{ text: 'hi' }] }),
  });
  const workflow = new WorkflowBuilder({
    name: 'everything',
    state: { notes: appendList(z.string()), answer: lastValue(z.string(), { default: '' }) },
  })
    .addCapabilityNode('wobbly', wobbly, { output: 'notes', retry: { attempts: 2, waitMs: 0 } })
    .addAgentNode('helper', helper, { input: () => 'hello', output: 'answer' })
    .addNode('again', () => ({ notes: ['again'] }))
    .addCapabilityNode('ask', ask, { output: 'answer' })
    .addEdge(START, 'wobbly')
    .addEdge('wobbly', 'helper')
    .addEdge('helper', 'again')
    .addLoop({ from: 'again', to: 'again', exit: 'ask', while: () => true, maxIterations: 1 })
    .addEdge('ask', END)
    .compile({ store });
  // A team (N-12): a handoff, then an answer: speaker-selected, team-turn, handoff, team-stop.
  const triage = {
    name: 'triage',
    instructions: 'T',
    model: new ScriptedModel({ replies: [{ toolCalls: [{ name: 'transfer_to_billing', arguments: {} }] }] }),
  };
  const billing = { name: 'billing', instructions: 'B', model: new ScriptedModel({ replies: [{ text: 'refunded' }] }) };
  const support = new Team({
    name: 'support',
    members: [triage, billing],
    topology: handoff({ entry: 'triage', handoffs: { triage: ['billing'] } }),
    store,
  });
  const teamRun = support.run({ sessionId: 'team-run', input: 'charged twice' });
  workflowEvents.push(...(await collect(teamRun.events())));
  expect(await teamRun.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(teamRun.runId);
  // An orchestrator: ledger-updated.
  const lead = new ScriptedModel({
    replies: [
      { text: '{"facts":"f","guesses":"g","plan":"p"}' },
      {
        text: '{"isRequestSatisfied":true,"isInLoop":false,"isProgressBeingMade":true,"nextSpeaker":"billing","instruction":"done"}',
      },
    ],
  });
  const led = new Team({ name: 'led', members: [billing], topology: orchestrator({ model: lead }), store });
  const ledRun = led.run({ sessionId: 'led-run', input: 'go' });
  workflowEvents.push(...(await collect(ledRun.events())));
  expect(await ledRun.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(ledRun.runId);
  // A task board with mail (task-claimed, mail-sent) and a vote (vote-cast).
  const mailer = {
    name: 'mailer',
    instructions: 'M',
    model: new ScriptedModel({
      replies: [{ text: 'built', toolCalls: [{ name: 'send_message', arguments: { to: 'billing', text: 'hi' } }] }],
    }),
  };
  const board = new Team({
    name: 'board',
    members: [mailer, billing],
    topology: taskBoard({ tasks: [{ id: 'build', description: 'Build.', assignee: 'mailer' }] }),
    store,
  });
  const boardRun = board.run({ sessionId: 'board-run', input: 'go' });
  workflowEvents.push(...(await collect(boardRun.events())));
  expect(await boardRun.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(boardRun.runId);
  const ballot = new Team({
    name: 'ballot',
    members: [{ name: 'voter', instructions: 'V', model: new ScriptedModel({ replies: [{ text: 'yes' }] }) }],
    topology: vote(),
    store,
  });
  const ballotRun = ballot.run({ sessionId: 'ballot-run', input: 'go?' });
  workflowEvents.push(...(await collect(ballotRun.events())));
  expect(await ballotRun.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(ballotRun.runId);

  const paused = workflow.run({ sessionId: 'w', input: {} });
  workflowEvents.push(...(await collect(paused.events())));
  expect(await paused.result()).toMatchObject({ status: 'interrupted' });
  const answered = workflow.run({ sessionId: 'w', runId: paused.runId, resume: 'yes' });
  workflowEvents.push(...(await collect(answered.events())));
  expect(await answered.result()).toMatchObject({ status: 'succeeded' });
  runIds.push(paused.runId);

  // A stopped workflow: stop-request.
  const gate = deferred();
  const entered = deferred();
  const waiting = tool({
    name: 'waiting',
    description: 'Waits.',
    parameters: z.object({}),
    execute: async () => {
      entered.resolve();
      await gate.promise;
      return 'settled';
    },
  });
  const stoppable = new WorkflowBuilder({ name: 'stoppable', state: { notes: appendList(z.string()) } })
    .addCapabilityNode('waiting', waiting, { output: 'notes' })
    .addEdge(START, 'waiting')
    .compile({ store });
  const stopped = stoppable.run({ sessionId: 'w', input: {} });
  const stoppedEvents = collect(stopped.events());
  await entered.promise;
  await stopped.stop();
  gate.resolve();
  workflowEvents.push(...(await stoppedEvents));
  expect(await stopped.result()).toMatchObject({ status: 'stopped' });
  runIds.push(stopped.runId);

  return { client, agentEvents, workflowEvents, runIds };
}

describe('the run event schema', () => {
  it('is rendered to schemas/run-event.schema.json (run `npm run schemas` when this fails)', () => {
    expect(readFileSync(schemaFile, 'utf8')).toBe(renderRunEventSchema());
  });

  it('describes agent and workflow events alike: the host union has both', () => {
    expect(runEventSchema.options).toEqual([agentRunEventSchema, workflowRunEventSchema]);
    expect(typesOf(workflowRunEventSchema)).toEqual(typesOf(workflowEventSchema));
    expect(typesOf(agentRunEventSchema)).toContain('run-finish');
    expect(typesOf(workflowEventSchema)).toContain('workflow-finish');
  });

  it('parses every event of real ReAct, Plan–Executor and workflow runs, live and read back, and each type occurs', async () => {
    const { client, agentEvents, workflowEvents, runIds } = await realRuns();
    const seenLive = new Set<string>();
    parseAll(agentRunEventSchema, agentEvents, seenLive);
    expect([...seenLive].sort()).toEqual(typesOf(agentRunEventSchema));
    const seenWorkflow = new Set<string>();
    parseAll(workflowEventSchema, workflowEvents, seenWorkflow);
    expect([...seenWorkflow].sort()).toEqual(typesOf(workflowEventSchema));
    expect(agentEvents.some((event) => event.type === 'run-start' && (event as { resumed?: boolean }).resumed)).toBe(true);

    // What a host streams: `RunClient.readEvents` of every run, inner agent runs included.
    const hosted = new Set<string>();
    const inner = workflowEvents.flatMap((event) =>
      'agentRunId' in event && typeof event.agentRunId === 'string' ? [event.agentRunId] : [],
    );
    for (const runId of [...runIds, ...inner]) parseAll(runEventSchema, await client.readEvents(runId), hosted);
    expect(hosted.size).toBeGreaterThan(10);
  });

  it('refuses an event that is not in the contract', () => {
    const start = { type: 'run-start', runId: 'r', sessionId: 's', agentName: 'a', resumed: false, epoch: 1, sequence: 1 };
    expect(runEventSchema.safeParse(start).success).toBe(true);
    expect(runEventSchema.safeParse({ ...start, type: 'run-started' }).success).toBe(false);
    expect(runEventSchema.safeParse({ ...start, extra: true }).success).toBe(false);
    expect(runEventSchema.safeParse({ ...start, sequence: undefined }).success).toBe(false);
  });
});
