export { ResponseAssembler } from './assemble-response.js';
export { type CallModelOptions, type CallModelResult, callModel, type ModelAttemptFailure } from './call-model.js';
export type {
  FinishReason,
  LanguageModel,
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelResponseMetadata,
  ModelServer,
  ModelSettings,
  ModelStreamPart,
  ToolDefinition,
} from './language-model.js';
