/**
 * `@agentloom/intent`: one user utterance becomes a list of commands (N-14) — rules, then
 * similarity, then an optional model — and the host routes by action reference. The package
 * stands alone: it imports nothing from `@agentloom/sdk` (the dependency rule checks it);
 * `@agentloom/sdk/intent` adapts an SDK `LanguageModel` to its `CommandGenerator` port.
 */

// The catalog.
export {
  type Action,
  type ActionKind,
  type ActionRef,
  type AllowedValue,
  actionKinds,
  actionRefSchema,
  type CompiledCatalog,
  type ConversationKind,
  compileCatalog,
  conversationKinds,
  type IntentCatalog,
  type IntentCatalogInput,
  intentCatalogSchema,
  isCompiledCatalog,
  type Slot,
  type SlotType,
  slotTypes,
  type TriggerRules,
} from './catalog/index.js';
export { type CliIo, runCli } from './cli/index.js';
// Commands and the dialogue state the host holds.
export {
  applyCommands,
  type Command,
  type CommandType,
  commandSchema,
  commandTypes,
  type DialogueState,
  dialogueStateSchema,
  refKey,
  type SlotValue,
  sameRef,
  slotValueSchema,
} from './commands/index.js';
// Ports and their adapters.
export {
  cosine,
  createHashingEmbedder,
  createOpenAICompatibleEmbedder,
  type Embedder,
  type HashingEmbedderOptions,
  type OpenAICompatibleEmbedderOptions,
} from './embedders/index.js';
// Errors.
export {
  CommandGeneratorError,
  EmbedderError,
  IntentError,
  type IntentErrorCode,
  type IntentProblem,
  InvalidCatalogError,
  InvalidCorpusError,
  InvalidUnderstandInputError,
} from './errors/index.js';
// Evaluation.
export {
  type Corpus,
  checkThresholds,
  commandKey,
  corpusSchema,
  type EvaluationReport,
  evaluateCorpus,
  formatReport,
  readCorpus,
  type Score,
  type ThresholdCheck,
  type Thresholds,
  type TurnListing,
  type TurnOutcome,
  turnLabel,
} from './evaluation/index.js';
export {
  buildGeneratorRequest,
  type CommandGenerator,
  type CommandGeneratorRequest,
  type GeneratorAction,
  validateGeneratorOutput,
} from './layers/index.js';
export { renderIntentSchemas } from './schemas/index.js';
// Chinese-aware text handling (what the rules layer matches with).
export { normalizeText, parseChineseNumeral } from './text/index.js';
// Understanding an utterance.
export {
  type DecidingLayer,
  type FallbackTrace,
  MAX_UTTERANCE_LENGTH,
  type ModelTrace,
  type RejectedCommand,
  type RuleHit,
  type RulesTrace,
  type SimilarityScore,
  type SimilarityTrace,
  type SlotFinding,
  type SlotsTrace,
  type TraceEntry,
  type UnderstandInput,
  type UnderstandPorts,
  type UnderstandResult,
  understand,
} from './understand/index.js';
