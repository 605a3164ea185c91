import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../../core/messages.js';
import { decodeAnthropicThinking } from './anthropic-thinking.js';

/** Options of `convertToAnthropicMessages`. */
export interface ConvertToAnthropicMessagesOptions {
  /**
   * Send signed thinking blocks back. Needed while thinking is on: an assistant turn that called
   * tools must start with its thinking blocks, unchanged. Left out while thinking is off.
   */
  includeThinking: boolean;
}

/**
 * Converts the neutral conversation into Anthropic messages. The system part travels separately
 * (`system`), so it is not converted here. Tool results become `tool_result` blocks in a user
 * turn, first in that turn as the API requires (`sort` is stable, so each group keeps its order); consecutive messages of one role are merged into
 * one turn, so that several tool results and a user's supplement that follows them form the
 * single user turn Anthropic expects. Empty text blocks, which the API rejects, are never sent.
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  options: ConvertToAnthropicMessagesOptions,
): MessageParam[] {
  const turns: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append('user', textBlocks(message.content));
        break;
      case 'assistant': {
        const blocks: ContentBlockParam[] = options.includeThinking ? decodeAnthropicThinking(message.reasoning) : [];
        blocks.push(...textBlocks(message.content));
        for (const call of message.toolCalls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
        }
        append('assistant', blocks);
        break;
      }
      case 'tool':
        append('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            ...(message.content !== '' ? { content: message.content } : {}),
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  // Tool results lead their turn even when a supplement was recorded before them.
  for (const turn of turns) {
    if (turn.role === 'user') turn.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  return turns;
}

function textBlocks(text: string): ContentBlockParam[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/** `tool_use.input` must be an object; arguments are one whenever the tool's schema is an object schema. */
function toolInput(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
