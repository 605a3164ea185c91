/**
 * The router draft as the editor holds it: an `@agentloom/intent` catalog. The editor changes
 * the parts it has fields for and keeps every other field as it came (the server checks the
 * whole catalog on "check" and publish).
 */
export interface TriggerRules {
  keywords?: string[];
  patterns?: string[];
  negativeKeywords?: string[];
  priority?: number;
  [key: string]: unknown;
}

export interface CatalogAction {
  ref: { kind: 'agent' | 'workflow' | 'command' | 'team'; id: string };
  description: string;
  examples?: string[];
  rules?: TriggerRules;
  slots?: unknown[];
  [key: string]: unknown;
}

export interface ConversationTrigger {
  examples?: string[];
  rules?: TriggerRules;
  [key: string]: unknown;
}

export type ConversationKind = 'cancel' | 'chitChat' | 'handOff';

export interface RouterCatalog {
  formatVersion: 1;
  actions: CatalogAction[];
  conversation?: Partial<Record<ConversationKind, ConversationTrigger>>;
  similarity?: { threshold?: number; clarifyMargin?: number };
  [key: string]: unknown;
}

/** The stored draft as a catalog (a new router's draft has no action yet). */
export function normaliseCatalog(config: Record<string, unknown>): RouterCatalog {
  return { ...config, formatVersion: 1, actions: Array.isArray(config.actions) ? (config.actions as CatalogAction[]) : [] };
}

/** Text of a "one a line" field → its non-empty trimmed lines. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Replaces action `index` with `change(action)`. */
export function changeAction(
  catalog: RouterCatalog,
  index: number,
  change: (action: CatalogAction) => CatalogAction,
): RouterCatalog {
  return { ...catalog, actions: catalog.actions.map((action, at) => (at === index ? change(action) : action)) };
}

/** Sets one rules field of an action (an empty list removes it). */
export function withRule(
  action: CatalogAction,
  field: 'keywords' | 'patterns' | 'negativeKeywords',
  values: string[],
): CatalogAction {
  const rules: TriggerRules = { ...(action.rules ?? {}) };
  if (values.length > 0) rules[field] = values;
  else delete rules[field];
  return { ...action, rules };
}

/** Sets the keywords of a conversation command (cancel, chit-chat, hand-off); none removes its rules. */
export function withConversationKeywords(catalog: RouterCatalog, kind: ConversationKind, keywords: string[]): RouterCatalog {
  const conversation = { ...(catalog.conversation ?? {}) };
  const trigger: ConversationTrigger = { ...(conversation[kind] ?? {}) };
  const rules: TriggerRules = { ...(trigger.rules ?? {}) };
  if (keywords.length > 0) rules.keywords = keywords;
  else delete rules.keywords;
  trigger.rules = rules;
  conversation[kind] = trigger;
  return { ...catalog, conversation };
}
