import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import type { Hook } from '../hooks/hook-types.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import type { AgentDefinition } from './agent-definition.js';
import { createAgent } from './create-agent.js';
import { InvalidDefinitionError } from './invalid-definition-error.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** Asks for add(2, 3), then answers with the result as JSON, first in a wrong shape (corrected, O-1). */
function model() {
  return new ScriptedModel({
    respond: (request) => {
      const results = request.messages.filter((message) => message.role === 'tool');
      const answers = request.messages.filter((message) => message.role === 'assistant' && !message.toolCalls?.length);
      if (results.length === 0) return { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
      if (answers.length === 0) return { text: JSON.stringify({ sum: String(results[0]?.content) }) };
      return { text: JSON.stringify({ sum: Number(results[0]?.content) }) };
    },
  });
}

const definition: AgentDefinition = {
  formatVersion: 1,
  kind: 'agent',
  name: 'adder',
  mode: 'react',
  model: 'default',
  prompt: 'You add numbers for {{who}} with the add tool.',
  variables: { who: 'the user' },
  tools: ['add'],
  outputSchema: {
    type: 'object',
    properties: { sum: { type: 'number' } },
    required: ['sum'],
    additionalProperties: false,
  },
  execution: { maxLoops: 5 },
  hooks: { PreToolUse: [{ hook: 'audit', matcher: ['add'] }] },
};

describe('createAgent', () => {
  it('builds an agent from data whose run uses the named model, tools, hooks and the JSON-Schema output format', async () => {
    const seen: string[] = [];
    const audit: Hook<'PreToolUse'> = {
      name: 'audit',
      handle: (subject) => {
        seen.push(subject.toolName);
        return undefined;
      },
    };
    const scripted = model();
    const agent = createAgent(definition, {
      models: { default: scripted },
      tools: [add],
      hooks: { audit: audit as Hook },
      store: new MemoryRunStore(),
    });
    const result = await agent.run({ sessionId: 's', input: 'What is 2 + 3?' }).result();
    expect(result.status).toBe('succeeded');
    expect(JSON.parse(result.output ?? '')).toEqual({ sum: 5 });
    expect(result.loops).toBe(3);
    expect(seen).toEqual(['add']);
    expect(scripted.requests[0]?.system).toBe('You add numbers for the user with the add tool.');
  });

  it('lists every format problem with its path', () => {
    const broken = {
      ...definition,
      formatVersion: 2,
      name: 'has space',
      prompt: undefined,
      outputSchema: { type: 'nope' },
      execution: { maxLoops: 0 },
    };
    const error = catchError(() => createAgent(broken, {}));
    expect(InvalidDefinitionError.isInstance(error)).toBe(true);
    const paths = (error as InvalidDefinitionError).problems.map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['formatVersion', 'name', 'prompt', 'outputSchema', 'execution.maxLoops']));
    expect((error as InvalidDefinitionError).problems.find((problem) => problem.path === 'formatVersion')?.message).toMatch(
      /reads definition format version 1/,
    );
  });

  it('lists every name the registry cannot resolve, and agent-level problems, as one error', () => {
    const planExecutor: AgentDefinition = {
      formatVersion: 1,
      kind: 'agent',
      name: 'team',
      mode: 'plan-executor',
      model: 'missing-model',
      planner: { prompt: 'Plan.', tools: ['add'] },
      executors: [
        { name: 'worker', description: 'Works.', prompt: 'Work.', tools: ['nope'], skills: ['no-skill'] },
        { name: 'other', description: 'Also works.', prompt: 'Work.', mcp: [{ server: 'fs' }] },
      ],
      hooks: { Stop: ['missing-hook'] },
      guardrails: { tool: ['missing-guard'] },
    };
    const error = catchError(() => createAgent(planExecutor, { tools: [add] })) as InvalidDefinitionError;
    expect(error.problems.map((problem) => problem.path).sort()).toEqual(
      [
        'model',
        'executors.0.tools.0',
        'executors.0.skills.0',
        'executors.1.mcp.0.server',
        'hooks.Stop.0',
        'guardrails.tool.0',
      ].sort(),
    );
    const clash = catchError(() =>
      createAgent(
        {
          ...planExecutor,
          model: 'default',
          hooks: {},
          guardrails: {},
          executors: [{ name: 'add', description: 'Adds.', prompt: 'Add.' }],
        },
        { models: { default: model() }, tools: [add] },
      ),
    ) as InvalidDefinitionError;
    expect(clash.code).toBe('invalid-definition');
    expect(clash.problems).toEqual([{ path: 'executors.0.name', message: expect.stringContaining('planner tool') }]);
  });

  it('a wrong mode hides no other format problem', () => {
    const error = catchError(() =>
      createAgent(
        { ...definition, mode: 'swarm', name: 'bad name!', execution: { maxLoops: 0 } },
        { models: { default: model() } },
      ),
    ) as InvalidDefinitionError;
    expect(error.code).toBe('invalid-definition');
    expect(error.problems.map((problem) => problem.path).sort()).toEqual(['execution.maxLoops', 'mode', 'name']);
  });

  it('reports registry problems and configuration problems together (one validation path)', () => {
    const error = catchError(() =>
      createAgent({ ...definition, model: 'missing-model', tools: ['add', 'add'], hooks: {} }, { tools: [add] }),
    ) as InvalidDefinitionError;
    expect(error.problems).toEqual([
      { path: 'model', message: expect.stringContaining('missing-model') },
      { path: 'tools.1', message: expect.stringContaining('duplicate tool name "add"') },
    ]);
  });
});

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
