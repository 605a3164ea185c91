import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutionLog, textTool } from '../../../../test/workflow/workflow-fixtures.js';
import { tool } from '../../../capabilities/tools/tool.js';
import { ScriptedModel } from '../../../testing/scripted-model.js';
import { Agent } from '../../agent/agent.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { type WorkflowIssue, WorkflowValidationError } from '../errors/workflow-errors.js';
import { send } from './graph-definition.js';
import { WorkflowBuilder } from './workflow-builder.js';

const log = new ExecutionLog();
const echo = textTool('echo', log);
const count = tool({
  name: 'count',
  description: 'Counts.',
  parameters: z.object({ n: z.number(), label: z.string().optional() }),
  execute: ({ n }) => n + 1,
});
const agent = new Agent({ name: 'writer', mode: 'react', model: new ScriptedModel({ replies: [] }), prompt: 'Write.' });
const state = { question: lastValue(z.string()), total: lastValue(z.number()), notes: appendList(z.string()) };

function issuesOf(build: (builder: WorkflowBuilder<typeof state>) => void): WorkflowIssue[] {
  const builder = new WorkflowBuilder({ name: 'checked', state });
  build(builder);
  try {
    builder.compile();
  } catch (error) {
    expect(WorkflowValidationError.isInstance(error)).toBe(true);
    expect(builder.validate()).toEqual((error as WorkflowValidationError).issues);
    return [...(error as WorkflowValidationError).issues];
  }
  return [];
}

describe('workflow validation before compile (W-4)', () => {
  it('accepts a valid graph', () => {
    expect(
      issuesOf((builder) =>
        builder
          .addCapabilityNode('ask', echo, { input: { text: 'question' }, output: 'notes' })
          .addEdge(START, 'ask')
          .addEdge('ask', END),
      ),
    ).toEqual([]);
  });

  it('reports unknown targets of edges, routes and loops', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('ask', echo, { input: { text: 'question' } })
        .addEdge(START, 'ask')
        .addEdge('ask', 'missing')
        .addConditionalEdges('ask', () => 'nowhere', ['nowhere'])
        .addLoop({ from: 'ask', to: 'gone', exit: END, while: () => true, maxIterations: 2 }),
    );
    expect(issues.filter((issue) => issue.code === 'unknown-node')).toEqual([
      expect.objectContaining({ node: 'missing', referencedBy: 'edge ask → missing' }),
      expect.objectContaining({ node: 'nowhere', referencedBy: 'the route after "ask"' }),
      expect.objectContaining({ node: 'gone', referencedBy: 'the loop ask → gone' }),
    ]);
  });

  it('reports a missing entry and unreachable nodes', () => {
    expect(issuesOf((builder) => builder.addCapabilityNode('ask', echo, { input: { text: 'question' } }))).toEqual([
      expect.objectContaining({ code: 'no-entry' }),
    ]);
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('ask', echo, { input: { text: 'question' } })
        .addCapabilityNode('island', echo, { input: { text: 'question' } })
        .addEdge(START, 'ask'),
    );
    expect(issues).toEqual([expect.objectContaining({ code: 'unreachable-node', node: 'island' })]);
  });

  it('reports missing bindings: an unbound required argument, an agent without input', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('sum', count, { input: { label: 'question' } })
        .addAgentNode('write', agent, { output: 'notes' })
        .addEdge(START, 'sum')
        .addEdge('sum', 'write'),
    );
    expect(issues).toEqual([
      expect.objectContaining({ code: 'missing-binding', node: 'sum', binding: 'input.n' }),
      expect.objectContaining({ code: 'missing-binding', node: 'write', binding: 'input' }),
    ]);
  });

  it('does not ask for an input binding on a node only reached by sends', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('plan', echo, { input: { text: 'question' } })
        .addAgentNode('worker', agent, { output: 'notes' })
        .addFanOut('plan', () => [send('worker', 'task')], ['worker'])
        .addEdge(START, 'plan'),
    );
    expect(issues).toEqual([]);
  });

  it('reports bindings to unknown fields', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('ask', echo, { input: { text: 'nope' as 'question' }, output: 'gone' as 'notes' })
        .addEdge(START, 'ask'),
    );
    expect(issues).toEqual([
      expect.objectContaining({ code: 'unknown-field', node: 'ask', field: 'nope', binding: 'input' }),
      expect.objectContaining({ code: 'unknown-field', node: 'ask', field: 'gone', binding: 'output' }),
    ]);
  });

  it('reports data-contract mismatches on inputs and outputs', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('sum', count, { input: { n: 'question' }, output: 'question', resultSchema: z.number() })
        .addAgentNode('write', agent, { input: 'question', output: 'total' })
        .addEdge(START, 'sum')
        .addEdge('sum', 'write'),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'data-contract-mismatch',
        node: 'sum',
        binding: 'input.n',
        field: 'question',
        expected: 'number',
        actual: 'string',
      }),
      expect.objectContaining({
        code: 'data-contract-mismatch',
        node: 'sum',
        binding: 'output',
        expected: 'string',
        actual: 'number',
      }),
      expect.objectContaining({
        code: 'data-contract-mismatch',
        node: 'write',
        binding: 'output',
        expected: 'number',
        actual: 'string',
      }),
    ]);
  });

  it('reports cycles without a bound, and malformed loops', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('a', echo, { input: { text: 'question' } })
        .addCapabilityNode('b', echo, { input: { text: 'question' } })
        .addEdge(START, 'a')
        .addEdge('a', 'b')
        .addEdge('b', 'a')
        .addLoop({ from: 'b', to: 'a', exit: END, while: () => true, maxIterations: 0 }),
    );
    expect(issues).toEqual([
      expect.objectContaining({ code: 'invalid-edge', node: 'b' }),
      expect.objectContaining({ code: 'unbounded-cycle', nodes: ['a', 'b'] }),
    ]);
  });

  it('reports duplicate and reserved names', () => {
    const issues = issuesOf((builder) =>
      builder
        .addCapabilityNode('a', echo, { input: { text: 'question' } })
        .addCapabilityNode('a', echo, { input: { text: 'question' } })
        .addCapabilityNode('b:c', echo, { input: { text: 'question' } })
        .addEdge(START, 'a'),
    );
    expect(issues.map((issue) => issue.code)).toEqual(['duplicate-node', 'reserved-name']);
  });

  it('rejects run policy errors at compile time', () => {
    const builder = new WorkflowBuilder({ name: 'policy', state })
      .addCapabilityNode('ask', echo, { input: { text: 'question' } })
      .addEdge(START, 'ask');
    expect(() => builder.compile({ maxSteps: 0 })).toThrow(/maxSteps/);
    expect(() => builder.compile({ output: ['unknown' as 'question'] })).toThrow(WorkflowValidationError);
  });
});
