/**
 * The example's teams behave as their topologies promise: the handoff receiver owns the answer and
 * the caller does not speak again; the orchestrator re-plans exactly once after its stall limit.
 */
import { MemoryRunStore, RunClient } from '@agentloom/sdk';
import { describe, expect, it } from 'vitest';
import { fixTeam, supportTeam } from '../src/teams.js';

describe('example teams', () => {
  it('support triage: billing owns the answer', async () => {
    const result = await supportTeam(new MemoryRunStore()).run({ sessionId: 's', input: 'Refund my double charge' }).result();
    expect(result.output?.owner).toBe('billing');
    expect(result.output?.transcript?.map((message) => message.speaker)).toEqual(['triage', 'billing']);
    expect(result.output?.answer).toMatch(/refunded the second charge/);
  });

  it('fix team: one re-plan, then the request is satisfied', async () => {
    const store = new MemoryRunStore();
    const result = await fixTeam(store).run({ sessionId: 's', input: 'Fix the build' }).result();
    expect(result.output?.termination?.reason).toBe('final-answer');
    const events = await new RunClient({ store }).readEvents(result.runId);
    expect(events.filter((event) => event.type === 'ledger-updated' && event.change === 'replanned')).toHaveLength(1);
    expect(
      result.output?.transcript?.filter((message) => message.speaker !== 'orchestrator').map((message) => message.speaker),
    ).toEqual(['tester', 'tester', 'coder']);
  });
});
