import type { IntentCatalogInput } from '../catalog/catalog-schema.js';
import {
  type CompiledAction,
  type CompiledCatalog,
  compileCatalog,
  isAction,
  isCompiledCatalog,
} from '../catalog/compile-catalog.js';
import { type Command, refKey } from '../commands/command.js';
import { type DialogueState, dialogueStateProblems, dialogueStateSchema } from '../commands/dialogue-state.js';
import type { Embedder } from '../embedders/embedder.js';
import { type IntentProblem, InvalidUnderstandInputError, pathOf } from '../errors/index.js';
import type { CommandGenerator } from '../layers/command-generator.js';
import { runModelLayer } from '../layers/model-layer.js';
import { matchRules } from '../layers/rules-layer.js';
import { matchSimilarity } from '../layers/similarity-layer.js';
import { extractSlots } from '../layers/slot-extraction.js';
import type { DecidingLayer, RejectedCommand, SimilarityScore, TraceEntry } from '../layers/trace.js';
import type { AnalyzedText } from '../text/analyzed-text.js';

/** The injected parts: without an embedder the similarity layer is skipped, without a generator the model layer. */
export interface UnderstandPorts {
  embedder?: Embedder;
  generator?: CommandGenerator;
}

export interface UnderstandInput {
  utterance: string;
  /** The dialogue state the host holds (none: no active action). */
  state?: DialogueState;
  /** A catalog (checked and compiled on first use, then remembered by identity: do not mutate it) or a `compileCatalog` result. */
  catalog: IntentCatalogInput | CompiledCatalog;
  ports?: UnderstandPorts;
  /** Passed to the ports; aborting it abandons their calls. */
  signal?: AbortSignal;
}

export interface UnderstandResult {
  /** What the utterance asks for, in order: a `start` before the slots it takes. */
  commands: Command[];
  /** The layer whose verdict the commands are. */
  decidedBy: DecidingLayer;
  /** Every step, in the order it ran, with what it decided and why. */
  trace: TraceEntry[];
  /** Model commands that were refused, with their reasons (also in the model's trace entry). */
  rejected: RejectedCommand[];
}

/** The longest utterance accepted, in characters. */
export const MAX_UTTERANCE_LENGTH = 4000;

const compiledCatalogs = new WeakMap<object, CompiledCatalog>();

function compiledOf(catalog: unknown): CompiledCatalog {
  if (isCompiledCatalog(catalog)) return catalog;
  if (typeof catalog !== 'object' || catalog === null) return compileCatalog(catalog);
  let compiled = compiledCatalogs.get(catalog);
  if (!compiled) {
    compiled = compileCatalog(catalog);
    compiledCatalogs.set(catalog, compiled);
  }
  return compiled;
}

/**
 * One utterance in, a list of commands out (N-14). The layers run in order and the first that
 * decides ends the turn:
 *
 * 1. **rules** — keywords and patterns (Chinese-aware), negative keywords, priority; hand-off
 *    wins, a cancel may come with a new start, the winning action is started (unless it is the
 *    active one) with the slots the utterance gives; else slots of the active action; else a
 *    chit-chat trigger;
 * 2. **similarity** — the utterance against the examples, through `ports.embedder`: the best
 *    target at or above its threshold, or a `clarify` between close actions;
 * 3. a free-text answer to the slot the host asked last (rules, `stage: 'answer'`);
 * 4. **model** — `ports.generator` with the top-k relevant actions, its output validated;
 * 5. **fallback** — `cannotHandle`.
 *
 * The function keeps no state and does no I/O of its own: the host passes its dialogue state in
 * and applies the commands itself (`applyCommands` shows how), and routes `start` by its action
 * reference. Nothing is executed here. A catalog or input that cannot be read throws
 * `InvalidCatalogError` / `InvalidUnderstandInputError`; a port that throws gives
 * `EmbedderError` / `CommandGeneratorError`.
 */
export async function understand(input: UnderstandInput): Promise<UnderstandResult> {
  const catalog = compiledOf(input.catalog);
  const { utterance, state, ports } = checkInput(input, catalog);
  const trace: TraceEntry[] = [];
  const finish = (commands: Command[], decidedBy: DecidingLayer, rejected: RejectedCommand[] = []): UnderstandResult => ({
    commands,
    decidedBy,
    trace,
    rejected,
  });
  const analyzed = catalog.analyzer.analyze(utterance);
  if (analyzed.text === '') {
    trace.push({ layer: 'fallback', reason: 'the utterance is empty' });
    return finish([{ type: 'cannotHandle', reason: 'empty utterance' }], 'fallback');
  }
  const active = state.activeAction ? catalog.action(refKey(state.activeAction)) : undefined;
  // Slots of the active action are read first: an answer to them is not a trigger of another action.
  const activeSlots = active
    ? extractSlots(catalog, active, analyzed, { filled: state.slots, ...(state.askedSlot ? { askedSlot: state.askedSlot } : {}) })
    : undefined;
  /** Starts `action` (unless it is the active one) with the slots the utterance gives it. */
  const actOn = (action: CompiledAction, commands: Command[]) => {
    const slots = action === active && activeSlots ? activeSlots : extractSlots(catalog, action, analyzed, {});
    if (action !== active) commands.push({ type: 'start', action: action.action.ref });
    if (!trace.includes(slots.trace)) trace.push(slots.trace);
    commands.push(...slots.commands);
  };

  // 1. Rules.
  const rules = matchRules(catalog, analyzed, activeSlots?.spans);
  trace.push(rules.trace);
  const decide = (reason: string) => {
    rules.trace.outcome = 'decided';
    rules.trace.reason = reason;
  };
  if (rules.handOff) {
    decide(`${rules.trace.reason}: hand off`);
    return finish([{ type: 'handOff' }], 'rules');
  }
  const ruled: Command[] = rules.cancel ? [{ type: 'cancel' }] : [];
  if (rules.action && !(rules.cancel && rules.action === active)) actOn(rules.action, ruled);
  else if (!rules.cancel && active) actOn(active, ruled);
  if (ruled.length === 0 && rules.chitChat) ruled.push({ type: 'chitChat' });
  const restated = !rules.cancel && (rules.action === undefined || rules.action === active) && activeSlots?.found === true;
  if (ruled.length > 0 || restated) {
    const said = ruled.length > 0 ? rules.trace.reason : 'the utterance repeats values the active action already has';
    decide(said === 'no trigger fired' ? 'slots of the active action' : said);
    return finish(ruled, 'rules');
  }
  /** A layer that found only the active action, with nothing new: the turn ends empty unless a later step finds more. */
  let repeatedActive: DecidingLayer | undefined = rules.action && rules.action === active ? 'rules' : undefined;

  // 2. Similarity.
  let ranked: SimilarityScore[] | undefined;
  if (ports.embedder) {
    const similarity = await matchSimilarity(catalog, utterance, ports.embedder, rules.vetoed, input.signal);
    trace.push(similarity.trace);
    ranked = similarity.ranked;
    if (similarity.clarify) {
      return finish(
        [{ type: 'clarify', options: similarity.clarify.map((target) => (target as CompiledAction).action.ref) }],
        'similarity',
      );
    }
    const chosen = similarity.chosen;
    if (chosen && isAction(chosen)) {
      const commands: Command[] = [];
      actOn(chosen, commands);
      if (commands.length > 0) return finish(commands, 'similarity');
      repeatedActive ??= 'similarity';
      similarity.trace.outcome = 'no-match';
      similarity.trace.reason += '; it is the active action and the utterance adds nothing to it';
    } else if (chosen) {
      return finish([{ type: chosen.key as 'cancel' | 'handOff' | 'chitChat' }], 'similarity');
    }
  } else {
    trace.push({ layer: 'similarity', outcome: 'skipped', reason: 'no embedder', scores: [] });
  }

  // 3. A free-text answer to the slot asked last.
  const answered = answerToAskedSlot(active, state.askedSlot, analyzed, utterance);
  if (answered) {
    trace.push({
      layer: 'rules',
      stage: 'answer',
      outcome: 'decided',
      reason: `no layer found anything else: the utterance answers "${answered.name}"`,
      hits: [],
      vetoes: [],
    });
    return finish([answered], 'rules');
  }
  if (repeatedActive) return finish([], repeatedActive);

  // 4. Model.
  if (ports.generator) {
    const model = await runModelLayer(catalog, utterance, state, ports.generator, ranked, input.signal);
    trace.push(model.trace);
    return finish(model.commands, 'model', model.rejected);
  }
  trace.push({ layer: 'model', outcome: 'skipped', reason: 'no command generator', offered: [], accepted: [], rejected: [] });

  // 5. Nothing fits.
  trace.push({ layer: 'fallback', reason: 'no layer matched the utterance' });
  return finish([{ type: 'cannotHandle', reason: 'no match' }], 'fallback');
}

/** `setSlot` of the asked text slot with the whole utterance, when that slot takes free answers. */
function answerToAskedSlot(
  active: CompiledAction | undefined,
  askedSlot: string | undefined,
  analyzed: AnalyzedText,
  utterance: string,
): Extract<Command, { type: 'setSlot' }> | undefined {
  const slot = active?.slots.find((candidate) => candidate.slot.name === askedSlot)?.slot;
  if (slot?.type !== 'text' || !slot.extraction.fromAnswer || analyzed.text === '') return undefined;
  return { type: 'setSlot', name: slot.name, value: utterance.trim() };
}

function checkInput(input: UnderstandInput, catalog: CompiledCatalog) {
  const problems: IntentProblem[] = [];
  if (typeof input.utterance !== 'string') problems.push({ path: 'utterance', message: 'must be a string' });
  else if (input.utterance.length > MAX_UTTERANCE_LENGTH) {
    problems.push({
      path: 'utterance',
      message: `is ${input.utterance.length} characters long; at most ${MAX_UTTERANCE_LENGTH}`,
    });
  }
  const parsed = dialogueStateSchema.safeParse(input.state ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: pathOf(['state', ...issue.path]), message: issue.message });
  } else problems.push(...dialogueStateProblems(parsed.data, catalog));
  const ports = input.ports ?? {};
  if (ports.embedder !== undefined && typeof ports.embedder?.embed !== 'function') {
    problems.push({ path: 'ports.embedder', message: 'must have an embed(texts) method' });
  }
  if (ports.generator !== undefined && typeof ports.generator?.generate !== 'function') {
    problems.push({ path: 'ports.generator', message: 'must have a generate(request) method' });
  }
  if (problems.length > 0 || !parsed.success) throw new InvalidUnderstandInputError(problems);
  return { utterance: input.utterance, state: parsed.data, ports };
}
