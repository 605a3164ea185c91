import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Message } from '../../core/messages.js';

/** Options of `convertToOpenAICompatibleMessages`. */
export interface ConvertToOpenAICompatibleMessagesOptions {
  /**
   * Send an assistant message's reasoning back as `reasoning_content`. Off by default: OpenAI
   * itself ignores it and some compatible servers reject it, but DeepSeek's thinking mode
   * expects it back between the tool calls of one question.
   */
  sendReasoning?: boolean;
}

/**
 * Converts the neutral conversation into chat-completions messages: the system part first (when
 * there is one), tool calls as `tool_calls` with their arguments as JSON text, and each tool
 * result as a `tool` message correlated by `tool_call_id`. The order is kept exactly, so that
 * the prefix of a conversation converts to the same bytes every time (N-4, prompt caching).
 */
export function convertToOpenAICompatibleMessages(
  system: string,
  messages: readonly Message[],
  options: ConvertToOpenAICompatibleMessagesOptions = {},
): ChatCompletionMessageParam[] {
  const converted: ChatCompletionMessageParam[] = [];
  if (system !== '') converted.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        converted.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const toolCalls = message.toolCalls ?? [];
        const assistant: ChatCompletionMessageParam & { reasoning_content?: string } = {
          role: 'assistant',
          // The API wants `null`, not an empty string, beside tool calls.
          content: message.content === '' && toolCalls.length > 0 ? null : message.content,
        };
        if (toolCalls.length > 0) {
          assistant.tool_calls = toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          }));
        }
        if (options.sendReasoning && message.reasoning) assistant.reasoning_content = message.reasoning;
        converted.push(assistant);
        break;
      }
      case 'tool':
        converted.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
    }
  }
  return converted;
}
