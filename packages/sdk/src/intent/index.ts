/**
 * `@agentloom/sdk/intent`: the adapter between an SDK `LanguageModel` and the model layer of
 * `@agentloom/intent` (which stands alone and never imports the SDK). Needs `@agentloom/intent`
 * installed next to the SDK (an optional peer dependency).
 */
export { type LanguageModelCommandGeneratorOptions, languageModelCommandGenerator } from './language-model-command-generator.js';
