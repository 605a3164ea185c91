import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import type { SkillCatalog } from '../../capabilities/skills/load-skills.js';
import { tool } from '../../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import { type AgentConfig, agentConfigIssues } from './agent-config.js';

const model = new ScriptedModel({ replies: [{ text: 'hi' }] });
const echo = tool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

/** A real memory store that records every call made to it. */
function recordingStore(): { store: RunStore; calls: string[] } {
  const inner = new MemoryRunStore();
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { store, calls };
}

/** A skill catalogue whose one tool is `extra` (as a skills directory would add `read_skill`). */
function skillsWith(extra: typeof echo): SkillCatalog {
  return { skills: [], promptSection: '', tools: [extra] } as unknown as SkillCatalog;
}

function configError(config: unknown): InvalidConfigurationError {
  try {
    new Agent(config as AgentConfig);
  } catch (error) {
    if (InvalidConfigurationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected InvalidConfigurationError');
}

describe('new Agent', () => {
  it('validates the whole configuration at once and touches nothing (B-4)', () => {
    const { store, calls } = recordingStore();
    const error = configError({
      name: 'bad name!',
      mode: 'react',
      model: {},
      prompt: 42,
      tools: [echo, echo],
      execution: { maxLoops: 0, retry: { attempts: 0 }, parallel: 'yes' },
      store,
    });
    expect(error.code).toBe('invalid-configuration');
    const paths = error.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'name',
        'model',
        'prompt',
        'tools.1',
        'execution.maxLoops',
        'execution.retry.attempts',
        'execution.parallel',
      ]),
    );
    expect(error.message).toContain('duplicate tool name "echo"');
    expect(calls).toEqual([]);
  });

  it('names the valid modes when the mode is unknown', () => {
    const error = configError({ name: 'a', mode: 'swarm', model, prompt: '' });
    expect(error.issues[0]?.path).toBe('mode');
    expect(error.message).toMatch(/react/);
    expect(error.message).toMatch(/plan-executor/);
  });

  it('an unknown mode hides no other problem: every shared field is still reported, with its path', () => {
    const error = configError({
      name: 'bad name!',
      mode: 'swarm',
      model: {},
      execution: { maxLoops: -1 },
      leaseMs: 1,
    });
    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['mode', 'name', 'model', 'execution.maxLoops', 'leaseMs']),
    );
    expect(agentConfigIssues({ name: 'x', model, prompt: '' }).map((issue) => issue.path)).toEqual(['mode']);
  });

  it('agentConfigIssues is the path new Agent takes: the same issues, empty for a valid configuration', () => {
    const bad = { name: 'a', mode: 'plan-executor', model, planner: { prompt: 'p', tools: [echo] }, executors: [] };
    expect(configError(bad).issues).toEqual(agentConfigIssues(bad));
    // A tool name given twice once the workspace or skills are added is found by the same path.
    const twice = { name: 'a', mode: 'react', model, prompt: 'p', tools: [echo], skills: skillsWith(echo) };
    expect(agentConfigIssues(twice).map((issue) => issue.message)).toEqual([expect.stringContaining('"echo" is given twice')]);
    expect(agentConfigIssues({ name: 'ok', mode: 'react', model, prompt: 'p', tools: [echo] })).toEqual([]);
  });

  it('refuses a zod 3 schema with a message that says zod 4 (or JSON Schema) is needed', () => {
    const legacy = z3.object({ text: z3.string() });
    let thrown: unknown;
    try {
      tool({ name: 'old', description: 'd', parameters: legacy as never, execute: () => '' });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidConfigurationError).issues).toEqual([
      { path: 'parameters', message: expect.stringContaining('zod 3 schema') },
    ]);
    expect((thrown as Error).message).toMatch(/zod 4/);
    expect((thrown as Error).message).toMatch(/jsonSchemaTool/);
    const error = configError({ name: 'a', mode: 'react', model, prompt: '', outputSchema: legacy });
    expect(error.issues).toEqual([{ path: 'outputSchema', message: expect.stringContaining('zod 3 schema') }]);
  });

  it('rejects unknown keys instead of ignoring a typo', () => {
    const error = configError({ name: 'a', mode: 'react', model, prompt: '', execution: { maxLoop: 5 } });
    expect(error.issues.some((issue) => issue.path === 'execution' && /maxLoop/.test(issue.message))).toBe(true);
  });

  it('creates no run and calls no store until run() is called', () => {
    const { store, calls } = recordingStore();
    const agent = new Agent({ name: 'ok', mode: 'react', model, prompt: 'p', tools: [echo], store });
    expect(agent.name).toBe('ok');
    expect(calls).toEqual([]);
  });

  it('refuses a tool made without tool() and a tool with a bad name', () => {
    expect(() => tool({ name: 'has space', description: 'd', parameters: z.object({}), execute: () => '' })).toThrow(
      InvalidConfigurationError,
    );
    const error = configError({ name: 'a', mode: 'react', model, prompt: '', tools: [{ name: 'x' }] });
    expect(error.issues[0]?.path).toBe('tools.0');
  });
});
