/**
 * `@agentloom/sdk/testing`: test doubles that load without a test runner. The `RunStore`
 * contract suite, which needs Vitest, is `@agentloom/sdk/testing/contract`.
 */
export type { ModelRequest } from '../model/language-model.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedResponder,
  type ScriptedToolCall,
} from './scripted-model.js';
