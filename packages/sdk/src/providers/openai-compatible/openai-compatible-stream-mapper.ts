import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ModelCallError } from '../../core/errors/index.js';
import type { Usage } from '../../core/messages.js';
import type { FinishReason, ModelResponseMetadata, ModelStreamPart } from '../../model/language-model.js';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';

interface ToolCallState {
  id: string | undefined;
  name: string | undefined;
  started: boolean;
  /** Argument text that arrived before the call's name (some servers send it in that order). */
  pendingArguments: string;
}

/** The fields compatible servers use for visible reasoning; none of them is in OpenAI's own types. */
interface ReasoningDelta {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/**
 * Maps the chunks of one chat-completions stream to neutral stream parts. It is stateful because
 * the wire format is: a tool call's id and name come once, in its first fragment, keyed by
 * `index`; the finish reason comes in one chunk and the usage, when asked for, in a later one
 * with no choices. The `finish` part is therefore only produced by `finish()`, once the stream
 * has ended, so that it carries the usage, and the response's id and model (every chunk repeats
 * them; the first that names them is kept).
 */
export class OpenAICompatibleStreamMapper {
  private readonly toolCalls = new Map<number, ToolCallState>();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private readonly response: ModelResponseMetadata = {};

  /** The parts one chunk contributes, in order. */
  map(chunk: ChatCompletionChunk): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [];
    // Some compatible servers leave these empty: only a non-empty value counts.
    if (chunk.id) this.response.id ??= chunk.id;
    if (chunk.model) this.response.modelId ??= chunk.model;
    if (chunk.usage) {
      const inputTokens = chunk.usage.prompt_tokens ?? 0;
      const outputTokens = chunk.usage.completion_tokens ?? 0;
      this.usage = { inputTokens, outputTokens, totalTokens: chunk.usage.total_tokens ?? inputTokens + outputTokens };
    }
    // Only the first choice is read: requests never ask for more than one (`n` is not sent).
    const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0];
    if (!choice) return parts;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & ReasoningDelta;
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') parts.push({ type: 'reasoning-delta', text: reasoning });
    if (typeof delta.content === 'string' && delta.content !== '') parts.push({ type: 'text-delta', text: delta.content });
    for (const [position, fragment] of (delta.tool_calls ?? []).entries()) {
      this.mapToolCallFragment(fragment, position, parts);
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return parts;
  }

  /**
   * The closing `finish` part, once the stream has ended. Throws `incomplete-output` when no
   * finish reason came or a tool call never got its name: such a response is cut, whatever the
   * transport says, and must never be acted on (S-8).
   */
  finish(): ModelStreamPart {
    const unnamed = [...this.toolCalls.values()].find((call) => !call.started);
    if (this.finishReason === undefined || unnamed) {
      throw new ModelCallError({
        kind: 'incomplete-output',
        code: unnamed ? 'unnamed-tool-call' : 'no-finish-reason',
        message: unnamed ? 'a tool call never received its name' : 'the stream ended without a finish reason',
      });
    }
    const finishReason: FinishReason = mapOpenAICompatibleFinishReason(this.finishReason, this.toolCalls.size > 0);
    return {
      type: 'finish',
      finishReason,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.response.id !== undefined || this.response.modelId !== undefined ? { response: { ...this.response } } : {}),
    };
  }

  private mapToolCallFragment(fragment: ChatCompletionChunk.Choice.Delta.ToolCall, position: number, parts: ModelStreamPart[]) {
    // Servers that send whole calls in one chunk sometimes leave out `index`; position stands in.
    const index = typeof fragment.index === 'number' ? fragment.index : position;
    let call = this.toolCalls.get(index);
    if (!call) {
      call = { id: undefined, name: undefined, started: false, pendingArguments: '' };
      this.toolCalls.set(index, call);
    }
    if (fragment.id) call.id ??= fragment.id;
    if (fragment.function?.name) call.name ??= fragment.function.name;
    const argumentsDelta = fragment.function?.arguments ?? '';
    if (!call.started && call.name !== undefined) {
      call.started = true;
      // A few servers omit call ids; the result must still be correlated, so one is made up.
      parts.push({ type: 'tool-call-start', index, id: call.id ?? `call_${randomUUID()}`, name: call.name });
      if (call.pendingArguments !== '') parts.push({ type: 'tool-call-delta', index, argumentsDelta: call.pendingArguments });
      call.pendingArguments = '';
    }
    if (argumentsDelta === '') return;
    if (call.started) parts.push({ type: 'tool-call-delta', index, argumentsDelta });
    else call.pendingArguments += argumentsDelta;
  }
}
