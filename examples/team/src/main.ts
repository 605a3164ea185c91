/**
 * Runs the two example teams offline and checks what makes each topology what it is: in the
 * handoff triage, billing owns the answer and triage never speaks again; in the orchestrator team,
 * two stalled turns trigger exactly one re-plan, then the request is satisfied.
 */
import assert from 'node:assert/strict';
import { MemoryRunStore, RunClient } from '@agentloom/sdk';
import { fixTeam, supportTeam } from './teams.js';

const store = new MemoryRunStore();
const client = new RunClient({ store });

const support = await supportTeam(store).run({ sessionId: 'example', input: 'I was charged twice for order 1234.' }).result();
console.log('Handoff triage');
for (const message of support.output?.transcript ?? []) {
  console.log(`  ${message.speaker}${message.handoffTo ? ` → ${message.handoffTo}` : ''}: ${message.text}`);
}
console.log(`  answer (owned by ${support.output?.owner}): ${support.output?.answer}`);
assert.equal(support.output?.owner, 'billing');
assert.deepEqual(
  support.output?.transcript?.map((message) => message.speaker),
  ['triage', 'billing'],
);
assert.equal(support.output?.termination?.reason, 'final-answer');

const fix = await fixTeam(store).run({ sessionId: 'example', input: 'The CI build is red. Fix it.' }).result();
console.log('\nOrchestrator');
for (const event of await client.readEvents(fix.runId)) {
  if (event.type === 'ledger-updated')
    console.log(
      `  ledger ${event.change}: stalls ${event.ledger.stalls}, re-plans ${event.ledger.replans}, plan "${event.ledger.plan}"`,
    );
  if (event.type === 'team-turn') console.log(`  ${event.speaker}: ${event.text}`);
}
console.log(`  answer: ${fix.output?.answer} (${fix.output?.termination?.reason})`);
assert.equal(fix.output?.ledger?.replans, 1);
assert.equal(fix.output?.termination?.reason, 'final-answer');
console.log('\nAll checks passed.');
