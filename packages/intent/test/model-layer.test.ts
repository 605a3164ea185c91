/** The model layer: the generator sees only the top-k actions and whitelisted metadata; its output is validated, never trusted. */
import {
  type CommandGenerator,
  CommandGeneratorError,
  type CommandGeneratorRequest,
  compileCatalog,
  type ModelTrace,
  understand,
} from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { travelCatalog } from './fixtures/travel-catalog.js';

const catalog = compileCatalog(travelCatalog());
const flight = { kind: 'workflow' as const, id: 'book_flight' };

/** A generator that answers with `output` and keeps the requests it got. */
function scripted(output: unknown): CommandGenerator & { requests: CommandGeneratorRequest[] } {
  const requests: CommandGeneratorRequest[] = [];
  return {
    name: 'scripted',
    requests,
    generate: async (request) => {
      requests.push(request);
      return output;
    },
  };
}
const modelTrace = (trace: { layer: string }[]) => trace.find((entry): entry is ModelTrace => entry.layer === 'model');

describe('the model layer', () => {
  it('is asked only when the rules and similarity layers decide nothing', async () => {
    const generator = scripted({ commands: [{ type: 'chitChat' }] });
    await understand({ utterance: '我要订机票', catalog, ports: { generator } });
    expect(generator.requests).toEqual([]);
    const result = await understand({ utterance: 'what a lovely morning', catalog, ports: { generator } });
    expect(result).toMatchObject({ commands: [{ type: 'chitChat' }], decidedBy: 'model', rejected: [] });
    expect(generator.requests).toHaveLength(1);
  });

  it('shows the generator only the top-k actions, the active one first, and only whitelisted metadata', async () => {
    const generator = scripted({ commands: [{ type: 'cannotHandle' }] });
    const state = { activeAction: { kind: 'workflow' as const, id: 'refund' }, slots: { order_id: '123456' } };
    await understand({ utterance: 'I would like to get away for a while', state, catalog, ports: { generator } });
    const [request] = generator.requests;
    expect(request?.actions.map((action) => action.action.id)).toEqual(['refund', 'book_flight']); // topK 2
    expect(request?.actions[1]?.metadata).toEqual({ owner: 'travel-desk' });
    expect(JSON.stringify(request)).not.toContain('never shown');
    expect(request?.state).toEqual({ activeAction: { kind: 'workflow', id: 'refund' }, slots: { order_id: '123456' } });
    expect(request?.prompt.user).toContain('I would like to get away for a while');
    expect(request?.outputSchema).toMatchObject({ type: 'object', properties: { commands: { type: 'array' } } });
  });

  it('turns a start of an action the catalog lacks into a clarify between the actions shown, and says why', async () => {
    const generator = scripted({ commands: [{ type: 'start', action: { kind: 'workflow', id: 'book_train' } }] });
    const result = await understand({ utterance: 'get me on the next train', catalog, ports: { generator } });
    const offered = generator.requests[0]?.actions.map((action) => action.action);
    expect(result.commands).toEqual([{ type: 'clarify', options: offered }]);
    expect(result.rejected).toEqual([
      {
        command: { type: 'start', action: { kind: 'workflow', id: 'book_train' } },
        reason: 'workflow:book_train is not an action of the catalog',
      },
    ]);
    expect(modelTrace(result.trace)).toMatchObject({ outcome: 'decided', reason: '1 command(s) of the model refused' });
  });

  it('refuses a slot the action does not have, and answers cannotHandle when nothing usable is left', async () => {
    const generator = scripted({ commands: [{ type: 'setSlot', name: 'seat', value: 'window' }] });
    const state = { activeAction: flight };
    const result = await understand({ utterance: 'by the window please', state, catalog, ports: { generator } });
    expect(result.commands).toEqual([{ type: 'cannotHandle', reason: 'the model output had no usable command' }]);
    expect(result.rejected).toEqual([
      { command: { type: 'setSlot', name: 'seat', value: 'window' }, reason: '"seat" is not a slot of workflow:book_flight' },
    ]);
  });

  it('validates values like the other layers: synonyms become canonical values, wrong values are refused', async () => {
    const generator = scripted(
      'Sure:\n```json\n{"commands":[{"type":"start","action":{"kind":"workflow","id":"book_flight"}},{"type":"setSlot","name":"destination","value":"东京"},{"type":"setSlot","name":"date","value":"next year"},{"type":"setSlot","name":"passengers","value":"3"}]}\n```',
    );
    const result = await understand({ utterance: 'eastward for three of us', catalog, ports: { generator } });
    expect(result.commands).toEqual([
      { type: 'start', action: flight },
      { type: 'setSlot', name: 'destination', value: 'tokyo' },
      { type: 'setSlot', name: 'passengers', value: 3 },
    ]);
    expect(result.rejected).toEqual([
      {
        command: { type: 'setSlot', name: 'date', value: 'next year' },
        reason: '"next year" is not a valid category for "date"',
      },
    ]);
  });

  it('removes unknown and repeated clarify options, and turns a repeated value into no command', async () => {
    const generator = scripted([
      { type: 'clarify', options: [flight, { kind: 'agent', id: 'ghost' }, flight, { kind: 'workflow', id: 'book_hotel' }] },
      { type: 'setSlot', name: 'destination', value: 'tokyo' },
    ]);
    const state = { activeAction: flight, slots: { destination: 'tokyo' } };
    const result = await understand({ utterance: 'hmm, either really', state, catalog, ports: { generator } });
    expect(result.commands).toEqual([{ type: 'clarify', options: [flight, { kind: 'workflow', id: 'book_hotel' }] }]);
    expect(result.rejected.map((entry) => entry.reason)).toEqual([
      'clarify option agent:ghost is not an action of the catalog',
      '"destination" already holds "tokyo"',
    ]);
  });

  it('answers cannotHandle to output that is not commands at all', async () => {
    for (const output of [
      'I think the user wants a flight.',
      { intent: 'book_flight' },
      [{ type: 'execute', code: 'rm -rf /' }],
    ]) {
      const result = await understand({ utterance: 'do the thing', catalog, ports: { generator: scripted(output) } });
      expect(result.commands, JSON.stringify(output)).toEqual([{ type: 'cannotHandle', reason: expect.any(String) }]);
      expect(result.rejected, JSON.stringify(output)).toHaveLength(1);
    }
  });

  it('reports a generator that throws as CommandGeneratorError', async () => {
    const generator: CommandGenerator = { name: 'broken', generate: async () => Promise.reject(new Error('rate limited')) };
    const error = await understand({ utterance: 'do the thing', catalog, ports: { generator } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CommandGeneratorError);
    expect(error).toMatchObject({ code: 'command-generator-failed', message: 'command generator broken failed: rate limited' });
  });
});
