/** Slots: an utterance that starts a flow and fills slots gives both; corrections; answers to the asked slot. */
import { compileCatalog, parseChineseNumeral, understand } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { travelCatalog } from './fixtures/travel-catalog.js';

const catalog = compileCatalog(travelCatalog());
const flight = { kind: 'workflow' as const, id: 'book_flight' };
const refund = { kind: 'workflow' as const, id: 'refund' };
const run = (utterance: string, state = {}) => understand({ utterance, state, catalog });

describe('slot extraction', () => {
  it('gives both the start and the slots when one utterance starts a flow and fills it', async () => {
    const result = await run('帮我订两张明天去上海的机票');
    expect(result.commands).toEqual([
      { type: 'start', action: flight },
      { type: 'setSlot', name: 'destination', value: 'shanghai' },
      { type: 'setSlot', name: 'date', value: 'tomorrow' },
      { type: 'setSlot', name: 'passengers', value: 2 },
    ]);
    expect(result.decidedBy).toBe('rules');
    expect(result.trace.find((entry) => entry.layer === 'slots')).toMatchObject({
      action: 'workflow:book_flight',
      found: [
        { slot: 'destination', value: 'shanghai', by: 'pattern', text: '去上海的机票', result: 'setSlot' },
        { slot: 'date', value: 'tomorrow', by: 'value', text: '明天', result: 'setSlot' },
        { slot: 'passengers', value: 2, by: 'pattern', text: '两张', result: 'setSlot' },
      ],
    });
  });

  it('fills the asked slot with a bare answer, and corrects a slot the state already holds', async () => {
    expect((await run('东京', { activeAction: flight, askedSlot: 'destination' })).commands).toEqual([
      { type: 'setSlot', name: 'destination', value: 'tokyo' },
    ]);
    const state = { activeAction: flight, slots: { destination: 'tokyo', date: 'tomorrow' } };
    expect((await run('不对，改成后天', state)).commands).toEqual([
      { type: 'correctSlot', name: 'date', value: 'day_after_tomorrow' },
    ]);
    // Repeating a value the state holds gives no command, and is still the rules layer's decision.
    const repeated = await run('对，明天', state);
    expect(repeated).toMatchObject({ commands: [], decidedBy: 'rules' });
    // Two values, one of them the current one: the other is the correction.
    expect((await run('不是明天，是周五', state)).commands).toEqual([{ type: 'correctSlot', name: 'date', value: 'friday' }]);
  });

  it('fills nothing when the utterance names several values for one slot', async () => {
    const result = await run('明天或者后天', { activeAction: flight, askedSlot: 'date' });
    expect(result.commands).toEqual([{ type: 'cannotHandle', reason: 'no match' }]);
    expect(result.trace.find((entry) => entry.layer === 'slots')).toMatchObject({
      skipped: [{ slot: 'date', reason: 'several values in the utterance: tomorrow, day_after_tomorrow' }],
    });
  });

  it('does not let a keyword inside an answer start another action', async () => {
    const cancelBooking = compileCatalog({
      formatVersion: 1,
      actions: [
        {
          ref: { kind: 'workflow', id: 'cancel_booking' },
          description: 'Cancel a booking.',
          slots: [
            {
              name: 'booking',
              type: 'category',
              required: true,
              allowedValues: [{ value: 'hotel', synonyms: ['酒店'] }, { value: 'flight' }],
            },
          ],
        },
        { ref: { kind: 'workflow', id: 'book_hotel' }, description: 'Book a hotel.', rules: { keywords: ['酒店'] } },
      ],
    });
    const state = { activeAction: { kind: 'workflow' as const, id: 'cancel_booking' }, askedSlot: 'booking' };
    expect((await understand({ utterance: '酒店', state, catalog: cancelBooking })).commands).toEqual([
      { type: 'setSlot', name: 'booking', value: 'hotel' },
    ]);
    // Without the question pending, the same word starts the hotel booking.
    expect((await understand({ utterance: '酒店', catalog: cancelBooking })).commands).toEqual([
      { type: 'start', action: { kind: 'workflow', id: 'book_hotel' } },
    ]);
  });

  it('reads a free-text answer to the asked slot only after the other layers found nothing', async () => {
    const state = { activeAction: refund, slots: { order_id: '123456' }, askedSlot: 'reason' };
    const answer = await run('The screen arrived cracked', state);
    expect(answer.commands).toEqual([{ type: 'setSlot', name: 'reason', value: 'The screen arrived cracked' }]);
    expect(answer.trace.map((entry) => entry.layer)).toEqual(['rules', 'slots', 'similarity', 'rules']);
    expect(answer.trace[3]).toMatchObject({ stage: 'answer', outcome: 'decided' });
    // A greeting is chit-chat, not the reason.
    expect((await run('hello', state)).commands).toEqual([{ type: 'chitChat' }]);
  });

  it('reads yes / no for an asked boolean slot only at the start of the answer', async () => {
    const state = { activeAction: refund, slots: { order_id: '123456', reason: 'late' }, askedSlot: 'receipt' };
    expect((await run('yes, I kept it', state)).commands).toEqual([{ type: 'setSlot', name: 'receipt', value: true }]);
    expect((await run('没有', state)).commands).toEqual([{ type: 'setSlot', name: 'receipt', value: false }]);
    expect((await run('it was not my fault', state)).commands).not.toContainEqual(expect.objectContaining({ name: 'receipt' }));
  });

  it('reads Chinese numerals, including the spoken elisions', () => {
    expect([parseChineseNumeral('三'), parseChineseNumeral('十二'), parseChineseNumeral('两百')]).toEqual([3, 12, 200]);
    expect([parseChineseNumeral('三百五十'), parseChineseNumeral('三百五'), parseChineseNumeral('一千零五')]).toEqual([
      350, 350, 1005,
    ]);
    expect([parseChineseNumeral('一千五'), parseChineseNumeral('两万五'), parseChineseNumeral('一二')]).toEqual([
      1500,
      25_000,
      undefined,
    ]);
  });
});
