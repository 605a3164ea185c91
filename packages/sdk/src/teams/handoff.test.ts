import { describe, expect, it } from 'vitest';
import { RunClient } from '../client/run-client.js';
import type { ModelRequest } from '../model/language-model.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../testing/scripted-model.js';
import { type HandoffMember, handoff, Team, type TeamMember } from './index.js';

/** A member whose model answers by a function of the request. */
function member(name: string, respond: (request: ModelRequest) => ScriptedReply, description?: string) {
  const model = new ScriptedModel({ respond });
  const config: TeamMember = { name, instructions: `You are ${name}.`, model, ...(description ? { description } : {}) };
  return { config, model };
}

const transfer = (to: string, reason = `for ${to}`): ScriptedReply => ({
  toolCalls: [{ name: `transfer_to_${to}`, arguments: { reason } }],
});

describe('handoff topology', () => {
  it('passes the ownership of the final answer: the receiver answers and the caller never speaks again', async () => {
    const triage = member('triage', () => transfer('billing', 'a double charge'), 'sorts requests');
    const billing = member('billing', () => ({ text: 'Refunded the second charge.' }), 'handles money');
    const store = new MemoryRunStore();
    const team = new Team({
      name: 'support',
      members: [triage.config, billing.config],
      topology: handoff({
        entry: 'triage',
        handoffs: { triage: ['billing'], billing: ['triage'] },
        historyFilter: 'last-message',
      }),
      store,
    });
    const result = await team.run({ sessionId: 's', input: 'I was charged twice' }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output?.answer).toBe('Refunded the second charge.');
    expect(result.output?.owner).toBe('billing');
    expect(result.output?.termination).toEqual({ reason: 'final-answer', conditions: ['final-answer'], turns: 2 });
    expect(triage.model.requestCount).toBe(1);
    expect(result.output?.transcript?.map((message) => message.speaker)).toEqual(['triage', 'billing']);
    // The handoff is a tool call the model makes: triage was offered its handoff tool.
    expect(triage.model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['transfer_to_billing']);
    // The receiver got the filtered history: the task and the handing-over message only.
    expect(billing.model.requests[0]?.messages).toEqual([
      { role: 'user', content: 'I was charged twice' },
      { role: 'user', content: '[triage] (handed over to billing): a double charge' },
    ]);
    const events = await new RunClient({ store }).readEvents(result.runId);
    const teamEvents = events.filter((event) => ['speaker-selected', 'team-turn', 'handoff', 'team-stop'].includes(event.type));
    expect(teamEvents.map((event) => event.type)).toEqual([
      'speaker-selected',
      'team-turn',
      'handoff',
      'speaker-selected',
      'team-turn',
      'team-stop',
    ]);
    expect(teamEvents.find((event) => event.type === 'handoff')).toMatchObject({ from: 'triage', to: 'billing', handoffs: 1 });
  });

  it('bounds a loop of handoffs with maxHandoffs (typed reason handoff-limit)', async () => {
    const a = member('a', () => transfer('b'));
    const b = member('b', () => transfer('a'));
    const team = new Team({
      name: 'ping-pong',
      members: [a.config, b.config],
      topology: handoff({ entry: 'a', handoffs: { a: ['b'], b: ['a'] }, maxHandoffs: 3 }),
    });
    const result = await team.run({ sessionId: 's', input: 'loop' }).result();
    expect(result.output?.termination?.reason).toBe('handoff-limit');
    expect(result.output?.handoffs).toBe(3);
    expect(result.output?.turns).toBe(4);
  });

  it("fails the turn invalid-state-update when a user's history filter returns what is not a team message", async () => {
    // The handoff topology's writes are not parsed again per turn: what a user's function returns is checked where it is called.
    const a = member('a', () => transfer('b'));
    const b = member('b', () => ({ text: 'never asked' }));
    const team = new Team({
      name: 'bad-filter',
      members: [a.config, b.config],
      topology: handoff({
        entry: 'a',
        handoffs: { a: ['b'] },
        historyFilter: (history) => history.map((message) => ({ ...message, turn: 'one' }) as never),
      }),
      retry: { enabled: false, attempts: 1, waitMs: 0 },
    });
    const result = await team.run({ sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('failed');
    expect(JSON.stringify(result)).toContain('invalid-state-update');
    expect(b.model.requestCount).toBe(0);
  });

  it('ends handoff-to-user when the owner hands the conversation to the user', async () => {
    const a = member('a', () => transfer('user', 'Which account do you mean?'));
    const team = new Team({ name: 'ask', members: [a.config], topology: handoff({ entry: 'a', handoffs: { a: ['user'] } }) });
    const result = await team.run({ sessionId: 's', input: 'close my account' }).result();
    expect(result.output?.termination?.reason).toBe('handoff-to-user');
    expect(result.output?.answer).toBe('Which account do you mean?');
  });

  it('refuses a definition whose handoffs name unknown members', () => {
    const a = member('a', () => ({ text: 'x' }));
    expect(
      () => new Team({ name: 'bad', members: [a.config], topology: handoff({ entry: 'a', handoffs: { a: ['ghost'] } }) }),
    ).toThrow(/ghost/);
  });

  it('builds the same team from its entry member: members reached through handoffs, one journal entry per turn', async () => {
    const triage = member('triage', () => transfer('billing', 'a double charge'));
    const billing = member('billing', (request) =>
      request.messages.length < 3 ? transfer('refunds', 'refund due') : { text: 'unexpected' },
    );
    const refunds = member('refunds', () => ({ text: 'Refunded.' }));
    const store = new MemoryRunStore();
    const refundsMember = refunds.config;
    // billing may hand back to triage: a cycle, each member still taken once.
    const billingMember: HandoffMember = { ...billing.config, handoffs: [refundsMember] };
    const entry: HandoffMember = { ...triage.config, handoffs: [billingMember, 'user'] };
    billingMember.handoffs = [refundsMember, entry];
    const team = handoff(entry, { store, historyFilter: 'last-message' });
    expect(team.name).toBe('triage');
    expect([...team.members.keys()]).toEqual(['triage', 'billing', 'refunds']);
    const result = await team.run({ sessionId: 's', input: 'I was charged twice' }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output?.answer).toBe('Refunded.');
    expect(result.output?.owner).toBe('refunds');
    expect(result.output?.transcript?.map((message) => message.speaker)).toEqual(['triage', 'billing', 'refunds']);
    expect(triage.model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['transfer_to_billing', 'transfer_to_user']);
    expect(billing.model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['transfer_to_refunds', 'transfer_to_triage']);
    // The filter of the options applies: refunds saw the task and billing's handing-over message only.
    expect(refunds.model.requests[0]?.messages).toHaveLength(2);
    // The owner's choice needs no model: it is saved with the turn, one task per member turn.
    const journal = await store.readJournal(result.runId);
    expect(journal.filter((journalEntry) => journalEntry.type === 'task-finished')).toHaveLength(3);
  });
});
