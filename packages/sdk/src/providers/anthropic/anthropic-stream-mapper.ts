import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { ModelCallError } from '../../core/errors/index.js';
import type { Usage } from '../../core/messages.js';
import type { ModelResponseMetadata, ModelStreamPart } from '../../model/language-model.js';
import { redactedThinkingMarker, thinkingSignatureMarker } from './anthropic-thinking.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/** Input token counts as the API splits them; the request's input is their sum. */
interface InputTokens {
  uncached: number;
  cacheCreation: number;
  cacheRead: number;
}

/**
 * Maps the events of one Anthropic messages stream to neutral stream parts. Content blocks are
 * keyed by their `index`, which also keys tool calls (the assembler orders calls by it). Thinking
 * text streams as reasoning; when a thinking block ends, its signature is appended as a marker
 * line so that the block can be sent back unchanged (see `thinkingSignatureMarker`). The
 * `finish` part is produced at `message_stop` only: a stream that ends before it is cut. It
 * carries the message's id and model, which `message_start` announced.
 */
export class AnthropicStreamMapper {
  private readonly thinkingSignatures = new Map<number, string>();
  private readonly redactedBlocks = new Map<number, string>();
  private readonly toolBlocks = new Set<number>();
  private readonly input: InputTokens = { uncached: 0, cacheCreation: 0, cacheRead: 0 };
  private outputTokens = 0;
  private stopReason: string | null = null;
  private stopped = false;
  private response: ModelResponseMetadata | undefined;

  /** The parts one event contributes, in order. */
  map(event: RawMessageStreamEvent): ModelStreamPart[] {
    switch (event.type) {
      case 'message_start':
        this.response = {
          ...(event.message.id ? { id: event.message.id } : {}),
          ...(event.message.model ? { modelId: event.message.model } : {}),
        };
        this.countInput(event.message.usage);
        this.outputTokens = event.message.usage.output_tokens ?? 0;
        return [];
      case 'content_block_start':
        return this.startBlock(event);
      case 'content_block_delta':
        return this.mapDelta(event);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.countInput(event.usage);
        if (typeof event.usage.output_tokens === 'number') this.outputTokens = event.usage.output_tokens;
        return [];
      case 'message_stop':
        this.stopped = true;
        return [
          {
            type: 'finish',
            finishReason: mapAnthropicFinishReason(this.stopReason),
            usage: this.usage(),
            ...(this.response ? { response: this.response } : {}),
          },
        ];
      default:
        return [];
    }
  }

  /** Checks, once the stream has ended, that `message_stop` came; throws `incomplete-output` otherwise. */
  finish(): void {
    if (this.stopped) return;
    throw new ModelCallError({
      kind: 'incomplete-output',
      code: 'no-message-stop',
      message: 'the stream ended before message_stop',
    });
  }

  private startBlock(event: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>): ModelStreamPart[] {
    const block = event.content_block;
    switch (block.type) {
      case 'text':
        return block.text ? [{ type: 'text-delta', text: block.text }] : [];
      case 'thinking':
        this.thinkingSignatures.set(event.index, block.signature ?? '');
        return block.thinking ? [{ type: 'reasoning-delta', text: block.thinking }] : [];
      case 'redacted_thinking':
        this.redactedBlocks.set(event.index, block.data);
        return [];
      case 'tool_use':
        this.toolBlocks.add(event.index);
        return [{ type: 'tool-call-start', index: event.index, id: block.id, name: block.name }];
      default:
        // Server-side tool blocks: never requested by this adapter.
        return [];
    }
  }

  private mapDelta(event: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>): ModelStreamPart[] {
    const delta = event.delta;
    switch (delta.type) {
      case 'text_delta':
        return delta.text ? [{ type: 'text-delta', text: delta.text }] : [];
      case 'thinking_delta':
        return delta.thinking ? [{ type: 'reasoning-delta', text: delta.thinking }] : [];
      case 'signature_delta':
        this.thinkingSignatures.set(event.index, (this.thinkingSignatures.get(event.index) ?? '') + delta.signature);
        return [];
      case 'input_json_delta':
        if (!this.toolBlocks.has(event.index) || !delta.partial_json) return [];
        return [{ type: 'tool-call-delta', index: event.index, argumentsDelta: delta.partial_json }];
      default:
        return [];
    }
  }

  private stopBlock(index: number): ModelStreamPart[] {
    const signature = this.thinkingSignatures.get(index);
    if (signature !== undefined) {
      this.thinkingSignatures.delete(index);
      return signature ? [{ type: 'reasoning-delta', text: thinkingSignatureMarker(signature) }] : [];
    }
    const data = this.redactedBlocks.get(index);
    if (data !== undefined) {
      this.redactedBlocks.delete(index);
      return [{ type: 'reasoning-delta', text: redactedThinkingMarker(data) }];
    }
    return [];
  }

  /** The fields are cumulative and may repeat in `message_delta`; the latest non-null value of each wins. */
  private countInput(usage: {
    input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  }): void {
    if (typeof usage.input_tokens === 'number') this.input.uncached = usage.input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') this.input.cacheCreation = usage.cache_creation_input_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') this.input.cacheRead = usage.cache_read_input_tokens;
  }

  private usage(): Usage {
    const inputTokens = this.input.uncached + this.input.cacheCreation + this.input.cacheRead;
    return { inputTokens, outputTokens: this.outputTokens, totalTokens: inputTokens + this.outputTokens };
  }
}
