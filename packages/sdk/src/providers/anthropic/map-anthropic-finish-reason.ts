import type { StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { FinishReason } from '../../model/language-model.js';

/**
 * Maps Anthropic's `stop_reason` to the neutral finish reason. Running out of room
 * (`max_tokens`, `model_context_window_exceeded`) is `length`, so the response is never acted on
 * (S-8); a `refusal` is `content-filter`; `pause_turn` (a server tool paused the turn) and
 * anything unknown are `other`.
 */
export function mapAnthropicFinishReason(stopReason: StopReason | string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
