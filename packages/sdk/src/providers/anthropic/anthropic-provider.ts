import Anthropic from '@anthropic-ai/sdk';
import type { GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC } from '@opentelemetry/semantic-conventions/incubating';
import type { ModelSettings } from '../../model/language-model.js';
import { delegatedClientOptions } from '../shared/client-options.js';
import { modelServerOf } from '../shared/model-server.js';
import type { ThinkingEffort } from '../shared/model-settings.js';
import { type EnvironmentVariables, readAnthropicEnvironment } from '../shared/provider-environment.js';
import { AnthropicLanguageModel } from './anthropic-language-model.js';
import type { AnthropicThinkingMode } from './anthropic-request-body.js';
import { defaultThinkingBudgets } from './anthropic-thinking.js';

/** Options of `createAnthropic`. */
export interface AnthropicProviderOptions {
  apiKey: string;
  /** The endpoint without `/v1` (a gateway or proxy). Omit for Anthropic itself. */
  baseURL?: string;
  /** Reported as `LanguageModel.provider` and as the spans' `gen_ai.provider.name`. Default `anthropic`. */
  name?: string;
  /** Extra headers on every request (`anthropic-beta` …). */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one (a proxy, a test double). */
  fetch?: typeof globalThis.fetch;
}

/** Options of one model created by the Anthropic provider. */
export interface AnthropicModelOptions {
  /** Settings for every request of this model (thinking, output limit); a request's own settings win. */
  settings?: ModelSettings;
  /** `max_tokens` when the settings name no limit (the API requires one). Default 8192. */
  defaultMaxOutputTokens?: number;
  /** How thinking is switched on. Default `budget`. */
  thinkingMode?: AnthropicThinkingMode;
  /** Thinking budgets per effort in `budget` mode; unnamed efforts keep their defaults (2048, 8192, 24576). */
  thinkingBudgets?: Partial<Record<ThinkingEffort, number>>;
}

/** Creates `LanguageModel`s that share one Anthropic client. Call it, or its `languageModel`, with a model id. */
export interface AnthropicProvider {
  (modelId: string, options?: AnthropicModelOptions): AnthropicLanguageModel;
  languageModel(modelId: string, options?: AnthropicModelOptions): AnthropicLanguageModel;
}

/** The conventions' provider name of Anthropic (checked against `@opentelemetry/semantic-conventions`). */
const ANTHROPIC = 'anthropic' satisfies typeof GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC;

/**
 * Creates a provider for Anthropic's messages API. Its models share one official client whose own
 * retries are off and whose timeout never fires first: the connection layer (`callModel`) owns
 * both. The key and base URL are passed explicitly, so the client never reads credentials
 * or profiles of its own from the environment. Creating it sends nothing.
 *
 * @example
 * const anthropic = createAnthropic({ apiKey });
 * const model = anthropic('claude-sonnet-4-6', { settings: { thinking: { enabled: true, effort: 'low' } } });
 */
export function createAnthropic(options: AnthropicProviderOptions): AnthropicProvider {
  const baseURL = options.baseURL ?? 'https://api.anthropic.com';
  const server = modelServerOf(baseURL);
  const client = new Anthropic({
    ...delegatedClientOptions,
    apiKey: options.apiKey,
    baseURL,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const languageModel = (modelId: string, modelOptions: AnthropicModelOptions = {}) =>
    new AnthropicLanguageModel(modelId, {
      provider: options.name ?? ANTHROPIC,
      ...(server ? { server } : {}),
      client,
      defaultMaxOutputTokens: modelOptions.defaultMaxOutputTokens ?? 8192,
      thinkingMode: modelOptions.thinkingMode ?? 'budget',
      thinkingBudgets: { ...defaultThinkingBudgets, ...modelOptions.thinkingBudgets },
      ...(modelOptions.settings ? { settings: modelOptions.settings } : {}),
    });
  return Object.assign((modelId: string, modelOptions?: AnthropicModelOptions) => languageModel(modelId, modelOptions), {
    languageModel,
  });
}

/**
 * Creates the Anthropic model the environment configures (`AGENTLOOM_ANTHROPIC_API_KEY`,
 * `AGENTLOOM_ANTHROPIC_BASE_URL`, `AGENTLOOM_MODEL`), or returns `undefined` when no key is set,
 * so that examples can fall back to a `ScriptedModel` and run offline.
 */
export function createAnthropicFromEnvironment(
  environment: EnvironmentVariables = process.env,
  modelOptions: AnthropicModelOptions = {},
): AnthropicLanguageModel | undefined {
  const connection = readAnthropicEnvironment(environment);
  if (!connection) return undefined;
  const provider = createAnthropic({ apiKey: connection.apiKey, ...(connection.baseURL ? { baseURL: connection.baseURL } : {}) });
  return provider.languageModel(connection.modelId, modelOptions);
}
