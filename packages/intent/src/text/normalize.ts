/**
 * The one normal form that keywords, synonyms, patterns and utterances are all compared in:
 * Unicode NFKC (full-width Latin letters and digits become ASCII, `ＡＢＣ１２３` → `abc123`, and
 * compatibility forms fold), lower case, runs of white space as one space, trimmed. Positions
 * (matches, word boundaries) are always positions in this normal form. It does NOT convert
 * traditional to simplified Chinese (`機票` stays `機票` and does not match `机票`): a catalog that
 * serves both scripts lists both spellings.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const hanCharacter = /^\p{Script=Han}$/u;
/** Letters and digits of Latin-like words: a keyword edge made of one must not touch another. */
const wordCharacter = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]$/u;
/** Any Han character anywhere. */
const anyHan = /\p{Script=Han}/u;

/** The whole character (code point) that starts at `index`, or undefined at the end. */
export function characterAt(text: string, index: number): string | undefined {
  const code = text.codePointAt(index);
  return code === undefined ? undefined : String.fromCodePoint(code);
}

/** The whole character (code point) that ends at `index`, or undefined at the start. */
export function characterBefore(text: string, index: number): string | undefined {
  if (index <= 0) return undefined;
  const last = text.charCodeAt(index - 1);
  const start = last >= 0xdc00 && last <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return characterAt(text, start);
}

/** Whether `character` (one code point) is a Han character. */
export function isHan(character: string | undefined): boolean {
  return character !== undefined && hanCharacter.test(character);
}

/** Whether `character` (one code point) is a letter or digit of a Latin-like word. */
export function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && wordCharacter.test(character);
}

/** Whether a text holds any Han character. */
export function containsHan(text: string): boolean {
  return anyHan.test(text);
}

/** How many Han characters a text holds. */
export function hanCount(text: string): number {
  let count = 0;
  for (const character of text) if (hanCharacter.test(character)) count += 1;
  return count;
}
