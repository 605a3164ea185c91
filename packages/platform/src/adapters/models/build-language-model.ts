import type { LanguageModel, ModelSettings } from '@agentloom/sdk';
import { createAnthropic } from '@agentloom/sdk/providers/anthropic';
import { createOpenAICompatible } from '@agentloom/sdk/providers/openai-compatible';
import type { ConnectionSettings, Provider } from '../../domain/connection-settings.js';
import { DemoLanguageModel } from './demo-language-model.js';

/** What building a model needs: the frozen settings plus the key resolved at construction (D-P3). */
export interface ModelBuildInput {
  provider: Provider;
  baseUrl: string | null;
  settings: ConnectionSettings;
  modelId: string;
  /** The active key's value, decrypted just now; never stored in a snapshot or logged. */
  apiKey: string | undefined;
  modelSettings?: ModelSettings;
  /** The outbound module's `fetch` (P-15.1): the provider's every request goes through it. */
  fetch: typeof globalThis.fetch;
}

/** Thrown when a connection cannot make a model (e.g. no active key). */
export class ModelUnavailableError extends Error {
  readonly code = 'model-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}

/** Turns a connection into an SDK `LanguageModel` through the SDK's public provider exports only. */
export function buildLanguageModel(input: ModelBuildInput): LanguageModel {
  const options = input.modelSettings ? { settings: input.modelSettings } : {};
  switch (input.provider) {
    case 'offline-demo':
      return new DemoLanguageModel(input.modelId, {
        scripts: input.settings.demoScripts ?? [],
        replies: input.settings.demoReplies ?? [],
        fallback: input.settings.demoFallback ?? 'This is the offline demo model.',
      });
    case 'openai-compatible':
      if (!input.apiKey) throw new ModelUnavailableError('The connection has no active key.');
      return createOpenAICompatible({
        name: 'openai-compatible',
        apiKey: input.apiKey,
        ...(input.baseUrl ? { baseURL: input.baseUrl } : {}),
        ...(input.settings.maxTokensField ? { maxTokensField: input.settings.maxTokensField } : {}),
        fetch: input.fetch,
      })(input.modelId, options);
    case 'anthropic':
      if (!input.apiKey) throw new ModelUnavailableError('The connection has no active key.');
      return createAnthropic({
        apiKey: input.apiKey,
        ...(input.baseUrl ? { baseURL: input.baseUrl } : {}),
        fetch: input.fetch,
      })(input.modelId, options);
  }
}
