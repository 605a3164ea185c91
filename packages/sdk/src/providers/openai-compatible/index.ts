/**
 * @module @agentloom/sdk/providers/openai-compatible
 * A `LanguageModel` adapter for OpenAI and every OpenAI-compatible chat-completions endpoint,
 * built on the official `openai` client (an optional peer dependency). The conversion and mapping
 * helpers stay private to the folder: only the factory and the model are public.
 */
export { OpenAICompatibleLanguageModel, type OpenAICompatibleLanguageModelConfig } from './openai-compatible-language-model.js';
export {
  createOpenAICompatible,
  createOpenAICompatibleFromEnvironment,
  type OpenAICompatibleModelOptions,
  type OpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from './openai-compatible-provider.js';
export type { MaxTokensField } from './openai-compatible-request-body.js';
