import { normalizeText } from '../text/normalize.js';
import type { Embedder } from './embedder.js';

/** Options of `createHashingEmbedder`. */
export interface HashingEmbedderOptions {
  /** Length of the vectors (default 1,024): more means fewer hash collisions. */
  dimensions?: number;
}

/** Han characters too common to say anything alone (they still count inside pairs). */
const commonHan = new Set([...'的了吗呢吧啊呀我你他她它们是在有个这那么要想请帮给一下能可以就也都还和与把被让']);
/** Chinese pairs that carry no topic. */
const commonHanPairs = new Set([
  '我想',
  '帮我',
  '一下',
  '可以',
  '请问',
  '一个',
  '什么',
  '我要',
  '你们',
  '我们',
  '能不',
  '不能',
  '麻烦',
  '需要',
  '怎么',
  '一张',
  '帮忙',
]);
/** English words that carry no topic. */
const commonWords = new Set(
  'a an the to of for in on at by with from and or but is are was were be been am i me my you your we our us it its this that these those can could would will please do does did have has had want need like just some any so'.split(
    ' ',
  ),
);

/** The 32-bit FNV 1a hash: fast, stable across processes and platforms. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

const runs = /(\p{Script=Han}+)|([\p{L}\p{N}]+)/gu;

/** The weighted features of a text: Han characters and pairs, whole words, and letter triples of words. */
function features(text: string, add: (feature: string, weight: number) => void): void {
  for (const match of normalizeText(text).matchAll(runs)) {
    const han = match[1];
    if (han !== undefined) {
      const characters = [...han];
      characters.forEach((character, index) => {
        if (!commonHan.has(character)) add(`u:${character}`, 0.5);
        const next = characters[index + 1];
        if (next !== undefined) {
          const pair = character + next;
          add(`b:${pair}`, commonHanPairs.has(pair) ? 0.2 : 1);
        }
      });
      continue;
    }
    const word = match[2] as string;
    if (/^\d+$/u.test(word)) {
      add(`n:${Math.min(word.length, 8)}`, 0.7);
      continue;
    }
    if (commonWords.has(word)) continue;
    add(`w:${word}`, 1);
    const padded = `<${word}>`;
    for (let index = 0; index + 3 <= padded.length; index += 1) add(`t:${padded.slice(index, index + 3)}`, 0.3);
  }
}

/**
 * A deterministic, offline embedder for tests, the demo and the evaluation's default: each text
 * becomes a vector of hashed character features (Han characters and character pairs, English
 * words and their letter triples, so `booking` is near `book`), with the most common function
 * words and characters weighted down. It needs no model and no network, and the same text always
 * gives the same vector — but it knows nothing of meaning: synonyms that share no characters
 * (`cab` / `taxi`, `机票` / `飞机票` partly) score low, and its scores sit on a different scale from a
 * real embedding model's, so thresholds set for one do not carry over to the other. Use a real
 * embedding model (`createOpenAICompatibleEmbedder`) in production.
 */
export function createHashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 1024;
  if (!Number.isInteger(dimensions) || dimensions < 16)
    throw new RangeError(`dimensions must be an integer of at least 16, got ${dimensions}`);
  const embedOne = (text: string): number[] => {
    const vector = new Float64Array(dimensions);
    features(text, (feature, weight) => {
      const value = hash(feature);
      const index = value % dimensions;
      vector[index] = (vector[index] as number) + (value & 0x80000000 ? -weight : weight);
    });
    let norm = 0;
    for (const value of vector) norm += value * value;
    const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    return Array.from(vector, (value) => value * scale);
  };
  return {
    name: `hashing:${dimensions}`,
    embed: async (texts) => texts.map(embedOne),
  };
}
