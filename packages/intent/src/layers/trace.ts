import type { Command, SlotValue } from '../commands/command.js';

/** The layer that decided a turn; `fallback` when none did (the turn is `cannotHandle`). */
export type DecidingLayer = 'rules' | 'similarity' | 'model' | 'fallback';

/** One trigger that fired in the rules layer. */
export interface RuleHit {
  /** The target: an action's `refKey` (`workflow:book_flight`) or `cancel` / `handOff` / `chitChat`. */
  target: string;
  by: 'keyword' | 'pattern';
  /** The keyword or the pattern's source. */
  rule: string;
  /** The text of the utterance it matched (normal form). */
  matched: string;
  priority: number;
}

/** What the rules layer saw and decided: every trigger that fired, every veto, the winner and why. */
export interface RulesTrace {
  layer: 'rules';
  /** `triggers`: keywords and patterns; `answer`: a free-text answer to the slot asked last (after similarity found nothing). */
  stage: 'triggers' | 'answer';
  outcome: 'decided' | 'no-match';
  reason: string;
  hits: RuleHit[];
  /** Targets a negative keyword removed from this and the similarity layer. */
  vetoes: Array<{ target: string; negativeKeyword: string }>;
  /** The action or conversation command chosen, if any. */
  chosen?: string;
}

/** One slot value found in the utterance. */
export interface SlotFinding {
  slot: string;
  value: SlotValue;
  /** `pattern`: an extraction pattern; `value`: an allowed value, number or yes/no found in the text; `answer`: the whole utterance answering the asked slot. */
  by: 'pattern' | 'value' | 'answer';
  /** The text it was read from. */
  text: string;
  /** What it became: a new value, a correction of the state's value, or nothing (the state has this value). */
  result: 'setSlot' | 'correctSlot' | 'unchanged';
}

/** Slot extraction for one action (the one started, or the active one). */
export interface SlotsTrace {
  layer: 'slots';
  /** The action's `refKey`. */
  action: string;
  found: SlotFinding[];
  /** Slots with a candidate that could not be used, and why (not an allowed value, several values, not a number). */
  skipped: Array<{ slot: string; reason: string }>;
}

/** One target's similarity: its best example and score against its threshold. */
export interface SimilarityScore {
  target: string;
  score: number;
  threshold: number;
  /** The example that scored best. */
  example: string;
}

export interface SimilarityTrace {
  layer: 'similarity';
  outcome: 'decided' | 'no-match' | 'skipped';
  reason: string;
  /** The best-scoring targets, best first (at most eight). */
  scores: SimilarityScore[];
  chosen?: string;
}

/** A command the model produced that was not used, and why: never dropped silently. */
export interface RejectedCommand {
  command: unknown;
  reason: string;
}

export interface ModelTrace {
  layer: 'model';
  outcome: 'decided' | 'skipped';
  reason: string;
  /** The actions the model was shown (`refKey`s), most relevant first. */
  offered: string[];
  /** The generator's output as it came. */
  output?: unknown;
  accepted: Command[];
  rejected: RejectedCommand[];
}

export interface FallbackTrace {
  layer: 'fallback';
  reason: string;
}

/** One step of `understand`, in the order it ran. */
export type TraceEntry = RulesTrace | SlotsTrace | SimilarityTrace | ModelTrace | FallbackTrace;
