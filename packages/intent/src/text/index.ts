export { type AnalyzedText, findPhrase, hasPhrase, type Phrase, type Span, TextAnalyzer, toPhrase } from './analyzed-text.js';
export { containsHan, hanCount, normalizeText } from './normalize.js';
export { type FoundNumber, findNumbers, parseChineseNumeral, readNumber } from './numbers.js';
export { CatalogPattern, type PatternMatch, PatternSet, patternProblem } from './pattern.js';
