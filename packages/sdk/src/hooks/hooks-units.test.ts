import { describe, expect, it } from 'vitest';
import { Agent } from '../engine/agent/agent.js';
import type { RunEvent } from '../engine/agent/run-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type BusMessage, InMemoryEventBus } from './event-bus.js';
import { evaluatePermission } from './permission-policy.js';
import { runHookChain } from './run-hook-chain.js';

describe('evaluatePermission (N-1)', () => {
  const policy = {
    rules: [
      { tool: 'write_*', decision: 'allow' as const },
      { tool: 'write_file', arguments: { path: '/etc/**' }, decision: 'deny' as const, reason: 'system' },
      { tool: 'write_file', arguments: { path: /\.sql$/ }, decision: 'ask' as const },
      { tool: 'shell', decision: 'ask' as const },
    ],
    default: 'deny' as const,
  };

  it('ranks deny over ask over allow among matching rules, on tool names and argument patterns', () => {
    expect(evaluatePermission(policy, 'write_file', { path: '/etc/passwd' })).toEqual({ decision: 'deny', reason: 'system' });
    expect(evaluatePermission(policy, 'write_file', { path: 'db/migrate.sql' }).decision).toBe('ask');
    expect(evaluatePermission(policy, 'write_file', { path: 'notes.md' }).decision).toBe('allow');
    expect(evaluatePermission(policy, 'write_note', {}).decision).toBe('allow');
    expect(evaluatePermission(policy, 'shell', { command: 'ls' }).decision).toBe('ask');
  });

  it('applies the default when nothing matches, and allows without a policy', () => {
    expect(evaluatePermission(policy, 'read_file', {}).decision).toBe('deny');
    expect(evaluatePermission(undefined, 'anything', {}).decision).toBe('allow');
  });
});

describe('InMemoryEventBus (K-3)', () => {
  it('publishes every run event once with the trusted identity, and a failing listener disturbs nothing', async () => {
    const bus = new InMemoryEventBus<RunEvent>();
    const messages: BusMessage<RunEvent>[] = [];
    bus.subscribe(() => {
      throw new Error('broken listener');
    });
    const unsubscribe = bus.subscribe((message) => messages.push(message));
    const agent = new Agent({
      name: 'bus',
      mode: 'react',
      model: new ScriptedModel({ replies: [{ text: 'hi' }] }),
      prompt: 'p',
      eventBus: bus,
    });
    const run = agent.run({ sessionId: 'session-1', input: 'hello' });
    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect((await run.result()).output).toBe('hi');
    expect(messages.map((message) => message.event)).toEqual(events);
    expect(new Set(messages.map((message) => JSON.stringify(message.identity)))).toEqual(
      new Set([JSON.stringify({ runId: run.runId, sessionId: 'session-1', agentName: 'bus' })]),
    );
    unsubscribe();
    await agent.run({ sessionId: 'session-1', input: 'again' }).result();
    expect(messages).toHaveLength(events.length);
  });
});

describe('runHookChain failures (K-7)', () => {
  const identity = { runId: 'run-1', sessionId: 'session-1', agentName: 'a', role: 'main', taskId: 'task-1' };

  it('records the code of the error a failed hook threw, so a typed refusal stays typed in the journal', async () => {
    const refusal = Object.assign(new Error('refused by the egress policy'), { code: 'egress-denied' });
    const chain = await runHookChain(
      'UserPromptSubmit',
      [
        { name: 'typed', handle: () => Promise.reject(refusal) },
        { name: 'untyped', handle: () => Promise.reject(new Error('broken')) },
      ],
      { text: 'hello', source: 'input' },
      identity,
    );
    expect(chain.decision).toBe('allow');
    expect(chain.outcomes).toEqual([
      { hook: 'typed', outcome: 'error', reason: 'refused by the egress policy', code: 'egress-denied' },
      { hook: 'untyped', outcome: 'error', reason: 'broken' },
    ]);
  });
});
