/** The similarity layer: per-target thresholds, no match below them, clarify between close actions. */
import { compileCatalog, EmbedderError, type IntentCatalogInput, type SimilarityTrace, understand } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { tableEmbedder, travelCatalog } from './fixtures/travel-catalog.js';

/** The travel catalog's examples as vectors: flights along x, hotels leaning on y, weather along z. */
const examples = {
  'book a flight': [1, 0, 0],
  订机票: [1, 0, 0],
  'book a hotel': [0.6, 0.8, 0],
  订酒店: [0.6, 0.8, 0],
  'weather tomorrow': [0, 0, 1],
  天气怎么样: [0, 0, 1],
};
const flight = { kind: 'workflow', id: 'book_flight' };
const hotel = { kind: 'workflow', id: 'book_hotel' };

function setUp(utterances: Record<string, number[]>, change: (catalog: IntentCatalogInput) => void = () => {}) {
  const input = travelCatalog();
  change(input);
  const catalog = compileCatalog(input);
  const embedder = tableEmbedder({ ...examples, ...utterances });
  const run = (utterance: string) => understand({ utterance, catalog, ports: { embedder } });
  return { run, embedder };
}
const similarityOf = (trace: { layer: string }[]) =>
  trace.find((entry): entry is SimilarityTrace => entry.layer === 'similarity');

describe('the similarity layer', () => {
  it('starts the best action at or above its threshold, and reports every score', async () => {
    const { run } = setUp({ 'I want to fly somewhere': [0.9, 0.1, 0] });
    const result = await run('I want to fly somewhere');
    expect(result).toMatchObject({ commands: [{ type: 'start', action: flight }], decidedBy: 'similarity' });
    const trace = similarityOf(result.trace);
    expect(trace?.outcome).toBe('decided');
    expect(trace?.scores.map((score) => [score.target, score.score])).toEqual([
      ['workflow:book_flight', 0.9939],
      ['workflow:book_hotel', 0.6847],
      ['agent:weather', 0],
    ]);
  });

  it('matches nothing when the best score is below the threshold, however close', async () => {
    const { run } = setUp({ 'sort of like flying': [0.79, 0, 0.6131] });
    const result = await run('sort of like flying');
    expect(result.commands).toEqual([{ type: 'cannotHandle', reason: 'no match' }]);
    expect(result.decidedBy).toBe('fallback');
    expect(similarityOf(result.trace)).toMatchObject({
      outcome: 'no-match',
      reason: 'best workflow:book_flight 0.79 is below its threshold 0.8',
    });
  });

  it("applies an action's own threshold over the catalog's", async () => {
    const utterance = { 'flying again': [0.9, 0, 0.4359] };
    expect((await setUp(utterance).run('flying again')).commands).toEqual([{ type: 'start', action: flight }]);
    const strict = setUp(utterance, (catalog) => {
      (catalog.actions[0] as { similarityThreshold?: number }).similarityThreshold = 0.95;
    });
    expect((await strict.run('flying again')).commands).toEqual([{ type: 'cannotHandle', reason: 'no match' }]);
  });

  it('asks to clarify when two actions pass within the margin of each other', async () => {
    const { run } = setUp({ 'book something': [1, 0.5, 0] });
    const result = await run('book something');
    expect(result.commands).toEqual([{ type: 'clarify', options: [flight, hotel] }]);
    expect(similarityOf(result.trace)?.reason).toBe(
      'workflow:book_flight 0.8944, workflow:book_hotel 0.8944 are within 0.05 of each other: clarify',
    );
  });

  it('leaves out an action vetoed by a negative keyword', async () => {
    const { run } = setUp({ 天气预报员这个工作怎么样: [0, 0, 1] });
    const result = await run('天气预报员这个工作怎么样');
    expect(result.commands).toEqual([{ type: 'cannotHandle', reason: 'no match' }]);
    expect(similarityOf(result.trace)?.scores.map((score) => score.target)).not.toContain('agent:weather');
  });

  it('matches conversation commands by their examples too', async () => {
    const input = travelCatalog();
    input.conversation = { chitChat: { examples: ['nice to meet you'] } };
    const embedder = tableEmbedder({ ...examples, 'nice to meet you': [0, 0.6, 0.8], 'good day to you': [0, 0.6, 0.8] });
    const result = await understand({ utterance: 'good day to you', catalog: input, ports: { embedder } });
    expect(result).toMatchObject({ commands: [{ type: 'chitChat' }], decidedBy: 'similarity' });
  });

  it("embeds the catalog's examples once per catalog and embedder", async () => {
    const { run, embedder } = setUp({ 'I want to fly somewhere': [0.9, 0.1, 0] });
    await run('I want to fly somewhere');
    await run('I want to fly somewhere');
    expect(embedder.calls).toEqual([Object.keys(examples), ['I want to fly somewhere'], ['I want to fly somewhere']]);
  });

  it('turns a failing or malformed embedder into EmbedderError', async () => {
    const catalog = compileCatalog(travelCatalog());
    const failing = { name: 'down', embed: async () => Promise.reject(new Error('connection refused')) };
    await expect(understand({ utterance: 'fly away', catalog, ports: { embedder: failing } })).rejects.toMatchObject({
      code: 'embedder-failed',
      message: 'embedder down failed: connection refused',
    });
    const short = { name: 'short', embed: async () => [[1, 0, 0]] };
    const error = await understand({ utterance: 'fly away', catalog, ports: { embedder: short } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as EmbedderError).message).toBe('embedder short returned 1 vectors for 6 texts');
  });
});
