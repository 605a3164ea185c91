export { type AnalyzedText, findPhrase, type Span, TextAnalyzer } from './analyzed-text.js';
export { containsHan, hanCount, normalizeText } from './normalize.js';
export { type FoundNumber, findNumbers, parseChineseNumeral, readNumber } from './numbers.js';
export { CatalogPattern, type PatternMatch, patternProblem } from './pattern.js';
