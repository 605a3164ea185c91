/**
 * @module @agentloom/sdk/providers/anthropic
 * A `LanguageModel` adapter for Anthropic's messages API, built on the official
 * `@anthropic-ai/sdk` client (an optional peer dependency). The conversion and mapping helpers
 * stay private to the folder, apart from the thinking codec that tools reading journals may need.
 */
export { AnthropicLanguageModel, type AnthropicLanguageModelConfig } from './anthropic-language-model.js';
export {
  type AnthropicModelOptions,
  type AnthropicProvider,
  type AnthropicProviderOptions,
  createAnthropic,
  createAnthropicFromEnvironment,
} from './anthropic-provider.js';
export type { AnthropicThinkingMode } from './anthropic-request-body.js';
export {
  type AnthropicThinkingBlock,
  decodeAnthropicThinking,
  defaultThinkingBudgets,
  readableAnthropicReasoning,
} from './anthropic-thinking.js';
