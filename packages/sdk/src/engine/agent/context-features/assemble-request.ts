import { createHash } from 'node:crypto';
import type { Message } from '../../../core/messages.js';
import type { ToolDefinition } from '../../../model/language-model.js';
import type { TokenCounter } from '../context-options.js';
import { type CompiledEntry, selectEntries } from './context-entries.js';
import type { MessageShaping, ShapingMode } from './context-feature-options.js';
import { mergeAdjacentMessages, shapingModeFor } from './message-shaping.js';

/** An agent's context features, resolved once per agent (N-15). */
export interface ContextFeatures {
  userInstructions?: string;
  entries: readonly CompiledEntry[];
  entryBudgetTokens?: number;
  shaping?: MessageShaping;
}

/** Estimated tokens of each part of one model request (N-15); they add up to about the whole. */
export interface ContextSections {
  system: number;
  tools: number;
  history: number;
  entries: number;
  instructions: number;
  note: number;
}

/**
 * What one model request was made of (N-15), kept with its response: section sizes, the hash of
 * the system prefix (system prompt and tool definitions, the part a provider caches; a new hash
 * between two requests of a run means its cache could not be reused), the entries that applied
 * and the shaping mode when not `none`.
 */
export interface ContextReport {
  sections: ContextSections;
  prefixHash: string;
  entries?: string[];
  shaping?: Exclude<ShapingMode, 'none'>;
}

/** The input of `assembleRequest`: a role's rendered prompt, tools and visible messages. */
export interface RequestParts {
  system: string;
  tools: readonly ToolDefinition[];
  messages: readonly Message[];
  provider: string;
  features: ContextFeatures;
  /** The run's session note (entry role only). */
  note?: string;
  /** Whether the role is the entry role: only it gets entries, instructions and the note. */
  entryRole: boolean;
  countTokens: TokenCounter;
}

/**
 * Builds the request a role sends (N-15): the entries that apply, the user's instructions and the
 * session note go last — after the conversation, so the cached prefix before them stays the same
 * from one request to the next — as one trailing user message, or, in `strict` mode, folded into
 * the system prompt; `merge` and `strict` then join adjacent same-role messages.
 */
export function assembleRequest(parts: RequestParts): { system: string; messages: Message[]; report: ContextReport } {
  const { features, countTokens } = parts;
  const entries = parts.entryRole ? selectEntries(features.entries, parts.messages, features.entryBudgetTokens, countTokens) : [];
  const instructions = parts.entryRole ? (features.userInstructions ?? '') : '';
  const note = parts.entryRole ? (parts.note ?? '') : '';
  const blocks = [
    ...(entries.length > 0
      ? [tag('context-entries', entries.map((entry) => `[${entry.id}]\n${entry.content}`).join('\n\n'))]
      : []),
    ...(instructions ? [tag('user-instructions', instructions)] : []),
    ...(note ? [tag('session-note', note)] : []),
  ];
  const tail = blocks.join('\n\n');
  const mode = shapingModeFor(features.shaping, parts.provider);
  const system = mode === 'strict' && tail ? `${parts.system}\n\n${tail}` : parts.system;
  let messages: Message[] =
    mode !== 'strict' && tail ? [...parts.messages, { role: 'user', content: tail }] : [...parts.messages];
  if (mode !== 'none') messages = mergeAdjacentMessages(messages);
  const text = (value: string) => (value ? countTokens({ system: value, messages: [], tools: [] }) : 0);
  const report: ContextReport = {
    sections: {
      system: text(parts.system),
      tools: parts.tools.length > 0 ? countTokens({ system: '', messages: [], tools: parts.tools }) : 0,
      history: countTokens({ system: '', messages: parts.messages, tools: [] }),
      entries: text(entries.map((entry) => entry.content).join('\n\n')),
      instructions: text(instructions),
      note: text(note),
    },
    prefixHash: prefixHash(system, parts.tools),
    ...(entries.length > 0 ? { entries: entries.map((entry) => entry.id) } : {}),
    ...(mode !== 'none' ? { shaping: mode } : {}),
  };
  return { system, messages, report };
}

/** The first 16 hex digits of the SHA-256 of the system prompt and the tool definitions as sent. */
export function prefixHash(system: string, tools: readonly ToolDefinition[]): string {
  return createHash('sha256')
    .update(JSON.stringify([system, tools]))
    .digest('hex')
    .slice(0, 16);
}

function tag(name: string, body: string): string {
  return `<${name}>\n${body}\n</${name}>`;
}
