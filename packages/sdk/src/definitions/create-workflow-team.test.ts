import { describe, expect, it } from 'vitest';
import { RunClient } from '../client/run-client.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createTeam } from './create-team.js';
import { createWorkflow } from './create-workflow.js';
import { InvalidDefinitionError } from './invalid-definition-error.js';

const chat = (model: ScriptedModel, store: MemoryRunStore) =>
  createTeam(
    {
      formatVersion: 1,
      kind: 'team',
      name: 'pair',
      members: [
        { name: 'writer', model: 'default', instructions: 'You write.' },
        { name: 'critic', model: 'default', instructions: 'You criticise.' },
      ],
      topology: { kind: 'group-chat' },
      maxTurns: 3,
    },
    { models: { default: model }, store },
  );

const definition = {
  formatVersion: 1,
  kind: 'workflow',
  name: 'with-team',
  state: {
    question: { reducer: 'last-value', schema: { type: 'string' } },
    answer: { reducer: 'last-value', schema: { type: 'string' } },
  },
  nodes: [{ name: 'pair', kind: 'team', team: 'pair', input: { template: 'Write about {{question}}' }, output: 'answer' }],
  edges: [
    { from: 'START', to: 'pair' },
    { from: 'pair', to: 'END' },
  ],
  output: ['answer'],
};

describe('a workflow definition with a team node (N-12)', () => {
  it('runs the team inside the workflow: its turns are tasks and events of the workflow run, its answer the output', async () => {
    const store = new MemoryRunStore();
    let call = 0;
    const model = new ScriptedModel({ respond: () => ({ text: `message ${++call}` }) });
    const workflow = createWorkflow(definition, { teams: { pair: chat(model, store) }, store });
    const result = await workflow.run({ sessionId: 's', input: { question: 'tides' } }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ answer: 'message 3' });
    expect(model.requests[0]?.messages.at(-1)?.content).toContain('Write about tides');
    const events = await new RunClient({ store }).readEvents(result.runId);
    const turns = events.filter((event) => event.type === 'team-turn').map((event) => (event as { speaker?: string }).speaker);
    expect(turns).toEqual(['writer', 'critic', 'writer']);
    expect(events.some((event) => event.type === 'team-stop')).toBe(true);
  });

  it('refuses an unknown team and a field that a team node takes', () => {
    const broken = {
      ...definition,
      state: { ...definition.state, 'pair.transcript': { reducer: 'append', schema: { type: 'string' } } },
    };
    expect(() => createWorkflow(broken, {})).toThrow(InvalidDefinitionError);
    try {
      createWorkflow(broken, {});
    } catch (error) {
      const paths = (error as InvalidDefinitionError).problems.map((problem) => problem.path);
      expect(paths).toEqual(expect.arrayContaining(['state.pair.transcript', 'nodes.0.team']));
    }
  });
});
