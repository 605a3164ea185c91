import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaTool } from '../capabilities/tools/json-schema-tool.js';
import { tool } from '../capabilities/tools/tool.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createWorkflow } from './create-workflow.js';
import { InvalidDefinitionError } from './invalid-definition-error.js';
import type { WorkflowDefinition } from './workflow-definition.js';

const addOne = tool({
  name: 'add_one',
  description: 'Adds one.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => n + 1,
});
const split = tool({
  name: 'split',
  description: 'Splits a text into words, each as { text }.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.split(' ').map((word) => ({ text: word })),
});
const echo = jsonSchemaTool<{ text: string }>({
  name: 'echo',
  description: 'Returns its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }) => text,
});

/** A loop (add_one while n < 3), a fan-out over the words, a join and a declarative route. */
function definition(maxIterations: number): WorkflowDefinition {
  return {
    formatVersion: 1,
    kind: 'workflow',
    name: 'counter',
    state: {
      n: { reducer: 'last-value', schema: { type: 'number' }, default: 0 },
      sentence: { reducer: 'last-value', schema: { type: 'string' } },
      words: { reducer: 'last-value', schema: { type: 'array', items: { type: 'object' } } },
      log: { reducer: 'append', schema: { type: 'string' } },
      totals: { reducer: 'merge', merge: 'object', schema: { type: 'object' } },
    },
    nodes: [
      { name: 'increment', kind: 'capability', tool: 'add_one', input: { n: 'n' }, output: 'n' },
      { name: 'split', kind: 'capability', tool: 'split', input: { text: 'sentence' }, output: 'words' },
      { name: 'echo', kind: 'capability', tool: 'echo', output: 'log' },
      { name: 'gather', kind: 'capability', tool: 'echo', input: { text: { value: 'gathered' } }, output: 'log' },
      { name: 'big', kind: 'capability', tool: 'echo', input: { text: { value: 'big' } }, output: 'log' },
      { name: 'small', kind: 'capability', tool: 'echo', input: { text: { value: 'small' } }, output: 'log' },
    ],
    edges: [
      { from: 'START', to: 'increment' },
      { from: 'echo', to: 'gather' },
      { from: 'big', to: 'END' },
      { from: 'small', to: 'END' },
    ],
    loops: [{ from: 'increment', to: 'increment', exit: 'split', while: { field: 'n', lessThan: 3 }, maxIterations }],
    fanOuts: [{ from: 'split', to: 'echo', forEach: 'words' }],
    routes: [
      {
        from: 'gather',
        when: [
          {
            if: {
              all: [
                { field: 'n', greaterThanOrEqual: 3 },
                { field: 'log', contains: 'gathered' },
              ],
            },
            to: 'big',
          },
        ],
        otherwise: 'small',
      },
    ],
    output: ['n', 'log'],
  };
}

const registry = () => ({ tools: [addOne, split, echo], store: new MemoryRunStore() });

describe('createWorkflow', () => {
  it('runs loops, fan-outs, joins and declarative routes from data', async () => {
    const workflow = createWorkflow(definition(10), registry());
    const result = await workflow.run({ sessionId: 's', input: { sentence: 'alpha beta' } }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ n: 3, log: ['alpha', 'beta', 'gathered', 'big'] });

    const bounded = createWorkflow(definition(1), registry());
    const short = await bounded.run({ sessionId: 's', input: { sentence: 'one' } }).result();
    expect(short.output).toEqual({ n: 1, log: ['one', 'gathered', 'small'] });
  });

  it('runs an inline agent node whose input is a template over the state', async () => {
    const model = new ScriptedModel({ respond: (request) => ({ text: `answered: ${request.messages[0]?.content}` }) });
    const workflow = createWorkflow(
      {
        formatVersion: 1,
        kind: 'workflow',
        name: 'ask',
        state: {
          topic: { reducer: 'last-value', schema: { type: 'string' } },
          notes: { reducer: 'append', schema: { type: 'string' } },
          answer: { reducer: 'last-value', schema: { type: 'string' } },
        },
        agents: {
          expert: { formatVersion: 1, kind: 'agent', name: 'expert', mode: 'react', model: 'default', prompt: 'Answer.' },
        },
        nodes: [
          { name: 'ask', kind: 'agent', agent: 'expert', input: { template: 'About {{topic}}:\n{{notes}}' }, output: 'answer' },
        ],
        edges: [
          { from: 'START', to: 'ask' },
          { from: 'ask', to: 'END' },
        ],
      },
      { models: { default: model }, store: new MemoryRunStore() },
    );
    const result = await workflow.run({ sessionId: 's', input: { topic: 'tides', notes: ['moon', 'sun'] } }).result();
    expect(result.output?.answer).toBe('answered: About tides:\nmoon\n\nsun');
  });

  it('lists every problem with its path: names, fields, and the graph issues of compile()', () => {
    const broken = definition(3);
    broken.nodes.push({ name: 'orphan', kind: 'capability', tool: 'echo', input: { text: 'sentence' } });
    broken.nodes.push({ name: 'ghost', kind: 'capability', tool: 'no_such_tool' });
    broken.routes?.push({
      from: 'orphan',
      when: [{ if: { field: 'nothing.here', exists: true }, to: 'END' }],
      otherwise: 'END',
    });
    let error: unknown;
    try {
      createWorkflow(broken, registry());
    } catch (caught) {
      error = caught;
    }
    expect(InvalidDefinitionError.isInstance(error)).toBe(true);
    const problems = (error as InvalidDefinitionError).problems;
    expect(problems.map((problem) => problem.path)).toEqual(['nodes.7.tool', 'routes.1.when.0.if']);

    delete broken.nodes[7];
    broken.nodes.length = 7;
    broken.routes?.pop();
    try {
      createWorkflow(broken, registry());
    } catch (caught) {
      error = caught;
    }
    expect((error as InvalidDefinitionError).problems).toEqual([
      { path: 'nodes.6', message: expect.stringContaining('[unreachable-node]') },
    ]);
  });
});
