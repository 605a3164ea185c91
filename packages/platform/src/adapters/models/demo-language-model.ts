import type { LanguageModelV1, ModelCallOptions, ModelRequest, ModelStreamPart } from '@agentloom/sdk/ports';

/** One scripted answer of the offline demo model. */
export interface DemoReply {
  /** Answers when the latest user message contains this text (case-insensitive). */
  whenInputContains: string;
  reply: string;
}

/**
 * The offline demo model behind the seeded demo connection: it answers from rules in the
 * connection's settings, streaming like a real provider, with no network. It lets `npm start`
 * run a real agent on a fresh machine without a vendor key; it is a model connection like any
 * other, not a test double wired into the engine.
 */
export class DemoLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'offline-demo';

  constructor(
    readonly modelId: string,
    private readonly replies: readonly DemoReply[],
    private readonly fallback: string,
  ) {}

  async *doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    options.signal.throwIfAborted();
    const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
    const input = (lastUser?.content ?? '').toLowerCase();
    const text = this.replies.find((rule) => input.includes(rule.whenInputContains.toLowerCase()))?.reply ?? this.fallback;
    const middle = Math.ceil(text.length / 2);
    yield { type: 'text-delta', text: text.slice(0, middle) };
    if (text.length > middle) yield { type: 'text-delta', text: text.slice(middle) };
    const inputTokens = Math.ceil((request.system.length + input.length) / 4);
    const outputTokens = Math.ceil(text.length / 4);
    yield { type: 'finish', finishReason: 'stop', usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
  }
}
