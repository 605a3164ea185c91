import { describe, expect, it } from 'vitest';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { Agent } from '../../engine/agent/agent.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { a2aAgent } from './a2a-agent.js';
import { selectInterface } from './a2a-card.js';
import { A2ACardError } from './a2a-errors.js';

const card = {
  name: 'Research agent (v2)',
  description: 'Finds sources.',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: 'http://127.0.0.1:1/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
};

function issuesOf(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('a2aAgent() (B-4: building reads nothing and fails where it is written)', () => {
  it('takes its name and description from a given card, made to fit a tool name', () => {
    const remote = a2aAgent({ card });
    expect(remote).toMatchObject({ kind: 'remote-executor', name: 'Research_agent_v2', description: 'Finds sources.' });
    expect(remote.tool).toMatchObject({ kind: 'tool', name: 'Research_agent_v2', resumable: true });
  });

  it('lists every problem of its options at once', () => {
    expect(issuesOf(() => a2aAgent({ cardUrl: 'https://agents.example/.well-known/agent-card.json' }))).toEqual([
      'name: with cardUrl alone, give the name the model calls it by',
      'description: with cardUrl alone, say when to delegate to it',
    ]);
    expect(issuesOf(() => a2aAgent({ card, cardUrl: 'https://agents.example/card.json' }))).toEqual([
      'cardUrl: give exactly one of cardUrl and card',
    ]);
    expect(issuesOf(() => a2aAgent({ cardUrl: 'ftp://agents.example/card', name: 'bad name!', description: 'x' }))).toHaveLength(
      2,
    );
  });

  it('chooses the first JSON-RPC interface of protocol version 1.0, and refuses a card without one', () => {
    expect(selectInterface(card).url).toBe('http://127.0.0.1:1/a2a');
    expect(() => selectInterface({ ...card, supportedInterfaces: card.supportedInterfaces.slice(0, 2) })).toThrow(A2ACardError);
  });

  it('is an executor role of a Plan–Executor agent, validated with the others (D-1, L-3)', () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'done' }) });
    const build = (executors: unknown[]) =>
      new Agent({ name: 'team', mode: 'plan-executor', model, planner: { prompt: 'Plan.' }, executors: executors as never });
    expect(() =>
      build([a2aAgent({ card, name: 'researcher' }), { name: 'writer', description: 'Writes.', prompt: 'Write.' }]),
    ).not.toThrow();
    expect(
      issuesOf(() => build([a2aAgent({ card, name: 'writer' }), { name: 'writer', description: 'Writes.', prompt: 'Write.' }])),
    ).toEqual(['executors.1.name: duplicate executor name "writer"']);
    expect(issuesOf(() => build([{ name: 'writer', prompt: 'Write.' }]))).toEqual([
      'executors.0.description: Invalid input: expected string, received undefined',
    ]);
  });
});
