import { describe, expect, it } from 'vitest';
import { RunClient } from '../client/run-client.js';
import type { ModelRequest } from '../model/language-model.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../testing/scripted-model.js';
import { orchestrator, PROGRESS_LEDGER_PROMPT, TASK_LEDGER_PROMPT, Team, type TeamMember } from './index.js';

const progress = (fields: {
  satisfied?: boolean;
  loop?: boolean;
  progressing?: boolean;
  next?: string;
  instruction?: string;
}): ScriptedReply => ({
  text: JSON.stringify({
    isRequestSatisfied: fields.satisfied ?? false,
    isInLoop: fields.loop ?? false,
    isProgressBeingMade: fields.progressing ?? true,
    nextSpeaker: fields.next ?? 'coder',
    instruction: fields.instruction ?? 'continue',
  }),
});

/** An orchestrator model scripted by call kind: task ledgers and progress ledgers, in order. */
function orchestratorModel(plans: string[], ledgers: ScriptedReply[]) {
  let plan = 0;
  let ledger = 0;
  return new ScriptedModel({
    respond: (request: ModelRequest) => {
      if (request.system.includes(`${TASK_LEDGER_PROMPT}:`)) {
        const text = plans[Math.min(plan, plans.length - 1)] as string;
        plan += 1;
        return { text: JSON.stringify({ facts: 'the repo builds', guesses: 'a typo', plan: text }) };
      }
      if (request.system.includes(`${PROGRESS_LEDGER_PROMPT}:`)) {
        const reply = ledgers[Math.min(ledger, ledgers.length - 1)] as ScriptedReply;
        ledger += 1;
        return reply;
      }
      throw new Error('unexpected orchestrator request');
    },
  });
}

const coder: TeamMember = {
  name: 'coder',
  description: 'writes code',
  instructions: 'You write code.',
  model: new ScriptedModel({ respond: (request) => ({ text: `patch after ${request.messages.length} messages` }) }),
};
const tester: TeamMember = {
  name: 'tester',
  description: 'runs tests',
  instructions: 'You test.',
  model: new ScriptedModel({ respond: () => ({ text: 'tests fail' }) }),
};

describe('orchestrator topology (Magentic-style ledgers)', () => {
  it('a stall past the limit triggers exactly one re-plan, which resets the stall counter and the members’ context', async () => {
    const model = orchestratorModel(
      ['plan A', 'plan B'],
      [
        progress({ next: 'coder', instruction: 'fix it' }),
        progress({ progressing: false, next: 'tester', instruction: 'run tests' }),
        progress({ loop: true, next: 'tester', instruction: 'run tests again' }),
        progress({ next: 'coder', instruction: 'new approach' }),
        progress({ satisfied: true, instruction: 'Fixed: the typo is gone.' }),
      ],
    );
    const store = new MemoryRunStore();
    const team = new Team({
      name: 'fix',
      members: [coder, tester],
      topology: orchestrator({ model, maxStalls: 2, maxReplans: 1 }),
      store,
    });
    const result = await team.run({ sessionId: 's', input: 'Fix the build' }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output?.answer).toBe('Fixed: the typo is gone.');
    expect(result.output?.termination?.reason).toBe('final-answer');
    expect(result.output?.ledger).toMatchObject({ plan: 'plan B', replans: 1, stalls: 0, contextFrom: 4 });
    const events = await new RunClient({ store }).readEvents(result.runId);
    const changes = events.flatMap((event) =>
      event.type === 'ledger-updated' ? [`${event.change}:${event.ledger.stalls}`] : [],
    );
    expect(changes).toEqual(['planned:0', 'progress:0', 'progress:1', 'progress:2', 'replanned:0', 'progress:0', 'progress:0']);
    expect(changes.filter((change) => change.startsWith('replanned'))).toHaveLength(1);
    // The ledger and its counters are visible to any process through describeRun.
    const described = await new RunClient({ store }).describeRun(result.runId);
    expect(described.team).toMatchObject({
      turns: 3,
      owner: 'coder',
      ledger: { plan: 'plan B', replans: 1, stalls: 0 },
      termination: { reason: 'final-answer' },
    });
    // Speakers follow the progress ledgers, each turn with the orchestrator's instruction.
    expect(
      result.output?.transcript?.filter((message) => message.speaker !== 'orchestrator').map((message) => message.speaker),
    ).toEqual(['coder', 'tester', 'coder']);
  });

  it('stalling on after the last allowed re-plan ends the team replan-limit', async () => {
    const model = orchestratorModel(['plan'], [progress({ progressing: false, next: 'tester' })]);
    const team = new Team({
      name: 'stuck',
      members: [coder, tester],
      topology: orchestrator({ model, maxStalls: 2, maxReplans: 1 }),
    });
    const result = await team.run({ sessionId: 's', input: 'Fix the build' }).result();
    expect(result.output?.termination?.reason).toBe('replan-limit');
    expect(result.output?.ledger).toMatchObject({ replans: 1, stalls: 2 });
    expect(result.output?.turns).toBe(3);
  });

  it('an invalid progress ledger is retried, then fails the run with a typed failure', async () => {
    const model = orchestratorModel(['plan'], [{ text: 'I think the coder should go' }, progress({ next: 'nobody' })]);
    const team = new Team({ name: 'bad', members: [coder], topology: orchestrator({ model, maxLedgerAttempts: 2 }) });
    const result = await team.run({ sessionId: 's', input: 'Fix' }).result();
    expect(result.status).toBe('failed');
    expect(result.failure).toMatchObject({ node: 'turn', kind: 'invalid-result' });
    expect(result.failure?.message).toMatch(/"nobody" is not a member/);
  });
});
