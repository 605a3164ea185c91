import { CommandGeneratorError, type IntentCatalogInput, understand } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../core/errors/index.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { languageModelCommandGenerator } from './language-model-command-generator.js';

const catalog: IntentCatalogInput = {
  formatVersion: 1,
  actions: [
    {
      ref: { kind: 'workflow', id: 'book_flight' },
      description: 'Book a flight.',
      rules: { keywords: ['机票'] },
      slots: [
        {
          name: 'destination',
          type: 'category',
          required: true,
          allowedValues: [
            { value: 'tokyo', synonyms: ['东京'] },
            { value: 'paris', synonyms: ['巴黎'] },
          ],
        },
      ],
      metadata: { owner: 'travel-desk', costCentre: 'T100' },
    },
    { ref: { kind: 'agent', id: 'weather' }, description: 'Weather forecasts.', rules: { keywords: ['天气'] } },
    { ref: { kind: 'team', id: 'trip_planner' }, description: 'Plans whole trips.', rules: { keywords: ['行程'] } },
  ],
  generator: { topK: 2, visibleMetadata: ['owner'] },
};
const flight = { kind: 'workflow', id: 'book_flight' };

describe('languageModelCommandGenerator (@agentloom/sdk/intent)', () => {
  it("sends the model layer's prompt to the LanguageModel and returns its answer for the intent layer to validate", async () => {
    const model = new ScriptedModel({
      replies: [
        {
          text: '```json\n{"commands":[{"type":"start","action":{"kind":"workflow","id":"book_flight"}},{"type":"setSlot","name":"destination","value":"东京"}]}\n```',
        },
      ],
    });
    const generator = languageModelCommandGenerator(model);
    const result = await understand({ utterance: 'I fancy a long trip east', catalog, ports: { generator } });
    expect(result).toMatchObject({
      commands: [
        { type: 'start', action: flight },
        { type: 'setSlot', name: 'destination', value: 'tokyo' },
      ],
      decidedBy: 'model',
      rejected: [],
    });
    expect(generator.name).toBe('scripted:scripted');
    const [request] = model.requests;
    expect(request?.tools).toEqual([]);
    expect(request?.system).toContain('turn it into a list of commands');
    expect(request?.messages).toHaveLength(1);
    const sent = request?.messages[0]?.content ?? '';
    expect(sent).toContain('I fancy a long trip east');
    expect(sent).toContain('travel-desk');
    expect(sent).not.toContain('T100');
    // Only the top-k (2) actions reach the model.
    expect((sent.match(/"kind": "/gu) ?? []).length).toBe(2);
  });

  it('turns an action the model made up into a clarify, never a start', async () => {
    const model = new ScriptedModel({
      replies: [{ text: '{"commands":[{"type":"start","action":{"kind":"agent","id":"hotel_booker"}}]}' }],
    });
    const result = await understand({
      utterance: 'somewhere to sleep',
      catalog,
      ports: { generator: languageModelCommandGenerator(model) },
    });
    expect(result.commands).toEqual([{ type: 'clarify', options: [expect.any(Object), expect.any(Object)] }]);
    expect(result.commands.some((command) => command.type === 'start')).toBe(false);
    expect(result.rejected).toEqual([
      {
        command: { type: 'start', action: { kind: 'agent', id: 'hotel_booker' } },
        reason: 'agent:hotel_booker is not an action of the catalog',
      },
    ]);
  });

  it('reports a failed model call as CommandGeneratorError with the ModelCallError as its cause', async () => {
    const model = new ScriptedModel({ replies: [{ error: { kind: 'server', message: 'upstream 503' } }] });
    const error = await understand({
      utterance: 'somewhere to sleep',
      catalog,
      ports: { generator: languageModelCommandGenerator(model) },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommandGeneratorError);
    expect(ModelCallError.isInstance((error as Error).cause)).toBe(true);
    expect((error as Error).message).toContain('upstream 503');
  });

  it('retries by the policy it is given', async () => {
    const model = new ScriptedModel({
      replies: [{ error: { kind: 'server', message: 'upstream 503' } }, { text: '{"commands":[{"type":"chitChat"}]}' }],
    });
    const generator = languageModelCommandGenerator(model, { retry: { enabled: true, attempts: 2, waitMs: 1 } });
    expect((await understand({ utterance: 'lovely day', catalog, ports: { generator } })).commands).toEqual([
      { type: 'chitChat' },
    ]);
    expect(model.requestCount).toBe(2);
  });
});
