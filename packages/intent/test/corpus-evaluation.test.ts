/**
 * The CI gate of the intent layer: the shipped bilingual corpus, evaluated with the rules layer and
 * the offline similarity layer (no model), meets F1 ≥ 0.9. It also checks that the corpus is what
 * it says (≥ 300 turns in Chinese and English, every command type) and that no test utterance is
 * one of the catalog's examples (the similarity layer would then be tested on what it was given).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  checkThresholds,
  commandTypes,
  createHashingEmbedder,
  evaluateCorpus,
  normalizeText,
  readCorpus,
} from '@agentloom/intent';
import { describe, expect, it } from 'vitest';

const read = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../corpus/${name}`, import.meta.url)), 'utf8'));
const corpus = readCorpus(read('helpdesk.json'));
const turns = corpus.dialogues.flatMap((dialogue) => dialogue.turns);

describe('the shipped corpus (corpus/helpdesk.json)', () => {
  it('has at least 300 turns, in Chinese and in English, with every command type expected', () => {
    expect(turns.length).toBeGreaterThanOrEqual(300);
    const chinese = turns.filter((turn) => /\p{Script=Han}/u.test(turn.user)).length;
    expect(chinese).toBeGreaterThanOrEqual(120);
    expect(turns.length - chinese).toBeGreaterThanOrEqual(120);
    expect(corpus.dialogues.filter((dialogue) => dialogue.turns.length >= 3).length).toBeGreaterThanOrEqual(40);
    const expected = new Set(turns.flatMap((turn) => turn.expect.map((command) => command.type)));
    expect([...commandTypes].filter((type) => !expected.has(type))).toEqual([]);
  });

  it("never uses one of the catalog's examples as a test utterance", () => {
    const examples = new Set(
      [...corpus.catalog.actions, ...corpus.catalog.conversation].flatMap((target) => target.examples.map(normalizeText)),
    );
    expect(turns.filter((turn) => examples.has(normalizeText(turn.user))).map((turn) => turn.user)).toEqual([]);
  });

  it('meets F1 ≥ 0.9 with rules and offline similarity alone', async () => {
    const report = await evaluateCorpus(corpus, { embedder: createHashingEmbedder() });
    const checks = checkThresholds(report, { f1: 0.9, precision: 0.9, recall: 0.9 });
    expect(checks.filter((check) => !check.met)).toEqual([]);
    // The similarity layer is in the loop: it decided some turns (right or wrong).
    expect(report.byLayer.similarity?.turns ?? 0).toBeGreaterThan(0);
  });
});

describe('the held-out corpus (corpus/helpdesk-held-out.json)', () => {
  it('has the same catalog as the main corpus, so that it measures that catalog', () => {
    expect((read('helpdesk-held-out.json') as { catalog: unknown }).catalog).toEqual(
      (read('helpdesk.json') as { catalog: unknown }).catalog,
    );
  });

  // Written after the catalog was frozen and never used to tune it, it measured F1 0.797 the first
  // time it ran (docs/intent.md): this guards that figure against regressions, it is not a target.
  it('stays at F1 ≥ 0.75 with rules and offline similarity alone', async () => {
    const heldOut = readCorpus(read('helpdesk-held-out.json'));
    const report = await evaluateCorpus(heldOut, { embedder: createHashingEmbedder() });
    expect(checkThresholds(report, { f1: 0.75 }).filter((check) => !check.met)).toEqual([]);
  });
});
