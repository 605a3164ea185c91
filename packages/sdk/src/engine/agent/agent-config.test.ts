import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { AgentConfig } from './agent-config.js';

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
