/**
 * The orchestration patterns of N-9 as tested recipes: each `describe` builds one pattern from
 * complete agents (scripted models) and capabilities, the way an application would.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../testing/scripted-model.js';
import { Agent } from '../agent/agent.js';
import { END, START } from './channels/channel-names.js';
import { appendList, lastValue, mergeWith } from './channels/state-fields.js';
import { send } from './graph/graph-definition.js';
import { WorkflowBuilder } from './graph/workflow-builder.js';

const store = new MemoryRunStore();
const question = (request: ModelRequest) => request.messages[0]?.content ?? '';

/** A ReAct agent without tools whose answer is a function of its question. */
function agent(name: string, answer: (input: string) => string): Agent {
  const model = new ScriptedModel({ respond: (request): ScriptedReply => ({ text: answer(question(request)) }) });
  return new Agent({ name, mode: 'react', model, prompt: `You are the ${name}.`, store });
}

describe('pattern: chain (prompt chaining)', () => {
  it('passes each step’s output to the next, with a capability at the end', async () => {
    const format = tool({
      name: 'format',
      description: 'Formats a text as a title.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text.toUpperCase(),
    });
    const workflow = new WorkflowBuilder({
      name: 'chain',
      state: {
        topic: lastValue(z.string()),
        outline: lastValue(z.string()),
        draft: lastValue(z.string()),
        title: lastValue(z.string()),
      },
    })
      .addAgentNode(
        'outline',
        agent('outliner', (input) => `outline of ${input}`),
        { input: 'topic', output: 'outline' },
      )
      .addAgentNode(
        'draft',
        agent('drafter', (input) => `draft from ${input}`),
        { input: 'outline', output: 'draft' },
      )
      .addCapabilityNode('format', format, { input: { text: 'draft' }, output: 'title' })
      .addEdge(START, 'outline')
      .addEdge('outline', 'draft')
      .addEdge('draft', 'format')
      .addEdge('format', END)
      .compile({ store, output: ['title'] });
    const result = await workflow.run({ sessionId: 'chain', input: { topic: 'tides' } }).result();
    expect(result.output).toEqual({ title: 'DRAFT FROM OUTLINE OF TIDES' });
  });
});

describe('pattern: routing', () => {
  it('sends the request to the one specialist a classifier agent chose, among declared ones only', async () => {
    const classifier = agent('classifier', (input) => (input.includes('invoice') ? 'billing' : 'technical'));
    const workflow = new WorkflowBuilder({
      name: 'routing',
      state: { request: lastValue(z.string()), category: lastValue(z.string()), answer: lastValue(z.string()) },
    })
      .addAgentNode('classify', classifier, { input: 'request', output: 'category' })
      .addAgentNode(
        'billing',
        agent('billing-expert', (input) => `billing answer to ${input}`),
        { input: 'request', output: 'answer' },
      )
      .addAgentNode(
        'technical',
        agent('tech-expert', (input) => `technical answer to ${input}`),
        { input: 'request', output: 'answer' },
      )
      .addEdge(START, 'classify')
      .addConditionalEdges('classify', (state) => (state.category === 'billing' ? 'billing' : 'technical'), [
        'billing',
        'technical',
      ])
      .addEdge('billing', END)
      .addEdge('technical', END)
      .compile({ store, output: ['category', 'answer'] });
    const billing = await workflow.run({ sessionId: 'routing', input: { request: 'my invoice is wrong' } }).result();
    expect(billing.output).toEqual({ category: 'billing', answer: 'billing answer to my invoice is wrong' });
    const technical = await workflow.run({ sessionId: 'routing', input: { request: 'the app crashes' } }).result();
    expect(technical.output).toEqual({ category: 'technical', answer: 'technical answer to the app crashes' });
  });
});

describe('pattern: parallel (sectioning and voting)', () => {
  it('runs independent agents at once and merges their votes with a reducer', async () => {
    const votes = mergeWith(z.record(z.string(), z.number()), {
      initial: () => ({}),
      updateSchema: z.string(),
      merge: (current, vote) => ({ ...current, [vote]: (current[vote] ?? 0) + 1 }),
    });
    const builder = new WorkflowBuilder({
      name: 'voting',
      state: { code: lastValue(z.string()), votes, verdict: lastValue(z.string()) },
    });
    const judges = { strict: 'unsafe', lenient: 'safe', paranoid: 'unsafe' };
    for (const [name, vote] of Object.entries(judges)) {
      builder.addAgentNode(
        name,
        agent(`${name}-judge`, () => vote),
        { input: 'code', output: 'votes' },
      );
      builder.addEdge(START, name);
    }
    const decide = tool({
      name: 'decide',
      description: 'Takes the majority.',
      parameters: z.object({ votes: z.record(z.string(), z.number()) }),
      execute: ({ votes: counted }) => Object.entries(counted).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none',
    });
    const workflow = builder
      .addCapabilityNode('decide', decide, { input: { votes: 'votes' }, output: 'verdict' })
      .addEdge(Object.keys(judges), 'decide')
      .addEdge('decide', END)
      .compile({ store });
    const result = await workflow.run({ sessionId: 'voting', input: { code: 'eval(input)' } }).result();
    expect(result.output).toMatchObject({ votes: { unsafe: 2, safe: 1 }, verdict: 'unsafe' });
  });
});

describe('pattern: orchestrator–worker', () => {
  it('lets an orchestrator agent split the work, fans it out to worker agents, and synthesises once', async () => {
    const orchestrator = agent('orchestrator', () => JSON.stringify(['history', 'physics', 'ecology']));
    const worker = agent('worker', (input) => `notes on ${input}`);
    const synthesiser = agent('synthesiser', (input) => `report: ${input}`);
    const workflow = new WorkflowBuilder({
      name: 'orchestrator-worker',
      state: {
        goal: lastValue(z.string()),
        plan: lastValue(z.string()),
        notes: appendList(z.string()),
        report: lastValue(z.string()),
      },
    })
      .addAgentNode('orchestrate', orchestrator, { input: 'goal', output: 'plan' })
      .addFanOut('orchestrate', (state) => (JSON.parse(state.plan ?? '[]') as string[]).map((topic) => send('work', topic)), [
        'work',
      ])
      .addAgentNode('work', worker, { output: 'notes' })
      .addAgentNode('synthesise', synthesiser, { input: (state) => state.notes.join('; '), output: 'report' })
      .addEdge(START, 'orchestrate')
      .addEdge('work', 'synthesise')
      .addEdge('synthesise', END)
      .compile({ store, output: ['report'] });
    const result = await workflow.run({ sessionId: 'orchestrator', input: { goal: 'explain tides' } }).result();
    expect(result.output).toEqual({ report: 'report: notes on history; notes on physics; notes on ecology' });
  });
});

describe('pattern: evaluator–optimizer', () => {
  it('loops generator and evaluator agents until the evaluation passes, within a bound', async () => {
    const generator = agent('generator', (input) => `poem v${(input.match(/feedback/g) ?? []).length + 1}`);
    const evaluator = agent('evaluator', (input) => (input.endsWith('v3') ? 'PASS' : 'feedback: more rhyme'));
    const workflow = new WorkflowBuilder({
      name: 'evaluator-optimizer',
      state: { task: lastValue(z.string()), drafts: appendList(z.string()), reviews: appendList(z.string()) },
    })
      .addAgentNode('generate', generator, { input: (state) => [state.task, ...state.reviews].join('\n'), output: 'drafts' })
      .addAgentNode('evaluate', evaluator, { input: (state) => state.drafts.at(-1) ?? '', output: 'reviews' })
      .addEdge(START, 'generate')
      .addEdge('generate', 'evaluate')
      .addLoop({
        from: 'evaluate',
        to: 'generate',
        exit: END,
        while: (state) => state.reviews.at(-1) !== 'PASS',
        maxIterations: 5,
      })
      .compile({ store });
    const result = await workflow.run({ sessionId: 'optimizer', input: { task: 'write a poem' } }).result();
    expect(result.output?.drafts).toEqual(['poem v1', 'poem v2', 'poem v3']);
    expect(result.output?.reviews).toEqual(['feedback: more rhyme', 'feedback: more rhyme', 'PASS']);
  });
});
