import type { Message } from '../../../core/messages.js';
import type { TokenCounter } from '../context-options.js';
import type { ContextEntry } from './context-feature-options.js';

/** How many of the last messages an entry searches when it does not say. */
export const DEFAULT_SCAN_MESSAGES = 4;

/** An entry with its trigger compiled once per agent. */
export interface CompiledEntry {
  entry: ContextEntry;
  /** Undefined for an entry that is only constant. */
  matches?: (text: string) => boolean;
}

/** Compiles the triggers of `entries` (keywords as literal, case-insensitive text; the pattern as given). */
export function compileEntries(entries: readonly ContextEntry[]): CompiledEntry[] {
  return entries.map((entry) => {
    const keywords = (entry.keywords ?? []).map((keyword) => keyword.toLowerCase());
    const pattern = entry.pattern !== undefined ? new RegExp(entry.pattern, 'iu') : undefined;
    if (keywords.length === 0 && !pattern) return { entry };
    return {
      entry,
      matches: (text) => {
        const lower = text.toLowerCase();
        return keywords.some((keyword) => lower.includes(keyword)) || (pattern?.test(text) ?? false);
      },
    };
  });
}

/**
 * The entries that apply to a request (N-15), in their configured order: constant ones, and those
 * whose keywords or pattern occur in the last `scanMessages` visible messages (user and assistant
 * text and tool results alike). With a budget, an entry that would pass it is left out and later,
 * smaller ones may still fit. A pure function of the messages, so a takeover selects the same.
 */
export function selectEntries(
  compiled: readonly CompiledEntry[],
  messages: readonly Message[],
  budgetTokens: number | undefined,
  countTokens: TokenCounter,
): ContextEntry[] {
  const selected: ContextEntry[] = [];
  let used = 0;
  for (const { entry, matches } of compiled) {
    const applies =
      entry.constant === true ||
      (matches !== undefined &&
        messages.slice(-(entry.scanMessages ?? DEFAULT_SCAN_MESSAGES)).some((message) => matches(message.content)));
    if (!applies) continue;
    if (budgetTokens !== undefined) {
      const cost = countTokens({ system: entry.content, messages: [], tools: [] });
      if (used + cost > budgetTokens) continue;
      used += cost;
    }
    selected.push(entry);
  }
  return selected;
}
