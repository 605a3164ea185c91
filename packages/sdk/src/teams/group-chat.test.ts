import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/language-model.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../testing/scripted-model.js';
import {
  and,
  ExternalStop,
  groupChat,
  maxMessages,
  maxTurns,
  or,
  Team,
  type TeamMember,
  textMention,
  tokenBudget,
} from './index.js';

function member(name: string, respond: (request: ModelRequest) => ScriptedReply, privateContext?: string[]) {
  const model = new ScriptedModel({ respond });
  const config: TeamMember = { name, instructions: `You are ${name}.`, model, ...(privateContext ? { privateContext } : {}) };
  return { config, model };
}

const turnsSoFar = (request: ModelRequest) => request.messages.length;

describe('groupChat topology', () => {
  it('round-robin: members speak in declared order on one shared transcript, each with its private context', async () => {
    const writer = member('writer', (request) => ({ text: `draft ${turnsSoFar(request)}`, reasoning: 'keep it short' }), [
      'house style: terse',
    ]);
    const critic = member('critic', (request) => ({ text: `critique ${turnsSoFar(request)}` }));
    const team = new Team({
      name: 'chat',
      members: [writer.config, critic.config],
      topology: groupChat(),
      termination: maxTurns(4),
    });
    const result = await team.run({ sessionId: 's', input: 'Write a haiku' }).result();
    expect(result.output?.transcript?.map((message) => `${message.speaker}:${message.text}`)).toEqual([
      'writer:draft 1',
      'critic:critique 2',
      'writer:draft 3',
      'critic:critique 4',
    ]);
    expect(result.output?.termination).toEqual({ reason: 'max-turns', conditions: ['max-turns'], turns: 4 });
    expect(result.output?.answer).toBe('critique 4');
    // Private context: the writer's own note and its earlier reasoning reach the writer only.
    expect(writer.model.requests[1]?.system).toContain('house style: terse');
    expect(writer.model.requests[1]?.system).toContain('keep it short');
    expect(
      critic.model.requests.every((request) => !request.system.includes('terse') && !request.system.includes('keep it short')),
    ).toBe(true);
    // The shared transcript: the critic sees the writer's message as quoted data.
    expect(critic.model.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: '[writer]: draft 1' });
  });

  it('selector model: an invalid name is retried; the saved choice says after how many attempts', async () => {
    let calls = 0;
    const selector = new ScriptedModel({
      respond: () => {
        calls += 1;
        return { text: calls === 1 ? 'nobody' : 'b' };
      },
    });
    const a = member('a', () => ({ text: 'from a' }));
    const b = member('b', () => ({ text: 'from b DONE' }));
    const team = new Team({
      name: 'selector',
      members: [a.config, b.config],
      topology: groupChat({ speaker: { model: selector } }),
      termination: textMention('DONE'),
    });
    const run = team.run({ sessionId: 's', input: 'go' });
    const events: unknown[] = [];
    for await (const event of run.events()) if (event.type === 'speaker-selected') events.push(event);
    const result = await run.result();
    expect(result.output?.termination?.reason).toBe('text-mention');
    expect(events).toEqual([expect.objectContaining({ speaker: 'b', by: 'selector-model', attempts: 2 })]);
    expect(selector.requests[1]?.messages.at(-1)?.content).toMatch(/"nobody" is not a candidate/);
  });

  it('selector model: no valid name within maxAttempts fails the run with a typed failure', async () => {
    const selector = new ScriptedModel({ respond: () => ({ text: 'everyone' }) });
    const a = member('a', () => ({ text: 'x' }));
    const b = member('b', () => ({ text: 'y' }));
    const team = new Team({
      name: 'bad-selector',
      members: [a.config, b.config],
      topology: groupChat({ speaker: { model: selector, maxAttempts: 2 } }),
    });
    const result = await team.run({ sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('failed');
    expect(result.reason).toBe('node-failed');
    expect(result.failure).toMatchObject({ node: 'turn', kind: 'invalid-result', failure: { kind: 'invalid-result' } });
    expect(selector.requestCount).toBe(2);
  });

  it("selector model: its choice is saved apart from the turn by default, with it when told ('with-turn')", async () => {
    const outcomes = [];
    for (const saveChoice of ['apart', 'with-turn'] as const) {
      let calls = 0;
      const selector = new ScriptedModel({
        respond: () => {
          calls += 1;
          return { text: calls % 2 === 1 ? 'a' : 'b' };
        },
      });
      const a = member('a', (request) => ({ text: `a saw ${turnsSoFar(request)}` }));
      const b = member('b', (request) => ({ text: `b saw ${turnsSoFar(request)}` }));
      const store = new MemoryRunStore();
      const team = new Team({
        name: 'selector',
        members: [a.config, b.config],
        topology: groupChat({ speaker: { model: selector, saveChoice } }),
        maxTurns: 4,
        store,
      });
      const result = await team.run({ sessionId: 's', input: 'go' }).result();
      const journal = await store.readJournal(result.runId);
      const tasks = journal.filter((entry) => entry.type === 'task-finished');
      outcomes.push({ transcript: result.output?.transcript, tasks: tasks.length, selectorCalls: selector.requestCount });
      if (saveChoice === 'apart') {
        // A choice saved apart: the selection's writes in their order, its next speaker with the coming turn.
        const writes = ((tasks[2] as (typeof tasks)[number]).data as { writes: [string, unknown][] }).writes;
        expect(writes.map(([field]) => field)).toEqual(['usage', 'next', 'teamEvents', 'loop:turn', 'to:turn']);
        expect(JSON.stringify(writes[1])).toBe(JSON.stringify(['next', { speaker: 'b', turn: 2 }]));
      }
    }
    const [apart, withTurn] = outcomes;
    // The same conversation and the same selector calls either way.
    expect(withTurn?.transcript).toEqual(apart?.transcript);
    expect(apart?.transcript?.map((message) => message.speaker)).toEqual(['a', 'b', 'a', 'b']);
    expect(withTurn?.selectorCalls).toBe(apart?.selectorCalls);
    // Apart: a task per choice and one per turn; with the turn: one per turn. The last turn's
    // task also finds the team ended (max turns): no task after it.
    expect(apart?.tasks).toBe(8);
    expect(withTurn?.tasks).toBe(4);
  });

  it('a speaker function chooses among candidates without the last speaker (no repeat by default)', async () => {
    const seen: string[][] = [];
    const a = member('a', () => ({ text: 'a' }));
    const b = member('b', () => ({ text: 'b' }));
    const c = member('c', () => ({ text: 'c' }));
    const team = new Team({
      name: 'fn',
      members: [a.config, b.config, c.config],
      topology: groupChat({
        speaker: (view) => {
          seen.push([...view.candidates]);
          return view.candidates.at(-1) as string;
        },
      }),
      termination: maxMessages(3),
    });
    const result = await team.run({ sessionId: 's', input: 'go' }).result();
    expect(result.output?.transcript?.map((message) => message.speaker)).toEqual(['c', 'b', 'c']);
    expect(seen).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b'],
      ['a', 'c'],
    ]);
  });
});

describe('composable termination', () => {
  const chat = (termination: Parameters<typeof and>[0], externalStop?: ExternalStop) => {
    const a = member('a', () => ({ text: 'hello', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }));
    const b = member('b', () => ({ text: 'FINISH now', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }));
    return new Team({
      name: 't',
      members: [a.config, b.config],
      topology: groupChat(),
      termination,
      ...(externalStop ? { externalStop } : {}),
    });
  };

  it('or: the first condition that holds ends the team, recorded with its typed reason', async () => {
    const result = await chat(or(maxTurns(10), tokenBudget({ totalTokens: 40 })))
      .run({ sessionId: 's', input: 'go' })
      .result();
    expect(result.output?.termination).toEqual({ reason: 'token-budget', conditions: ['token-budget'], turns: 3 });
    expect(result.usage.totalTokens).toBe(45);
  });

  it('and: ends only when every condition holds, and records all of them', async () => {
    const result = await chat(and(textMention('FINISH'), maxTurns(4)))
      .run({ sessionId: 's', input: 'go' })
      .result();
    expect(result.output?.termination).toEqual({ reason: 'text-mention', conditions: ['text-mention', 'max-turns'], turns: 4 });
  });

  it('an external stop ends the team at the next turn boundary', async () => {
    const stop = new ExternalStop();
    const a = member('a', () => ({ text: 'hello' }));
    const b = member('b', () => {
      stop.set();
      return { text: 'stop after me' };
    });
    const team = new Team({
      name: 'ext',
      members: [a.config, b.config],
      topology: groupChat(),
      termination: maxTurns(10),
      externalStop: stop,
    });
    const result = await team.run({ sessionId: 's', input: 'go' }).result();
    expect(result.output?.termination).toEqual({ reason: 'external-stop', conditions: ['external-stop'], turns: 2 });
  });

  it('a stop of the run reaches the member speaking: the run ends user-stop, no later member speaks', async () => {
    let run: ReturnType<Team['run']> | undefined;
    const a = member('a', () => ({ text: 'first' }));
    const b = member('b', () => {
      void run?.stop({ reason: 'enough' });
      return { text: 'second', delayMs: 200 };
    });
    const c = member('c', () => ({ text: 'third' }));
    const team = new Team({
      name: 'stop',
      members: [a.config, b.config, c.config],
      topology: groupChat(),
      termination: maxTurns(10),
    });
    run = team.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    expect(c.model.requestCount).toBe(0);
  });

  it('every team has a hard cap of turns (maxTurns, default 50)', async () => {
    const a = member('a', () => ({ text: 'again' }));
    const team = new Team({ name: 'cap', members: [a.config], topology: groupChat({ allowRepeat: true }), maxTurns: 3 });
    const result = await team.run({ sessionId: 's', input: 'go' }).result();
    expect(result.output?.termination?.reason).toBe('max-turns');
    expect(result.output?.turns).toBe(3);
  });
});
