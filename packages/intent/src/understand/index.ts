export type {
  DecidingLayer,
  FallbackTrace,
  ModelTrace,
  RejectedCommand,
  RuleHit,
  RulesTrace,
  SimilarityScore,
  SimilarityTrace,
  SlotFinding,
  SlotsTrace,
  TraceEntry,
} from '../layers/trace.js';
export {
  MAX_UTTERANCE_LENGTH,
  type UnderstandInput,
  type UnderstandPorts,
  type UnderstandResult,
  understand,
} from './understand.js';
