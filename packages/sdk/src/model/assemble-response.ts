import { ModelCallError } from '../core/errors/index.js';
import type { AssistantMessage, ToolCall, Usage } from '../core/messages.js';
import type { FinishReason, ModelResponse, ModelResponseMetadata, ModelStreamPart } from './language-model.js';

interface PendingToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

/**
 * Collects the parts of one streamed attempt into a complete response. Only a response that
 * finished with `stop` or `tool-calls` becomes a `ModelResponse` (S-8); anything else fails with
 * `incomplete-output`, keeping the partial text for that attempt's record only (S-9). A tool call
 * of a complete response whose arguments are not JSON is kept, marked `unparsedArguments`, and never runs.
 */
export class ResponseAssembler {
  private text = '';
  private reasoning = '';
  private readonly toolCalls = new Map<number, PendingToolCall>();
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private response: ModelResponseMetadata | undefined;

  /** Text received so far, for the failed attempt's record. */
  get partialText(): string {
    return this.text;
  }

  push(part: ModelStreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.text += part.text;
        break;
      case 'reasoning-delta':
        this.reasoning += part.text;
        break;
      case 'tool-call-start':
        this.toolCalls.set(part.index, { id: part.id, name: part.name, argumentsText: '' });
        break;
      case 'tool-call-delta': {
        const call = this.toolCalls.get(part.index);
        if (!call) throw this.incomplete(`tool-call fragment for unknown index ${part.index}`);
        call.argumentsText += part.argumentsDelta;
        break;
      }
      case 'finish':
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        this.response = part.response;
        break;
    }
  }

  /** Returns the complete response, or throws `ModelCallError` if it is not complete. */
  finish(): ModelResponse {
    if (this.finishReason === undefined) throw this.incomplete('the stream ended before the response was complete');
    if (this.finishReason === 'length') throw this.incomplete('the response was cut by the output token limit');
    if (this.finishReason === 'content-filter') {
      throw new ModelCallError(
        { kind: 'invalid-request', code: 'content-filter', message: 'the provider filtered the response' },
        { partialText: this.text },
      );
    }
    const toolCalls: ToolCall[] = [];
    for (const index of [...this.toolCalls.keys()].sort((a, b) => a - b)) {
      const call = this.toolCalls.get(index) as PendingToolCall;
      toolCalls.push(this.parseCall(call));
    }
    const message: AssistantMessage = { role: 'assistant', content: this.text };
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    if (this.reasoning !== '') message.reasoning = this.reasoning;
    const response: ModelResponse = {
      message,
      finishReason: this.finishReason,
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    if (this.response) response.response = this.response;
    return response;
  }

  /**
   * A complete response whose tool call holds arguments that are not JSON is the model's mistake,
   * not a cut stream (the finish reason says the response is complete): the call keeps its text
   * as `unparsedArguments`, so that the engine can answer it `invalid-arguments` and let the model
   * correct itself instead of failing the model call.
   */
  private parseCall(call: PendingToolCall): ToolCall {
    if (call.argumentsText.trim() === '') return { id: call.id, name: call.name, arguments: {} };
    try {
      return { id: call.id, name: call.name, arguments: JSON.parse(call.argumentsText) };
    } catch {
      return { id: call.id, name: call.name, arguments: {}, unparsedArguments: call.argumentsText };
    }
  }

  private incomplete(message: string): ModelCallError {
    return new ModelCallError({ kind: 'incomplete-output', message }, { partialText: this.text });
  }
}
