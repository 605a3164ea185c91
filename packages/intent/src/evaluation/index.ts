export { type Corpus, corpusSchema, readCorpus } from './corpus-schema.js';
export { commandKey, type EvaluationReport, evaluateCorpus, type Score, type TurnOutcome, turnLabel } from './evaluate.js';
export { formatReport, type ThresholdCheck, type TurnListing } from './format-report.js';
export { checkThresholds, type Thresholds } from './thresholds.js';
