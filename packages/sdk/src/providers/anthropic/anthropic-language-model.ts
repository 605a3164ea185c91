import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type {
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelServer,
  ModelSettings,
  ModelStreamPart,
} from '../../model/language-model.js';
import { resolveModelSettings, type ThinkingEffort } from '../shared/model-settings.js';
import { type AnthropicThinkingMode, buildAnthropicRequestBody } from './anthropic-request-body.js';
import { AnthropicStreamMapper } from './anthropic-stream-mapper.js';
import { mapAnthropicError } from './map-anthropic-error.js';

/** What a provider hands each of its models: the shared client and the request defaults. */
export interface AnthropicLanguageModelConfig {
  /** Reported as `LanguageModel.provider`. */
  provider: string;
  /** Reported as `LanguageModel.server`: the endpoint of the base URL. */
  server?: ModelServer;
  /** A client created with `maxRetries: 0` and no effective timeout (see `delegatedClientOptions`). */
  client: Anthropic;
  defaultMaxOutputTokens: number;
  thinkingMode: AnthropicThinkingMode;
  thinkingBudgets: Readonly<Record<ThinkingEffort, number>>;
  /** Defaults for every request of this model; a request's own settings win. */
  settings?: ModelSettings;
}

/**
 * A `LanguageModel` over Anthropic's messages API through the official `@anthropic-ai/sdk`
 * client. Each `doStream` call is exactly one HTTP attempt, streamed: retries, timeouts and stall
 * detection are the connection layer's (`callModel`), which aborts `options.signal` to end an
 * attempt. Failures are thrown as `ModelCallError` classified by status, error type and phase; an
 * abort is rethrown as the signal's own reason, so a stop is never mistaken for a model failure.
 * Signed thinking blocks are kept in the response's reasoning so that they can be sent back.
 */
export class AnthropicLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider: string;
  readonly modelId: string;
  readonly server?: ModelServer;
  private readonly config: AnthropicLanguageModelConfig;

  constructor(modelId: string, config: AnthropicLanguageModelConfig) {
    this.modelId = modelId;
    this.provider = config.provider;
    if (config.server) this.server = config.server;
    this.config = config;
  }

  /** Streams one attempt as neutral parts; see the class comment for what it leaves to `callModel`. */
  async *doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const body = buildAnthropicRequestBody(request, {
      modelId: this.modelId,
      settings: resolveModelSettings(this.config.settings, request.settings),
      defaultMaxOutputTokens: this.config.defaultMaxOutputTokens,
      thinkingMode: this.config.thinkingMode,
      thinkingBudgets: this.config.thinkingBudgets,
    });
    let stream: Stream<RawMessageStreamEvent>;
    try {
      stream = await this.config.client.messages.create(body, { signal: options.signal });
    } catch (error) {
      options.signal.throwIfAborted();
      throw mapAnthropicError(error, 'request');
    }
    const mapper = new AnthropicStreamMapper();
    try {
      for await (const event of stream) {
        yield* mapper.map(event);
      }
    } catch (error) {
      options.signal.throwIfAborted();
      throw mapAnthropicError(error, 'stream');
    }
    // The client ends its iteration quietly when the request is aborted mid-body.
    options.signal.throwIfAborted();
    mapper.finish();
  }
}
