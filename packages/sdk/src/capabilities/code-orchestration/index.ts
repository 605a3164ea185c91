export type { ScriptCallOutcome, ScriptToolCaller } from './script-process.js';
export {
  type CodeOrchestrationOptions,
  createScriptTool,
  isScriptTool,
  type ResolvedCodeOrchestration,
  resolveCodeOrchestration,
  runScriptTool,
  SCRIPT_TOOL_NAME,
  ScriptFailedError,
  type ScriptTool,
} from './script-tool.js';
