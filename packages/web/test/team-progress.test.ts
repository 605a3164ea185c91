import { describe, expect, it } from 'vitest';
import type { WorkflowRunEvent } from '../src/runs/run-events.js';
import { type RunGraph, workflowProgressOf } from '../src/runs/workflow-progress.js';

const base = { runId: 'r', step: 0 };
let sequence = 0;
const event = (data: Record<string, unknown>) => ({ ...base, ...data, sequence: ++sequence }) as unknown as WorkflowRunEvent;
const ledger = (stalls: number, replans: number, plan: string) => ({
  facts: 'The build fails on Node 24.',
  guesses: '',
  plan,
  stalls,
  replans,
  contextFrom: 0,
  progress: {
    isRequestSatisfied: false,
    isInLoop: false,
    isProgressBeingMade: true,
    nextSpeaker: 'fixer',
    instruction: 'Patch it.',
  },
});
const graph: RunGraph = {
  nodes: ['lead', 'after'],
  edges: [
    { from: ['__start__'], to: 'lead' },
    { from: ['lead'], to: 'after' },
  ],
  teams: ['lead'],
};

describe('the team view of a workflow run (N-12)', () => {
  it('folds a team node’s events: turns, the current ledger, the owner after a handoff, the ending', () => {
    const events = [
      event({ type: 'workflow-start' }),
      event({ type: 'task-finish', taskId: '0/lead', node: 'lead', status: 'succeeded' }),
      event({
        type: 'ledger-updated',
        taskId: '0/lead',
        node: 'lead',
        turn: 0,
        change: 'planned',
        ledger: ledger(0, 0, 'first'),
      }),
      event({ type: 'speaker-selected', taskId: '0/lead', node: 'lead', turn: 1, speaker: 'fixer', by: 'orchestrator' }),
      event({ type: 'task-finish', taskId: '1/lead.turn', node: 'lead.turn', status: 'succeeded' }),
      event({ type: 'team-turn', taskId: '1/lead.turn', node: 'lead.turn', turn: 1, speaker: 'fixer', text: 'Patched.' }),
      event({ type: 'handoff', taskId: '1/lead.turn', node: 'lead.turn', turn: 1, from: 'fixer', to: 'tester', handoffs: 1 }),
      event({ type: 'task-finish', taskId: '2/lead', node: 'lead', status: 'succeeded' }),
      event({
        type: 'ledger-updated',
        taskId: '2/lead',
        node: 'lead',
        turn: 1,
        change: 'replanned',
        ledger: ledger(0, 1, 'second'),
      }),
    ];
    const running = workflowProgressOf(events, graph);
    const team = running.teams.get('lead');
    expect(team?.turns).toEqual([{ turn: 1, speaker: 'fixer', text: 'Patched.' }]);
    expect(team?.owner).toBe('tester');
    expect(team?.ledger).toMatchObject({ change: 'replanned', turn: 1, ledger: { plan: 'second', replans: 1 } });
    expect(team?.stop).toBeUndefined();
    // Between its steps a team node is running, and what follows it has not started.
    expect(running.nodes.get('lead')).toMatchObject({ status: 'running', runs: 0 });
    expect(running.nodes.get('after')?.status).toBe('pending');

    const ended = workflowProgressOf(
      [
        ...events,
        event({
          type: 'team-stop',
          taskId: '2/lead',
          node: 'lead',
          turn: 1,
          reason: 'final-answer',
          conditions: ['final-answer'],
        }),
        event({ type: 'task-finish', taskId: '3/lead.done', node: 'lead.done', status: 'succeeded' }),
      ],
      graph,
    );
    expect(ended.teams.get('lead')?.stop).toEqual({ reason: 'final-answer', conditions: ['final-answer'], turn: 1 });
    expect(ended.nodes.get('lead')).toMatchObject({ status: 'succeeded', runs: 1 });
    expect(ended.nodes.get('after')?.status).toBe('running');
  });
});
