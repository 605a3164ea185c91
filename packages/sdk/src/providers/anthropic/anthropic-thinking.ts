import type { RedactedThinkingBlockParam, ThinkingBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ThinkingEffort } from '../shared/model-settings.js';

/**
 * Thinking token budgets per effort, used with `thinking: { type: 'enabled', budget_tokens }`.
 * The API's minimum is 1024; each step is about four times the one before it.
 */
export const defaultThinkingBudgets: Readonly<Record<ThinkingEffort, number>> = { low: 2048, medium: 8192, high: 24576 };

/** The thinking blocks of one response, in order, as the API wants them back. */
export type AnthropicThinkingBlock = ThinkingBlockParam | RedactedThinkingBlockParam;

const signaturePrefix = '\n<agentloom:thinking-signature value="';
const redactedPrefix = '\n<agentloom:redacted-thinking data="';
const markerSuffix = '"/>\n';
const markerPattern = /\n<agentloom:(thinking-signature value|redacted-thinking data)="([^"]*)"\/>\n/g;

/**
 * The line that closes a signed thinking block inside `AssistantMessage.reasoning`. Anthropic
 * requires the thinking blocks of an assistant turn that called tools to be sent back unchanged
 * with their signatures; the neutral message keeps reasoning as one string, so each block's text
 * is followed by this marker line carrying its signature. Readers of the reasoning see the
 * thinking text with one marker line per block; `decodeAnthropicThinking` turns it back into
 * blocks, byte for byte.
 */
export function thinkingSignatureMarker(signature: string): string {
  return `${signaturePrefix}${signature}${markerSuffix}`;
}

/** The line that stands for a redacted thinking block (its text is encrypted, only `data` exists). */
export function redactedThinkingMarker(data: string): string {
  return `${redactedPrefix}${data}${markerSuffix}`;
}

/**
 * Rebuilds the thinking blocks of an assistant message from its reasoning string. Text that no
 * marker closes (reasoning from another provider, or a block whose signature never arrived) is
 * dropped: Anthropic rejects unsigned thinking, and leaving it out is always allowed.
 */
export function decodeAnthropicThinking(reasoning: string | undefined): AnthropicThinkingBlock[] {
  if (!reasoning) return [];
  const blocks: AnthropicThinkingBlock[] = [];
  let start = 0;
  for (const match of reasoning.matchAll(markerPattern)) {
    const value = match[2] ?? '';
    if (match[1] === 'redacted-thinking data') blocks.push({ type: 'redacted_thinking', data: value });
    else blocks.push({ type: 'thinking', thinking: reasoning.slice(start, match.index), signature: value });
    start = match.index + match[0].length;
  }
  return blocks;
}

/**
 * The reasoning as a person should read it: the thinking text of each block, without the marker
 * lines that carry signatures (a redacted block has no readable text). For display only; send
 * the original string back, never this one.
 */
export function readableAnthropicReasoning(reasoning: string): string {
  return reasoning
    .split(markerPattern)
    .filter((_part, index) => index % 3 === 0)
    .filter((part) => part.trim() !== '')
    .join('\n\n');
}
