import type { FinishReason } from '../../model/language-model.js';

/**
 * Maps a chat-completions `finish_reason` to the neutral finish reason. `tool_calls` and the
 * legacy `function_call` both mean tool calls. Some compatible servers answer `stop` even when the
 * message carries tool calls; `hasToolCalls` corrects that, since the calls are complete either
 * way. Anything unknown is `other`, never silently `stop`.
 */
export function mapOpenAICompatibleFinishReason(finishReason: string, hasToolCalls: boolean): FinishReason {
  switch (finishReason) {
    case 'stop':
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
