import type { GEN_AI_PROVIDER_NAME_VALUE_OPENAI } from '@opentelemetry/semantic-conventions/incubating';
import OpenAI from 'openai';
import type { ModelSettings } from '../../model/language-model.js';
import { delegatedClientOptions } from '../shared/client-options.js';
import { modelServerOf } from '../shared/model-server.js';
import { type EnvironmentVariables, readOpenAIEnvironment } from '../shared/provider-environment.js';
import { OpenAICompatibleLanguageModel } from './openai-compatible-language-model.js';
import type { MaxTokensField } from './openai-compatible-request-body.js';

/** Options of `createOpenAICompatible`. */
export interface OpenAICompatibleProviderOptions {
  /**
   * The API key, sent as a bearer token. Local servers that need none (Ollama, vLLM) may omit it;
   * a placeholder is sent then, because the client refuses to start without one.
   */
  apiKey?: string;
  /** The endpoint, up to and including `/v1`. Omit for OpenAI itself. */
  baseURL?: string;
  /**
   * Reported as `LanguageModel.provider` and as the spans' `gen_ai.provider.name`. Default
   * `openai`, the conventions' name for the OpenAI API flavour, whatever the endpoint; name the
   * provider behind a compatible endpoint when the conventions know it (`deepseek`, `groq`,
   * `mistral_ai`, `x_ai`, `perplexity` …).
   */
  name?: string;
  /** Extra headers on every request (an organisation, a gateway's routing header …). */
  headers?: Record<string, string>;
  /**
   * The field that carries `maxOutputTokens`. OpenAI's reasoning models accept only
   * `max_completion_tokens`; many compatible servers know only `max_tokens`. Defaults to the first
   * for OpenAI itself and the second when a `baseURL` is given.
   */
  maxTokensField?: MaxTokensField;
  /** Ask for token usage at the end of the stream (`stream_options.include_usage`). Default true. */
  includeUsage?: boolean;
  /** Send reasoning back as `reasoning_content` (DeepSeek's thinking mode with tools). Default false. */
  sendReasoning?: boolean;
  /** Fields merged into every request body, for endpoint-specific switches (Qwen's `enable_thinking` …). */
  extraBody?: Record<string, unknown>;
  /** A `fetch` to use instead of the global one (a proxy, a test double). */
  fetch?: typeof globalThis.fetch;
}

/** Options of one model created by an OpenAI-compatible provider. */
export interface OpenAICompatibleModelOptions {
  /** Settings for every request of this model (thinking, output limit); a request's own settings win. */
  settings?: ModelSettings;
}

/** Creates `LanguageModel`s that share one endpoint and one client. Call it, or its `languageModel`, with a model id. */
export interface OpenAICompatibleProvider {
  (modelId: string, options?: OpenAICompatibleModelOptions): OpenAICompatibleLanguageModel;
  languageModel(modelId: string, options?: OpenAICompatibleModelOptions): OpenAICompatibleLanguageModel;
}

/** The conventions' provider name of the OpenAI API (checked against `@opentelemetry/semantic-conventions`). */
const OPENAI = 'openai' satisfies typeof GEN_AI_PROVIDER_NAME_VALUE_OPENAI;

/**
 * Creates a provider for OpenAI or any OpenAI-compatible endpoint. Its models share one official
 * `openai` client whose own retries are off and whose timeout never fires first: the connection
 * layer (`callModel`) owns both. Creating it sends nothing.
 *
 * @example
 * const deepseek = createOpenAICompatible({ name: 'deepseek', baseURL: 'https://api.deepseek.com/v1', apiKey });
 * const agent = new Agent({ name: 'helper', mode: 'react', model: deepseek('deepseek-chat'), prompt: 'You help.' });
 */
export function createOpenAICompatible(options: OpenAICompatibleProviderOptions = {}): OpenAICompatibleProvider {
  const official = options.baseURL === undefined;
  const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
  const server = modelServerOf(baseURL);
  const client = new OpenAI({
    ...delegatedClientOptions,
    apiKey: options.apiKey ?? 'no-key',
    baseURL,
    // Explicit, so that the client's own OPENAI_ORG_ID / OPENAI_PROJECT_ID variables never leak in.
    organization: null,
    project: null,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const languageModel = (modelId: string, modelOptions: OpenAICompatibleModelOptions = {}) =>
    new OpenAICompatibleLanguageModel(modelId, {
      provider: options.name ?? OPENAI,
      ...(server ? { server } : {}),
      client,
      maxTokensField: options.maxTokensField ?? (official ? 'max_completion_tokens' : 'max_tokens'),
      includeUsage: options.includeUsage ?? true,
      sendReasoning: options.sendReasoning ?? false,
      ...(options.extraBody ? { extraBody: options.extraBody } : {}),
      ...(modelOptions.settings ? { settings: modelOptions.settings } : {}),
    });
  return Object.assign((modelId: string, modelOptions?: OpenAICompatibleModelOptions) => languageModel(modelId, modelOptions), {
    languageModel,
  });
}

/**
 * Creates the OpenAI-compatible model the environment configures (`AGENTLOOM_OPENAI_API_KEY`,
 * `AGENTLOOM_OPENAI_BASE_URL`, `AGENTLOOM_MODEL`), or returns `undefined` when no key is set, so
 * that examples can fall back to a `ScriptedModel` and run offline.
 */
export function createOpenAICompatibleFromEnvironment(
  environment: EnvironmentVariables = process.env,
  modelOptions: OpenAICompatibleModelOptions = {},
): OpenAICompatibleLanguageModel | undefined {
  const connection = readOpenAIEnvironment(environment);
  if (!connection) return undefined;
  const provider = createOpenAICompatible({
    apiKey: connection.apiKey,
    ...(connection.baseURL ? { baseURL: connection.baseURL } : {}),
  });
  return provider.languageModel(connection.modelId, modelOptions);
}
