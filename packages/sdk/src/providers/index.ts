/**
 * @module providers
 * Picks a real model from the environment without loading a client that is not configured: each
 * adapter is imported on demand, so an application that only installed `openai` (or only
 * `@anthropic-ai/sdk`) never loads the other optional peer dependency.
 */
import type { LanguageModel, ModelSettings } from '../model/language-model.js';
import { type EnvironmentVariables, readProviderEnvironment } from './shared/provider-environment.js';

export {
  defaultAnthropicModelId,
  defaultOpenAIModelId,
  type EnvironmentConnection,
  type EnvironmentProvider,
  type EnvironmentVariables,
  readProviderEnvironment,
} from './shared/provider-environment.js';

/** Options of `createLanguageModelFromEnvironment`. */
export interface LanguageModelFromEnvironmentOptions {
  /** Defaults to `process.env`. */
  environment?: EnvironmentVariables;
  /** Settings for every request of the model (thinking, output limit). */
  settings?: ModelSettings;
}

/**
 * Creates the real `LanguageModel` the environment configures, or returns `undefined` when no key
 * is set, so that examples and tests fall back to a `ScriptedModel` and run offline.
 * `AGENTLOOM_OPENAI_API_KEY` (with `AGENTLOOM_OPENAI_BASE_URL` for a compatible endpoint) selects
 * the OpenAI-compatible adapter, `AGENTLOOM_ANTHROPIC_API_KEY` (with
 * `AGENTLOOM_ANTHROPIC_BASE_URL`) the Anthropic one, `AGENTLOOM_MODEL` names the model, and
 * `AGENTLOOM_PROVIDER` chooses when both keys are set. Throws `InvalidConfigurationError` for
 * contradictory variables, before anything is sent.
 *
 * @example
 * const model = (await createLanguageModelFromEnvironment()) ?? new ScriptedModel({ respond });
 */
export async function createLanguageModelFromEnvironment(
  options: LanguageModelFromEnvironmentOptions = {},
): Promise<LanguageModel | undefined> {
  const connection = readProviderEnvironment(options.environment ?? process.env);
  if (!connection) return undefined;
  const modelOptions = options.settings ? { settings: options.settings } : {};
  const endpoint = connection.baseURL ? { baseURL: connection.baseURL } : {};
  if (connection.provider === 'anthropic') {
    const { createAnthropic } = await import('./anthropic/anthropic-provider.js');
    return createAnthropic({ apiKey: connection.apiKey, ...endpoint }).languageModel(connection.modelId, modelOptions);
  }
  const { createOpenAICompatible } = await import('./openai-compatible/openai-compatible-provider.js');
  return createOpenAICompatible({ apiKey: connection.apiKey, ...endpoint }).languageModel(connection.modelId, modelOptions);
}
