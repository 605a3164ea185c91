import {
  type CompiledAction,
  type CompiledCatalog,
  type CompiledConversation,
  type CompiledTarget,
  isAction,
} from '../catalog/compile-catalog.js';
import { type AnalyzedText, hasPhrase, type Span } from '../text/analyzed-text.js';
import type { PatternMatch } from '../text/pattern.js';
import type { RuleHit, RulesTrace } from './trace.js';

/** What the triggers of the catalog say about an utterance. */
export interface RulesVerdict {
  /** The action whose trigger won: highest priority, then first declared. */
  action?: CompiledAction;
  /** Conversation commands whose triggers fired. */
  cancel: boolean;
  handOff: boolean;
  chitChat: boolean;
  /** Targets vetoed by a negative keyword (they are left out of the similarity layer too). */
  vetoed: ReadonlySet<string>;
  trace: RulesTrace;
}

/**
 * The deterministic first layer (N-14): every keyword and pattern of every target is tried on
 * the analysed utterance; a target with a negative keyword present is vetoed; among the actions
 * that fired, the highest `priority` wins and equal priorities go to the one declared first. A
 * trigger that lies entirely inside the text that answered the active action's slots (`answer`)
 * is not counted: `酒店` answering "a flight or a hotel?" fills the slot, it does not start a hotel
 * booking. No
 * learned part is involved, so the same catalog and utterance always give the same verdict.
 */
export function matchRules(catalog: CompiledCatalog, analyzed: AnalyzedText, answer: readonly Span[] = []): RulesVerdict {
  /** A trigger found entirely inside an answer to the active action (`酒店` answering "flight or hotel?") does not count. */
  const inAnswer = (span: Span) => answer.some((part) => part.start <= span.start && span.end <= part.end);
  const matching = catalog.triggerPatterns.matching(analyzed);
  const hits: RuleHit[] = [];
  const vetoes: RulesTrace['vetoes'] = [];
  const vetoed = new Set<string>();
  const fired: CompiledTarget[] = [];
  for (const target of catalog.targets) {
    const trigger = target.trigger;
    if (!trigger) continue;
    const veto = trigger.negativeKeywords.find((keyword) => hasPhrase(analyzed, keyword));
    if (veto !== undefined) {
      vetoed.add(target.key);
      vetoes.push({ target: target.key, negativeKeyword: veto.text });
      continue;
    }
    let matched = false;
    for (const keyword of trigger.keywords) {
      if (hasPhrase(analyzed, keyword, answer)) {
        hits.push({ target: target.key, by: 'keyword', rule: keyword.text, matched: keyword.text, priority: trigger.priority });
        matched = true;
      }
    }
    for (const pattern of trigger.patterns) {
      if (!matching.has(pattern)) continue;
      let match: PatternMatch | undefined;
      for (const candidate of pattern.matches(analyzed)) {
        if (inAnswer(candidate)) continue;
        match = candidate;
        break;
      }
      if (match) {
        hits.push({ target: target.key, by: 'pattern', rule: pattern.source, matched: match.text, priority: trigger.priority });
        matched = true;
      }
    }
    if (matched) fired.push(target);
  }
  const firedActions = fired.filter(isAction);
  const action = pickByPriority(firedActions);
  const conversation = new Set(
    fired.filter((target) => !isAction(target)).map((target) => (target as CompiledConversation).kind),
  );
  const trace: RulesTrace = {
    layer: 'rules',
    stage: 'triggers',
    outcome: 'no-match',
    reason: explain(firedActions, action, conversation),
    hits,
    vetoes,
  };
  if (action) trace.chosen = action.key;
  return {
    ...(action ? { action } : {}),
    cancel: conversation.has('cancel'),
    handOff: conversation.has('handOff'),
    chitChat: conversation.has('chitChat'),
    vetoed,
    trace,
  };
}

/** The winner among fired actions: highest priority, then declared order. */
export function pickByPriority<T extends CompiledTarget>(fired: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const target of fired) {
    const priority = target.trigger?.priority ?? 0;
    const bestPriority = best?.trigger?.priority ?? 0;
    if (!best || priority > bestPriority || (priority === bestPriority && target.order < best.order)) best = target;
  }
  return best;
}

function explain(
  fired: readonly CompiledAction[],
  action: CompiledAction | undefined,
  conversation: ReadonlySet<string>,
): string {
  const parts: string[] = [];
  if (action) {
    if (fired.length === 1) parts.push(`${action.key} triggered`);
    else {
      const others = fired.filter((target) => target !== action).map((target) => target.key);
      const samePriority = fired.filter((target) => target.trigger?.priority === action.trigger?.priority).length > 1;
      const priority = `priority ${action.trigger?.priority ?? 0}`;
      parts.push(
        `${action.key} won over ${others.join(', ')} by ${samePriority ? `declared order (equal ${priority})` : priority}`,
      );
    }
  }
  if (conversation.size > 0) parts.push(`${[...conversation].join(', ')} triggered`);
  return parts.length > 0 ? parts.join('; ') : 'no trigger fired';
}
