import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createTeam } from './create-team.js';
import { InvalidDefinitionError } from './invalid-definition-error.js';

const samples = fileURLToPath(new URL('../../schemas/samples/', import.meta.url));
const sample = (name: string) => JSON.parse(readFileSync(`${samples}${name}`, 'utf8')) as Record<string, unknown>;

describe('createTeam', () => {
  it('builds the support team sample and runs its handoff from data', async () => {
    const model = new ScriptedModel({
      respond: (request) =>
        request.system.startsWith('You sort')
          ? { toolCalls: [{ name: 'transfer_to_billing', arguments: { reason: 'a refund' } }] }
          : { text: 'Refund issued.' },
    });
    const team = createTeam(sample('support-team.json'), { models: { default: model }, store: new MemoryRunStore() });
    const result = await team.run({ sessionId: 's', input: 'Refund me' }).result();
    expect(result.output).toMatchObject({ answer: 'Refund issued.', owner: 'billing', termination: { reason: 'final-answer' } });
    // The private context declared for billing reached billing's prompt.
    expect(model.requests[1]?.system).toContain('Refunds above 100 EUR need a second approval.');
    // The triage member was offered its three handoffs, `user` included.
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'transfer_to_billing',
      'transfer_to_tech',
      'transfer_to_user',
    ]);
  });

  it('builds the orchestrator and group-chat samples with every name resolved', () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    expect(createTeam(sample('fix-team.json'), { models: { default: model, lead: model } }).topology.kind).toBe('orchestrator');
    expect(createTeam(sample('review-chat.json'), { models: { default: model } }).topology.kind).toBe('group-chat');
    expect(createTeam(sample('release-board.json'), { models: { default: model } }).topology.kind).toBe('task-board');
    const base = {
      formatVersion: 1,
      kind: 'team',
      name: 'x',
      members: [
        { name: 'a', model: 'default', instructions: 'A' },
        { name: 'b', model: 'default', instructions: 'B' },
      ],
    };
    const kinds = [
      { kind: 'review', reviewers: ['a'], verifier: 'b' },
      { kind: 'evaluator-optimizer', generator: 'a', evaluator: 'b', maxIterations: 2 },
      { kind: 'vote', aggregate: { judge: 'default' } },
      { kind: 'vote', aggregate: { threshold: 2 } },
    ];
    for (const topology of kinds)
      expect(createTeam({ ...base, topology }, { models: { default: model } }).topology.kind).toBe(topology.kind);
  });

  it('lists every problem at once: unknown models, functions and members', () => {
    const definition = {
      ...sample('support-team.json'),
      topology: { kind: 'handoff', entry: 'triage', handoffs: { triage: ['ghost'] }, historyFilter: { function: 'redact' } },
    };
    try {
      createTeam(definition, {});
      expect.unreachable();
    } catch (error) {
      expect(InvalidDefinitionError.isInstance(error)).toBe(true);
      expect((error as InvalidDefinitionError).problems.map((problem) => problem.path)).toEqual([
        'members.0.model',
        'members.1.model',
        'members.2.model',
        'topology.historyFilter.function',
      ]);
    }
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    expect(() =>
      createTeam(
        { ...definition, topology: { kind: 'handoff', entry: 'triage', handoffs: { triage: ['ghost'] } } },
        { models: { default: model } },
      ),
    ).toThrow(/"ghost" is not a member/);
  });
});
