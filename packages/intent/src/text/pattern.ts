import { RE2JS, RE2Set } from 're2js';
import type { AnalyzedText, Span } from './analyzed-text.js';

/** One match of a pattern: the whole match and the captured value (group `value`, else 1, else all). */
export interface PatternMatch extends Span {
  /** The whole match. */
  text: string;
  /** The captured value and where it is (the whole match when the pattern captures nothing). */
  value: string;
  valueSpan: Span;
}

/**
 * A catalog regular expression, compiled once with RE2 (re2js): matching takes time linear in
 * the utterance whatever the pattern, so neither a careless pattern nor a hostile utterance can
 * hang the host (the same engine the SDK uses for workflow conditions). RE2 syntax has no
 * look-around and no back-references. Patterns run on the normal form of the utterance (lower
 * case, NFKC), case-insensitively.
 */
export class CatalogPattern {
  readonly source: string;
  private readonly compiled: RE2JS;
  private readonly valueGroup: string | number;

  /** Throws RE2's syntax error when the pattern does not compile (the catalog compiler reports it). */
  constructor(source: string) {
    this.source = source;
    this.compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    const named = this.compiled.namedGroups();
    this.valueGroup = 'value' in named ? 'value' : this.compiled.groupCount() >= 1 ? 1 : 0;
  }

  /** The first match in the text, or undefined. */
  find(analyzed: AnalyzedText): PatternMatch | undefined {
    for (const match of this.matches(analyzed)) return match;
    return undefined;
  }

  /** Every match, left to right, not overlapping; a match whose value group did not take part has the empty value. */
  *matches(analyzed: AnalyzedText): Generator<PatternMatch> {
    const matcher = this.compiled.matcher(analyzed.text);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      const value = matcher.group(this.valueGroup);
      const valueStart = value === null ? start : matcher.start(this.valueGroup);
      yield {
        start,
        end,
        text: matcher.group(0) ?? '',
        value: value ?? '',
        valueSpan: { start: valueStart, end: valueStart + (value ?? '').length },
      };
    }
  }
}

/** Whether RE2 compiles the pattern; the error message when it does not. */
export function patternProblem(source: string): string | undefined {
  try {
    new CatalogPattern(source);
    return undefined;
  } catch (error) {
    return `not a regular expression RE2 accepts (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Many patterns matched in one pass (RE2's set matching: one automaton for all of them), to learn
 * which patterns match at all before asking the few that do where and what they captured. Matching
 * every catalog pattern one by one costs several times more on every turn.
 */
export class PatternSet {
  readonly patterns: readonly CatalogPattern[];
  private readonly set: RE2Set | undefined;

  constructor(patterns: readonly CatalogPattern[]) {
    this.patterns = patterns;
    if (patterns.length === 0) return;
    this.set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE);
    for (const pattern of patterns) this.set.add(pattern.source);
    this.set.compile();
  }

  /** The patterns that match somewhere in the text. */
  matching(analyzed: AnalyzedText): Set<CatalogPattern> {
    const found = new Set<CatalogPattern>();
    if (!this.set) return found;
    for (const index of this.set.match(analyzed.text)) found.add(this.patterns[index] as CatalogPattern);
    return found;
  }
}
