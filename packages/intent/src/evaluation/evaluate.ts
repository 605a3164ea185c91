import { type Command, type CommandType, commandTypes, refKey } from '../commands/command.js';
import { applyCommands, type DialogueState } from '../commands/dialogue-state.js';
import type { DecidingLayer } from '../layers/trace.js';
import { normalizeText } from '../text/normalize.js';
import { type UnderstandPorts, understand } from '../understand/understand.js';
import type { Corpus } from './corpus-schema.js';

/** True positives, false positives, false negatives, and what they give. */
export interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Undefined when nothing was predicted (precision) or expected (recall). */
  precision?: number;
  recall?: number;
  f1?: number;
}

/** One turn as the evaluation saw it. */
export interface TurnOutcome {
  dialogue: string;
  /** 1-based. */
  turn: number;
  user: string;
  expected: Command[];
  predicted: Command[];
  decidedBy: DecidingLayer;
  /** Every expected command was predicted, and nothing else. */
  correct: boolean;
  /** Keys (see `commandKey`) expected but not predicted, and predicted but not expected. */
  missing: string[];
  unexpected: string[];
}

export interface EvaluationReport {
  turns: TurnOutcome[];
  /** Over all commands of all turns: what `--min-f1`, `--min-precision` and `--min-recall` check. */
  micro: Score;
  /** The mean F1 of the command types that occur. */
  macroF1: number;
  /** Share of turns whose commands were exactly right (joint turn accuracy). */
  turnAccuracy: number;
  byType: Partial<Record<CommandType, Score>>;
  /** `start` commands per action (`refKey`). */
  byAction: Record<string, Score>;
  /** Turn labels (see `turnLabel`): `matrix[expected][predicted]` counts turns. */
  confusion: { labels: string[]; matrix: number[][] };
  byLayer: Partial<Record<DecidingLayer, { turns: number; correct: number }>>;
}

/**
 * A command as the evaluation compares it: type plus key arguments, with slot values in normal
 * form (`setSlot date=tomorrow`, `start workflow:book_flight`, `clarify agent:a|workflow:b` with
 * the options sorted). Reasons of `cannotHandle` and `handOff` are not compared.
 */
export function commandKey(command: Command): string {
  switch (command.type) {
    case 'start':
      return `start ${refKey(command.action)}`;
    case 'setSlot':
    case 'correctSlot': {
      const value = typeof command.value === 'string' ? normalizeText(command.value) : String(command.value);
      return `${command.type} ${command.name}=${value}`;
    }
    case 'clarify':
      return `clarify ${[...new Set(command.options.map(refKey))].sort().join('|')}`;
    default:
      return command.type;
  }
}

/**
 * The label of a turn for the confusion table: the action it starts, else the first of `cancel`,
 * `handOff`, `clarify`, `chitChat`, `cannotHandle` it holds, else `slots` (slot commands only),
 * else `none` (no command).
 */
export function turnLabel(commands: readonly Command[]): string {
  const start = commands.find((command) => command.type === 'start');
  if (start) return refKey(start.action);
  for (const type of ['cancel', 'handOff', 'clarify', 'chitChat', 'cannotHandle'] as const) {
    if (commands.some((command) => command.type === type)) return type;
  }
  return commands.length > 0 ? 'slots' : 'none';
}

function score(truePositives: number, falsePositives: number, falseNegatives: number): Score {
  const result: Score = { truePositives, falsePositives, falseNegatives };
  if (truePositives + falsePositives > 0) result.precision = truePositives / (truePositives + falsePositives);
  if (truePositives + falseNegatives > 0) result.recall = truePositives / (truePositives + falseNegatives);
  if (result.precision !== undefined && result.recall !== undefined) {
    result.f1 =
      result.precision + result.recall === 0 ? 0 : (2 * result.precision * result.recall) / (result.precision + result.recall);
  } else if (truePositives + falsePositives + falseNegatives > 0) result.f1 = 0;
  return result;
}

/** Counts the key multisets of one turn into tallies keyed by `bucket`. */
function tally(
  tallies: Map<string, [number, number, number]>,
  bucket: (key: string, command: Command) => string | undefined,
  expected: readonly Command[],
  predicted: readonly Command[],
): void {
  const count = (commands: readonly Command[]) => {
    const counts = new Map<string, { command: Command; count: number }>();
    for (const command of commands) {
      const key = commandKey(command);
      const entry = counts.get(key) ?? { command, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
    return counts;
  };
  const want = count(expected);
  const got = count(predicted);
  for (const key of new Set([...want.keys(), ...got.keys()])) {
    const command = (want.get(key) ?? got.get(key))?.command as Command;
    const name = bucket(key, command);
    if (name === undefined) continue;
    const wanted = want.get(key)?.count ?? 0;
    const gotten = got.get(key)?.count ?? 0;
    const matched = Math.min(wanted, gotten);
    const entry = tallies.get(name) ?? [0, 0, 0];
    entry[0] += matched;
    entry[1] += gotten - matched;
    entry[2] += wanted - matched;
    tallies.set(name, entry);
  }
}

/**
 * Runs every dialogue of the corpus through `understand` and scores each turn against its
 * expected commands. Dialogue state is carried between turns by applying the turn's EXPECTED
 * commands with `applyCommands` (teacher forcing), so a mistake in one turn does not change what
 * later turns are asked: each turn is scored on its own, as in Rasa's dialogue-understanding
 * tests. Each dialogue starts with an empty state.
 */
export async function evaluateCorpus(corpus: Corpus, ports: UnderstandPorts = {}): Promise<EvaluationReport> {
  const turns: TurnOutcome[] = [];
  const all = new Map<string, [number, number, number]>();
  const types = new Map<string, [number, number, number]>();
  const actions = new Map<string, [number, number, number]>();
  for (const dialogue of corpus.dialogues) {
    let state: DialogueState = {};
    for (const [index, turn] of dialogue.turns.entries()) {
      const result = await understand({ utterance: turn.user, state, catalog: corpus.catalog, ports });
      const expectedKeys = turn.expect.map(commandKey);
      const predictedKeys = result.commands.map(commandKey);
      const missing = [...expectedKeys];
      const unexpected: string[] = [];
      for (const key of predictedKeys) {
        const at = missing.indexOf(key);
        if (at === -1) unexpected.push(key);
        else missing.splice(at, 1);
      }
      turns.push({
        dialogue: dialogue.id,
        turn: index + 1,
        user: turn.user,
        expected: turn.expect,
        predicted: result.commands,
        decidedBy: result.decidedBy,
        correct: missing.length === 0 && unexpected.length === 0,
        missing,
        unexpected,
      });
      tally(all, () => 'all', turn.expect, result.commands);
      tally(types, (_key, command) => command.type, turn.expect, result.commands);
      tally(
        actions,
        (_key, command) => (command.type === 'start' ? refKey(command.action) : undefined),
        turn.expect,
        result.commands,
      );
      state = applyCommands(state, turn.expect, corpus.catalog);
    }
  }
  const toScore = ([tp, fp, fn]: [number, number, number]) => score(tp, fp, fn);
  const byType: EvaluationReport['byType'] = {};
  for (const type of commandTypes) {
    const counts = types.get(type);
    if (counts) byType[type] = toScore(counts);
  }
  const byAction: Record<string, Score> = {};
  for (const action of corpus.catalog.actions) {
    const counts = actions.get(action.key);
    if (counts) byAction[action.key] = toScore(counts);
  }
  const f1s = Object.values(byType).map((entry) => entry.f1 ?? 0);
  const byLayer: EvaluationReport['byLayer'] = {};
  for (const turn of turns) {
    const entry = byLayer[turn.decidedBy] ?? { turns: 0, correct: 0 };
    entry.turns += 1;
    if (turn.correct) entry.correct += 1;
    byLayer[turn.decidedBy] = entry;
  }
  return {
    turns,
    micro: toScore(all.get('all') ?? [0, 0, 0]),
    macroF1: f1s.length === 0 ? 0 : f1s.reduce((sum, value) => sum + value, 0) / f1s.length,
    turnAccuracy: turns.length === 0 ? 0 : turns.filter((turn) => turn.correct).length / turns.length,
    byType,
    byAction,
    confusion: confusionOf(corpus, turns),
    byLayer,
  };
}

function confusionOf(corpus: Corpus, turns: readonly TurnOutcome[]): EvaluationReport['confusion'] {
  const order = [
    ...corpus.catalog.actions.map((action) => action.key),
    'clarify',
    'cancel',
    'handOff',
    'chitChat',
    'cannotHandle',
    'slots',
    'none',
  ];
  const pairs = turns.map((turn) => [turnLabel(turn.expected), turnLabel(turn.predicted)] as const);
  const used = new Set(pairs.flat());
  const labels = order.filter((label) => used.has(label));
  const matrix = labels.map(() => labels.map(() => 0));
  for (const [expected, predicted] of pairs) {
    const row = matrix[labels.indexOf(expected)] as number[];
    row[labels.indexOf(predicted)] = (row[labels.indexOf(predicted)] as number) + 1;
  }
  return { labels, matrix };
}
