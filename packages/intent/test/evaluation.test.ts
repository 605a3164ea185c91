/** The evaluation: command-level precision / recall / F1, teacher-forced dialogue state, and corpus checks. */
import { checkThresholds, evaluateCorpus, InvalidCorpusError, readCorpus } from '@agentloom/intent';
import { describe, expect, it } from 'vitest';
import { travelCatalog } from './fixtures/travel-catalog.js';

const flight = { kind: 'workflow', id: 'book_flight' };

describe('evaluateCorpus', () => {
  it('scores commands by type and action, and labels turns for the confusion table', async () => {
    const corpus = readCorpus({
      catalog: travelCatalog(),
      dialogues: [
        {
          id: 'one',
          turns: [
            {
              user: '订两张去上海的机票',
              expect: [
                { type: 'start', action: flight },
                { type: 'setSlot', name: 'destination', value: 'shanghai' },
                { type: 'setSlot', name: 'passengers', value: 2 },
                { type: 'setSlot', name: 'date', value: 'tomorrow' },
              ],
            },
            { user: '你好', expect: [{ type: 'chitChat' }] },
            { user: 'what is the capital of France', expect: [{ type: 'chitChat' }] },
          ],
        },
      ],
    });
    const report = await evaluateCorpus(corpus);
    expect(report.micro).toMatchObject({ truePositives: 4, falsePositives: 1, falseNegatives: 2, precision: 0.8 });
    expect(report.micro.f1).toBeCloseTo((2 * 0.8 * (4 / 6)) / (0.8 + 4 / 6), 10);
    expect(report.byType.setSlot).toMatchObject({ truePositives: 2, falsePositives: 0, falseNegatives: 1 });
    expect(report.byType.cannotHandle).toEqual({ truePositives: 0, falsePositives: 1, falseNegatives: 0, precision: 0, f1: 0 });
    expect(report.byAction).toEqual({
      'workflow:book_flight': { truePositives: 1, falsePositives: 0, falseNegatives: 0, precision: 1, recall: 1, f1: 1 },
    });
    expect(report.turnAccuracy).toBeCloseTo(1 / 3, 10);
    expect(report.turns.map((turn) => [turn.correct, turn.decidedBy, turn.missing, turn.unexpected])).toEqual([
      [false, 'rules', ['setSlot date=tomorrow'], []],
      [true, 'rules', [], []],
      [false, 'fallback', ['chitChat'], ['cannotHandle']],
    ]);
    expect(report.confusion).toEqual({
      labels: ['workflow:book_flight', 'chitChat', 'cannotHandle'],
      matrix: [
        [1, 0, 0],
        [0, 1, 1],
        [0, 0, 0],
      ],
    });
    expect(report.byLayer).toEqual({ rules: { turns: 2, correct: 1 }, fallback: { turns: 1, correct: 0 } });
    expect(checkThresholds(report, { f1: 0.7, turnAccuracy: 0.5, typeF1: { chitChat: 0.5 } })).toEqual([
      { name: 'F1 (micro)', minimum: 0.7, actual: report.micro.f1, met: true },
      { name: 'turn accuracy', minimum: 0.5, actual: report.turnAccuracy, met: false },
      { name: 'F1 of chitChat', minimum: 0.5, actual: report.byType.chitChat?.f1, met: true },
    ]);
  });

  it("carries dialogue state by applying each turn's expected commands, so one miss does not spoil the next turn", async () => {
    const corpus = readCorpus({
      catalog: travelCatalog(),
      dialogues: [
        {
          id: 'teacher-forced',
          turns: [
            { user: 'I am thinking about travelling', expect: [{ type: 'start', action: flight }] },
            { user: '东京', expect: [{ type: 'setSlot', name: 'destination', value: 'tokyo' }] },
          ],
        },
      ],
    });
    const report = await evaluateCorpus(corpus);
    expect(report.turns.map((turn) => turn.correct)).toEqual([false, true]);
  });
});

describe('readCorpus', () => {
  it('refuses a corpus with other field names, or expectations the catalog cannot meet, naming each place', () => {
    const attempt = (corpus: unknown) => {
      try {
        readCorpus(corpus);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidCorpusError);
        return (error as InvalidCorpusError).problems;
      }
      throw new Error('accepted');
    };
    expect(attempt({ catalog: travelCatalog(), dialogues: [{ id: 'a', turns: [{ utterance: 'hi', expected: [] }] }] })).toEqual([
      { path: 'dialogues.0.turns.0.user', message: expect.any(String) },
      { path: 'dialogues.0.turns.0.expect', message: expect.any(String) },
    ]);
    expect(
      attempt({
        catalog: {
          formatVersion: 1,
          actions: [{ ref: { kind: 'agent', id: 'a' }, description: 'A.', rules: { patterns: ['(?<=x)'] } }],
        },
        dialogues: [{ id: 'a', turns: [{ user: 'hi', expect: [] }] }],
      }),
    ).toEqual([
      { path: 'catalog.actions.0.rules.patterns.0', message: expect.stringContaining('not a regular expression RE2 accepts') },
    ]);
    expect(
      attempt({
        catalog: travelCatalog(),
        dialogues: [
          { id: 'x', turns: [{ user: 'a', expect: [{ type: 'setSlot', name: 'destination', value: 'paris' }] }] },
          {
            id: 'x',
            turns: [
              {
                user: 'b',
                expect: [
                  { type: 'start', action: flight },
                  { type: 'setSlot', name: 'destination', value: 'paris' },
                ],
              },
              {
                user: 'c',
                expect: [
                  { type: 'setSlot', name: 'passengers', value: 'two' },
                  { type: 'start', action: { kind: 'agent', id: 'ghost' } },
                ],
              },
            ],
          },
        ],
      }).map((problem) => `${problem.path}: ${problem.message}`),
    ).toEqual([
      'dialogues.0.turns.0.expect: "destination" is not a slot of any started or active action',
      'dialogues.1.id: "x" is used twice',
      'dialogues.1.turns.0.expect: "paris" is not an allowed value of "destination"',
      'dialogues.1.turns.1.expect: "passengers" is not a slot of any started or active action',
      'dialogues.1.turns.1.expect: agent:ghost is not an action of the catalog',
    ]);
  });
});
