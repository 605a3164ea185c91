/**
 * The team scenarios the team crash tests run in child processes (N-12): a handoff chain, a group
 * chat and an orchestrator that stalls and re-plans once. Every model answers as a pure function
 * of its request, so any process gets the same answers, and logs each request it receives
 * (`<caller> <hash of the request>`) to a file: a request that appears twice was made twice — a
 * turn, a choice or a ledger redone.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { ModelRequest } from '../../src/model/language-model.js';
import type { RunStore } from '../../src/store/run-store.js';
import {
  groupChat,
  handoff,
  maxTurns,
  orchestrator,
  PROGRESS_LEDGER_PROMPT,
  Team,
  type TeamMember,
  taskBoard,
} from '../../src/teams/index.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/scripted-model.js';

/** The scenarios, by name. */
export type TeamScenario = 'handoff' | 'group-chat' | 'orchestrator' | 'task-board';

/** The request log's lines. */
export function readRequestLog(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

function logged(path: string, caller: string, respond: (request: ModelRequest) => ScriptedReply): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const hash = createHash('sha256')
        .update(JSON.stringify([request.system, request.messages, request.tools]))
        .digest('hex');
      appendFileSync(path, `${caller} ${hash.slice(0, 16)}\n`);
      return respond(request);
    },
  });
}

const member = (name: string, model: ScriptedModel, description = ''): TeamMember => ({
  name,
  description,
  instructions: `You are ${name}.`,
  model,
});

const seen = (request: ModelRequest) => request.messages.length;

/** Builds the scenario's team on `store` (leases of 1 s: shorter ones flake under load). */
export function scenarioTeam(scenario: TeamScenario, store: RunStore, logPath: string): Team {
  const common = { store, leaseMs: 1_000 };
  switch (scenario) {
    case 'handoff': {
      // triage → billing → refunds, which answers: a chain of two handoffs, each with a filtered history.
      const triage = logged(logPath, 'triage', () => ({
        toolCalls: [{ name: 'transfer_to_billing', arguments: { reason: 'money' } }],
      }));
      const billing = logged(logPath, 'billing', (request) =>
        seen(request) < 3
          ? { text: 'Looking at the invoice.', toolCalls: [{ name: 'transfer_to_refunds', arguments: { reason: 'refund due' } }] }
          : { text: 'unexpected' },
      );
      const refunds = logged(logPath, 'refunds', (request) => ({ text: `Refunded (saw ${seen(request)} messages).` }));
      return new Team({
        ...common,
        name: 'crash-handoff',
        members: [member('triage', triage), member('billing', billing), member('refunds', refunds)],
        topology: handoff({
          entry: 'triage',
          handoffs: { triage: ['billing'], billing: ['refunds', 'triage'] },
          historyFilter: 'all',
        }),
      });
    }
    case 'group-chat': {
      const writer = logged(logPath, 'writer', (request) => ({ text: `draft ${seen(request)}` }));
      const critic = logged(logPath, 'critic', (request) => ({ text: `critique ${seen(request)}` }));
      const editor = logged(logPath, 'editor', (request) => ({ text: `edit ${seen(request)}` }));
      return new Team({
        ...common,
        name: 'crash-group-chat',
        members: [member('writer', writer), member('critic', critic), member('editor', editor)],
        topology: groupChat(),
        termination: maxTurns(5),
      });
    }
    case 'task-board': {
      // Four tasks with dependencies, claimed in turn; the builder mails the tester.
      const work = (name: string) =>
        logged(logPath, name, (request) => {
          const task = /Your task \((\w+)\)/.exec(request.messages[0]?.content ?? '')?.[1] ?? '?';
          return task === 'build'
            ? { text: 'built', toolCalls: [{ name: 'send_message', arguments: { to: 'tester', text: 'flaky test in auth' } }] }
            : { text: `${task} done by ${name} (${seen(request)})` };
        });
      return new Team({
        ...common,
        name: 'crash-task-board',
        members: [member('builder', work('builder')), member('tester', work('tester')), member('writer', work('writer'))],
        topology: taskBoard({
          tasks: [
            { id: 'release', description: 'Release.', dependsOn: ['test', 'docs'] },
            { id: 'test', description: 'Test.', dependsOn: ['build'], assignee: 'tester' },
            { id: 'docs', description: 'Docs.', dependsOn: ['build'] },
            { id: 'build', description: 'Build.', assignee: 'builder' },
          ],
        }),
      });
    }
    case 'orchestrator': {
      const lead = logged(logPath, 'orchestrator', (request) => {
        if (!request.system.includes(`${PROGRESS_LEDGER_PROMPT}:`)) {
          const replan = request.messages.some((message) => message.content.startsWith('We are stuck'));
          return { text: JSON.stringify({ facts: 'f', guesses: 'g', plan: replan ? 'plan B' : 'plan A' }) };
        }
        const planB = request.system.includes('Plan: plan B');
        const visible = seen(request) - 1;
        const ledger = (next: string, progressing: boolean, loop = false, satisfied = false) => ({
          text: JSON.stringify({
            isRequestSatisfied: satisfied,
            isInLoop: loop,
            isProgressBeingMade: progressing,
            nextSpeaker: next,
            instruction: satisfied ? 'The build is fixed.' : `go ${next} (${planB ? 'plan B' : 'plan A'})`,
          }),
        });
        if (planB) return visible === 0 ? ledger('coder', true) : ledger('coder', true, false, true);
        if (visible === 0) return ledger('coder', true);
        if (visible === 2) return ledger('tester', false);
        return ledger('tester', true, true);
      });
      const coder = logged(logPath, 'coder', (request) => ({ text: `patch ${seen(request)}` }));
      const tester = logged(logPath, 'tester', (request) => ({ text: `tests fail ${seen(request)}` }));
      return new Team({
        ...common,
        name: 'crash-orchestrator',
        members: [member('coder', coder, 'writes patches'), member('tester', tester, 'runs tests')],
        topology: orchestrator({ model: lead, maxStalls: 2, maxReplans: 1 }),
      });
    }
  }
}
