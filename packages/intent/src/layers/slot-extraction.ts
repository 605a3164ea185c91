import type { CompiledAction, CompiledCatalog, CompiledSlot } from '../catalog/compile-catalog.js';
import type { Command, SlotValue } from '../commands/command.js';
import { type AnalyzedText, findPhrase, nextPhrase, type Phrase, type Span, toPhrase } from '../text/analyzed-text.js';
import { normalizeText } from '../text/normalize.js';
import { findNumbers, readNumber } from '../text/numbers.js';
import type { SlotFinding, SlotsTrace } from './trace.js';

/** Built-in yes / no words for boolean slots (checked for "no" first: `不是` holds `是`). */
const noWords = [
  '不是',
  '不要',
  '不用',
  '不对',
  '不行',
  '不可以',
  '不需要',
  '没有',
  'no',
  'nope',
  'not',
  "don't",
  'do not',
  'negative',
];
const yesWords = [
  '是的',
  '对的',
  '好的',
  '可以',
  '没错',
  '确认',
  '需要',
  '有的',
  '是',
  '对',
  '好',
  '行',
  '要',
  '有',
  'yes',
  'yeah',
  'yep',
  'sure',
  'ok',
  'okay',
  'correct',
  'confirm',
  'right',
  'please do',
];

const noPhrases = noWords.map(toPhrase);
const yesPhrases = yesWords.map(toPhrase);

/**
 * Reads yes or no in a text (normal form), or undefined when it says neither. With `atStart`, the
 * word must open the text (`yes, I have it`, `没有`), so that a `not` deep inside a sentence about
 * something else is not read as an answer.
 */
export function readYesNo(analyzed: AnalyzedText, atStart = false, within?: Span): boolean | undefined {
  const from = within?.start ?? 0;
  const says = (words: readonly Phrase[]) =>
    words.some((word) => findPhrase(analyzed, word, from, within?.end).some((span) => !atStart || span.start === from));
  if (says(noPhrases)) return false;
  if (says(yesPhrases)) return true;
  return undefined;
}

interface Candidate {
  value: SlotValue;
  by: SlotFinding['by'];
  text: string;
}

/**
 * Finds the values of an action's slots in an utterance, deterministically:
 * 1. extraction patterns, slot by slot in declared order, each pattern's matches left to right:
 *    the first whose captured value converts to the slot's type wins (a category value must be
 *    one of its allowed values or synonyms);
 * 2. then, for slots still empty, the values themselves — a category slot's allowed values when
 *    it has no patterns or was the slot asked last, a number or yes/no only for the slot asked
 *    last — outside the text that patterns already used, so `from Beijing to Shanghai` cannot give
 *    both city slots the same city;
 * 3. several different allowed values in the text for one slot fill nothing (it is ambiguous),
 *    unless there are two and one is the value the state already holds: then the other one is
 *    the new value (`not Thursday, Friday`, `把周四改成周五`);
 * 4. a yes/no answer must open the utterance.
 * A value equal to the one the state holds gives no command; a different one gives `correctSlot`.
 * `found` is whether any value was read, even one the state already holds; `spans` are the text
 * the values were read from (the rules layer ignores other triggers inside an answer).
 * Free-text answers (`text` slots filled by the whole utterance) are not made here: `understand`
 * makes them last, once no layer has found anything else in the utterance.
 */
export function extractSlots(
  catalog: CompiledCatalog,
  action: CompiledAction,
  analyzed: AnalyzedText,
  context: { askedSlot?: string; filled?: Readonly<Record<string, SlotValue>> },
): { commands: Command[]; trace: SlotsTrace; found: boolean; spans: Span[] } {
  const trace: SlotsTrace = { layer: 'slots', action: action.key, found: [], skipped: [] };
  const used: Span[] = [];
  const candidates = new Map<string, Candidate>();
  const matching = action.slotPatterns.matching(analyzed);
  for (const slot of action.slots) {
    patterns: for (const pattern of slot.patterns) {
      if (!matching.has(pattern)) continue;
      for (const match of pattern.matches(analyzed)) {
        const value = convert(catalog, slot, match.value, { analyzed, span: match.valueSpan });
        if (value === undefined) {
          trace.skipped.push({
            slot: slot.slot.name,
            reason: `"${match.value}" (pattern ${pattern.source}) is not a valid ${describeType(slot)}`,
          });
          continue;
        }
        candidates.set(slot.slot.name, { value, by: 'pattern', text: match.text });
        used.push(match);
        break patterns;
      }
    }
  }
  for (const slot of action.slots) {
    if (candidates.has(slot.slot.name)) continue;
    const asked = context.askedSlot === slot.slot.name && slot.slot.extraction.fromAnswer;
    const candidate = findValue(slot, analyzed, used, asked, context.filled?.[slot.slot.name], trace);
    if (candidate) candidates.set(slot.slot.name, candidate);
  }
  const commands: Command[] = [];
  for (const slot of action.slots) {
    const candidate = candidates.get(slot.slot.name);
    if (!candidate) continue;
    const previous = context.filled?.[slot.slot.name];
    const result = previous === undefined ? 'setSlot' : previous === candidate.value ? 'unchanged' : 'correctSlot';
    trace.found.push({ slot: slot.slot.name, ...candidate, result });
    if (result !== 'unchanged') commands.push({ type: result, name: slot.slot.name, value: candidate.value });
  }
  return { commands, trace, found: trace.found.length > 0, spans: used };
}

/** Step 2: a value written in the text itself, outside the spans patterns used. */
function findValue(
  slot: CompiledSlot,
  analyzed: AnalyzedText,
  used: Span[],
  asked: boolean,
  current: SlotValue | undefined,
  trace: SlotsTrace,
): Candidate | undefined {
  const free = (span: Span) => !used.some((other) => span.start < other.end && other.start < span.end);
  const { type } = slot.slot;
  if (type === 'category' && (asked || slot.patterns.length === 0)) {
    const found = valuesIn(slot, analyzed).filter((hit) => free(hit));
    let distinct = [...new Set(found.map((hit) => hit.value))];
    if (distinct.length === 2 && current !== undefined && distinct.includes(String(current))) {
      distinct = distinct.filter((value) => value !== current);
    }
    if (distinct.length > 1) {
      trace.skipped.push({ slot: slot.slot.name, reason: `several values in the utterance: ${distinct.join(', ')}` });
      return undefined;
    }
    const hit = found.find((candidate) => candidate.value === distinct[0]);
    if (!hit) return undefined;
    for (const span of found) used.push(span);
    return { value: hit.value, by: 'value', text: analyzed.text.slice(hit.start, hit.end) };
  }
  if (type === 'number' && asked) {
    const number = findNumbers(analyzed.text).find((hit) => free(hit));
    if (!number) return undefined;
    used.push(number);
    return { value: number.value, by: 'value', text: analyzed.text.slice(number.start, number.end) };
  }
  if (type === 'boolean' && asked) {
    const value = readYesNo(analyzed, true);
    return value === undefined ? undefined : { value, by: 'value', text: analyzed.text };
  }
  return undefined;
}

/** Every occurrence of an allowed value or synonym, a shorter one inside a longer one left out (`后天` inside `大后天`). */
function valuesIn(slot: CompiledSlot, analyzed: AnalyzedText, within?: Span): Array<Span & { value: string }> {
  const hits: Array<Span & { value: string }> = [];
  const from = within?.start ?? 0;
  const to = within?.end ?? analyzed.text.length;
  for (const { value, phrases } of slot.values) {
    for (const phrase of phrases) {
      for (
        let start = nextPhrase(analyzed, phrase, from, to);
        start !== -1;
        start = nextPhrase(analyzed, phrase, start + 1, to)
      ) {
        hits.push({ start, end: start + phrase.text.length, value });
      }
    }
  }
  if (hits.length < 2) return hits;
  return hits.filter(
    (hit) =>
      !hits.some(
        (other) =>
          other !== hit && other.start <= hit.start && hit.end <= other.end && other.end - other.start > hit.end - hit.start,
      ),
  );
}

/**
 * A captured text as a value of the slot's type, or undefined. `source` is where the text sits in
 * the analysed utterance, so that words are told apart by the utterance's own word boundaries; a
 * text from elsewhere (the model's output) is analysed on its own.
 */
export function convert(
  catalog: CompiledCatalog,
  slot: CompiledSlot,
  raw: string,
  source?: { analyzed: AnalyzedText; span: Span },
): SlotValue | undefined {
  const text = normalizeText(raw);
  if (text === '') return undefined;
  switch (slot.slot.type) {
    case 'text':
      return raw.trim();
    case 'number':
      return readNumber(text);
    case 'boolean':
      return source ? readYesNo(source.analyzed, false, source.span) : readYesNo(catalog.analyzer.analyze(text));
    case 'category': {
      const exact = slot.values.find(({ phrases }) => phrases.some((phrase) => phrase.text === text));
      if (exact) return exact.value;
      const found = source ? valuesIn(slot, source.analyzed, source.span) : valuesIn(slot, catalog.analyzer.analyze(text));
      const inside = [...new Set(found.map((hit) => hit.value))];
      return inside.length === 1 ? inside[0] : undefined;
    }
  }
}

function describeType(slot: CompiledSlot): string {
  return slot.slot.type === 'category' ? 'allowed value' : slot.slot.type;
}
