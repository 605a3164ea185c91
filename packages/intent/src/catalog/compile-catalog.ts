import { refKey } from '../commands/command.js';
import { type IntentProblem, InvalidCatalogError, pathOf } from '../errors/index.js';
import { type Phrase, TextAnalyzer, toPhrase } from '../text/analyzed-text.js';
import { hanCount, normalizeText } from '../text/normalize.js';
import { CatalogPattern, PatternSet, patternProblem } from '../text/pattern.js';
import {
  type Action,
  type ConversationKind,
  conversationKinds,
  type IntentCatalog,
  intentCatalogSchema,
  type Slot,
  type TriggerRules,
} from './catalog-schema.js';

/** Triggers in matching form: phrases in normal form, patterns compiled. */
export interface CompiledTrigger {
  keywords: readonly Phrase[];
  patterns: readonly CatalogPattern[];
  negativeKeywords: readonly Phrase[];
  priority: number;
}

/** A slot in matching form: its patterns compiled, each allowed value with every phrase that means it. */
export interface CompiledSlot {
  slot: Slot;
  patterns: readonly CatalogPattern[];
  values: ReadonlyArray<{ value: string; phrases: readonly Phrase[] }>;
}

/** One target of the rules and similarity layers: an action, or a conversation command. */
export interface CompiledTarget {
  /** `workflow:book_flight`, or `cancel` / `handOff` / `chitChat` for a conversation command. */
  key: string;
  /** Declared order among all targets: actions first, then conversation commands. */
  order: number;
  trigger?: CompiledTrigger;
  examples: readonly string[];
  /** The similarity threshold: the target's own, else the catalog's. */
  threshold: number;
}

export interface CompiledAction extends CompiledTarget {
  kind: 'action';
  action: Action;
  slots: readonly CompiledSlot[];
  /** Every extraction pattern of the action's slots, matched in one pass. */
  slotPatterns: PatternSet;
}

export interface CompiledConversation extends CompiledTarget {
  kind: ConversationKind;
}

const compiledBrand = Symbol.for('agentloom.intent.compiled-catalog');

/**
 * A catalog checked and prepared for matching, made once by `compileCatalog` and then read only
 * (`understand` takes it or a plain catalog, which it compiles and remembers by identity).
 */
export interface CompiledCatalog {
  readonly [compiledBrand]: true;
  readonly catalog: IntentCatalog;
  readonly actions: readonly CompiledAction[];
  readonly conversation: readonly CompiledConversation[];
  /** The actions, then the conversation commands: every target of the rules and similarity layers. */
  readonly targets: readonly CompiledTarget[];
  readonly analyzer: TextAnalyzer;
  /** Every trigger pattern of every target, matched in one pass. */
  readonly triggerPatterns: PatternSet;
  /** The action with this `refKey`. */
  action(key: string): CompiledAction | undefined;
}

/** Whether a target is an action (not a conversation command). */
export function isAction(target: CompiledTarget): target is CompiledAction {
  return (target as CompiledAction).kind === 'action';
}

/** Whether a value is a catalog compiled by `compileCatalog`. */
export function isCompiledCatalog(value: unknown): value is CompiledCatalog {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[compiledBrand] === true;
}

/**
 * Checks a catalog and prepares it for matching. Throws `InvalidCatalogError` listing every
 * problem at once: the format (zod), then what the format cannot say — two actions with the same
 * reference, two slots of an action with the same name, a pattern RE2 cannot compile, a keyword
 * of a single Chinese character (it would fire inside too many words: the minimum length of a
 * Chinese keyword is two characters; an allowed value's synonym may be one, matched only as a
 * whole word).
 */
export function compileCatalog(input: unknown): CompiledCatalog {
  const parsed = intentCatalogSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidCatalogError(parsed.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })));
  }
  const catalog = parsed.data;
  const problems = semanticProblems(catalog);
  if (problems.length > 0) throw new InvalidCatalogError(problems);

  const actions: CompiledAction[] = catalog.actions.map((action, index) => {
    const slots = action.slots.map(compileSlot);
    return {
      kind: 'action',
      key: refKey(action.ref),
      order: index,
      action,
      ...(action.rules ? { trigger: compileTrigger(action.rules) } : {}),
      examples: action.examples,
      threshold: action.similarityThreshold ?? catalog.similarity.threshold,
      slots,
      slotPatterns: new PatternSet(slots.flatMap((slot) => slot.patterns)),
    };
  });
  const conversation: CompiledConversation[] = [];
  for (const kind of conversationKinds) {
    const declared = catalog.conversation[kind];
    if (!declared) continue;
    conversation.push({
      kind,
      key: kind,
      order: actions.length + conversation.length,
      ...(declared.rules ? { trigger: compileTrigger(declared.rules) } : {}),
      examples: declared.examples,
      threshold: declared.similarityThreshold ?? catalog.similarity.threshold,
    });
  }
  const byKey = new Map(actions.map((action) => [action.key, action]));
  const targets = [...actions, ...conversation];
  return {
    [compiledBrand]: true,
    catalog,
    actions,
    conversation,
    targets,
    analyzer: new TextAnalyzer(catalog.words),
    triggerPatterns: new PatternSet(targets.flatMap((target) => target.trigger?.patterns ?? [])),
    action: (key) => byKey.get(key),
  };
}

function compileTrigger(rules: TriggerRules): CompiledTrigger {
  return {
    keywords: rules.keywords.map(toPhrase),
    patterns: rules.patterns.map((source) => new CatalogPattern(source)),
    negativeKeywords: rules.negativeKeywords.map(toPhrase),
    priority: rules.priority,
  };
}

function compileSlot(slot: Slot): CompiledSlot {
  return {
    slot,
    patterns: slot.extraction.patterns.map((source) => new CatalogPattern(source)),
    values: (slot.allowedValues ?? []).map(({ value, synonyms }) => ({
      value,
      phrases: [...new Set([value, ...synonyms].map(normalizeText).filter((phrase) => phrase !== ''))].map(toPhrase),
    })),
  };
}

function semanticProblems(catalog: IntentCatalog): IntentProblem[] {
  const problems: IntentProblem[] = [];
  const checkRules = (rules: TriggerRules | undefined, path: string) => {
    if (!rules) return;
    rules.patterns.forEach((source, index) => {
      const problem = patternProblem(source);
      if (problem) problems.push({ path: `${path}.patterns.${index}`, message: problem });
    });
    for (const list of ['keywords', 'negativeKeywords'] as const) {
      rules[list].forEach((keyword, index) => {
        const normal = normalizeText(keyword);
        if (normal.length === 1 && hanCount(normal) === 1) {
          problems.push({
            path: `${path}.${list}.${index}`,
            message: `"${keyword}" is one Chinese character: it would fire inside too many words (the minimum is two; use a pattern for context)`,
          });
        }
      });
    }
  };
  const seen = new Map<string, number>();
  catalog.actions.forEach((action, index) => {
    const key = refKey(action.ref);
    const first = seen.get(key);
    if (first !== undefined) problems.push({ path: `actions.${index}.ref`, message: `${key} is already actions.${first}` });
    else seen.set(key, index);
    checkRules(action.rules, `actions.${index}.rules`);
    const slotNames = new Set<string>();
    action.slots.forEach((slot, slotIndex) => {
      const path = `actions.${index}.slots.${slotIndex}`;
      if (slotNames.has(slot.name)) problems.push({ path: `${path}.name`, message: `slot "${slot.name}" is declared twice` });
      slotNames.add(slot.name);
      slot.extraction.patterns.forEach((source, patternIndex) => {
        const problem = patternProblem(source);
        if (problem) problems.push({ path: `${path}.extraction.patterns.${patternIndex}`, message: problem });
      });
      const values = new Set<string>();
      for (const [valueIndex, allowed] of (slot.allowedValues ?? []).entries()) {
        if (values.has(allowed.value)) {
          problems.push({ path: `${path}.allowedValues.${valueIndex}.value`, message: `"${allowed.value}" is listed twice` });
        }
        values.add(allowed.value);
      }
    });
  });
  for (const kind of conversationKinds) checkRules(catalog.conversation[kind]?.rules, `conversation.${kind}.rules`);
  return problems;
}
