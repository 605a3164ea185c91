import { compileCatalog } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { checkRouterDraft } from '../src/domain/router-draft.js';
import { planRouterTurn, routedInput, settleRouterState } from '../src/domain/router-turn.js';
import { travelCatalog } from './router-fixture.js';

const catalog = compileCatalog(travelCatalog('app_flight', 'app_weather'));
const flight = { kind: 'agent', id: 'app_flight' } as const;
const weather = { kind: 'agent', id: 'app_weather' } as const;
const run = { appId: 'app_flight', runId: 'run_1', action: flight };

/** The host's side of a router turn (pure): which steps follow from which commands. */
describe('planRouterTurn', () => {
  it('asks for the first missing required slot with its prompt, then starts with the slots as input', () => {
    const asked = planRouterTurn(
      { dialogue: {} },
      [
        { type: 'start', action: flight },
        { type: 'setSlot', name: 'destination', value: 'paris' },
      ],
      'book a flight to paris',
      catalog,
    );
    expect(asked.steps).toEqual([]);
    expect(asked.reply).toEqual({ kind: 'ask-slot', action: flight, slot: 'date', text: 'Which day do you want to fly?' });
    const started = planRouterTurn(asked.state, [{ type: 'setSlot', name: 'date', value: 'tomorrow' }], 'tomorrow', catalog);
    expect(started.steps).toEqual([
      { type: 'start', action: flight, input: JSON.stringify({ destination: 'paris', date: 'tomorrow' }) },
    ]);
    expect(started.reply.kind).toBe('started');
  });

  it('starts an action without slots with the utterance as the agent input', () => {
    const planned = planRouterTurn({ dialogue: {} }, [{ type: 'start', action: weather }], 'weather in Lyon', catalog);
    expect(planned.steps).toEqual([{ type: 'start', action: weather, input: 'weather in Lyon' }]);
  });

  it('gives a workflow the slots as its state fields', () => {
    expect(routedInput('workflow', { destination: 'paris', passengers: 2 }, 'two to paris')).toEqual({
      destination: 'paris',
      passengers: 2,
    });
    expect(routedInput('workflow', {}, 'anything')).toEqual({});
  });

  it('supplements the active run, stops it on cancel, and cancels then starts in one turn', () => {
    const active = { dialogue: { activeAction: flight, slots: { destination: 'paris', date: 'today' } }, run };
    expect(planRouterTurn(active, [{ type: 'cannotHandle' }], 'window seat', catalog).steps).toEqual([
      { type: 'supplement', runId: 'run_1', appId: 'app_flight', text: 'window seat' },
    ]);
    const cancelled = planRouterTurn(active, [{ type: 'cancel' }], 'cancel', catalog);
    expect(cancelled.steps).toEqual([{ type: 'stop', runId: 'run_1' }]);
    expect(cancelled.state).toEqual({ dialogue: {}, run: undefined });
    const switched = planRouterTurn(active, [{ type: 'cancel' }, { type: 'start', action: weather }], 'no, the weather', catalog);
    expect(switched.steps).toEqual([
      { type: 'stop', runId: 'run_1' },
      { type: 'start', action: weather, input: 'no, the weather' },
    ]);
  });

  it('answers chit-chat, hand-off and clarify without any step', () => {
    const asking = { dialogue: { activeAction: flight, slots: { destination: 'paris' }, askedSlot: 'date' } };
    const chat = planRouterTurn(asking, [{ type: 'chitChat' }], 'hello', catalog);
    expect([chat.steps, chat.reply.kind, chat.state.dialogue.askedSlot]).toEqual([[], 'chit-chat', 'date']);
    const handOff = planRouterTurn({ dialogue: {}, run }, [{ type: 'handOff' }], 'a human please', catalog);
    expect([handOff.steps, handOff.reply.kind, handOff.state.run]).toEqual([[], 'hand-off', undefined]);
    const clarify = planRouterTurn({ dialogue: {} }, [{ type: 'clarify', options: [flight, weather] }], 'travel', catalog);
    expect(clarify.reply).toMatchObject({
      kind: 'clarify',
      options: [
        { ref: flight, description: 'Books a flight' },
        { ref: weather, description: 'Tells the weather' },
      ],
    });
  });

  it('forgets the action of a run that ended', () => {
    const state = { dialogue: { activeAction: flight, slots: { destination: 'paris', date: 'today' } }, run };
    expect(settleRouterState(state, true)).toBe(state);
    expect(settleRouterState(state, false)).toEqual({ dialogue: {} });
  });
});

describe('checkRouterDraft', () => {
  it('refuses command and team actions: the platform routes to agent and workflow apps', () => {
    const draft = travelCatalog('app_flight', 'app_weather');
    (draft.actions[1] as { ref: { kind: string } }).ref.kind = 'command';
    const apps = new Map([
      ['app_flight', { kind: 'agent' as const, state: 'active' as const, latestReleaseId: 'rel_1', latestVersion: 1 }],
    ]);
    expect(checkRouterDraft(draft, { apps }).issues).toEqual([
      expect.objectContaining({ path: 'actions.1.ref.kind', code: 'unsupported-kind' }),
    ]);
  });
});
