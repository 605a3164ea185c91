export { type RunStoreContractOptions, runStoreContract } from './run-store-contract.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedResponder,
  type ScriptedToolCall,
} from './scripted-model.js';
