import type OpenAI from 'openai';
import type { Stream } from 'openai/core/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type {
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelServer,
  ModelSettings,
  ModelStreamPart,
} from '../../model/language-model.js';
import { resolveModelSettings } from '../shared/model-settings.js';
import { mapOpenAICompatibleError } from './map-openai-compatible-error.js';
import { buildOpenAICompatibleRequestBody, type MaxTokensField } from './openai-compatible-request-body.js';
import { OpenAICompatibleStreamMapper } from './openai-compatible-stream-mapper.js';

/** What a provider hands each of its models: the shared client and the endpoint's quirks. */
export interface OpenAICompatibleLanguageModelConfig {
  /** Reported as `LanguageModel.provider`. */
  provider: string;
  /** Reported as `LanguageModel.server`: the endpoint of the base URL. */
  server?: ModelServer;
  /** A client created with `maxRetries: 0` and no effective timeout (see `delegatedClientOptions`). */
  client: OpenAI;
  maxTokensField: MaxTokensField;
  includeUsage: boolean;
  sendReasoning: boolean;
  extraBody?: Readonly<Record<string, unknown>>;
  /** Defaults for every request of this model; a request's own settings win. */
  settings?: ModelSettings;
}

/**
 * A `LanguageModel` over the chat-completions API of OpenAI or any compatible endpoint (DeepSeek,
 * Qwen, vLLM, Ollama …), through the official `openai` client. Each `doStream` call is exactly
 * one HTTP attempt, streamed: retries, timeouts and stall detection are the connection layer's
 * (`callModel`), which aborts `options.signal` to end an attempt. Every failure is thrown as a
 * `ModelCallError` classified by status, error type and phase; an abort is rethrown as the
 * signal's own reason so that a stop is never mistaken for a model failure.
 */
export class OpenAICompatibleLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider: string;
  readonly modelId: string;
  readonly server?: ModelServer;
  private readonly config: OpenAICompatibleLanguageModelConfig;

  constructor(modelId: string, config: OpenAICompatibleLanguageModelConfig) {
    this.modelId = modelId;
    this.provider = config.provider;
    if (config.server) this.server = config.server;
    this.config = config;
  }

  /** Streams one attempt as neutral parts; see the class comment for what it leaves to `callModel`. */
  async *doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const body = buildOpenAICompatibleRequestBody(request, {
      modelId: this.modelId,
      settings: resolveModelSettings(this.config.settings, request.settings),
      maxTokensField: this.config.maxTokensField,
      includeUsage: this.config.includeUsage,
      sendReasoning: this.config.sendReasoning,
      extraBody: this.config.extraBody,
    });
    let stream: Stream<ChatCompletionChunk>;
    try {
      stream = await this.config.client.chat.completions.create(body, { signal: options.signal });
    } catch (error) {
      options.signal.throwIfAborted();
      throw mapOpenAICompatibleError(error, 'request');
    }
    const mapper = new OpenAICompatibleStreamMapper();
    try {
      for await (const chunk of stream) {
        yield* mapper.map(chunk);
      }
    } catch (error) {
      options.signal.throwIfAborted();
      throw mapOpenAICompatibleError(error, 'stream');
    }
    // The client ends its iteration quietly when the request is aborted mid-body.
    options.signal.throwIfAborted();
    yield mapper.finish();
  }
}
