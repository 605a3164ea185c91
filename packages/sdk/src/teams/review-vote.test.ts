import { describe, expect, it } from 'vitest';
import { RunClient } from '../client/run-client.js';
import type { ModelRequest } from '../model/language-model.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../testing/scripted-model.js';
import { evaluatorOptimizer, review, Team, type TeamMember, vote } from './index.js';

function member(name: string, respond: (request: ModelRequest) => ScriptedReply): TeamMember & { model: ScriptedModel } {
  return { name, instructions: `You are ${name}.`, model: new ScriptedModel({ respond }) };
}
const lastContent = (request: ModelRequest) => request.messages.at(-1)?.content ?? '';

describe('review topology', () => {
  it('verifies each found problem separately and drops the unverified ones', async () => {
    const alice = member('alice', () => ({ text: JSON.stringify(['off-by-one in the loop', 'typo in a comment']) }));
    const bob = member('bob', () => ({ text: '```json\n["SQL injection in search"]\n```' }));
    const verifier = member('verifier', (request) => ({
      text: JSON.stringify({ verified: !lastContent(request).includes('typo') }),
    }));
    const team = new Team({
      name: 'review',
      members: [alice, bob, verifier],
      topology: review({ reviewers: ['alice', 'bob'], verifier: 'verifier' }),
    });
    const result = await team.run({ sessionId: 's', input: 'Review this patch' }).result();
    expect(result.output?.termination?.reason).toBe('completed');
    expect(JSON.parse(result.output?.answer ?? '')).toEqual([
      { reviewer: 'alice', description: 'off-by-one in the loop' },
      { reviewer: 'bob', description: 'SQL injection in search' },
    ]);
    // One verification per problem, each seeing that problem only.
    expect(verifier.model.requestCount).toBe(3);
    expect(verifier.model.requests.map((request) => request.messages.length)).toEqual([1, 1, 1]);
  });
});

describe('evaluatorOptimizer topology', () => {
  it('regenerates with the feedback until the evaluator passes a draft', async () => {
    const writer = member('writer', (request) => ({ text: `draft ${request.messages.length}` }));
    const judge = member('judge', (request) => ({
      text: JSON.stringify(
        lastContent(request).includes('draft 3') ? { pass: true, feedback: 'good' } : { pass: false, feedback: 'shorter' },
      ),
    }));
    const team = new Team({
      name: 'eo',
      members: [writer, judge],
      topology: evaluatorOptimizer({ generator: 'writer', evaluator: 'judge' }),
    });
    const result = await team.run({ sessionId: 's', input: 'Write a slogan' }).result();
    expect(result.output).toMatchObject({ answer: 'draft 3', termination: { reason: 'completed' }, turns: 4 });
    expect(writer.model.requests[1]?.messages.at(-1)?.content).toContain('[judge]: shorter');
  });

  it('stops at maxIterations with the last draft (iteration-limit)', async () => {
    const writer = member('writer', (request) => ({ text: `draft ${request.messages.length}` }));
    const judge = member('judge', () => ({ text: 'not JSON, so a fail' }));
    const team = new Team({
      name: 'eo-limit',
      members: [writer, judge],
      topology: evaluatorOptimizer({ generator: 'writer', evaluator: 'judge', maxIterations: 2 }),
    });
    const result = await team.run({ sessionId: 's', input: 'Write' }).result();
    expect(result.output).toMatchObject({ answer: 'draft 3', termination: { reason: 'iteration-limit' }, turns: 4 });
  });
});

describe('vote topology', () => {
  const voters = (answers: string[]) => answers.map((answer, index) => member(`v${index}`, () => ({ text: ` ${answer} ` })));

  it('majority: each member votes once on the task alone; a tie goes to the answer cast first', async () => {
    const store = new MemoryRunStore();
    const members = voters(['Paris', 'Lyon', 'Lyon', 'Paris']);
    const team = new Team({ name: 'vote', members, topology: vote(), store });
    const result = await team.run({ sessionId: 's', input: 'Capital of France?' }).result();
    expect(result.output?.answer).toBe('Paris');
    expect(result.output?.records?.outcome).toEqual({ winner: 'Paris', counts: { Paris: 2, Lyon: 2 }, decidedBy: 'majority' });
    expect(members.every((voter) => voter.model.requests[0]?.messages.length === 1)).toBe(true);
    const events = await new RunClient({ store }).readEvents(result.runId);
    expect(events.filter((event) => event.type === 'vote-cast').map((event) => (event as { voter: string }).voter)).toEqual([
      'v0',
      'v1',
      'v2',
      'v3',
    ]);
  });

  it('threshold: no winner below it; judge: a model picks among the distinct answers', async () => {
    const split = await new Team({ name: 't', members: voters(['a', 'b', 'a']), topology: vote({ aggregate: { threshold: 3 } }) })
      .run({ sessionId: 's', input: 'q' })
      .result();
    expect(split.output?.records?.outcome).toEqual({ winner: null, counts: { a: 2, b: 1 }, decidedBy: 'threshold' });
    expect(split.output?.answer).toBeUndefined();
    const judge = new ScriptedModel({ respond: () => ({ text: 'b' }) });
    const judged = await new Team({ name: 'j', members: voters(['a', 'b', 'a']), topology: vote({ aggregate: { judge } }) })
      .run({ sessionId: 's', input: 'q' })
      .result();
    expect(judged.output?.answer).toBe('b');
    expect(judge.requests[0]?.messages[0]?.content).toContain('- a\n- b');
  });
});
