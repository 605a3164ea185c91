import { characterAt, characterBefore, containsHan, isHan, isWordCharacter, normalizeText } from './normalize.js';

/**
 * An utterance in normal form with its word boundaries: what every matcher of the rules layer
 * reads. `boundaries[i]` is 1 when a word starts or ends at position `i` of `text` (0 and
 * `text.length` always are). Boundaries matter only for Chinese: Latin-script words are told apart
 * by their letters (see `findPhrase`).
 */
export interface AnalyzedText {
  text: string;
  boundaries: Uint8Array;
  hasHan: boolean;
}

/** Node ships full ICU since version 13, so `Intl.Segmenter` has its Chinese dictionary. */
let segmenter: Intl.Segmenter | undefined;
function chineseSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return segmenter;
}

/**
 * Splits Chinese into words with `Intl.Segmenter('zh', { granularity: 'word' })` (ICU's
 * dictionary segmenter), then keeps the catalog's protected words whole: each occurrence of one
 * becomes a single word, its inner boundaries removed and its edges made boundaries, longest
 * word first, an occurrence overlapping a longer one skipped — a user dictionary on top of ICU's.
 *
 * ICU's dictionary is general-purpose and splits finely: `出租车` is `出租|车` and `人工智能` is
 * `人工|智能`, so without a protected word the keyword `出租` fires inside `出租车`. Protected words
 * are how a catalog fixes that (docs/intent.md, "Chinese").
 */
export class TextAnalyzer {
  private readonly words: readonly string[];

  /** `words`: protected words, in any form (they are normalised here). */
  constructor(words: readonly string[]) {
    const normal = [...new Set(words.map(normalizeText).filter((word) => word.length > 1 && containsHan(word)))];
    this.words = normal.sort((a, b) => b.length - a.length);
  }

  analyze(utterance: string): AnalyzedText {
    const text = normalizeText(utterance);
    const boundaries = new Uint8Array(text.length + 1);
    boundaries[0] = 1;
    boundaries[text.length] = 1;
    const hasHan = containsHan(text);
    if (!hasHan) return { text, boundaries, hasHan };
    for (const segment of chineseSegmenter().segment(text)) {
      boundaries[segment.index] = 1;
      boundaries[segment.index + segment.segment.length] = 1;
    }
    if (this.words.length > 0) this.protectWords(text, boundaries);
    return { text, boundaries, hasHan };
  }

  private protectWords(text: string, boundaries: Uint8Array): void {
    const taken = new Uint8Array(text.length);
    for (const word of this.words) {
      let from = 0;
      for (let start = text.indexOf(word, from); start !== -1; start = text.indexOf(word, from)) {
        const end = start + word.length;
        from = start + 1;
        if (taken.subarray(start, end).some((value) => value === 1)) continue;
        taken.fill(1, start, end);
        boundaries.fill(0, start + 1, end);
        boundaries[start] = 1;
        boundaries[end] = 1;
      }
    }
  }
}

/** A place in an analysed text: `[start, end)` in its normal form. */
export interface Span {
  start: number;
  end: number;
}

/** A keyword, synonym or value in normal form, with what its edges are made of (worked out once). */
export interface Phrase {
  text: string;
  firstHan: boolean;
  firstWord: boolean;
  lastHan: boolean;
  lastWord: boolean;
}

/** Prepares a phrase for `findPhrase`: its normal form and the kind of its first and last characters. */
export function toPhrase(text: string): Phrase {
  const normal = normalizeText(text);
  const first = characterAt(normal, 0);
  const last = characterBefore(normal, normal.length);
  return {
    text: normal,
    firstHan: isHan(first),
    firstWord: isWordCharacter(first),
    lastHan: isHan(last),
    lastWord: isWordCharacter(last),
  };
}

/**
 * Every occurrence of `phrase` in `analyzed` (within `[from, to)` when given) whose edges fall on
 * word edges: a Han edge must sit on a segmenter boundary (so `租车` does not fire inside
 * `出租|车`), a Latin-script letter or digit at an edge must not touch another one (so `cancel`
 * does not fire inside `cancellation`, nor `book` inside `notebook`). Other edges (punctuation,
 * spaces) always fit.
 */
export function findPhrase(analyzed: AnalyzedText, phrase: Phrase, from = 0, to = analyzed.text.length): Span[] {
  const spans: Span[] = [];
  for (let start = nextPhrase(analyzed, phrase, from, to); start !== -1; start = nextPhrase(analyzed, phrase, start + 1, to)) {
    spans.push({ start, end: start + phrase.text.length });
  }
  return spans;
}

/** Whether `phrase` occurs on word edges outside the spans of `except` (no allocation: the rules layer asks this of every keyword). */
export function hasPhrase(analyzed: AnalyzedText, phrase: Phrase, except: readonly Span[] = []): boolean {
  const length = phrase.text.length;
  for (let start = nextPhrase(analyzed, phrase, 0); start !== -1; start = nextPhrase(analyzed, phrase, start + 1)) {
    if (!except.some((part) => part.start <= start && start + length <= part.end)) return true;
  }
  return false;
}

/** The start of the next occurrence of `phrase` at or after `from` (ending by `to`) that fits the word edges, or -1. */
export function nextPhrase(analyzed: AnalyzedText, phrase: Phrase, from: number, to = analyzed.text.length): number {
  const { text, boundaries } = analyzed;
  const length = phrase.text.length;
  if (length === 0) return -1;
  for (
    let start = text.indexOf(phrase.text, from);
    start !== -1 && start + length <= to;
    start = text.indexOf(phrase.text, start + 1)
  ) {
    const end = start + length;
    if (phrase.firstHan ? boundaries[start] !== 1 : phrase.firstWord && isWordCharacter(characterBefore(text, start))) continue;
    if (phrase.lastHan ? boundaries[end] !== 1 : phrase.lastWord && isWordCharacter(characterAt(text, end))) continue;
    return start;
  }
  return -1;
}
