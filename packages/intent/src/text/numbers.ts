import type { Span } from './analyzed-text.js';

const chineseDigits: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const chineseUnits: Record<string, number> = { 十: 10, 百: 100, 千: 1000, 万: 10_000 };

const englishNumbers: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
};

/**
 * The value of a Chinese numeral up to the ten-thousands: `三` 3, `十二` 12, `两百` 200,
 * `三百五十` 350, `一千零五` 1005, and the spoken elision `一千五` 1500 / `三百五` 350 (a last digit
 * right after a unit counts in the next smaller unit). Undefined when the text is not one.
 */
export function parseChineseNumeral(text: string): number | undefined {
  if (text === '' || ![...text].every((character) => character in chineseDigits || character in chineseUnits)) return undefined;
  let total = 0;
  let section = 0;
  let digit: number | undefined;
  let lastUnit = 0;
  for (const character of text) {
    const value = chineseDigits[character];
    if (value !== undefined) {
      if (digit !== undefined && digit !== 0) return undefined; // two digits in a row: `一二` is not a numeral
      digit = value;
      continue;
    }
    const unit = chineseUnits[character] as number;
    if (unit === 10_000) {
      total = (section + (digit ?? 0)) * unit;
      section = 0;
      lastUnit = unit;
    } else {
      section += (digit ?? (unit === 10 ? 1 : 0)) * unit;
      lastUnit = unit;
    }
    digit = undefined;
  }
  if (digit !== undefined) section += lastUnit >= 100 && !text.includes('零') ? (digit * lastUnit) / 10 : digit;
  return total + section;
}

/** A number written in an utterance and where it is. */
export interface FoundNumber extends Span {
  value: number;
}

const numberToken = /(\d+(?:\.\d+)?)|([零〇一二两三四五六七八九十百千万]+)|([a-z]+)/gu;

/**
 * The numbers an utterance (in normal form) writes, in order: Arabic digits (`3`, `2.5`), Chinese
 * numerals (`两`, `三百五`) and English number words up to fifty (`two`, `twenty`). A Chinese
 * numeral inside a longer word is still read (`一张` is 1): callers that need a unit use a pattern.
 */
export function findNumbers(text: string): FoundNumber[] {
  const found: FoundNumber[] = [];
  for (const match of text.matchAll(numberToken)) {
    const start = match.index;
    const end = start + match[0].length;
    let value: number | undefined;
    if (match[1] !== undefined) value = Number(match[1]);
    else if (match[2] !== undefined) value = parseChineseNumeral(match[2]);
    else if (match[3] !== undefined) value = englishNumbers[match[3]];
    if (value !== undefined && Number.isFinite(value)) found.push({ start, end, value });
  }
  return found;
}

/** The number a captured slot value means (`3`, `三`, `three`, `3 晚`), or undefined. */
export function readNumber(text: string): number | undefined {
  return findNumbers(text)[0]?.value;
}
