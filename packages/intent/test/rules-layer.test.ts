/**
 * The rules layer (N-14): deterministic triggers with Chinese-aware matching, negative keywords,
 * and ties broken by priority, then declared order.
 */
import { type Command, compileCatalog, type IntentCatalogInput, type RulesTrace, understand } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { travelCatalog } from './fixtures/travel-catalog.js';

const catalog = compileCatalog(travelCatalog());
const run = (utterance: string, state = {}) => understand({ utterance, state, catalog });
const rulesTrace = async (utterance: string) =>
  (await run(utterance)).trace.find((entry): entry is RulesTrace => entry.layer === 'rules');
const starts = (commands: Command[]) => commands.flatMap((command) => (command.type === 'start' ? [command.action.id] : []));

describe('Chinese-aware keyword matching', () => {
  it('does not fire a keyword inside a longer Chinese word the catalog protects: 人工 in 人工智能', async () => {
    expect((await run('你们用的是人工智能吗')).commands).toEqual([{ type: 'cannotHandle', reason: 'no match' }]);
    expect((await run('转人工')).commands).toEqual([{ type: 'handOff' }]);
    // Without the protected word, ICU's dictionary splits 人工|智能 and the keyword fires: the words list is what stops it.
    const unprotected = compileCatalog({ ...travelCatalog(), words: [] });
    expect((await understand({ utterance: '你们用的是人工智能吗', catalog: unprotected })).commands).toEqual([
      { type: 'handOff' },
    ]);
  });

  it('does not fire a keyword that starts inside a word of the segmenter: 租车 in 出租车', async () => {
    expect(starts((await run('我想租车')).commands)).toEqual(['car_rental']);
    expect(starts((await run('我要打出租车去机场')).commands)).toEqual([]);
  });

  it('does not fire a keyword across two words: 天气 in 明天|气温', async () => {
    expect((await rulesTrace('明天气温多少度'))?.hits).toEqual([]);
    expect((await rulesTrace('明天天气怎么样'))?.hits.map((hit) => hit.rule)).toEqual(['天气']);
  });

  it('fires a keyword that spans two words of the segmenter (航|班 is one keyword 航班)', async () => {
    const spanning = compileCatalog({
      formatVersion: 1,
      actions: [{ ref: { kind: 'workflow', id: 'flight' }, description: 'Flights.', rules: { keywords: ['航班'] } }],
    });
    expect(starts((await understand({ utterance: '取消我明天的航班', catalog: spanning })).commands)).toEqual(['flight']);
  });

  it('keeps Latin-script keywords to word boundaries, also next to Chinese', async () => {
    expect(starts((await run('What is your refund policy')).commands)).toEqual(['refund']);
    expect(starts((await run('we got refunded already')).commands)).toEqual([]);
    expect(starts((await run('帮我查一下hotel')).commands)).toEqual(['book_hotel']);
    expect(starts((await run('check the hotelier list')).commands)).toEqual([]);
  });

  it('compares in NFKC lower case (full-width letters match) and never converts traditional to simplified', async () => {
    expect(starts((await run('ＨＯＴＥＬ please')).commands)).toEqual(['book_hotel']);
    expect(starts((await run('我要訂機票')).commands)).toEqual([]);
    expect(starts((await run('我要订机票')).commands)).toEqual(['book_flight']);
  });
});

describe('ties, priorities and vetoes', () => {
  it('breaks a tie by priority: the higher priority wins whatever the declared order', async () => {
    const input: IntentCatalogInput = {
      formatVersion: 1,
      actions: [
        { ref: { kind: 'agent', id: 'order_status' }, description: 'Order status.', rules: { keywords: ['订单'] } },
        { ref: { kind: 'workflow', id: 'refund' }, description: 'Refund.', rules: { keywords: ['退款'], priority: 5 } },
      ],
    };
    const result = await understand({ utterance: '订单退款', catalog: input });
    expect(starts(result.commands)).toEqual(['refund']);
    const trace = result.trace.find((entry): entry is RulesTrace => entry.layer === 'rules');
    expect(trace?.hits.map((hit) => hit.target)).toEqual(['agent:order_status', 'workflow:refund']);
    expect(trace?.reason).toBe('workflow:refund won over agent:order_status by priority 5');
  });

  it('breaks an equal priority by declared order', async () => {
    const result = await run('book a flight and a hotel');
    expect(starts(result.commands)).toEqual(['book_flight']);
    expect(result.trace.find((entry) => entry.layer === 'rules')).toMatchObject({
      reason: 'workflow:book_flight won over workflow:book_hotel by declared order (equal priority 1)',
    });
  });

  it('lets a negative keyword veto its action in the rules and similarity layers', async () => {
    const result = await run('我想当天气预报员');
    expect(starts(result.commands)).toEqual([]);
    expect(result.trace.find((entry) => entry.layer === 'rules')).toMatchObject({
      vetoes: [{ target: 'agent:weather', negativeKeyword: '天气预报员' }],
    });
  });
});

describe('conversation commands', () => {
  it('hands off before anything else', async () => {
    expect((await run('订机票太麻烦了，转人工')).commands).toEqual([{ type: 'handOff' }]);
  });

  it('cancels the active action, and may start another in the same turn', async () => {
    const state = { activeAction: { kind: 'workflow' as const, id: 'book_flight' } };
    expect((await run('算了', state)).commands).toEqual([{ type: 'cancel' }]);
    expect((await run('算了，不订机票了', state)).commands).toEqual([{ type: 'cancel' }]);
    expect((await run('算了，订酒店吧', state)).commands).toEqual([
      { type: 'cancel' },
      { type: 'start', action: { kind: 'workflow', id: 'book_hotel' } },
    ]);
  });

  it('takes chit-chat only when nothing else fired', async () => {
    expect((await run('你好')).commands).toEqual([{ type: 'chitChat' }]);
    expect(starts((await run('你好，我要订酒店')).commands)).toEqual(['book_hotel']);
  });
});
