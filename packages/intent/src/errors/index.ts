export {
  CommandGeneratorError,
  EmbedderError,
  IntentError,
  type IntentErrorCode,
  type IntentProblem,
  InvalidCatalogError,
  InvalidCorpusError,
  InvalidUnderstandInputError,
  pathOf,
} from './intent-error.js';
