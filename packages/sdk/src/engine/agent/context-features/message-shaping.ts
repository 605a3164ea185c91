import type { Message } from '../../../core/messages.js';
import type { MessageShaping, ShapingMode } from './context-feature-options.js';

/** The shaping mode for a provider: its own entry, else `*`, else `none` (N-15). */
export function shapingModeFor(shaping: MessageShaping | undefined, provider: string): ShapingMode {
  if (shaping === undefined) return 'none';
  if (typeof shaping === 'string') return shaping;
  return shaping[provider] ?? shaping['*'] ?? 'none';
}

/**
 * Joins adjacent messages of the same role (N-15), for providers that want turns to alternate:
 * user texts are joined with a blank line; an assistant message without tool calls is joined with
 * the assistant message after it (which keeps its tool calls). Tool results are never joined: each
 * answers its own call. The input is not changed.
 */
export function mergeAdjacentMessages(messages: readonly Message[]): Message[] {
  const shaped: Message[] = [];
  for (const message of messages) {
    const previous = shaped.at(-1);
    if (previous?.role === 'user' && message.role === 'user') {
      shaped[shaped.length - 1] = { role: 'user', content: joinText(previous.content, message.content) };
    } else if (previous?.role === 'assistant' && message.role === 'assistant' && !previous.toolCalls?.length) {
      const reasoning = [previous.reasoning, message.reasoning].filter((part): part is string => Boolean(part));
      shaped[shaped.length - 1] = {
        role: 'assistant',
        content: joinText(previous.content, message.content),
        ...(message.toolCalls ? { toolCalls: message.toolCalls } : {}),
        ...(reasoning.length > 0 ? { reasoning: reasoning.join('\n\n') } : {}),
      };
    } else {
      shaped.push(message);
    }
  }
  return shaped;
}

function joinText(a: string, b: string): string {
  if (a === '') return b;
  if (b === '') return a;
  return `${a}\n\n${b}`;
}
