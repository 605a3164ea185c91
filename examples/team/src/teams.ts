/**
 * The example's two teams, offline: every model is a `ScriptedModel` answering as a pure function
 * of its request, so the runs are the same on every machine (and after a crash).
 */
import { readFileSync } from 'node:fs';
import {
  createTeam,
  orchestrator,
  PROGRESS_LEDGER_PROMPT,
  type RunStore,
  TASK_LEDGER_PROMPT,
  Team,
  type TeamMember,
  tokenBudget,
} from '@agentloom/sdk';
import { ScriptedModel } from '@agentloom/sdk/testing';

/**
 * The support team of `definitions/support-team.json`: triage hands a billing question to billing
 * (a `transfer_to_billing` tool call), which owns and gives the answer.
 */
export function supportTeam(store: RunStore): Team {
  const model = new ScriptedModel({
    respond: (request) => {
      if (request.system.startsWith('You sort support requests')) {
        const billing = /charge|refund|invoice/i.test(request.messages[0]?.content ?? '');
        return billing
          ? {
              toolCalls: [
                { name: 'transfer_to_billing', arguments: { reason: 'The customer was charged twice for one order.' } },
              ],
            }
          : { toolCalls: [{ name: 'transfer_to_tech', arguments: { reason: 'A technical problem.' } }] };
      }
      if (request.system.startsWith('You settle billing'))
        return { text: 'I refunded the second charge of 42 EUR; it reaches your card in 3 days.' };
      return { text: 'Please restart the app; the fix ships tomorrow.' };
    },
  });
  const definition = JSON.parse(readFileSync(new URL('../definitions/support-team.json', import.meta.url), 'utf8'));
  return createTeam(definition, { models: { default: model }, store });
}

/**
 * An orchestrator team in code: the lead keeps a task ledger and a progress ledger; the tester's
 * runs make no progress twice, so the lead re-plans once (a new plan, the members' context reset),
 * after which the coder's patch satisfies the request.
 */
export function fixTeam(store: RunStore): Team {
  const lead = new ScriptedModel({
    respond: (request) => {
      if (request.system.includes(`${TASK_LEDGER_PROMPT}:`)) {
        const replan = request.messages.some((message) => message.content.startsWith('We are stuck'));
        return {
          text: JSON.stringify(
            replan
              ? { facts: 'The tests fail on a missing import.', guesses: 'none', plan: 'Have the coder add the import.' }
              : { facts: 'The build is red.', guesses: 'A flaky test.', plan: 'Let the tester rerun the tests.' },
          ),
        };
      }
      if (!request.system.includes(`${PROGRESS_LEDGER_PROMPT}:`)) throw new Error('unexpected request');
      const replanned = request.system.includes('Have the coder add the import.');
      const spoke = request.messages.length - 1;
      const ledger = (fields: { next: string; instruction: string; progressing?: boolean; satisfied?: boolean }) => ({
        text: JSON.stringify({
          isRequestSatisfied: fields.satisfied ?? false,
          isInLoop: false,
          isProgressBeingMade: fields.progressing ?? true,
          nextSpeaker: fields.next,
          instruction: fields.instruction,
        }),
      });
      if (!replanned) return ledger({ next: 'tester', instruction: 'Rerun the tests.', progressing: spoke === 0 });
      return spoke === 0
        ? ledger({ next: 'coder', instruction: 'Add the missing import in src/app.ts.' })
        : ledger({ next: 'coder', instruction: 'The build is green: the import was missing and is added.', satisfied: true });
    },
  });
  const member = (name: string, description: string, answer: string): TeamMember => ({
    name,
    description,
    instructions: `You are the ${name}.`,
    model: new ScriptedModel({ respond: () => ({ text: answer }) }),
  });
  return new Team({
    name: 'fix-team',
    members: [
      member('coder', 'writes patches', 'Added `import { load } from "./load.js"`.'),
      member('tester', 'runs tests', 'Same failure: load is not defined.'),
    ],
    topology: orchestrator({ model: lead, maxStalls: 2, maxReplans: 1 }),
    termination: tokenBudget({ totalTokens: 100_000 }),
    store,
  });
}
